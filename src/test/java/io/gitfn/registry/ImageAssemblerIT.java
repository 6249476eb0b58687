package io.gitfn.registry;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.gitfn.image.ImageConfig;
import io.gitfn.image.LayerDigests;
import io.gitfn.image.LayerEntry;
import io.gitfn.image.ReproducibleLayer;
import io.gitfn.testbed.OciRegistry;
import io.gitfn.testbed.FreePorts;
import io.gitfn.testbed.RegistryReads;
import io.gitfn.testbed.TestBedBinaries;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link ImageAssembler} against a real registry (CNCF Distribution) holding a real base image: a source layer goes
 * on top with no base layer downloaded or uploaded, and the same inputs give the same digest anywhere.
 */
class ImageAssemblerIT {

  private static final ReproducibleLayer.Limits LIMITS = new ReproducibleLayer.Limits(1 << 20, 1000);
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static final ExecutorService POOL = Executors.newFixedThreadPool(2);
  private static OciRegistry registry;
  private static ImageName base;
  private static ImageAssembler assembler;

  @BeforeAll
  static void startRegistryWithABaseImage() throws IOException {
    registry = OciRegistry.startWithNodeBase();
    base = new ImageName(registry.address(), "base/nodejs22", "1");
    assembler = new ImageAssembler(RegistryAccess.anonymous(Set.of(registry.address())), "gitfn-test", POOL,
        Duration.ofSeconds(20));
  }

  @AfterAll
  static void stopRegistry() {
    POOL.shutdownNow();
    if (registry != null) {
      registry.close();
    }
  }

  @Test
  void aSourceLayerGoesOnTheBaseWithNoBaseLayerDownloadedOrUploaded() throws Exception {
    NewLayer source = sourceLayer("module.exports = { main: () => 'one' };\n");
    ImageName target = new ImageName(registry.address(), "team-a/orders", "one");
    List<String> baseLayers = layerDigests(manifest(base));
    int before = registry.requests().size();

    ImageAssembler.Pushed pushed = assembler.assemble(base, List.of(source), runsNode(), target);

    assertThat(pushed.blobsMounted()).isEqualTo(baseLayers.size());
    assertThat(pushed.bytesUploaded()).isLessThan(64 * 1024);
    List<OciRegistry.Request> requests = registry.requests().subList(before, registry.requests().size());
    assertThat(requests)
        .filteredOn(r -> r.method().equals("GET") && baseLayers.stream().anyMatch(r.path()::endsWith))
        .as("no base layer is downloaded").isEmpty();
    assertThat(requests).filteredOn(r -> r.method().equals("PATCH"))
        .as("only the source layer and the config are uploaded").hasSize(2);

    JsonNode manifest = manifest(target.at(pushed.digest()));
    assertThat(layerDigests(manifest)).containsExactlyElementsOf(
        concat(baseLayers, source.digests().digest()));
    JsonNode config = config(target, manifest);
    assertThat(config.path("rootfs").path("diff_ids").get(baseLayers.size()).asText())
        .isEqualTo(source.digests().diffId());
    assertThat(config.path("config").path("Entrypoint")).hasToString("[\"node\",\"/usr/src/app/runtime/server.mjs\"]");
    assertThat(config.path("config").path("User").asText()).isEqualTo("1000");
    assertThat(config.path("created").asText()).isEqualTo("1970-01-01T00:00:00Z");
  }

  @Test
  void theSameInputsGiveTheSameDigestInEveryRepositoryAndTheSecondPushMovesOnlyTheManifest() throws Exception {
    NewLayer source = sourceLayer("module.exports = { main: () => 'same' };\n");

    ImageAssembler.Pushed first = assembler.assemble(base, List.of(source), runsNode(),
        new ImageName(registry.address(), "team-a/same", "t"));
    ImageAssembler.Pushed second = assembler.assemble(base,
        List.of(sourceLayer("module.exports = { main: () => 'same' };\n")), runsNode(),
        new ImageName(registry.address(), "team-b/same", "t"));
    ImageAssembler.Pushed again = assembler.assemble(base, List.of(source), runsNode(),
        new ImageName(registry.address(), "team-a/same", "t2"));

    assertThat(second.digest()).isEqualTo(first.digest());
    assertThat(again.digest()).isEqualTo(first.digest());
    assertThat(again.bytesUploaded()).isZero();
    assertThat(again.blobsPresent()).isEqualTo(layerDigests(manifest(base)).size() + 1);
  }

