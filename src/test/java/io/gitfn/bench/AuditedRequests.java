package io.gitfn.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gitfn.testbed.UserAgents;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.RandomAccessFile;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Requests the API server accepted or refused, by client, from its audit log. A client is the product name of its
 * User-Agent ({@code gitfn}, {@code source-controller}, {@code kube-controller-manager}, ...), so a child process's
 * requests are counted exactly, no-op patches and refused requests included, which no watch would see. Watches, and
 * the Lease traffic and the Pod and Node writes of the cluster's own components, are never logged. Each request is
 * logged once, when it is answered: a streamed answer (a Pod's log) would otherwise also log when it started.
 */
final class AuditedRequests {

  private static final String WRITES = """
      apiVersion: audit.k8s.io/v1
      kind: Policy
      omitStages: [RequestReceived, ResponseStarted]
      rules:
      - level: None
        verbs: [get, list, watch]
      - level: None
        resources:
        - group: ""
          resources: [pods, pods/status, pods/binding, nodes, nodes/status, endpoints]
        - group: coordination.k8s.io
          resources: [leases]
        - group: discovery.k8s.io
          resources: [endpointslices]
      - level: Metadata
      """;

  // Reads too, but not watches (an informer's one long request) nor leader elections' Lease reads every 2 s.
  private static final String READS_AND_WRITES = """
      apiVersion: audit.k8s.io/v1
      kind: Policy
      omitStages: [RequestReceived, ResponseStarted]
      rules:
      - level: None
        verbs: [watch]
      - level: None
        resources:
        - group: coordination.k8s.io
          resources: [leases]
      - level: Metadata
        verbs: [get, list]
      - level: None
        resources:
        - group: ""
          resources: [pods, pods/status, pods/binding, nodes, nodes/status, endpoints]
        - group: discovery.k8s.io
          resources: [endpointslices]
      - level: Metadata
      """;

  private final Path log;
  private final ObjectMapper json = new ObjectMapper();

  private AuditedRequests(Path log) {
    this.log = log;
  }

  /** Writes only: the policy goes into {@code dir}; the log will be {@code dir/audit.log} once the API server runs. */
  static AuditedRequests writesIn(Path dir) throws IOException {
    return in(dir, WRITES);
  }

  /** Reads ({@code get}, {@code list}) and writes, as {@link #writesIn} otherwise. */
  static AuditedRequests readsAndWritesIn(Path dir) throws IOException {
    return in(dir, READS_AND_WRITES);
  }

  private static AuditedRequests in(Path dir, String policy) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("audit-policy.yaml"), policy);
    return new AuditedRequests(dir.resolve("audit.log"));
  }

  /** The kube-apiserver flags that write this log. */
  List<String> apiServerFlags() {
    return List.of("--audit-policy-file=" + log.resolveSibling("audit-policy.yaml"),
        "--audit-log-path=" + log, "--audit-log-format=json", "--audit-log-maxsize=0", "--audit-log-maxbackup=0");
  }

  /** Where the log ends now: count from here with {@link #since}. */
  long mark() throws IOException {
    return Files.isRegularFile(log) ? Files.size(log) : 0;
  }

  /**
   * The requests logged after {@code mark} by clients whose product name is {@code client}, by verb and resource:
   * {@code "patch functions/status"}. A line still being written is left for the next count.
   */
  Map<String, Long> since(long mark, String client) throws IOException {
    Map<String, Long> counts = new TreeMap<>();
    if (!Files.isRegularFile(log)) {
      return counts;
    }
    try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
      file.seek(mark);
      BufferedReader lines = new BufferedReader(new InputStreamReader(Channels.newInputStream(file.getChannel()),
          StandardCharsets.UTF_8), 1 << 16);
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (!line.endsWith("}")) {
          continue;
        }
        JsonNode event = json.readTree(line);
        if (!client.equals(UserAgents.product(event.path("userAgent").asText("")))) {
          continue;
        }
        JsonNode ref = event.path("objectRef");
        String resource = ref.path("resource").asText("?")
            + (ref.hasNonNull("subresource") ? "/" + ref.path("subresource").asText() : "");
        counts.merge(event.path("verb").asText("?") + " " + resource, 1L, Long::sum);
      }
    }
    return counts;
  }

  static long total(Map<String, Long> counts) {
    return counts.values().stream().mapToLong(Long::longValue).sum();
  }
}
