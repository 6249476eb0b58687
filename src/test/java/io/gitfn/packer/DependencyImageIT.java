package io.gitfn.packer;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.registry.ImageAssembler;
import io.gitfn.registry.ImageName;
import io.gitfn.registry.RegistryAccess;
import io.gitfn.testbed.OciRegistry;
import io.gitfn.testbed.RegistryReads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DependencyImage} against a real registry (CNCF Distribution) holding a real base image: what an install
 * left in its folder becomes the runtime layer and the dependency layer on the base, byte for byte the same
 * wherever it is packed, with the runtime's config and nothing else from the install's folder.
 */
class DependencyImageIT {

  private static final ExecutorService POOL = Executors.newFixedThreadPool(2);
  private static OciRegistry registry;
  private static ImageName base;
  private static ImageAssembler assembler;

  @TempDir
  Path dir;

  @BeforeAll
  static void startRegistryWithABaseImage() throws Exception {
    registry = OciRegistry.startWithNodeBase();
    ImageName tagged = new ImageName(registry.address(), "base/nodejs22", "1");
    base = tagged.at(RegistryReads.digest(tagged));
    assembler = new ImageAssembler(RegistryAccess.anonymous(Set.of(registry.address())), "gitfn-test", POOL,
        Duration.ofSeconds(30));
  }

  @AfterAll
  static void stopRegistry() {
    POOL.shutdownNow();
    if (registry != null) {
      registry.close();
    }
  }

  @Test
  void anInstallBecomesTheRuntimeAndDependencyLayersOnTheBaseWithTheRuntimesConfig() throws Exception {
    Path installed = install(dir.resolve("one"));
    ImageName target = new ImageName(registry.address(), "team-layers/gitfn/dependencies", "deps-1");
    ImageName runtimeImage = target.at("runtime-1");

    ImageAssembler.Pushed pushed = new DependencyImage(assembler, Files.createDirectory(dir.resolve("scratch")))
        .push(FunctionRuntime.NODEJS22, installed, base, runtimeImage, target);

    JsonNode manifest = RegistryReads.manifest(target.at(pushed.digest()));
    List<String> layers = RegistryReads.layerDigests(manifest);
    List<String> baseLayers = RegistryReads.layerDigests(RegistryReads.manifest(base));
    assertThat(layers).startsWith(baseLayers.toArray(String[]::new)).hasSize(baseLayers.size() + 2);
    assertThat(pushed.blobsMounted() + pushed.blobsPresent()).as("base and runtime layers mounted, not copied")
        .isEqualTo(baseLayers.size() + 1);
    assertThat(RegistryReads.layerDigests(RegistryReads.manifest(runtimeImage)))
        .as("the runtime image: the base and the runtime layer").isEqualTo(layers.subList(0, baseLayers.size() + 1));

    assertThat(RegistryReads.layerEntries(RegistryReads.blob(target, layers.get(baseLayers.size()))))
        .containsExactly("gitfn/", "gitfn/runtime/", "gitfn/runtime/node_modules/",
            "gitfn/runtime/node_modules/cloudevents/", "gitfn/runtime/node_modules/cloudevents/index.js",
            "gitfn/runtime/package.json", "gitfn/runtime/server.mjs");
    assertThat(RegistryReads.layerEntries(RegistryReads.blob(target, layers.get(baseLayers.size() + 1))))
        .containsExactly("gitfn/", "gitfn/function/", "gitfn/function/node_modules/",
            "gitfn/function/node_modules/.bin/", "gitfn/function/node_modules/.bin/ms -> ../ms/cli.js",
            "gitfn/function/node_modules/ms/", "gitfn/function/node_modules/ms/cli.js",
            "gitfn/function/node_modules/ms/index.js");

    JsonNode config = RegistryReads.config(target, manifest).path("config");
    assertThat(config.path("Entrypoint")).hasToString("[\"node\",\"/gitfn/runtime/server.mjs\"]");
    assertThat(config.path("User").asText()).isEqualTo("1000");
    assertThat(config.path("WorkingDir").asText()).isEqualTo("/gitfn/function");
    List<String> env = new ArrayList<>();
    config.path("Env").forEach(variable -> env.add(variable.asText()));
    assertThat(env).contains("FUNC_RUNTIME=nodejs22", "HANDLER_PATH=/gitfn/function/handler.js");
  }