  @Test
  void findGivesTheDigestTheRegistryNamesOrNothingForAnImageItLacks() throws Exception {
    assertThat(assembler.find(base)).contains(RegistryReads.digest(base));
    assertThat(assembler.find(base.at(RegistryReads.digest(base)))).contains(RegistryReads.digest(base));
    assertThat(assembler.find(base.at("no-such-tag"))).isEmpty();
    assertThat(assembler.find(new ImageName(registry.address(), "nobody/here", "1"))).isEmpty();
  }

  @Test
  void aMissingBaseImageFailsNamingItAndPushesNothing() {
    ImageName missing = new ImageName(registry.address(), "base/nodejs99", "1");
    ImageName target = new ImageName(registry.address(), "team-a/never", "t");

    assertThatThrownBy(() -> assembler.assemble(missing, List.of(sourceLayer("x")), runsNode(), target))
        .isInstanceOf(RegistryFailure.class)
        .hasMessageStartingWith("reading " + missing + ": ");
    assertThat(registry.requests()).noneMatch(r -> r.path().startsWith("/v2/team-a/never/"));
  }

  @Test
  void aRegistryThatIsNotThereFailsAtTheDeadlineNamingTheImageAndTheLastFailure() throws Exception {
    // jib's client retries a refused connection with backoff for about a minute; the deadline stops it.
    ImageName target = new ImageName("127.0.0.1:9", "team-a/orders", "t");
    ImageAssembler hurried = new ImageAssembler(RegistryAccess.anonymous(Set.of(registry.address())), "gitfn-test",
        POOL, Duration.ofSeconds(2));
    long started = System.nanoTime();

    assertThatThrownBy(() -> hurried.assemble(base, List.of(sourceLayer("x")), runsNode(), target))
        .isInstanceOf(RegistryFailure.class)
        .hasMessageStartingWith("pushing 127.0.0.1:9/team-a/orders:t: did not finish within 2 s")
        .hasMessageContaining("https://127.0.0.1:9/v2/");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void aPlainHttpRegistryNotUpYetIsPushedToOnceItIsWhenRetryingUnreachable() throws Exception {
    // jib's first request to a registry it may speak plain HTTP to probes for HTTPS and is never retried: without
    // retryingUnreachable, this push fails on the refused connection at once.
    int port = FreePorts.next();
    String later = "127.0.0.1:" + port;
    ImageName target = new ImageName(later, "team-a/orders", "late");
    List<String> warnings = new CopyOnWriteArrayList<>();
    CountDownLatch refused = new CountDownLatch(1);
    ImageAssembler patient = new ImageAssembler(RegistryAccess.anonymous(Set.of(registry.address(), later)),
        "gitfn-test", POOL, Duration.ofSeconds(60)).retryingUnreachable(5, Duration.ofSeconds(1), warning -> {
          warnings.add(warning);
          refused.countDown();
        });
    NewLayer source = sourceLayer("module.exports = { main: () => 'late' };\n");
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try {
      Future<ImageAssembler.Pushed> pushing = caller.submit(() -> patient.assemble(base, List.of(source), runsNode(),
          target));
      assertThat(refused.await(30, TimeUnit.SECONDS)).as("the first push was refused").isTrue();
      try (OciRegistry late = OciRegistry.start(OciRegistry.binary(),
          Files.createTempDirectory(TestBedBinaries.projectDir().resolve("target/testbed"), "late-registry-"),
          "127.0.0.1", port, Duration.ofSeconds(30))) {
        ImageAssembler.Pushed pushed = pushing.get(60, TimeUnit.SECONDS);

        assertThat(RegistryReads.digest(target)).isEqualTo(pushed.digest());
      }
    } finally {
      caller.shutdownNow();
    }
    assertThat(warnings.get(0)).startsWith("pushing " + target + ": ").contains("Connection refused")
        .endsWith("; trying again in 1 s (try 2 of 5)");
  }

  @Test
  void aConfigOverItsCapIsRefusedBeforeItIsParsed() throws Exception {
    // A hostile image below: a config of 2 MiB, which the assembler must not read whole into a tree.
    byte[] config = ("{\"rootfs\":{\"diff_ids\":[]},\"pad\":\"" + "x".repeat(2 << 20) + "\"}").getBytes(UTF_8);
    String configDigest = pushBlob("hostile/big", config);
    String manifest = """
        {"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json",
         "config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"%s","size":%d},"layers":[]}"""
        .formatted(configDigest, config.length);
    putManifest("hostile/big", "1", manifest);

    assertThatThrownBy(() -> assembler.assemble(new ImageName(registry.address(), "hostile/big", "1"),
        List.of(sourceLayer("x")), runsNode(), new ImageName(registry.address(), "team-a/hostile", "t")))
        .isInstanceOf(RegistryFailure.class)
        .hasMessageContaining("larger than the cap of " + ImageConfig.MAX_BYTES + " bytes");
  }

  private static UnaryOperator<ImageConfig> runsNode() {
    return config -> config.runs(List.of("node", "/usr/src/app/runtime/server.mjs"), "1000", "/usr/src/app/function",
        Map.of("FUNC_RUNTIME", "nodejs22"));
  }

  private static NewLayer sourceLayer(String handler) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    LayerDigests digests = ReproducibleLayer.write(
        List.of(LayerEntry.file("usr/src/app/function/handler.js", 0644, handler.getBytes(UTF_8))), bytes, LIMITS);
    byte[] layer = bytes.toByteArray();
    return new NewLayer(digests, () -> new ByteArrayInputStream(layer), "gitfn source layer");
  }

