package io.gitfn.testbed.realnode;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestBedBinaries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The Gateway API's CRDs, standard channel, of the version {@link Traefik} is built against
 * ({@code GATEWAY_API_VERSION} in scripts/testbed.versions). {@code scripts/build-testbed.sh} copies them from the
 * module {@code sigs.k8s.io/gateway-api}; a cluster gets them as a platform team would install them before its
 * gateway controller.
 */
final class GatewayApiCrds {

  private GatewayApiCrds() {}

  /** Applies them server-side and waits until each is Established; returns their names. */
  static List<String> install(KubernetesClient client) {
    return KubeTestBed.installCrds(client, folder(), ".yaml");
  }

  /** Where the build script put them, or a failure that says how to get them there. */
  static Path folder() {
    String version = TestBedBinaries.versions().getProperty("GATEWAY_API_VERSION");
    Path crds = TestBedBinaries.cacheDir().resolve("gateway-api-" + version).resolve("crds");
    if (!Files.isDirectory(crds)) {
      throw new IllegalStateException("The Gateway API's CRDs " + version + " are not in " + crds
          + ". Run `bash scripts/build-testbed.sh` (it copies them from the module sigs.k8s.io/gateway-api) and try again.");
    }
    return crds;
  }
}
