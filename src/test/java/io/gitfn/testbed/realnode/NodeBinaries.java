package io.gitfn.testbed.realnode;

import io.gitfn.testbed.TestBedBinaries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The real node's binaries that {@code scripts/build-testbed.sh} builds: the test bed's (etcd, apiserver,
 * controller-manager, scheduler), kubelet and kube-proxy beside them, and the registry in a folder of its own.
 */
record NodeBinaries(TestBedBinaries testBed, Path kubelet, Path kubeProxy, Path registry) {

  /** Finds them, or fails with the command that builds them. */
  static NodeBinaries locate() {
    TestBedBinaries testBed = TestBedBinaries.locate();
    String registryVersion = TestBedBinaries.versions().getProperty("REGISTRY_VERSION");
    NodeBinaries binaries = new NodeBinaries(
        testBed,
        testBed.binary("kubelet"),
        testBed.binary("kube-proxy"),
        TestBedBinaries.cacheDir().resolve("registry-" + registryVersion).resolve("registry"));
    List<Path> missing = Stream.of(binaries.kubelet, binaries.kubeProxy, binaries.registry)
        .filter(binary -> !Files.isExecutable(binary))
        .toList();
    if (!missing.isEmpty()) {
      throw new IllegalStateException("The real node is not built: missing " + missing
          + ". Run `bash scripts/build-testbed.sh` (it builds them from their Go modules) and try again.");
    }
    return binaries;
  }
}
