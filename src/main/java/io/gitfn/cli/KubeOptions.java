package io.gitfn.cli;

import io.fabric8.kubernetes.client.Config;
import io.gitfn.BuildInfo;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** kubectl's habits for reaching a cluster: {@code --kubeconfig} and {@code --context}. */
final class KubeOptions {

  @Option(names = "--kubeconfig", description = "Path to the kubeconfig file (default: $KUBECONFIG or ~/.kube/config; in a Pod, its service account).")
  Path kubeconfig;

  @Option(names = "--context", description = "The kubeconfig context to use (default: the current one).")
  String context;

  KubernetesClient client() {
    if (kubeconfig != null && !Files.isReadable(kubeconfig)) {
      throw new UncheckedIOException(new IOException("cannot read --kubeconfig " + kubeconfig));
    }
    Config config = kubeconfig != null ? Config.fromKubeconfig(context, kubeconfig.toFile()) : Config.autoConfigure(context);
    // What audit logs and the API server's request metrics name this client by, like kubectl/v1.36.
    config.setUserAgent("gitfn/" + BuildInfo.load().gitfn());
    return new KubernetesClientBuilder().withConfig(config).build();
  }
}