  @Test
  void theSameInstallPackedInTwoPlacesGivesTheSameDigest() throws Exception {
    Path first = install(dir.resolve("first"));
    Path second = install(dir.resolve("second"));

    ImageName teamA = new ImageName(registry.address(), "team-a/gitfn/dependencies", "deps-same");
    ImageName teamB = new ImageName(registry.address(), "team-b/gitfn/dependencies", "deps-same");
    ImageAssembler.Pushed a = new DependencyImage(assembler, Files.createDirectory(dir.resolve("scratch-a")))
        .push(FunctionRuntime.NODEJS22, first, base, teamA.at("runtime-same"), teamA);
    ImageAssembler.Pushed b = new DependencyImage(assembler, Files.createDirectory(dir.resolve("scratch-b")))
        .push(FunctionRuntime.NODEJS22, second, base, teamB.at("runtime-same"), teamB);

    assertThat(b.digest()).isEqualTo(a.digest());
  }

  @Test
  void anInstallThatFoundTheRuntimeImagePacksOnlyItsPackagesAndGivesTheSameDigest() throws Exception {
    Path full = install(dir.resolve("full"));
    Path packagesOnly = install(dir.resolve("packages-only"));
    // What an install Job that skipped gitfn's runtime packages leaves: no runtime/ at all.
    try (Stream<Path> runtime = Files.walk(packagesOnly.resolve("runtime"))) {
      for (Path path : runtime.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
    ImageName repository = new ImageName(registry.address(), "team-reuse/gitfn/dependencies", "x");

    ImageAssembler.Pushed first = new DependencyImage(assembler, Files.createDirectory(dir.resolve("scratch-1")))
        .push(FunctionRuntime.NODEJS22, full, base, repository.at("runtime-r"), repository.at("deps-1"));
    int before = registry.requests().size();
    ImageAssembler.Pushed again = new DependencyImage(assembler, Files.createDirectory(dir.resolve("scratch-2")))
        .pushDependencies(FunctionRuntime.NODEJS22, packagesOnly, repository.at("runtime-r"),
            repository.at("deps-2"));

    assertThat(again.digest()).as("made from the runtime image either way").isEqualTo(first.digest());
    assertThat(registry.requests().subList(before, registry.requests().size()))
        .as("nothing uploaded: the dependency layer and config were there").noneMatch(r -> r.method().equals("PATCH"));
  }

  /**
   * What the install script leaves: the runtime's files and packages, the Function's source files and packages,
   * and the package-registry config the install read, which must reach no layer.
   */
  static Path install(Path root) throws IOException {
    Path runtime = Files.createDirectories(root.resolve("runtime/node_modules/cloudevents"));
    Files.writeString(root.resolve("runtime/server.mjs"), "// gitfn's server\n");
    Files.writeString(root.resolve("runtime/package.json"), "{}\n");
    Files.writeString(runtime.resolve("index.js"), "module.exports = {};\n");
    Path ms = Files.createDirectories(root.resolve("function/node_modules/ms"));
    Files.writeString(ms.resolve("index.js"), "module.exports = () => '1m';\n");
    Files.writeString(ms.resolve("cli.js"), "#!/usr/bin/env node\n");
    Files.createSymbolicLink(Files.createDirectories(root.resolve("function/node_modules/.bin")).resolve("ms"),
        Path.of("../ms/cli.js"));
    Files.writeString(root.resolve("function/handler.js"), "module.exports = { main: () => 'hi' };\n");
    Files.writeString(root.resolve("function/package.json"), "{\"dependencies\": {\"ms\": \"2.1.3\"}}\n");
    Files.writeString(root.resolve("function/.npmrc"), "//npm.example.com/:_authToken=s3cret\n");
    return root;
  }
}
