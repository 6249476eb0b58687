package io.gitfn.testbed.realnode;

import io.gitfn.testbed.TestBedBinaries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The real node's binaries that {@code scripts/build-testbed.sh} builds: the test bed's (etcd, apiserver,
 * controller-manager, scheduler), kubelet and kube-proxy beside them, and the registry and CoreDNS in folders of
 * their own.
 */
record NodeBinaries(TestBedBinaries testBed, Path kubelet, Path kubeProxy, Path registry, Path coreDns) {

  /** Finds them, or fails with the command that builds them. */
  static NodeBinaries locate() {
    TestBedBinaries testBed = TestBedBinaries.locate();
    Properties versions = TestBedBinaries.versions();
    NodeBinaries binaries = new NodeBinaries(
        testBed,
        testBed.binary("kubelet"),
        testBed.binary("kube-proxy"),
        tool(versions, "registry", "REGISTRY_VERSION"),
        tool(versions, "coredns", "COREDNS_VERSION"));
    List<Path> missing = Stream.of(binaries.kubelet, binaries.kubeProxy, binaries.registry, binaries.coreDns)
        .filter(binary -> !Files.isExecutable(binary))
        .toList();
    if (!missing.isEmpty()) {
      throw new IllegalStateException("The real node is not built: missing " + missing
          + ". Run `bash scripts/build-testbed.sh` (it builds them from their Go modules) and try again.");
    }
    return binaries;
  }

  /** The build script's {@code tool_root NAME VERSION}: a folder of the tool's own, named after its version. */
  static Path tool(Properties versions, String name, String versionKey) {
    return TestBedBinaries.cacheDir().resolve(name + "-" + versions.getProperty(versionKey)).resolve(name);
  }
}
