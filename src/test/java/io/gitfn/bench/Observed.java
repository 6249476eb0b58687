package io.gitfn.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * One kind in one namespace as the benchmark's own informer sees it, with the time each awaited state arrived: the
 * {@link System#nanoTime()} of the watch event that brought it, not of a poll. Objects are awaited by a key: their
 * name, or for a Function's children the Function's name.
 */
final class Observed<T extends HasMetadata> implements AutoCloseable {

  private record Awaited<T>(Predicate<T> state, CompletableFuture<Long> at) {}

  private final Map<String, Queue<Awaited<T>>> awaited = new ConcurrentHashMap<>();
  private final AtomicInteger added = new AtomicInteger();
  private final String namespace;
  private final java.util.function.Function<T, String> key;
  private final SharedIndexInformer<T> informer;

  private Observed(KubernetesClient client, Class<T> kind, String namespace,
      java.util.function.Function<T, String> key) {
    this(namespace == null ? client.resources(kind).inAnyNamespace() : client.resources(kind).inNamespace(namespace),
        namespace, key);
  }

  private Observed(Informable<T> scope, String namespace, java.util.function.Function<T, String> key) {
    this.namespace = namespace;
    this.key = key;
    this.informer = scope.inform(new ResourceEventHandler<T>() {
      @Override
      public void onAdd(T object) {
        added.incrementAndGet();
        seen(object, System.nanoTime());
      }

      @Override
      public void onUpdate(T old, T object) {
        seen(object, System.nanoTime());
      }

      @Override
      public void onDelete(T object, boolean unknownFinalState) {}
    }, 0);
  }

  /** Starts an informer on {@code kind} in {@code namespace}, keyed by name; returns once it has listed. */
  static <T extends HasMetadata> Observed<T> start(KubernetesClient client, Class<T> kind, String namespace) {
    return new Observed<>(client, kind, namespace, o -> o.getMetadata().getName());
  }

  /**
   * Starts an informer on {@code kind} in every namespace, keyed by {@code namespace/name}; returns once it has
   * listed.
   */
  static <T extends HasMetadata> Observed<T> everywhere(KubernetesClient client, Class<T> kind) {
    return new Observed<>(client, kind, null, o -> o.getMetadata().getNamespace() + "/" + o.getMetadata().getName());
  }

  /** {@link #everywhere} for a kind the client has no class for, such as Flux's GitRepository. */
  static Observed<GenericKubernetesResource> everywhere(KubernetesClient client, ResourceDefinitionContext kind) {
    return new Observed<>(client.genericKubernetesResources(kind).inAnyNamespace(), null,
        o -> o.getMetadata().getNamespace() + "/" + o.getMetadata().getName());
  }

  /** Starts an informer on {@code kind} in {@code namespace} whose objects are awaited by the label {@code key}. */
  static <T extends HasMetadata> Observed<T> byLabel(KubernetesClient client, Class<T> kind, String namespace,
      String key) {
    return new Observed<>(client, kind, namespace, o -> o.getMetadata().getLabels() == null ? ""
        : o.getMetadata().getLabels().getOrDefault(key, ""));
  }

  /**
   * Completes with the time of the first event that shows an object with {@code key} in {@code state}, or at once
   * with the current time when the informer's copy already is. Register before the action that causes the state.
   */
  CompletableFuture<Long> when(String key, Predicate<T> state) {
    Awaited<T> wait = new Awaited<>(state, new CompletableFuture<>());
    awaited.computeIfAbsent(key, n -> new ConcurrentLinkedQueue<>()).add(wait);
    boolean already = informer.getStore().list().stream()
        .anyMatch(o -> key.equals(this.key.apply(o)) && state.test(o));
    if (already) {
      complete(key, wait, System.nanoTime());
    }
    return wait.at();
  }

  /** The informer's copy of the object named {@code name} ({@code namespace/name} for {@link #everywhere}), or null. */
  T get(String name) {
    return informer.getStore().getByKey(namespace == null ? name : namespace + "/" + name);
  }

  long count(Predicate<T> state) {
    return informer.getStore().list().stream().filter(state).count();
  }

  /** How many objects the informer has seen created since it started. */
  int added() {
    return added.get();
  }

  private void seen(T object, long at) {
    String key = this.key.apply(object);
    Queue<Awaited<T>> waits = awaited.get(key);
    if (waits != null) {
      for (Awaited<T> wait : waits) {
        if (wait.state().test(object)) {
          complete(key, wait, at);
        }
      }
    }
  }

  private void complete(String key, Awaited<T> wait, long at) {
    wait.at().complete(at);
    Queue<Awaited<T>> waits = awaited.get(key);
    if (waits != null) {
      waits.remove(wait);
    }
  }

  @Override
  public void close() {
    informer.close();
  }
}