  private static List<String> concat(List<String> first, String last) {
    return Stream.concat(first.stream(), Stream.of(last)).toList();
  }

  private static List<String> layerDigests(JsonNode manifest) {
    return RegistryReads.layerDigests(manifest);
  }

  private static JsonNode manifest(ImageName image) throws Exception {
    return RegistryReads.manifest(image);
  }

  private static JsonNode config(ImageName image, JsonNode manifest) throws Exception {
    return RegistryReads.config(image, manifest);
  }

  /** A monolithic blob upload, as the distribution API allows: POST, then PUT with the bytes and the digest. */
  private static String pushBlob(String repository, byte[] blob) throws Exception {
    String digest = "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(blob));
    HttpResponse<Void> started = HTTP.send(HttpRequest.newBuilder(
            URI.create("http://" + registry.address() + "/v2/" + repository + "/blobs/uploads/"))
        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
    String location = started.headers().firstValue("Location").orElseThrow();
    URI upload = URI.create("http://" + registry.address()).resolve(location);
    String separator = upload.getQuery() == null ? "?" : "&";
    HttpResponse<Void> done = HTTP.send(HttpRequest.newBuilder(URI.create(upload + separator + "digest=" + digest))
        .PUT(HttpRequest.BodyPublishers.ofByteArray(blob)).header("Content-Type", "application/octet-stream").build(),
        HttpResponse.BodyHandlers.discarding());
    assertThat(done.statusCode()).isEqualTo(201);
    return digest;
  }

  private static void putManifest(String repository, String tag, String manifest) throws Exception {
    HttpResponse<String> put = HTTP.send(HttpRequest.newBuilder(
            URI.create("http://" + registry.address() + "/v2/" + repository + "/manifests/" + tag))
        .PUT(HttpRequest.BodyPublishers.ofString(manifest))
        .header("Content-Type", "application/vnd.oci.image.manifest.v1+json").build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
  }
}
