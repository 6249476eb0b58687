package io.gitfn.install;

import static io.gitfn.install.Manifests.all;
import static io.gitfn.install.Manifests.helm;
import static io.gitfn.install.Manifests.helmTemplate;
import static io.gitfn.install.Manifests.only;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.controller.leader.LeaderPod;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import io.gitfn.workload.FunctionResourcesConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * charts/gitfn: helm lints it, renders what its values ask for, and the real API server accepts every object it
 * renders (server-side dry run), with the default values and with every option on.
 */
@WithKubeApi
class ChartIT {

  static final String REGISTRY = "--set=registry.address=registry.local:5000";

  /** Every option the chart has, turned away from its default. */
  static final String EVERYTHING_ON = """
      replicas: 1
      leaderElection:
        enabled: false
      registry:
        secretName: push-credentials
        insecure: [mirror.example.com:5000]
      packageRegistry:
        secretName: npmrc
      builder:
        tool: layered
        image: mirror.example.com/gitfn/gitfn:v9
        pushDeadline: 90s
        baseImages:
          python312: mirror.example.com/library/python:3.12-slim-bookworm
          nodejs22: mirror.example.com/library/node:22-bookworm-slim
        concurrency: 3
        deadline: 45m
        podAnnotations: {example.com/build-pool: dedicated}
      functionSourceInterval: 30s
      resourcesConfiguration:
        function:
          resources:
            defaultPreset: M
            presets:
              L: {requestCpu: 100m, requestMemory: 256Mi, limitCpu: 800m, limitMemory: 1024Mi}
      clusterName: eu-1
      autoRollback: false
      allowedTargetNamespaces: [team-a, team-b]
      allowedGitHosts: [github.com, "*.git.example.com"]
      allowedKinds: [v1/ConfigMap, gateway.networking.k8s.io/v1/HTTPRoute]
      previews: true
      requireServiceAccount: true
      sharding:
        selector: gitfn.io/shard=a
      git:
        knownHosts: "git.example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"
        mirrors:
          diskBudget: 5Gi
          sizeLimit: 6Gi
      dashboard:
        actions:
          enabled: true
      webhook:
        existingSecret: forge-hook
        secretKey: token
        ingress:
          enabled: true
          className: nginx
          host: hooks.example.com
          tls:
            - secretName: hooks-tls
              hosts: [hooks.example.com]
      logging:
        format: json
        level: debug
      shutdownTimeout: 45s
      resources:
        requests: {cpu: 200m, memory: 256Mi}
        limits: {memory: 512Mi}
      jvmOptions: "-XX:+UseSerialGC -Xmx256m"
      extraArgs: [--max-file-size=20Mi]
      nodeSelector:
        kubernetes.io/os: linux
      tolerations:
        - {key: dedicated, operator: Equal, value: gitfn, effect: NoSchedule}
      affinity:
        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
            - weight: 100
              podAffinityTerm:
                topologyKey: kubernetes.io/hostname
                labelSelector:
                  matchLabels: {app.kubernetes.io/component: controller}
      podAnnotations:
        team: platform
      inClusterRegistry:
        enabled: true
        persistence:
          size: 5Gi
      """;

  @BeforeAll
  static void crds(KubeTestBed bed) {
    bed.installCrds();
  }

  @Test
  void helmLintPassesWithDefaultsAndWithEveryOptionOn() {
    assertThat(helm("lint", "--strict", Manifests.CHART.toString(), REGISTRY)).contains("0 chart(s) failed");
    assertThat(helm("lint", "--strict", Manifests.CHART.toString(), "-f", everythingOn().toString()))
        .contains("0 chart(s) failed");
  }

  @Test
  void withoutARegistryTheChartSaysWhatToSet() {
    assertThatThrownBy(() -> helmTemplate("gitfn", "gitfn-system"))
        .isInstanceOfSatisfying(Manifests.ToolFailed.class,
            e -> assertThat(e.stderr).contains("registry.address is required").contains("--set registry.address="));
  }

