package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.gitfn.testbed.ApiServerProxy;
import io.gitfn.testbed.KymaTestProgram;
import io.gitfn.testbed.NodeImages;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.packages.PackageMirrors;
import io.gitfn.testbed.realnode.NodeGitfn;
import io.gitfn.testbed.realnode.RealNode;
import io.gitfn.testbed.realnode.WithRealNode;
import io.gitfn.workload.FunctionResourcesConfig;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kyma's own Function test suites ({@code src/test/kyma/serverless}, SUITES.md) against gitfn on the real node,
 * unchanged: the program creates Kyma Functions with Kyma's Go types, waits for {@code Running}, reads gitfn's
 * status back into Kyma's type, and calls each Function through the API server's service proxy, as Kyma's
 * {@code run-local.sh} runs it. A suite passes only when the program says so for that suite
 * ({@link KymaTestProgram.Run#passed}).
 *
 * <p>What the test bed gives the program, and why:
 * <ul>
 *   <li>{@code kubectl proxy} on 127.0.0.1:8001: {@link ApiServerProxy};
 *   <li>gitfn's controller run with {@code --package-registry-secret serverless-package-registry-config}, the
 *       Secret the {@code simple} suite makes: its {@code .npmrc} and {@code pip.conf} name the URLs in
 *       {@code APP_TEST_PACKAGE_REGISTRY_CONFIG_URL_*}, to which the test appends lines that send every package
 *       to the node's mirrors (Pods reach nothing outside the machine). The mirrors serve stand-ins for Kyma's two
 *       private test packages;
 *   <li>in every other namespace the program makes (label {@code created-by=serverless-ctrl-mngr-test}) and in
 *       {@code kyma-system}, the two Secrets the node's builds mount, made by the test as soon as the namespace
 *       appears, as an operator's tooling would;
 *   <li>cluster DNS (the node's CoreDNS) for {@code *.svc.cluster.local}, which the {@code tracing} and
 *       {@code cloud-events} Functions call, and {@code nginx} from the node's registry for {@code tracing}.
 * </ul>
 *
 * <p>The suites run one after another, as the node has the machine's CPUs (two in CI) and their install Jobs
 * ({@code fast}: 900m and the pack container) take most of them.
 */
@WithRealNode
class KymaSuitesOnRealNodeE2E {

  private static final Logger log = LoggerFactory.getLogger(KymaSuitesOnRealNodeE2E.class);
  /** The name the program gives the {@code simple} suite's package-registry Secret, and so gitfn's setting. */
  private static final String PACKAGE_REGISTRY_SECRET = "serverless-package-registry-config";
  private static final String SUITE_LABEL = "created-by";
  private static final String SUITE_LABEL_VALUE = "serverless-ctrl-mngr-test";
  private static final String KYMA_SYSTEM = "kyma-system";
  private static final Duration LIMIT = Duration.ofMinutes(20);
  /**
   * The profiles the suites name, M and L, asking for a tenth of the CPU Kyma's figures do (limits as Kyma's): the
   * node has the machine's CPUs, two in CI, and at L's 400m the cloud-events suite's five Functions take them all,
   * so the install Job of the last one to build never starts. An operator of small nodes does the same in Kyma.
   */
  private static final String SMALL_NODE = """
      function:
        resources:
          presets:
            M: {requestCpu: 20m, requestMemory: 256Mi, limitCpu: 400m, limitMemory: 512Mi}
            L: {requestCpu: 40m, requestMemory: 512Mi, limitCpu: 800m, limitMemory: 1024Mi}
      """;

  private static NodeGitfn gitfn;
  private static ApiServerProxy proxy;
  private static KubernetesClient admin;
  private static SharedIndexInformer<Namespace> suiteNamespaces;
  private static KymaTestProgram program;
  private static Map<String, String> environment;

  @BeforeAll
  static void start(RealNode node) throws Exception {
    program = KymaTestProgram.locate();
    NodeImages images = NodeImages.build();
    node.pushImage(images.archive(NodeImages.HTTP_SERVER), "library/nginx:latest");
    gitfn = NodeGitfn.start(node, builds -> builds.withPackageRegistrySecret(PACKAGE_REGISTRY_SECRET),
        workloads -> workloads.withFunctionResources(FunctionResourcesConfig.parse(SMALL_NODE, "SMALL_NODE")));
    admin = node.newClient();
    proxy = ApiServerProxy.start(ApiServerProxy.KUBECTL_PROXY_PORT, URI.create(node.config().getMasterUrl()),
        Path.of(node.config().getCaCertFile()), node.config().getOauthToken());
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(KYMA_SYSTEM).endMetadata()
        .build()).serverSideApply();
    prepare(KYMA_SYSTEM, true);
    suiteNamespaces = admin.namespaces().withLabel(SUITE_LABEL, SUITE_LABEL_VALUE)
        .inform(new ResourceEventHandler<>() {
          @Override
          public void onAdd(Namespace namespace) {
            // The simple suite makes its own package-registry Secret, which is the one it tests.
            String name = namespace.getMetadata().getName();
            prepare(name, !name.startsWith("test-serverless-simple-"));
          }

          @Override
          public void onUpdate(Namespace before, Namespace after) {}

          @Override
          public void onDelete(Namespace namespace, boolean unknownFinalState) {}
        });
    PackageMirrors mirrors = gitfn.mirrors();
    String npm = mirrors.npmRegistryUrl().toString();
    String pip = mirrors.pipIndexUrl().toString();
    environment = Map.of(
        "KUBECONFIG", node.kubeconfig().toString(),
        "APP_TEST_KUBECTL_PROXY_ENABLED", "true",
        "APP_TEST_CLEANUP", "yes",
        "APP_TEST_WAIT_TIMEOUT", "10m",
        "APP_TEST_MAX_POLLING_TIME", "3m",
        // Pasted into the Secret's files as they are: `@kyma:registry=<npm>` then every other package from it too.
        "APP_TEST_PACKAGE_REGISTRY_CONFIG_URL_NODE", npm + "\nregistry=" + npm + "\nupdate-notifier=false",
        "APP_TEST_PACKAGE_REGISTRY_CONFIG_URL_PYTHON", pip + "\nindex-url = " + pip + "\ntrusted-host = "
            + mirrors.pipIndexUrl().getHost());
  }

  @AfterAll
  static void stop() throws Exception {
    try (KubernetesClient closing = admin; ApiServerProxy closingProxy = proxy; NodeGitfn closingGitfn = gitfn) {
      if (suiteNamespaces != null) {
        suiteNamespaces.close();
      }
      if (admin != null) {
        admin.namespaces().withName(KYMA_SYSTEM).delete();
      }
    }
  }

  @Test
  void simpleFunctionsWithEnvFromConfigMapsAndSecretsAndPackagesFromTheConfiguredRegistry() throws Exception {
    assertSuitePasses("serverless-integration", "simple");
  }

  @Test
  void apiGatewayServiceAndPodsCarryKymasFourSelectorLabels() throws Exception {
    assertSuitePasses("serverless-contract-tests", "api-gateway");
  }

  @Test
  void tracingOutgoingCallsCarryW3cAndB3Headers() throws Exception {
    assertSuitePasses("serverless-contract-tests", "tracing");
  }

  @Test
  void cloudEventsReceivedStructuredAndBinaryAndSentToThePublisherProxy() throws Exception {
    assertSuitePasses("serverless-contract-tests", "cloud-events");
  }

  private static void assertSuitePasses(String scenario, String suite) throws Exception {
    Path logFile = TestBedBinaries.projectDir().resolve("target/kyma-tests/" + scenario + "-" + suite + ".log");
    KymaTestProgram.Run run = program.run(scenario, suite, environment, logFile, LIMIT);
    log.info("Kyma's suite {} took {} s (exit {})", run.test(), run.took().toSeconds(), run.exitCode());

    assertThat(run.passed()).as(run.summary()).isTrue();
  }

  /** The registry Secret the node's builds push with and, unless the suite makes its own, the package one. */
  private static void prepare(String namespace, boolean packageRegistry) {
    try {
      NodeGitfn.createRegistrySecret(admin, namespace);
      if (packageRegistry) {
        NodeGitfn.createPackageRegistrySecret(admin, namespace, PACKAGE_REGISTRY_SECRET, gitfn.mirrors());
      }
    } catch (KubernetesClientException e) {
      log.warn("cannot make the build Secrets in {}: {}", namespace, e.getMessage());
    }
  }
}
