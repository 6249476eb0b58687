package io.gitfn.reconcile.sync;

import static io.gitfn.api.function.TestFunction.declared;
import static io.gitfn.source.TestRevision.revision;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.gitfn.api.Annotations;
import io.gitfn.api.FieldManagers;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Syncs successive "commits" of an infra repository into a real kube-apiserver. Each commit is a list of
 * desired Functions and a new revision; each test owns its namespace and names its repository "infra".
 */
@WithKubeApi
class FunctionSyncIT {

  private static final String REPOSITORY = "infra";

  @BeforeAll
  static void installCrds(KubeTestBed bed) {
    bed.installCrds();
  }

  @Test
  void functionsAddedChangedAndRemovedAcrossCommitsFollowGit(KubernetesClient client, TestNamespace ns)
      throws SyncRefusedException {
    FunctionSync sync = new FunctionSync(client);
    sync.apply(commit(ns, 1, declared("a").build(), declared("b").build(), declared("c").build()));

    SyncResult second = sync.apply(commit(ns, 2, declared("a").build(), declared("b").env("MODE", "fast").build(),
        declared("d").build()));

    assertThat(second.created()).containsExactly(ns.name() + "/d");
    assertThat(second.updated()).containsExactly(ns.name() + "/b");
    assertThat(second.deleted()).containsExactly(ns.name() + "/c");
    assertThat(second.unchanged()).containsExactly(ns.name() + "/a");
    assertThat(second.writes()).isEqualTo(3);
    Map<String, Function> live = live(client, ns);
    assertThat(live).containsOnlyKeys("a", "b", "d");
    assertThat(live.get("b").getSpec().getEnv()).containsExactly(new EnvVar("MODE", "fast", null));
    assertThat(revisionOf(live.get("a"))).as("unchanged content keeps its revision").isEqualTo(revision(1).toString());
    assertThat(revisionOf(live.get("b"))).isEqualTo(revision(2).toString());
    assertThat(revisionOf(live.get("d"))).isEqualTo(revision(2).toString());
    assertThat(live.values())
        .allSatisfy(f -> assertThat(f.getMetadata().getLabels())
            .containsEntry(Labels.REPOSITORY, ns.name() + "." + REPOSITORY));
  }

  @Test
  void pruneDeletesOnlyThisRepositorysFunctions(KubernetesClient client, TestNamespace ns)
      throws SyncRefusedException {
    FunctionSync sync = new FunctionSync(client);
    sync.apply(new SyncRequest(ns.name(), "other", revision(1), List.of(declared("theirs").build()), true, false,
        Set.of()));
    functions(client, ns).resource(declared("hand-made").build()).create();
    sync.apply(commit(ns, 1, declared("mine").build(), declared("also-mine").build()));

    SyncResult emptied = sync.apply(
        new SyncRequest(ns.name(), REPOSITORY, revision(2), List.of(), true, true, Set.of()));

    assertThat(emptied.deleted()).containsExactly(ns.name() + "/also-mine", ns.name() + "/mine");
    assertThat(live(client, ns)).containsOnlyKeys("theirs", "hand-made");
  }

  @Test
  void aFunctionAnotherRepositoryManagesIsNotTakenOver(KubernetesClient client, TestNamespace ns)
      throws SyncRefusedException {
    FunctionSync sync = new FunctionSync(client);
    sync.apply(new SyncRequest(ns.name(), "other", revision(1), List.of(declared("shared").build()), true, false,
        Set.of()));

    assertThatThrownBy(() -> sync.apply(
            commit(ns, 1, declared("mine").build(), declared("shared").env("A", "1").build())))
        .isInstanceOf(SyncRefusedException.class)
        .hasMessageContaining("Function " + ns.name() + "/shared is managed by repository " + ns.name() + ".other");
    assertThat(live(client, ns)).containsOnlyKeys("shared");
    assertThat(live(client, ns).get("shared").getSpec().getEnv()).isNull();
  }

  @Test
  void withoutPruneFunctionsThatLeftGitStay(KubernetesClient client, TestNamespace ns) throws SyncRefusedException {
    FunctionSync sync = new FunctionSync(client);
    sync.apply(commit(ns, 1, declared("a").build(), declared("b").build()));

    SyncResult result = sync.apply(
        new SyncRequest(ns.name(), REPOSITORY, revision(2), List.of(declared("a").build()), false, false, Set.of()));

    assertThat(result.deleted()).isEmpty();
    assertThat(result.writes()).isZero();
    assertThat(live(client, ns)).containsOnlyKeys("a", "b");
  }

