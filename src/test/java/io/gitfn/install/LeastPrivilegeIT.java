package io.gitfn.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceRule;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReviewBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.controller.Controller;
import io.gitfn.controller.leader.LeaderPod;
import io.gitfn.reconcile.ControllerSettings;
import io.gitfn.reconcile.FunctionEdits;
import io.gitfn.source.SourceSettings;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.KwokLayeredBuilds;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeCluster;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.WorkloadSettings;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The chart's RBAC is enough, for real: the API server runs with RBAC on, and a real controller runs as the chart's
 * ServiceAccount (impersonated through the test bed's admin) with nothing but the chart's ClusterRole and Role. A
 * missing rule would fail its informers at start or its writes during a pass, and these Functions would never get
 * Ready.
 */
@WithKubeCluster
@ExtendWith(GitServers.class)
class LeastPrivilegeIT {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String HOME = "gitfn-least-privilege";
  private static final String V1 = "module.exports = { main: () => 'v1' };";
  private static final String V2 = "module.exports = { main: () => 'v2' };";
  private static List<HasMetadata> installed;
  private static KubernetesClient controllerClient;
  private static Controller controller;

  @BeforeAll
  static void startControllerAsTheChartsServiceAccount(KubeTestBed bed) throws Exception {
    bed.installCrds();
    try (KubernetesClient admin = bed.newClient()) {
      admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(HOME).endMetadata().build())
          .serverSideApply();
      installed = Manifests.helmTemplate("lp", HOME, ChartIT.REGISTRY).stream()
          .filter(o -> o instanceof ServiceAccount || o instanceof ClusterRole || o instanceof ClusterRoleBinding
              || o instanceof Role || o instanceof RoleBinding)
          .toList();
      assertThat(installed).extracting(HasMetadata::getKind)
          .containsExactlyInAnyOrder("ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding");
      for (HasMetadata object : installed) {
        admin.resource(object).fieldManager("gitfn-install-test").forceConflicts().serverSideApply();
      }
    }
    controllerClient = new KubernetesClientBuilder().withConfig(asServiceAccount(bed.config())).build();
    controller = Controller.start(controllerClient,
        SourceSettings.defaults(Files.createTempDirectory("gitfn-least-privilege-mirrors")),
        WebhookSettings.defaults(), ControllerSettings.defaults(), bed.layeredBuilds().settings(),
          WorkloadSettings.defaults(), "127.0.0.1", 0);
  }

  @AfterAll
  static void stopController(KubeTestBed bed) throws Exception {
    if (controller != null) {
      controller.close();
    }
    if (controllerClient != null) {
      controllerClient.close();
    }
    try (KubernetesClient admin = bed.newClient()) {
      if (installed != null) {
        installed.forEach(o -> admin.resource(o).delete());
      }
      admin.namespaces().withName(HOME).delete();
    }
  }

  /** What a Pod of the chart's Deployment would be: its ServiceAccount, with the groups every ServiceAccount has. */
  private static Config asServiceAccount(Config admin) {
    return new ConfigBuilder(admin)
        .withImpersonateUsername("system:serviceaccount:" + HOME + ":lp-gitfn")
        .withImpersonateGroups("system:serviceaccounts", "system:serviceaccounts:" + HOME, "system:authenticated")
        .build();
  }

  @Test
  void theControllerIsReallyConfinedToTheRole() {
    // Not vacuous: the impersonated client gets exactly the chart's rules, not the admin's.
    assertThat(allowed("get", "", "secrets", "default")).isTrue();
    assertThat(allowed("list", "", "secrets", "default")).isFalse();
    assertThat(allowed("watch", "", "secrets", "default")).isFalse();
    assertThat(allowed("create", "", "pods", "default")).isFalse();
    assertThat(allowed("delete", "apps", "deployments", "default")).isFalse();
    assertThat(allowed("update", "serverless.kyma-project.io", "functions", "default")).isFalse();
    assertThat(allowed("create", "rbac.authorization.k8s.io", "clusterroles", null)).isFalse();
    assertThat(allowed("get", "coordination.k8s.io", "leases", "default")).isFalse();
  }

  @Test
  void anInlineFunctionBuildsRollsOutScalesRebuildsFailsAndGoes(KubernetesClient client, TestNamespace ns) {
    client.resource(function(ns, "hello", V1)).create();
    awaitReady(client, ns, "hello");
    assertThat(client.services().inNamespace(ns.name()).withName("hello").get()).isNotNull();
    assertThat(client.autoscaling().v2().horizontalPodAutoscalers().inNamespace(ns.name()).withName("hello").get())
        .isNotNull();
    assertThat(client.v1().events().inNamespace(ns.name()).list().getItems()).extracting("reason")
        .contains("LayersReused", "DeploymentReady");

    // New dependencies: a new install Job; once the new image runs, the Job and its ConfigMap are deleted.
    String firstImage = get(client, ns, "hello").getStatus().getImage();
    edit(client, ns, "hello", fn -> {
      fn.getSpec().getSource().getInline().setSource(V2);
      fn.getSpec().getSource().getInline().setDependencies("{\"dependencies\": {\"ms\": \"2.1.3\"}}");
    });
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(get(client, ns, "hello").getStatus().getImage()).isNotEqualTo(firstImage);
      assertThat(ready(client, ns, "hello")).isTrue();
      assertThat(jobNames(client, ns)).isEmpty();
      assertThat(client.configMaps().inNamespace(ns.name()).list().getItems())
          .noneSatisfy(c -> assertThat(c.getMetadata().getName()).startsWith("gitfn-"));
    });

    // A failed install: its message comes from the install Pod, which the controller lists.
    Function broken = function(ns, "broken", V1);
    broken.getSpec().getSource().getInline().setDependencies(KwokLayeredBuilds.MISSING_DEPENDENCIES);
    client.resource(broken).create();
    await().atMost(WAIT).untilAsserted(() -> assertThat(condition(get(client, ns, "broken"), "BuildReady"))
        .satisfies(c -> {
          assertThat(c.getReason()).isEqualTo("JobFailed");
          assertThat(c.getMessage()).contains("npm error 404 Not Found");
        }));

    // Deleting a Function runs the controller's cleanup and removes its finalizer.
    client.resources(Function.class).inNamespace(ns.name()).withName("hello").delete();
    await().atMost(WAIT).until(() -> get(client, ns, "hello") == null);
  }

  @Test
  void aFunctionRepositoryAppliesAndPrunesItsFunctions(KubernetesClient client, TestNamespace ns, GitHttpServer http,
      BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String commit = copy.write("functions/hello.yaml",
        TestFunction.declared("from-git").code("module.exports = { main: () => \"git\" };\n").toYaml())
        .commit("a function");
    copy.push();
    client.secrets().inNamespace(ns.name()).resource(new SecretBuilder().withNewMetadata().withName("git").endMetadata()
        .addToStringData("username", http.credentials().username())
        .addToStringData("password", http.credentials().password()).build()).create();
    client.resource(client.getKubernetesSerialization().unmarshal("""
        apiVersion: gitfn.io/v1alpha1
        kind: FunctionRepository
        metadata: {name: infra, namespace: %s}
        spec: {url: '%s', ref: {branch: main}, path: functions, interval: 1h, secretRef: {name: git}}
        """.formatted(ns.name(), http.url(repository.name())), FunctionRepository.class)).create();

    await().atMost(WAIT).untilAsserted(() -> {
      FunctionRepository infra = client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("infra")
          .get();
      assertThat(infra.getStatus()).isNotNull();
      assertThat(infra.getStatus().getLastAppliedRevision()).isEqualTo("main@sha1:" + commit);
      assertThat(infra.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Ready"))
          .extracting(Condition::getStatus).containsExactly("True");
    });
    awaitReady(client, ns, "from-git");

    // A deleted repository takes its Functions with it.
    client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("infra").delete();
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("infra").get()).isNull();
      assertThat(get(client, ns, "from-git")).isNull();
    });
  }

  @Test
  void theLeaseRoleIsEnoughForLeaderElection() throws Exception {
    // What the SDK checks before it elects: a SelfSubjectRulesReview of leases in the Lease's namespace.
    SelfSubjectRulesReview review = controllerClient.authorization().v1().selfSubjectRulesReview()
        .create(new SelfSubjectRulesReviewBuilder().withNewSpec().withNamespace(HOME).endSpec().build());
    assertThat(review.getStatus().getResourceRules())
        .filteredOn(r -> r.getResources().contains("leases"))
        .flatExtracting(ResourceRule::getVerbs).contains("get", "create", "update", "patch");

    // And the election itself, through fabric8's LeaseLock as the SDK's LeaderElectionManager uses it.
    CountDownLatch leading = new CountDownLatch(1);
    CompletableFuture<?> election = controllerClient.leaderElector().withConfig(new LeaderElectionConfigBuilder()
        .withName("gitfn-controller-leader")
        .withLock(new LeaseLock(HOME, "gitfn-controller-leader", "least-privilege-it"))
        .withLeaseDuration(Duration.ofSeconds(15))
        .withRenewDeadline(Duration.ofSeconds(10))
        .withRetryPeriod(Duration.ofSeconds(1))
        .withReleaseOnCancel(true)
        .withLeaderCallbacks(new LeaderCallbacks(leading::countDown, () -> { }, id -> { }))
        .build()).build().start();
    try {
      assertThat(leading.await(30, TimeUnit.SECONDS)).as("became leader").isTrue();
      // Renewing is an update of the Lease it holds.
      await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(controllerClient.leases().inNamespace(HOME)
          .withName("gitfn-controller-leader").get().getSpec().getRenewTime())
          .isAfter(controllerClient.leases().inNamespace(HOME).withName("gitfn-controller-leader").get().getSpec()
              .getAcquireTime()));
      assertThat(election).isNotDone();
    } finally {
      election.cancel(true);
    }
  }

  @Test
  void theLeaseRoleIsEnoughToMoveTheLeaderLabel(KubeTestBed bed) {
    try (KubernetesClient admin = bed.newClient()) {
      for (String name : List.of("lp-leader-a", "lp-leader-b")) {
        admin.resource(new PodBuilder().withNewMetadata().withName(name).withNamespace(HOME).endMetadata()
            .withNewSpec().withServiceAccountName("lp-gitfn").addNewContainer().withName("c").withImage("gitfn")
            .endContainer().endSpec().build()).create();
      }
      try {
        // What a controller Pod does when it leads (LeaderPod.mark), as the chart's ServiceAccount.
        new LeaderPod(controllerClient, HOME, "lp-leader-a", "gitfn-controller-leader").mark();
        assertThat(leaderLabel(admin, "lp-leader-a")).isEqualTo("gitfn-controller-leader");

        new LeaderPod(controllerClient, HOME, "lp-leader-b", "gitfn-controller-leader").mark();
        assertThat(leaderLabel(admin, "lp-leader-b")).isEqualTo("gitfn-controller-leader");
        assertThat(leaderLabel(admin, "lp-leader-a")).as("taken from the Pod that led before").isNull();
      } finally {
        admin.pods().inNamespace(HOME).withName("lp-leader-a").delete();
        admin.pods().inNamespace(HOME).withName("lp-leader-b").delete();
      }
    }
  }

  private static String leaderLabel(KubernetesClient admin, String pod) {
    var labels = admin.pods().inNamespace(HOME).withName(pod).get().getMetadata().getLabels();
    return labels == null ? null : labels.get(Labels.LEADER);
  }

  private static boolean allowed(String verb, String group, String resource, String namespace) {
    SelfSubjectAccessReview review = controllerClient.authorization().v1().selfSubjectAccessReview()
        .create(new SelfSubjectAccessReviewBuilder().withNewSpec().withNewResourceAttributes().withVerb(verb)
            .withGroup(group).withResource(resource).withNamespace(namespace).endResourceAttributes().endSpec()
            .build());
    return review.getStatus().getAllowed();
  }

  private static Function function(TestNamespace ns, String name, String source) {
    return TestFunction.inline().named(name).inNamespace(ns.name()).uid(null).code(source).scale(1, 2).build();
  }


  private static void edit(KubernetesClient client, TestNamespace ns, String name,
      java.util.function.Consumer<Function> change) {
    FunctionEdits.edit(client, ns, name, fn -> {
      change.accept(fn);
      return fn;
    });
  }

  private static void awaitReady(KubernetesClient client, TestNamespace ns, String name) {
    await().atMost(WAIT).untilAsserted(() -> {
      Function fn = get(client, ns, name);
      assertThat(fn.getStatus()).isNotNull();
      assertThat(fn.getStatus().getConditions()).extracting(Condition::getType, Condition::getStatus)
          .containsExactlyInAnyOrder(tuple("ConfigurationReady", "True"), tuple("BuildReady", "True"),
              tuple("Running", "True"));
    });
  }

  private static boolean ready(KubernetesClient client, TestNamespace ns, String name) {
    Function fn = get(client, ns, name);
    return fn.getStatus() != null && fn.getStatus().getConditions() != null
        && java.util.Objects.equals(fn.getStatus().getObservedGeneration(), fn.getMetadata().getGeneration())
        && fn.getStatus().getConditions().size() == 3
        && fn.getStatus().getConditions().stream().allMatch(c -> c.getStatus().equals("True"));
  }

  private static Condition condition(Function fn, String type) {
    assertThat(fn).isNotNull();
    assertThat(fn.getStatus()).isNotNull();
    return fn.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst()
        .orElseThrow(() -> new AssertionError("no condition " + type + " in " + fn.getStatus().getConditions()));
  }

  private static Function get(KubernetesClient client, TestNamespace ns, String name) {
    return client.resources(Function.class).inNamespace(ns.name()).withName(name).get();
  }

  private static List<String> jobNames(KubernetesClient client, TestNamespace ns) {
    return client.batch().v1().jobs().inNamespace(ns.name()).list().getItems().stream()
        .map(j -> j.getMetadata().getName()).toList();
  }
}
