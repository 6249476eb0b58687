package io.gitfn.preview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.api.KubernetesNames;
import io.gitfn.api.Labels;
import org.junit.jupiter.api.Test;

/**
 * A preview's namespace is {@code <namespace>-pr-<number>} and its repository {@code <repository>-pr-<number>}; a
 * name past Kubernetes' limits is cut and given a hash of the whole, so that it stays a valid name, unique, and the
 * same on every controller.
 */
class PreviewNamesTest {

  /** 63 characters, the longest namespace there is. */
  private static final String LONGEST = "a".repeat(50) + "-longest-ns12";

  @Test
  void aPreviewNamespaceIsTheNamespaceWithThePullRequestsNumber() {
    assertThat(PreviewNames.namespace("team-a", 7)).isEqualTo("team-a-pr-7");
  }

  @Test
  void aNamespaceThatFitsAsItIsIsNotCut() {
    String namespace = "n".repeat(58);

    assertThat(PreviewNames.namespace(namespace, 7)).isEqualTo(namespace + "-pr-7").hasSize(63);
  }

  @Test
  void aPreviewOfTheLongestNamespaceIsCutToAValidNamespaceThatStillEndsWithTheNumber() {
    assertThat(LONGEST).hasSize(63);

    String name = PreviewNames.namespace(LONGEST, 7);

    assertThat(name).hasSizeLessThanOrEqualTo(63).endsWith("-pr-7").startsWith("a".repeat(40));
    assertThat(KubernetesNames.isDns1123Label(name)).as("%s is a DNS label", name).isTrue();
    assertThat(KubernetesNames.namespace(name)).isEmpty();
  }

  @Test
  void aCutNamespaceIsTheSameOnEveryCall() {
    assertThat(PreviewNames.namespace(LONGEST, 7)).isEqualTo(PreviewNames.namespace(LONGEST, 7));
  }

  @Test
  void longNamespacesThatShareTheirBeginningGetDifferentPreviewNamespaces() {
    String prefix = "shared-".repeat(8).substring(0, 50);
    String one = prefix + "-one-" + "x".repeat(8);
    String two = prefix + "-two-" + "x".repeat(8);

    assertThat(PreviewNames.namespace(one, 7)).isNotEqualTo(PreviewNames.namespace(two, 7));
  }

  @Test
  void previewsOfTwoPullRequestsInALongNamespaceDiffer() {
    assertThat(PreviewNames.namespace(LONGEST, 7)).isNotEqualTo(PreviewNames.namespace(LONGEST, 8));
  }

  @Test
  void aCutThatWouldEndInADashDropsTheDash() {
    // Cut beside "-pr-7" and an 8-digit hash, 49 characters of the namespace are kept: here the 49th is a dash.
    String namespace = "a".repeat(48) + "-" + "b".repeat(14);

    String name = PreviewNames.namespace(namespace, 7);

    assertThat(name).doesNotContain("--").startsWith("a".repeat(48) + "-").endsWith("-pr-7");
    assertThat(KubernetesNames.isDns1123Label(name)).as("%s is a DNS label", name).isTrue();
  }

  @Test
  void aLargePullRequestNumberStaysWhole() {
    String name = PreviewNames.namespace(LONGEST, 1_234_567_890L);

    assertThat(name).hasSizeLessThanOrEqualTo(63).endsWith("-pr-1234567890");
    assertThat(KubernetesNames.isDns1123Label(name)).isTrue();
  }

  @Test
  void aPreviewRepositoryIsTheRepositoryWithThePullRequestsNumber() {
    assertThat(PreviewNames.repository("team-a", "shop", 7)).isEqualTo("shop-pr-7");
  }

  @Test
  void aPreviewRepositoryIsCutSoThatItsRepositoryLabelFits() {
    String repository = "r".repeat(60);

    String name = PreviewNames.repository("team-a", repository, 7);

    assertThat(name).endsWith("-pr-7").startsWith("rrrr");
    assertThat(Labels.repository("team-a", name)).hasSizeLessThanOrEqualTo(63);
    assertThat(KubernetesNames.labelValue(Labels.repository("team-a", name))).isEmpty();
    assertThat(KubernetesNames.isDns1123Subdomain(name)).isTrue();
  }

  @Test
  void aPreviewRepositoryThatFitsExactlyIsNotCut() {
    // "team-a." is 7 characters, which leaves 56 for the name.
    String repository = "r".repeat(51);

    assertThat(PreviewNames.repository("team-a", repository, 7)).isEqualTo(repository + "-pr-7");
  }

  @Test
  void theLongerTheNamespaceTheShorterThePreviewRepository() {
    String namespace = "n".repeat(40);
    String repository = "shop-" + "r".repeat(40);

    String name = PreviewNames.repository(namespace, repository, 7);

    assertThat(Labels.repository(namespace, name)).hasSizeLessThanOrEqualTo(63);
    assertThat(name).startsWith("shop").endsWith("-pr-7");
  }

  @Test
  void aCutRepositoryNameThatWouldEndInADotDropsIt() {
    // 56 characters are left beside "team-a."; cut beside "-pr-7" and the hash, 42 are kept: the 42nd is a dot.
    String repository = "s".repeat(41) + ".v2-" + "r".repeat(20);

    String name = PreviewNames.repository("team-a", repository, 7);

    assertThat(name).startsWith("s".repeat(41) + "-").doesNotContain(".");
    assertThat(KubernetesNames.isDns1123Subdomain(name)).isTrue();
  }

  @Test
  void longRepositoryNamesThatShareTheirBeginningGetDifferentPreviewRepositories() {
    String prefix = "r".repeat(50);

    assertThat(PreviewNames.repository("team-a", prefix + "-one", 7))
        .isNotEqualTo(PreviewNames.repository("team-a", prefix + "-two", 7))
        .isEqualTo(PreviewNames.repository("team-a", prefix + "-one", 7));
  }

  @Test
  void whereNoHashFitsBesideTheNamespaceThePreviewRepositoryIsPrAndTheNumber() {
    String namespace = "n".repeat(55);

    String name = PreviewNames.repository(namespace, "shop", 7);

    assertThat(name).isEqualTo("pr-7");
    assertThat(namespace + "." + name).hasSizeLessThanOrEqualTo(63);
  }

  @Test
  void aNamespaceWithNoRoomEvenForPrAndTheNumberIsRefusedByName() {
    String namespace = "n".repeat(60);

    assertThatThrownBy(() -> PreviewNames.repository(namespace, "shop", 7))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(namespace).hasMessageContaining("63");
  }
}