  @Test
  void anEmptyRevisionPrunesNothingUnlessAllowed(KubernetesClient client, TestNamespace ns)
      throws SyncRefusedException {
    FunctionSync sync = new FunctionSync(client);
    sync.apply(commit(ns, 1, declared("a").build(), declared("b").build()));

    assertThatThrownBy(() -> sync.apply(commit(ns, 2)))
        .isInstanceOf(SyncRefusedException.class)
        .satisfies(e -> assertThat(((SyncRefusedException) e).reasons())
            .containsExactly("the revision yields no Functions; set spec.allowEmpty to prune them all"));
    assertThat(live(client, ns)).containsOnlyKeys("a", "b");

    SyncResult allowed =
        sync.apply(new SyncRequest(ns.name(), REPOSITORY, revision(2), List.of(), true, true, Set.of()));

    assertThat(allowed.deleted()).hasSize(2);
    assertThat(live(client, ns)).isEmpty();
  }

  @Test
  void aRevisionTheServerRejectsChangesNothingAndTheNextValidOneApplies(KubernetesClient client, TestNamespace ns)
      throws SyncRefusedException {
    FunctionSync sync = new FunctionSync(client);
    sync.apply(commit(ns, 1, declared("a").build(), declared("b").build(), declared("gone-later").build()));
    Map<String, String> before = resourceVersions(client, ns);

    assertThatThrownBy(() -> sync.apply(commit(ns, 2,
            declared("a").env("MODE", "fast").build(),
            declared("b").withBothSources().build(),
            declared("c").replicas(1).scale(3, 2).build())))
        .isInstanceOf(SyncRefusedException.class)
        .satisfies(e -> assertThat(((SyncRefusedException) e).reasons())
            .containsExactly(
                "Function " + ns.name() + "/c cannot be applied: Function.serverless.kyma-project.io \"c\" is "
                    + "invalid: spec.scaleConfig: Invalid value: minReplicas should be less than or "
                    + "equal maxReplicas",
                "Function " + ns.name() + "/b cannot be applied: Function.serverless.kyma-project.io \"b\" is "
                    + "invalid: spec.source: Invalid value: Use GitRepository or Inline source"));
    assertThat(resourceVersions(client, ns)).as("nothing written, nothing pruned").isEqualTo(before);

    SyncResult next = sync.apply(commit(ns, 3, declared("a").env("MODE", "fast").build(), declared("b").build(),
        declared("c").replicas(1).scale(1, 2).build()));

    assertThat(next.created()).containsExactly(ns.name() + "/c");
    assertThat(next.updated()).containsExactly(ns.name() + "/a");
    assertThat(next.deleted()).containsExactly(ns.name() + "/gone-later");
    assertThat(live(client, ns)).containsOnlyKeys("a", "b", "c");
  }

  @Test
  void aFunctionEditedByHandIsSetBackAtTheSameRevision(KubernetesClient client, TestNamespace ns)
      throws SyncRefusedException {
    FunctionSync sync = new FunctionSync(client);
    sync.apply(commit(ns, 1, declared("a").env("MODE", "safe").build(), declared("b").build()));
    functions(client, ns).withName("a").edit(f -> {
      f.getSpec().setEnv(List.of(new EnvVar("MODE", "edited by hand", null)));
      return f;
    });

    SyncResult again = sync.apply(commit(ns, 1, declared("a").env("MODE", "safe").build(), declared("b").build()));

    assertThat(again.updated()).containsExactly(ns.name() + "/a");
    assertThat(again.writes()).isOne();
    assertThat(live(client, ns).get("a").getSpec().getEnv()).containsExactly(new EnvVar("MODE", "safe", null));
    assertThat(sync.apply(commit(ns, 1, declared("a").env("MODE", "safe").build(), declared("b").build())).writes())
        .isZero();
  }

  @Test
  void replicasAnHpaDrivesAreNotOverwritten(KubernetesClient client, TestNamespace ns) throws SyncRefusedException {
    FunctionSync sync = new FunctionSync(client);
    sync.apply(commit(ns, 1,
        declared("scaled").replicas(1).scale(1, 5).build(), declared("applied").scale(1, 5).build()));
    scaleThroughSubresource(client, ns, "scaled", 4);
    // an autoscaler that server-side applies with a manager of its own
    client.genericKubernetesResources(FUNCTIONS).inNamespace(ns.name())
        .resource(partial("applied", Map.of("replicas", 3)))
        .fieldManager("autoscaler").forceConflicts().serverSideApply();

    SyncResult sameRevision = sync.apply(commit(ns, 1,
        declared("scaled").replicas(1).scale(1, 5).build(), declared("applied").scale(1, 5).build()));
    SyncResult changedContent = sync.apply(commit(ns, 2,
        declared("scaled").replicas(1).scale(1, 5).env("MODE", "fast").build(),
        declared("applied").scale(1, 5).env("MODE", "fast").build()));

    assertThat(sameRevision.writes()).isZero();
    assertThat(changedContent.updated()).hasSize(2);
    Map<String, Function> live = live(client, ns);
    assertThat(live.get("scaled").getSpec().getReplicas()).isEqualTo(4);
    assertThat(live.get("applied").getSpec().getReplicas()).isEqualTo(3);
    assertThat(live.values()).allSatisfy(f -> assertThat(gitfnFields(f)).doesNotContain("f:replicas"));
  }

