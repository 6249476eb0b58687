package io.gitfn.reconcile;

import static io.gitfn.api.function.FunctionRuntime.NODEJS22;
import static io.gitfn.reconcile.Repositories.condition;
import static io.gitfn.reconcile.Repositories.create;
import static io.gitfn.reconcile.Repositories.function;
import static io.gitfn.reconcile.Repositories.gitSecret;
import static io.gitfn.reconcile.Repositories.requestReconcile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Annotations;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A FunctionRepository under its tenant's own rights (issue 31), against a real API server's RBAC: with
 * {@code spec.serviceAccountName} the controller impersonates that ServiceAccount, so a revision with a kind the
 * ServiceAccount may not write is refused whole with the API server's own 403, naming the object and the
 * ServiceAccount; once a RoleBinding allows it, the same revision applies, labelled as the repository's. A controller
 * run with {@code --require-service-account} refuses a repository that names none.
 */
@WithKubeApi
@ExtendWith(GitServers.class)
class TenantServiceAccountIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static ControllerUnderTest running;

  @BeforeAll
  static void start(KubeTestBed bed) throws Exception {
    running = ControllerUnderTest.start(bed, "tenants",
        ControllerSettings.defaults().withRequiredServiceAccount(true));
  }

  @AfterAll
  static void stop() throws Exception {
    running.close();
  }

  @Test
  void aServiceAccountThatMayNotCreateIngressesRefusesTheRevisionWithTheApiServers403UntilItMay(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    client.serviceAccounts().inNamespace(ns.name()).resource(new ServiceAccountBuilder().withNewMetadata()
        .withName("deployer").endMetadata().build()).create();
    List<PolicyRule> functionsOnly = new ArrayList<>(List.of(
        rule("serverless.kyma-project.io", "functions", "get", "list", "create", "patch", "delete")));
    grant(client, ns.name(), functionsOnly);
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1")
            .metadataAnnotation(Annotations.BUILD_MODE, "buildless").toYaml())
        .write("functions/route.yaml", """
            apiVersion: networking.k8s.io/v1
            kind: Ingress
            metadata:
              name: hello
            spec:
              rules:
                - http:
                    paths:
                      - {path: /, pathType: Prefix, backend: {service: {name: hello, port: {number: 80}}}}
            """);
    String commit = copy.commit("hello and its route");
    copy.push();
    gitSecret(client, ns.name(), http);
    create(client, ns.name(), "infra", http.url(repository.name()), Map.of("serviceAccountName", "deployer"));

    await().atMost(WAIT).untilAsserted(() -> assertThat(condition(client, ns.name(), "infra", "Ready"))
        .hasValueSatisfying(c -> {
          assertThat(c.getReason()).isEqualTo("ApplyRefused");
          assertThat(c.getMessage()).contains(commit).contains("Ingress " + ns.name() + "/hello")
              .contains("forbidden: User \"system:serviceaccount:" + ns.name() + ":deployer\" cannot")
              .contains("ingresses");
        }));
    assertThat(Repositories.functionNames(client, ns.name())).as("nothing of the revision").isEmpty();

    functionsOnly.add(rule("networking.k8s.io", "ingresses", "get", "create", "patch", "delete"));
    grant(client, ns.name(), functionsOnly);
    requestReconcile(client, ns.name(), "infra");

    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(condition(client, ns.name(), "infra", "Ready")).hasValueSatisfying(c ->
          assertThat(c.getReason()).as(c.getMessage()).isNotEqualTo("ApplyRefused"));
      assertThat(client.network().v1().ingresses().inNamespace(ns.name()).withName("hello").get()).isNotNull();
    });
    Function hello = client.resources(Function.class).inNamespace(ns.name()).withName("hello").get();
    assertThat(hello.getMetadata().getLabels()).containsEntry(Labels.REPOSITORY, ns.name() + ".infra");
    assertThat(hello.getMetadata().getManagedFields()).as("applied with gitfn's field manager, whoever the requests were sent as")
        .anySatisfy(field -> assertThat(field.getManager()).isEqualTo("gitfn"));
  }

  @Test
  void aControllerThatRequiresAServiceAccountRefusesARepositoryWithoutOne(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml());
    copy.commit("hello");
    copy.push();
    gitSecret(client, ns.name(), http);
    create(client, ns.name(), "infra", http.url(repository.name()), Map.of());

    await().atMost(WAIT).untilAsserted(() -> assertThat(condition(client, ns.name(), "infra", "Ready"))
        .hasValueSatisfying(c -> {
          assertThat(c.getReason()).isEqualTo("ServiceAccountRequired");
          assertThat(c.getMessage()).startsWith("spec.serviceAccountName is required by this controller"
              + " (--require-service-account)");
        }));
    assertThat(condition(client, ns.name(), "infra", "Stalled")).hasValueSatisfying(c ->
        assertThat(c.getStatus()).isEqualTo("True"));
    assertThat(Repositories.functionNames(client, ns.name())).isEmpty();
  }

  private static PolicyRule rule(String group, String resource, String... verbs) {
    return new PolicyRuleBuilder().withApiGroups(group).withResources(resource).withVerbs(verbs).build();
  }

  /** The deployer's Role, replaced whole: what the tenant's own platform team would bind. */
  private static void grant(KubernetesClient client, String namespace, List<PolicyRule> rules) {
    client.rbac().roles().inNamespace(namespace).resource(new RoleBuilder().withNewMetadata().withName("deployer")
        .endMetadata().withRules(rules).build()).serverSideApply();
    client.rbac().roleBindings().inNamespace(namespace).resource(new RoleBindingBuilder().withNewMetadata()
        .withName("deployer").endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "Role", "deployer")
        .addNewSubject().withKind("ServiceAccount").withName("deployer").withNamespace(namespace).endSubject()
        .build()).serverSideApply();
  }
}
