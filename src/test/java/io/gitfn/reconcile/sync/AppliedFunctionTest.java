package io.gitfn.reconcile.sync;

import static io.gitfn.api.function.TestFunction.declared;
import static io.gitfn.source.TestRevision.revision;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AppliedFunctionTest {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  @Test
  void carriesTheRepositoryLabelTheRevisionAndNothingButMetadataAndSpec() {
    AppliedFunction applied = AppliedFunction.of(
        declared("hello").metadataLabel("app", "hello").build(), "team-a", "team-a.infra", revision(1));

    GenericKubernetesResource object = applied.object();
    assertThat(applied.key()).isEqualTo(new FunctionKey("team-a", "hello"));
    assertThat(object.getApiVersion()).isEqualTo("serverless.kyma-project.io/v1alpha2");
    assertThat(object.getKind()).isEqualTo("Function");
    assertThat(object.getMetadata().getNamespace()).isEqualTo("team-a");
    assertThat(object.getMetadata().getLabels())
        .containsExactlyInAnyOrderEntriesOf(Map.of("app", "hello", "gitfn.io/repository", "team-a.infra"));
    assertThat(object.getMetadata().getAnnotations())
        .containsEntry("gitfn.io/revision", "main@sha1:" + "0".repeat(39) + "1")
        .containsEntry("gitfn.io/applied-hash", applied.hash());
    assertThat(object.getAdditionalProperties()).containsOnlyKeys("spec");
  }

  @Test
  void gitCannotSetTheRepositoryLabelOrTheRevision() {
    Function sneaky = declared("hello").metadataLabel("gitfn.io/repository", "other.repo").build();
    sneaky.getMetadata().setAnnotations(Map.of("gitfn.io/revision", "forged", "gitfn.io/applied-hash", "forged"));

    AppliedFunction applied = AppliedFunction.of(sneaky, "team-a", "team-a.infra", revision(1));

    assertThat(applied.object().getMetadata().getLabels()).containsEntry("gitfn.io/repository", "team-a.infra");
    assertThat(applied.object().getMetadata().getAnnotations())
        .doesNotContainValue("forged")
        .isEqualTo(AppliedFunction.of(declared("hello").build(), "team-a", "team-a.infra", revision(1))
            .object().getMetadata().getAnnotations());
  }

  @Test
  void theHashIgnoresTheRevisionAndFollowsTheContent() {
    String first = AppliedFunction.of(declared("hello").build(), "ns", "ns.infra", revision(1)).hash();

    assertThat(AppliedFunction.of(declared("hello").build(), "ns", "ns.infra", revision(2)).hash()).isEqualTo(first);
    assertThat(AppliedFunction.of(declared("hello").env("A", "1").build(), "ns", "ns.infra", revision(2)).hash())
        .isNotEqualTo(first);
    assertThat(
        AppliedFunction.of(declared("hello").metadataLabel("x", "y").build(), "ns", "ns.infra", revision(2)).hash())
        .isNotEqualTo(first);
    assertThat(AppliedFunction.of(declared("hello").build(), "other", "ns.infra", revision(2)).hash())
        .isNotEqualTo(first);
  }

  @ParameterizedTest(name = "replicas {0}, scaleConfig {1}..{2}: sent {3}")
  @CsvSource({
    "2,  ,  , true",   // no HPA: Git owns replicas
    " ,  ,  , false",  // Git says nothing: the schema default or someone else decides
    "2, 2, 2, true",   // a fixed scaleConfig means no HPA
    "2, 1, 3, false",  // an HPA scales between 1 and 3 and owns replicas
    " , 1, 3, false",
  })
  void replicasAreSentOnlyWhenNoHpaDrivesThem(Integer replicas, Integer min, Integer max, boolean sent) {
    TestFunction fixture = declared("hello");
    if (replicas != null) {
      fixture.replicas(replicas);
    }
    if (min != null) {
      fixture.scale(min, max);
    }

    AppliedFunction applied = AppliedFunction.of(fixture.build(), "ns", "ns.infra", revision(1));

    assertThat(spec(applied.object()).containsKey("replicas")).isEqualTo(sent);
  }

  @Test
  void aLiveObjectWithServerDefaultsAndAnOlderRevisionSatisfiesIt() {
    AppliedFunction applied =
        AppliedFunction.of(declared("hello").env("A", "1").build(), "ns", "ns.infra", revision(2));
    GenericKubernetesResource live =
        asStored(AppliedFunction.of(declared("hello").env("A", "1").build(), "ns", "ns.infra", revision(1)));

    assertThat(applied.isSatisfiedBy(live)).isTrue();
  }

  @Test
  void aLiveObjectEditedByHandDoesNotSatisfyIt() {
    AppliedFunction applied =
        AppliedFunction.of(declared("hello").env("A", "1").build(), "ns", "ns.infra", revision(1));
    GenericKubernetesResource live = asStored(applied);
    spec(live).put("env", List.of(Map.of("name", "A", "value", "changed by hand")));

    assertThat(applied.isSatisfiedBy(live)).isFalse();
  }

  @Test
  void aFieldRemovedInGitIsAChangeAlthoughTheLiveObjectStillHoldsTheRest() {
    GenericKubernetesResource live =
        asStored(AppliedFunction.of(declared("hello").env("A", "1").build(), "ns", "ns.infra", revision(1)));

    AppliedFunction withoutEnv = AppliedFunction.of(declared("hello").build(), "ns", "ns.infra", revision(2));

    assertThat(withoutEnv.isSatisfiedBy(live)).isFalse();
  }

  @Test
  void anHpaScalingTheLiveObjectDoesNotMakeItDiffer() {
    AppliedFunction applied =
        AppliedFunction.of(declared("hello").replicas(1).scale(1, 5).build(), "ns", "ns.infra", revision(1));
    GenericKubernetesResource live = asStored(applied);
    spec(live).put("replicas", 4);

    assertThat(applied.isSatisfiedBy(live)).isTrue();
  }

  /** The object as the API server stores it: JSON round trip, a default, a resourceVersion. */
  static GenericKubernetesResource asStored(AppliedFunction applied) {
    GenericKubernetesResource stored = JSON.unmarshal(JSON.asJson(applied.object()), GenericKubernetesResource.class);
    stored.getMetadata().setResourceVersion("42");
    spec(stored).putIfAbsent("replicas", 1);
    return stored;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> spec(GenericKubernetesResource object) {
    return (Map<String, Object>) object.getAdditionalProperties().get("spec");
  }
}