  @Test
  void replicasGitSetsWithoutAnHpaAreSetBack(KubernetesClient client, TestNamespace ns) throws SyncRefusedException {
    FunctionSync sync = new FunctionSync(client);
    sync.apply(commit(ns, 1, declared("fixed").replicas(2).build()));
    scaleThroughSubresource(client, ns, "fixed", 5);

    SyncResult again = sync.apply(commit(ns, 1, declared("fixed").replicas(2).build()));

    assertThat(again.updated()).containsExactly(ns.name() + "/fixed");
    assertThat(live(client, ns).get("fixed").getSpec().getReplicas()).isEqualTo(2);
  }

  @Test
  void aFunctionInAnotherNamespaceIsRefusedUnlessAllowed(KubernetesClient client, TestNamespace ns)
      throws SyncRefusedException {
    String other = ns.name() + "-b";
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(other).endMetadata().build()).create();
    try {
      FunctionSync sync = new FunctionSync(client);
      List<Function> desired = List.of(declared("here").build(), declared("there").inNamespace(other).build());

      assertThatThrownBy(() -> sync.apply(
              new SyncRequest(ns.name(), REPOSITORY, revision(1), desired, true, false, Set.of())))
          .isInstanceOf(SyncRefusedException.class)
          .hasMessageContaining("Function " + other + "/there: namespace " + other + " is not the repository's");
      assertThat(live(client, ns)).as("not even the allowed part is applied").isEmpty();

      SyncResult allowed =
          sync.apply(new SyncRequest(ns.name(), REPOSITORY, revision(1), desired, true, false, Set.of(other)));
      SyncResult pruned = sync.apply(new SyncRequest(
          ns.name(), REPOSITORY, revision(2), List.of(declared("here").build()), true, false, Set.of(other)));

      assertThat(allowed.created()).containsExactly(ns.name() + "/here", other + "/there");
      assertThat(pruned.deleted()).containsExactly(other + "/there");
      assertThat(client.resources(Function.class).inNamespace(other).list().getItems()).isEmpty();
    } finally {
      client.namespaces().withName(other).delete();
    }
  }

  @Test
  void writesAreOnePerChangedFunctionAndNoneWhenNothingChanged(KubernetesClient client, TestNamespace ns)
      throws SyncRefusedException {
    FunctionSync sync = new FunctionSync(client);
    int n = 5;

    SyncResult first = sync.apply(commit(ns, 1, numbered(n, -1)));
    Map<String, String> afterFirst = resourceVersions(client, ns);
    SyncResult same = sync.apply(commit(ns, 1, numbered(n, -1)));
    SyncResult newRevisionSameContent = sync.apply(commit(ns, 2, numbered(n, -1)));
    Map<String, String> afterNoChange = resourceVersions(client, ns);
    SyncResult oneChanged = sync.apply(commit(ns, 3, numbered(n, 2)));
    Map<String, String> afterOneChanged = resourceVersions(client, ns);

    assertThat(first.writes()).isEqualTo(n);
    assertThat(first.created()).hasSize(n);
    assertThat(same.writes()).isZero();
    assertThat(newRevisionSameContent.writes()).isZero();
    assertThat(newRevisionSameContent.unchanged()).hasSize(n);
    assertThat(afterNoChange).as("no object was written").isEqualTo(afterFirst);
    assertThat(oneChanged.writes()).isOne();
    assertThat(oneChanged.updated()).containsExactly(ns.name() + "/fn-2");
    assertThat(changedKeys(afterNoChange, afterOneChanged)).containsExactly("fn-2");
    assertThat(live(client, ns).values()).allSatisfy(f -> assertThat(f.getMetadata().getManagedFields())
        .filteredOn(m -> FieldManagers.SYNC.equals(m.getManager()))
        .singleElement()
        .satisfies(m -> assertThat(m.getOperation()).isEqualTo("Apply")));
  }

  @Test
  void theKymaFunctionFromGitopsExamplesAppliesUnchanged(KubernetesClient client, TestNamespace ns)
      throws IOException, SyncRefusedException {
    Path file = TestBedBinaries.projectDir().resolve("gitops-examples/functions/hello.yaml");
    Function hello;
    GenericKubernetesResource asWritten;
    try (InputStream in = Files.newInputStream(file); InputStream again = Files.newInputStream(file)) {
      hello = client.getKubernetesSerialization().unmarshal(in, Function.class);
      asWritten = client.getKubernetesSerialization().unmarshal(again, GenericKubernetesResource.class);
    }

    SyncResult result = new FunctionSync(client).apply(commit(ns, 1, hello));

    assertThat(result.created()).containsExactly(ns.name() + "/hello");
    GenericKubernetesResource stored =
        client.genericKubernetesResources(FUNCTIONS).inNamespace(ns.name()).withName("hello").get();
    Map<String, Object> expected = new LinkedHashMap<>(spec(asWritten));
    expected.put("replicas", 1); // the schema default; an HPA (scaleConfig 1..3) takes it from there
    assertThat(spec(stored)).isEqualTo(expected);
    assertThat(stored.getMetadata().getLabels())
        .containsEntry("app.kubernetes.io/part-of", "gitops-examples")
        .containsEntry(Labels.REPOSITORY, ns.name() + "." + REPOSITORY);
  }

  private static final io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext FUNCTIONS =
      io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext.fromResourceType(Function.class);

  private static SyncRequest commit(TestNamespace ns, int commit, Function... desired) {
    return new SyncRequest(ns.name(), REPOSITORY, revision(commit), Arrays.asList(desired), true, false, Set.of());
  }

  /** fn-0 .. fn-(n-1); the one numbered {@code changed} has a different env. */
  private static Function[] numbered(int n, int changed) {
    return IntStream.range(0, n)
        .mapToObj(i -> declared("fn-" + i).env("VERSION", i == changed ? "2" : "1").build())
        .toArray(Function[]::new);
  }

  private static NonNamespaceOperation<Function, io.fabric8.kubernetes.api.model.KubernetesResourceList<Function>, Resource<Function>>
      functions(KubernetesClient client, TestNamespace ns) {
    return client.resources(Function.class).inNamespace(ns.name());
  }

  private static Map<String, Function> live(KubernetesClient client, TestNamespace ns) {
    return functions(client, ns).list().getItems().stream()
        .collect(Collectors.toMap(f -> f.getMetadata().getName(), f -> f));
  }

  private static Map<String, String> resourceVersions(KubernetesClient client, TestNamespace ns) {
    return new TreeMap<>(live(client, ns).values().stream()
        .collect(Collectors.toMap(f -> f.getMetadata().getName(), f -> f.getMetadata().getResourceVersion())));
  }

  private static List<String> changedKeys(Map<String, String> before, Map<String, String> after) {
    List<String> changed = new ArrayList<>();
    after.forEach((name, version) -> {
      if (!version.equals(before.get(name))) {
        changed.add(name);
      }
    });
    return changed;
  }

  private static String revisionOf(Function function) {
    return function.getMetadata().getAnnotations().get(Annotations.REVISION);
  }

  /** The fields gitfn's field manager owns, as the server records them. */
  private static String gitfnFields(Function function) {
    return function.getMetadata().getManagedFields().stream()
        .filter(m -> FieldManagers.SYNC.equals(m.getManager()))
        .map(ManagedFieldsEntry::getFieldsV1)
        .map(fields -> String.valueOf(fields.getAdditionalProperties()))
        .collect(Collectors.joining());
  }

  /** Scales as an HPA does: through the scale subresource, which needs the status an HPA reads. */
  private static void scaleThroughSubresource(KubernetesClient client, TestNamespace ns, String name, int replicas) {
    MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> generic =
        client.genericKubernetesResources(FUNCTIONS);
    GenericKubernetesResource withStatus = generic.inNamespace(ns.name()).withName(name).get();
    withStatus.setAdditionalProperty(
        "status", Map.of("replicas", 1, "podSelector", "serverless.kyma-project.io/function-name=" + name));
    generic.inNamespace(ns.name()).resource(withStatus).updateStatus();
    generic.inNamespace(ns.name()).withName(name).scale(replicas);
  }

  private static GenericKubernetesResource partial(String name, Map<String, Object> spec) {
    GenericKubernetesResource object = new GenericKubernetesResource();
    object.setApiVersion(Function.GROUP + "/" + Function.VERSION);
    object.setKind("Function");
    object.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).build());
    object.setAdditionalProperty("spec", spec);
    return object;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> spec(GenericKubernetesResource resource) {
    return (Map<String, Object>) resource.getAdditionalProperties().get("spec");
  }
}