  @Test
  void buildlessNeedsNoRegistryAndPassesItsMode() {
    List<HasMetadata> objects = helmTemplate("gitfn", "gitfn-system", "--set", "buildMode=buildless");

    Container controller = only(objects, Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(controller.getArgs()).contains("--build-mode=buildless")
        .noneMatch(arg -> arg.startsWith("--registry="));
    Container cached = only(helmTemplate("gitfn", "gitfn-system", "--set", "buildMode=buildless", "--set",
        "dependencyCacheClaim=gitfn-dependencies"), Deployment.class).getSpec().getTemplate().getSpec()
        .getContainers().get(0);
    assertThat(cached.getArgs()).contains("--dependency-cache-claim=gitfn-dependencies");
    assertThatThrownBy(() -> helmTemplate("gitfn", "gitfn-system", "--set", "buildMode=buildles"))
        .isInstanceOfSatisfying(Manifests.ToolFailed.class,
            e -> assertThat(e.stderr).contains("buildMode is \"buildles\": use image or buildless"));
  }

  @Test
  void defaultsRunTwoLeaderElectedReplicasLockedDown() throws Exception {
    List<HasMetadata> objects = helmTemplate("gitfn", "gitfn-system", REGISTRY);

    assertThat(objects).extracting(HasMetadata::getKind).containsExactlyInAnyOrder("ServiceAccount",
        "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding", "Service", "Service", "Deployment");
    Deployment deployment = only(objects, Deployment.class);
    assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
    PodSpec pod = deployment.getSpec().getTemplate().getSpec();
    Container controller = pod.getContainers().get(0);
    assertThat(controller.getImage()).as("the image -Pimage builds")
        .isEqualTo("ghcr.io/gitfn/gitfn:" + ChartImageTest.projectVersion());
    assertThat(controller.getArgs()).containsExactly("controller", "--webhook-port=9292", "--metrics-port=8080",
        "--dashboard-port=8081",
        "--cache-dir=/var/cache/gitfn", "--mirror-disk-budget=10Gi", "--registry=registry.local:5000",
        "--registry-secret=serverless-registry-config-default",
        "--builder=layered", "--builder-image=ghcr.io/gitfn/gitfn:" + ChartImageTest.projectVersion(),
        "--push-deadline=60s", "--build-concurrency=5", "--build-deadline=20m",
        "--function-source-interval=1m", "--cluster-name=default", "--leader-elect", "--leader-election-namespace=gitfn-system",
        "--leader-election-id=gitfn-controller-leader", "--log-format=text", "--log-level=info",
        "--shutdown-timeout=30s");
    assertThat(controller.getEnv()).extracting(EnvVar::getName).containsExactly("POD_NAMESPACE", "POD_NAME");
    assertThat(controller.getEnv().get(0).getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.namespace");
    assertThat(controller.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(controller.getLivenessProbe().getHttpGet().getPort().getStrVal()).isEqualTo("metrics");
    assertThat(controller.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(controller.getPorts()).extracting("name", "containerPort")
        .containsExactly(org.assertj.core.groups.Tuple.tuple("webhook", 9292),
            org.assertj.core.groups.Tuple.tuple("metrics", 8080), org.assertj.core.groups.Tuple.tuple("dashboard", 8081));
    assertThat(controller.getResources().getRequests())
        .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("192Mi")));
    assertThat(controller.getResources().getLimits()).containsExactlyEntriesOf(Map.of("memory", new Quantity("320Mi")));
    assertLockedDown(pod);

    assertThat(all(objects, Service.class)).extracting(s -> s.getMetadata().getName())
        .containsExactlyInAnyOrder("gitfn-webhook", "gitfn-metrics");
    Service webhook = Manifests.find(objects, "Service", "gitfn-webhook").map(Service.class::cast).orElseThrow();
    assertThat(webhook.getSpec().getPorts()).singleElement().satisfies(p -> {
      assertThat(p.getPort()).isEqualTo(9292);
      assertThat(p.getTargetPort().getStrVal()).isEqualTo("webhook");
    });
    // The Deployment's Pods, and of them the one whose instance leads (it labels its own Pod, see LeaderPod).
    assertThat(webhook.getSpec().getSelector()).containsAllEntriesOf(deployment.getSpec().getSelector().getMatchLabels())
        .containsEntry("gitfn.io/leader", "gitfn-controller-leader")
        .hasSize(deployment.getSpec().getSelector().getMatchLabels().size() + 1);
    assertThat(controller.getArgs()).contains("--leader-election-id=gitfn-controller-leader");
    assertThat(controller.getEnv()).extracting(e -> e.getName()).contains("POD_NAME", "POD_NAMESPACE");
    assertThat(only(objects, ServiceAccount.class).getMetadata().getName()).isEqualTo(pod.getServiceAccountName());
    assertThat(only(objects, ClusterRoleBinding.class).getSubjects()).singleElement()
        .satisfies(s -> assertThat(s.getName() + "@" + s.getNamespace()).isEqualTo("gitfn@gitfn-system"));
    assertThat(only(objects, Role.class).getRules()).satisfiesExactly(r -> {
      assertThat(r.getApiGroups()).containsExactly("coordination.k8s.io");
      assertThat(r.getResources()).containsExactly("leases");
      assertThat(r.getVerbs()).containsExactly("get", "create", "update", "patch");
    }, r -> {
      assertThat(r.getApiGroups()).containsExactly("");
      assertThat(r.getResources()).containsExactly("pods");
      assertThat(r.getVerbs()).containsExactly("list", "patch");
    });
  }

  @Test
  void everyOptionOnBecomesItsFlagVolumeOrObject() {
    List<HasMetadata> objects = helmTemplate("gitfn", "gitfn-system", "-f", everythingOn().toString());

    assertThat(objects).extracting(HasMetadata::getKind).containsExactlyInAnyOrder("ServiceAccount",
        "ClusterRole", "ClusterRoleBinding", "Service", "Service", "Service", "Deployment", "Deployment",
        "PersistentVolumeClaim", "Ingress", "ConfigMap", "ConfigMap");
    Deployment deployment = Manifests.find(objects, "Deployment", "gitfn-controller").map(Deployment.class::cast)
        .orElseThrow();
    assertThat(deployment.getSpec().getReplicas()).isEqualTo(1);
    String resourcesYaml = Manifests.find(objects, "ConfigMap", "gitfn-resources-config")
        .map(ConfigMap.class::cast).orElseThrow().getData().get("resources.yaml");
    FunctionResourcesConfig resources = FunctionResourcesConfig.parse(resourcesYaml, "the chart's ConfigMap");
    assertThat(resources.defaultPreset()).contains("M");
    assertThat(resources.presets().get("L").getRequests()).containsEntry("cpu", new Quantity("100m"));
    PodSpec pod = deployment.getSpec().getTemplate().getSpec();
    Container controller = pod.getContainers().get(0);
    assertThat(controller.getArgs()).containsExactly("controller", "--webhook-port=9292", "--metrics-port=8080",
        "--dashboard-port=8081", "--dashboard-actions",
        "--cache-dir=/var/cache/gitfn", "--mirror-disk-budget=5Gi",
        "--registry=gitfn-registry.gitfn-system.svc.cluster.local:5000", "--registry-secret=push-credentials",
        "--package-registry-secret=npmrc", "--builder=layered", "--builder-image=mirror.example.com/gitfn/gitfn:v9",
        "--push-deadline=90s", "--base-image=nodejs22=mirror.example.com/library/node:22-bookworm-slim",
        "--base-image=python312=mirror.example.com/library/python:3.12-slim-bookworm",
        "--build-concurrency=3", "--build-deadline=45m",
        "--build-pod-annotation=example.com/build-pool=dedicated", "--function-source-interval=30s",
        "--cluster-name=eu-1", "--no-auto-rollback",
        "--insecure-registry=mirror.example.com:5000",
        "--insecure-registry=gitfn-registry.gitfn-system.svc.cluster.local:5000",
        "--allow-target-namespace=team-a", "--allow-target-namespace=team-b", "--require-service-account",
        "--allowed-kind=v1/ConfigMap", "--allowed-kind=gateway.networking.k8s.io/v1/HTTPRoute",
        "--allowed-git-host=github.com", "--allowed-git-host=*.git.example.com", "--shard-selector=gitfn.io/shard=a",
        "--known-hosts=/etc/gitfn/known-hosts/known_hosts", "--resources-config=/etc/gitfn/resources/resources.yaml",
        "--webhook-secret-file=/etc/gitfn/webhook/token",
        "--log-format=json", "--log-level=debug", "--shutdown-timeout=45s", "--max-file-size=20Mi");
    assertThat(controller.getEnv()).contains(new EnvVar("JAVA_TOOL_OPTIONS", "-XX:+UseSerialGC -Xmx256m", null));
    assertThat(controller.getResources().getLimits()).containsEntry("memory", new Quantity("512Mi"));
    assertThat(controller.getVolumeMounts()).extracting("mountPath").containsExactly("/var/cache/gitfn", "/tmp",
        "/etc/gitfn/known-hosts", "/etc/gitfn/resources", "/etc/gitfn/webhook");
    assertThat(pod.getVolumes()).filteredOn(v -> v.getName().equals("webhook-secret")).singleElement()
        .satisfies(v -> assertThat(v.getSecret().getSecretName()).isEqualTo("forge-hook"));
    assertThat(pod.getVolumes()).filteredOn(v -> v.getName().equals("cache")).singleElement()
        .satisfies(v -> assertThat(v.getEmptyDir().getSizeLimit()).isEqualTo(new Quantity("6Gi")));
    assertThat(pod.getNodeSelector()).containsEntry("kubernetes.io/os", "linux");
    assertThat(pod.getTolerations()).singleElement().satisfies(t -> assertThat(t.getKey()).isEqualTo("dedicated"));
    assertThat(pod.getAffinity().getPodAntiAffinity()).isNotNull();
    assertThat(deployment.getSpec().getTemplate().getMetadata().getAnnotations()).containsEntry("team", "platform")
        .containsKey("checksum/known-hosts").containsKey("checksum/resources-config");
    assertLockedDown(pod);

    Ingress ingress = only(objects, Ingress.class);
    assertThat(ingress.getSpec().getIngressClassName()).isEqualTo("nginx");
    assertThat(ingress.getSpec().getRules()).singleElement().satisfies(rule -> {
      assertThat(rule.getHost()).isEqualTo("hooks.example.com");
      assertThat(rule.getHttp().getPaths()).singleElement().satisfies(p -> {
        assertThat(p.getPath()).isEqualTo("/hooks/");
        assertThat(p.getBackend().getService().getName()).isEqualTo("gitfn-webhook");
      });
    });
    Deployment registry = Manifests.find(objects, "Deployment", "gitfn-registry").map(Deployment.class::cast)
        .orElseThrow();
    assertThat(registry.getSpec().getReplicas()).isEqualTo(1);
    assertThat(registry.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()).isEqualTo("registry:2");
    assertThat(only(objects, PersistentVolumeClaim.class).getSpec().getResources().getRequests())
        .containsEntry("storage", new Quantity("5Gi"));
    assertThat(Manifests.find(objects, "Service", "gitfn-registry")).isPresent();
  }

  @Test
  void theDashboardCanBeTurnedOffOrMoved() {
    Container off = only(helmTemplate("gitfn", "gitfn-system", REGISTRY, "--set=dashboard.enabled=false"),
        Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
    Container moved = only(helmTemplate("gitfn", "gitfn-system", REGISTRY, "--set=dashboard.port=9000"),
        Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);

    assertThat(off.getArgs()).contains("--dashboard-port=-1");
    assertThat(moved.getArgs()).contains("--dashboard-port=9000");
    assertThat(only(helmTemplate("gitfn", "gitfn-system", REGISTRY, "--set=dashboard.enabled=false"),
        ClusterRole.class).getRules()).as("no dashboard, no Pod logs").flatExtracting(PolicyRule::getResources)
        .doesNotContain("pods/log");
  }

  @Test
  void theDashboardsIngressOpensItOnThePodAndRoutesEveryPathToIt() {
    List<HasMetadata> objects = helmTemplate("gitfn", "gitfn-system", REGISTRY,
        "--set=dashboard.ingress.enabled=true", "--set=dashboard.ingress.host=fn.example.com");

    Container controller = only(objects, Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(controller.getArgs()).contains("--dashboard-port=8081", "--dashboard-bind=0.0.0.0");
    assertThat(controller.getPorts()).anySatisfy(p -> {
      assertThat(p.getName()).isEqualTo("dashboard");
      assertThat(p.getContainerPort()).isEqualTo(8081);
    });
    io.fabric8.kubernetes.api.model.Service service = Manifests.find(objects, "Service", "gitfn-dashboard")
        .map(io.fabric8.kubernetes.api.model.Service.class::cast).orElseThrow();
    assertThat(service.getSpec().getPorts()).singleElement().satisfies(p ->
        assertThat(p.getTargetPort().getStrVal()).isEqualTo("dashboard"));
    io.fabric8.kubernetes.api.model.networking.v1.Ingress ingress = Manifests.find(objects, "Ingress",
        "gitfn-dashboard").map(io.fabric8.kubernetes.api.model.networking.v1.Ingress.class::cast).orElseThrow();
    assertThat(ingress.getSpec().getRules()).singleElement().satisfies(rule -> {
      assertThat(rule.getHost()).isEqualTo("fn.example.com");
      assertThat(rule.getHttp().getPaths()).singleElement().satisfies(path -> {
        assertThat(path.getPath()).isEqualTo("/");
        assertThat(path.getBackend().getService().getName()).isEqualTo("gitfn-dashboard");
      });
    });
    assertThat(only(helmTemplate("gitfn", "gitfn-system", REGISTRY), Deployment.class).getSpec().getTemplate()
        .getSpec().getContainers().get(0).getArgs()).as("without the Ingress, loopback")
        .noneMatch(a -> a.startsWith("--dashboard-bind"));
  }

  @Test
  void dashboardActionsAreOffUnlessAskedForAndThenMayReviewTokens() {
    List<HasMetadata> readOnly = helmTemplate("gitfn", "gitfn-system", REGISTRY);
    List<HasMetadata> acting = helmTemplate("gitfn", "gitfn-system", REGISTRY, "--set=dashboard.actions.enabled=true");
    List<HasMetadata> noDashboard = helmTemplate("gitfn", "gitfn-system", REGISTRY,
        "--set=dashboard.actions.enabled=true", "--set=dashboard.enabled=false");

    assertThat(only(readOnly, Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0).getArgs())
        .doesNotContain("--dashboard-actions");
    assertThat(only(readOnly, ClusterRole.class).getRules()).flatExtracting(PolicyRule::getResources)
        .contains("pods/log").doesNotContain("tokenreviews", "subjectaccessreviews");
    assertThat(only(acting, Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0).getArgs())
        .contains("--dashboard-actions");
    assertThat(only(acting, ClusterRole.class).getRules())
        .anySatisfy(r -> assertThat(r.getResources()).containsExactly("tokenreviews"))
        .anySatisfy(r -> assertThat(r.getResources()).containsExactly("subjectaccessreviews"))
        .filteredOn(r -> r.getResources().contains("tokenreviews") || r.getResources().contains("subjectaccessreviews"))
        .allSatisfy(r -> assertThat(r.getVerbs()).containsExactly("create"));
    assertThat(only(noDashboard, Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0)
        .getArgs()).as("no dashboard, no actions").doesNotContain("--dashboard-actions");
  }

  @Test
  void insecureRegistriesReachTheController() {
    Container controller = only(helmTemplate("gitfn", "gitfn-system", REGISTRY,
        "--set=registry.insecure={registry.local:5000}"), Deployment.class)
        .getSpec().getTemplate().getSpec().getContainers().get(0);

    assertThat(controller.getArgs()).contains("--builder=layered", "--insecure-registry=registry.local:5000");
  }

  @Test
  void aBuilderThatWasRemovedFailsTheInstallSayingSo() {
    assertThatThrownBy(() -> helmTemplate("gitfn", "gitfn-system", REGISTRY, "--set=builder.tool=buildah"))
        .isInstanceOfSatisfying(Manifests.ToolFailed.class, e -> assertThat(e.stderr)
            .contains("builder.tool buildah was removed: gitfn builds every image with the layered builder"));
  }

  @Test
  void theLayeredBuilderPacksWithTheChartsOwnImage() throws Exception {
    Container controller = only(helmTemplate("gitfn", "gitfn-system", REGISTRY, "--set=builder.tool=layered"),
        Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);

    assertThat(controller.getArgs()).contains("--builder=layered",
        "--builder-image=ghcr.io/gitfn/gitfn:" + ChartImageTest.projectVersion(), "--push-deadline=60s");
  }

  @Test
  void theNotesWarnOfTheInClusterRegistrysLimits(KubeTestBed bed, TestNamespace ns) {
    String out = helm("install", ns.name(), Manifests.CHART.toString(), "-n", ns.name(), "--dry-run=client",
        "--kubeconfig", bed.kubeconfig().toString(), "-f", everythingOn().toString());

    String notes = out.substring(out.indexOf("NOTES:"));
    assertThat(notes).contains("WARNING: the in-cluster registry is for development only")
        .contains("no TLS").contains("insecure registry").contains("one replica").contains("PersistentVolume")
        .contains("not only in team-a, team-b");
  }

  @Test
  void theClusterRoleNamesEveryVerbAndResourceWithoutWildcards() {
    ClusterRole role = only(helmTemplate("gitfn", "gitfn-system", REGISTRY), ClusterRole.class);
    assertThat(role.getRules()).isNotEmpty().allSatisfy(rule -> {
      assertThat(rule.getVerbs()).isNotEmpty().doesNotContain("*");
      assertThat(rule.getResources()).isNotEmpty().doesNotContain("*");
      assertThat(rule.getApiGroups()).doesNotContain("*");
      assertThat(rule.getNonResourceURLs()).isNullOrEmpty();
      assertThat(rule.getResourceNames()).isNullOrEmpty();
      // Reading Secrets by name, never listing or watching them: a list would hand the controller every Secret's
      // data. It writes only the Secrets a FunctionRepository decrypted, by name.
      if (rule.getResources().contains("secrets")) {
        assertThat(rule.getVerbs()).containsExactly("get", "create", "patch", "delete");
      }
      assertThat(rule.getVerbs()).doesNotContain("escalate", "bind");
      // Impersonating ServiceAccounts only (spec.serviceAccountName), never users or groups: the code impersonates
      // one of the repository's own namespace, so a tenant gets at most the rights it could already bind there.
      if (rule.getVerbs().contains("impersonate")) {
        assertThat(rule.getVerbs()).containsExactly("impersonate");
        assertThat(rule.getResources()).containsExactly("serviceaccounts");
        assertThat(rule.getApiGroups()).containsExactly("");
      }
    });
    assertThat(role.getRules()).flatExtracting(PolicyRule::getResources)
        .doesNotContain("clusterroles", "clusterrolebindings", "roles", "rolebindings", "namespaces", "nodes");
    assertThat(role.getAggregationRule()).isNull();
  }

  @Test
  void previewsAddNamespacesAndTheCopyOfAServiceAccountsRoleBindingsAndNothingElse() {
    List<PolicyRule> without = only(helmTemplate("gitfn", "gitfn-system", REGISTRY), ClusterRole.class).getRules();
    List<PolicyRule> with = only(helmTemplate("gitfn", "gitfn-system", REGISTRY,
        "--set=previews=true"), ClusterRole.class).getRules();

    assertThat(with).containsAll(without).hasSize(without.size() + 3);
    List<PolicyRule> added = with.stream().filter(rule -> !without.contains(rule)).toList();
    assertThat(added).extracting(rule -> rule.getApiGroups() + " " + rule.getResources() + " " + rule.getVerbs())
        .containsExactly("[] [namespaces] [get, create, delete]",
            "[rbac.authorization.k8s.io] [rolebindings] [list, create, patch]",
            "[rbac.authorization.k8s.io] [roles] [get, create, patch]");
    assertThat(added).flatExtracting(PolicyRule::getVerbs).doesNotContain("bind", "escalate", "*");
    assertThat(added).allSatisfy(rule -> assertThat(rule.getResourceNames()).isNullOrEmpty());
  }

  @Test
  void theApiServerAcceptsTheDefaultRender(KubernetesClient client, TestNamespace ns) {
    dryRunEach(client, helmTemplate(ns.name(), ns.name(), REGISTRY));
  }

  @Test
  void theApiServerAcceptsTheRenderWithEveryOptionOn(KubernetesClient client, TestNamespace ns) {
    dryRunEach(client, helmTemplate(ns.name(), ns.name(), "-f", everythingOn().toString()));
  }

  /** Server-side dry run of each object: schema, defaults and admission, without storing anything. */
  static void dryRunEach(KubernetesClient client, List<HasMetadata> objects) {
    assertThat(objects).isNotEmpty();
    for (HasMetadata object : objects) {
      HasMetadata accepted = client.resource(object).dryRun().fieldManager("gitfn-install-test").forceConflicts()
          .serverSideApply();
      assertThat(accepted.getMetadata().getName()).as("%s %s", object.getKind(), object.getMetadata().getName())
          .isEqualTo(object.getMetadata().getName());
      assertThat(client.resource(object).get()).as("a dry run stores nothing: %s %s", object.getKind(),
          object.getMetadata().getName()).isNull();
    }
  }

  /** runAsNonRoot as 65532, read-only root, no capabilities, RuntimeDefault seccomp, no privilege escalation. */
  static void assertLockedDown(PodSpec pod) {
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(65532L);
    assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    Container controller = pod.getContainers().get(0);
    var security = controller.getSecurityContext();
    assertThat(security.getRunAsNonRoot()).isTrue();
    assertThat(security.getRunAsUser()).isEqualTo(65532L);
    assertThat(security.getReadOnlyRootFilesystem()).isTrue();
    assertThat(security.getAllowPrivilegeEscalation()).isFalse();
    assertThat(security.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(security.getCapabilities().getAdd()).isNullOrEmpty();
    assertThat(security.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    assertThat(security.getPrivileged()).isNotEqualTo(Boolean.TRUE);
    assertThat(controller.getVolumeMounts()).extracting("mountPath").contains("/var/cache/gitfn", "/tmp");
    assertThat(pod.getVolumes()).filteredOn(v -> List.of("cache", "tmp").contains(v.getName()))
        .allSatisfy(v -> assertThat(v.getEmptyDir()).isNotNull()).hasSize(2);
  }

  static Path everythingOn() {
    return Manifests.valuesFile(EVERYTHING_ON);
  }
}
