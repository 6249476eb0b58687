package io.gitfn.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real OCI registry (CNCF Distribution v3, built by {@code scripts/build-testbed.sh} from its Go module), plain
 * HTTP without authentication, storing under {@code dir}. Its access log, one line per request, is what tests read
 * to see which blobs travelled.
 */
public final class OciRegistry implements AutoCloseable {

  // Distribution's access log: `host - - [time] "METHOD /path HTTP/1.1" status bytes "referer" "agent"`.
  private static final Pattern ACCESS = Pattern.compile("\"([A-Z]+) (/v2/[^ \"]*) HTTP/[0-9.]+\" ([0-9]{3}) ([0-9]+)");

  private final ComponentProcess process;
  private final String address;
  private final Path log;

  private OciRegistry(ComponentProcess process, String address, Path log) {
    this.process = process;
    this.address = address;
    this.log = log;
  }

  /** The registry binary the test-bed script builds, or a failure that names the command that builds it. */
  public static Path binary() {
    Path binary = TestBedBinaries.cacheDir()
        .resolve("registry-" + TestBedBinaries.versions().getProperty("REGISTRY_VERSION")).resolve("registry");
    if (!Files.isExecutable(binary)) {
      throw new IllegalStateException("The test bed's OCI registry is not built: missing " + binary
          + ". Run `bash scripts/build-testbed.sh` (it builds it from its Go module) and try again.");
    }
    return binary;
  }

  /**
   * A registry of its own on 127.0.0.1, under {@code target/testbed}, holding the nodejs22 base image of
   * {@link NodeImages} as {@code base/nodejs22:1}: what a test of image assembly builds on.
   */
  public static OciRegistry startWithNodeBase() throws IOException {
    Path dir = Files.createTempDirectory(
        Files.createDirectories(TestBedBinaries.projectDir().resolve("target/testbed")), "registry-");
    OciRegistry registry = start(binary(), dir, "127.0.0.1", Duration.ofSeconds(30));
    registry.push(NodeImages.build().archive("nodejs22"), NODE_BASE);
    return registry;
  }

  /** The base image {@link #startWithNodeBase} pushes. */
  public static final String NODE_BASE = "base/nodejs22:1";

  /** Starts it on {@code host} at a free port and waits until {@code /v2/} answers. */
  public static OciRegistry start(Path binary, Path dir, String host, Duration timeout) {
    return start(binary, dir, host, FreePorts.next(), timeout);
  }

  /** Starts it at {@code host:port} and waits until {@code /v2/} answers. */
  public static OciRegistry start(Path binary, Path dir, String host, int port, Duration timeout) {
    String address = host + ":" + port;
    Path config = dir.resolve("registry.yml");
    Path log = dir.resolve("logs/registry.log");
    try {
      Files.createDirectories(dir.resolve("registry"));
      Files.writeString(config, """
          version: 0.1
          log:
            level: info
          storage:
            filesystem:
              rootdirectory: %s
            delete:
              enabled: true
            maintenance:
              uploadpurging:
                enabled: false
          http:
            addr: %s
          health:
            storagedriver:
              enabled: false
          """.formatted(dir.resolve("registry"), address));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ComponentProcess registry = ComponentProcess.start("registry", log,
        List.of(binary.toString(), "serve", config.toString()),
        // Tracing would export to an OTLP collector on localhost:4318 that is not there.
        Map.of("OTEL_TRACES_EXPORTER", "none", "OTEL_SDK_DISABLED", "true"));
    ControlPlane.waitFor(registry, timeout, () -> ControlPlane.httpOk("http://" + address + "/v2/", null));
    return new OciRegistry(registry, address, log);
  }

  /** {@code host:port}. */
  public String address() {
    return address;
  }

  public ComponentProcess process() {
    return process;
  }

  /** Copies an OCI archive in as {@code reference} ({@code repository:tag}) with {@code skopeo}. */
  public void push(Path ociArchive, String reference) {
    push(address, ociArchive, reference);
  }

  /** Copies an OCI archive into the plain-HTTP registry at {@code address} with {@code skopeo}. */
  public static void push(String address, Path ociArchive, String reference) {
    List<String> command = List.of("skopeo", "copy", "--quiet", "--insecure-policy", "--dest-tls-verify=false",
        "oci-archive:" + ociArchive.toAbsolutePath(), "docker://" + address + "/" + reference);
    try {
      Process skopeo = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(skopeo.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!skopeo.waitFor(2, TimeUnit.MINUTES) || skopeo.exitValue() != 0) {
        throw new IllegalStateException("cannot push " + ociArchive + " as " + address + "/" + reference
            + ": `" + String.join(" ", command) + "` said:\n" + output);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run skopeo (Debian package skopeo)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while pushing " + ociArchive, e);
    }
  }

  /** One request the registry answered. */
  public record Request(String method, String path, int status, long bytesWritten) {}

  /** Every request answered so far, oldest first. */
  public List<Request> requests() {
    try {
      return Files.readAllLines(log).stream()
          .map(ACCESS::matcher)
          .filter(Matcher::find)
          .map(m -> new Request(m.group(1), m.group(2), Integer.parseInt(m.group(3)), Long.parseLong(m.group(4))))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    process.close();
  }
}
