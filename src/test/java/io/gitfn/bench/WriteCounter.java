package io.gitfn.bench;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the writes (every request but GET) a Kubernetes client sends, by method and resource, such as
 * {@code PATCH deployments}, {@code PATCH functions/status} or {@code PATCH functions (dry run)}. Each attempt
 * counts, retries included; writes answered 409 Conflict are counted once more, on their own.
 */
final class WriteCounter implements Interceptor {

  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> conflicts = new ConcurrentHashMap<>();

  /** A client for {@code config} whose requests this counter sees; the caller closes it. */
  KubernetesClient client(Config config) {
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("gitfn-bench-writes", this))
        .build();
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    if (!"GET".equals(request.method())) {
      counts.computeIfAbsent(key(request), k -> new LongAdder()).increment();
    }
  }

  @Override
  public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    if (!"GET".equals(request.method()) && response.code() == 409) {
      conflicts.computeIfAbsent(key(request), k -> new LongAdder()).increment();
    }
  }

  /** The writes answered 409 Conflict so far, by method and resource, sorted. */
  Map<String, Long> conflicts() {
    return sorted(conflicts);
  }

  private static String key(HttpRequest request) {
    String query = request.uri().getQuery();
    boolean dryRun = query != null && query.contains("dryRun=");
    return request.method() + " " + resource(request.uri().getPath()) + (dryRun ? " (dry run)" : "");
  }

  /** The writes so far, by method and resource, sorted. */
  Map<String, Long> snapshot() {
    return sorted(counts);
  }

  private static Map<String, Long> sorted(Map<String, LongAdder> counts) {
    Map<String, Long> copy = new TreeMap<>();
    counts.forEach((k, v) -> copy.put(k, v.sum()));
    return copy;
  }

  static long total(Map<String, Long> snapshot) {
    return snapshot.values().stream().mapToLong(Long::longValue).sum();
  }

  /** {@code after - before}, per key, leaving out keys with no writes in between. */
  static Map<String, Long> since(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> delta = new TreeMap<>();
    after.forEach((k, v) -> {
      long d = v - before.getOrDefault(k, 0L);
      if (d > 0) {
        delta.put(k, d);
      }
    });
    return delta;
  }

  /**
   * The resource a path names, with its subresource: {@code /apis/g/v/namespaces/ns/functions/fn/status} is
   * {@code functions/status}, {@code /api/v1/namespaces/ns/events} is {@code events}.
   */
  static String resource(String path) {
    List<String> parts = List.of(path.replaceFirst("^/", "").split("/"));
    int start = parts.get(0).equals("api") ? 2 : parts.get(0).equals("apis") ? 3 : 0;
    List<String> rest = parts.subList(Math.min(start, parts.size()), parts.size());
    if (rest.size() >= 3 && rest.get(0).equals("namespaces")) {
      rest = rest.subList(2, rest.size());
    }
    if (rest.isEmpty()) {
      return path;
    }
    return rest.size() >= 3 ? rest.get(0) + "/" + rest.get(2) : rest.get(0);
  }
}
