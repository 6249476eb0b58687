package io.gitfn.packer;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.registry.FunctionImages;
import io.gitfn.registry.FunctionImages.Outcome;
import io.gitfn.registry.ImageAssembler;
import io.gitfn.registry.ImageName;
import io.gitfn.registry.RegistryAccess;
import io.gitfn.testbed.OciRegistry;
import io.gitfn.testbed.RegistryReads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The layered path end to end against a real registry, without Kubernetes: a Function whose dependency image is
 * missing is told which one to make; once {@code gitfn pack}'s {@link DependencyImage} pushed it, the Function's
 * image is its source layer on top, and a handler-only change moves a few KiB and no base layer.
 */
class FunctionImagesIT {

  private static final String PACKAGE = "{\"dependencies\": {\"ms\": \"2.1.3\"}}";
  private static final ExecutorService POOL = Executors.newFixedThreadPool(2);
  private static OciRegistry registry;
  private static ImageAssembler assembler;
  private static FunctionImages images;

  @TempDir
  Path dir;

  @BeforeAll
  static void startRegistryWithABaseImage() throws Exception {
    registry = OciRegistry.startWithNodeBase();
    assembler = new ImageAssembler(RegistryAccess.anonymous(Set.of(registry.address())), "gitfn-test", POOL,
        Duration.ofSeconds(30));
    images = new FunctionImages(assembler);
  }

  @AfterAll
  static void stopRegistry() {
    POOL.shutdownNow();
    if (registry != null) {
      registry.close();
    }
  }

  @Test
  void aHandlerOnlyChangeIsItsSourceLayerOnTheDependencyImageWithNoBaseLayerMoved() throws Exception {
    Outcome first = images.build(request("team-a", "orders", "v1", PACKAGE));
    assertThat(first).isInstanceOf(Outcome.NeedsDependencies.class);
    Outcome.NeedsDependencies needs = (Outcome.NeedsDependencies) first;
    assertThat(needs.dependencyImage().reference()).matches("deps-[0-9a-f]{32}");
    assertThat(needs.base().reference()).isEqualTo(RegistryReads.digest(base()));
    assertThat(needs.runtimeImage().reference()).matches("runtime-[0-9a-f]{32}");
    assertThat(needs.runtimePresent()).as("no install has made the runtime image yet").isFalse();
    assertThat(registry.requests()).as("nothing pushed for the Function yet")
        .noneMatch(r -> r.path().startsWith("/v2/team-a/orders/"));

    new DependencyImage(assembler, Files.createDirectory(dir.resolve("scratch")))
        .push(FunctionRuntime.NODEJS22, DependencyImageIT.install(dir.resolve("installed")), needs.base(),
            needs.runtimeImage(), needs.dependencyImage());
    Outcome.Pushed v1 = (Outcome.Pushed) images.build(request("team-a", "orders", "v1", PACKAGE));
    List<String> baseLayers = RegistryReads.layerDigests(RegistryReads.manifest(base()));
    int before = registry.requests().size();
    Outcome.Pushed v2 = (Outcome.Pushed) images.build(request("team-a", "orders", "v2", PACKAGE));

    assertThat(v2.push().digest()).isNotEqualTo(v1.push().digest());
    assertThat(v2.push().bytesUploaded()).as("the source layer and the config").isLessThan(64 * 1024);
    List<OciRegistry.Request> requests = registry.requests().subList(before, registry.requests().size());
    assertThat(requests).filteredOn(r -> r.method().equals("GET") && baseLayers.stream().anyMatch(r.path()::endsWith))
        .as("no base layer is downloaded").isEmpty();
    assertThat(requests).filteredOn(r -> r.method().equals("PATCH")).as("two uploads").hasSize(2);
    assertThat(RegistryReads.layerDigests(RegistryReads.manifest(v2.push().image().at(v2.push().digest()))))
        .as("the dependency image's layers, then the source layer")
        .startsWith(RegistryReads.layerDigests(RegistryReads.manifest(v2.dependencyImage())).toArray(String[]::new))
        .hasSize(baseLayers.size() + 3);
  }

  @Test
  void theSameInputsInAnotherNamespaceGiveTheSameDigestAndNewDependenciesNeedAnInstall() throws Exception {
    Outcome.NeedsDependencies needs = (Outcome.NeedsDependencies) images.build(request("team-c", "a", "x", PACKAGE));
    new DependencyImage(assembler, Files.createDirectory(dir.resolve("scratch-c")))
        .push(FunctionRuntime.NODEJS22, DependencyImageIT.install(dir.resolve("c")), needs.base(),
            needs.runtimeImage(), needs.dependencyImage());
    Outcome.NeedsDependencies alsoNeeds =
        (Outcome.NeedsDependencies) images.build(request("team-d", "b", "x", PACKAGE));
    new DependencyImage(assembler, Files.createDirectory(dir.resolve("scratch-d")))
        .push(FunctionRuntime.NODEJS22, DependencyImageIT.install(dir.resolve("d")), alsoNeeds.base(),
            alsoNeeds.runtimeImage(), alsoNeeds.dependencyImage());

    Outcome.Pushed c = (Outcome.Pushed) images.build(request("team-c", "a", "x", PACKAGE));
    Outcome.Pushed d = (Outcome.Pushed) images.build(request("team-d", "b", "x", PACKAGE));
    assertThat(d.push().digest()).isEqualTo(c.push().digest());

    Outcome added = images.build(request("team-c", "a", "x", "{\"dependencies\": {\"ms\": \"2.1.3\", \"a\": \"1\"}}"));
    assertThat(added).isInstanceOfSatisfying(Outcome.NeedsDependencies.class, other -> {
      assertThat(other.dependencyImage()).isNotEqualTo(needs.dependencyImage());
      assertThat(other.runtimeImage()).isEqualTo(needs.runtimeImage());
      assertThat(other.runtimePresent()).as("the first install made it").isTrue();
    });
  }

  private static ImageName base() {
    return ImageName.parse(registry.address() + "/" + OciRegistry.NODE_BASE);
  }

  private static FunctionImages.Request request(String namespace, String name, String version, String dependencies) {
    return new FunctionImages.Request(FunctionRuntime.NODEJS22, base(), "runtime-files",
        "module.exports = { main: () => '" + version + "' };\n", dependencies, null, "",
        new ImageName(registry.address(), namespace + "/gitfn/dependencies", "unused"),
        new ImageName(registry.address(), namespace + "/" + name, version));
  }
}
