package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ShardSelectorTest {

  private static final String FLAG = "--shard-selector";

  @Test
  void anEqualitySelectorMatchesItsShardOnly() {
    ShardSelector a = ShardSelector.parse(FLAG, "gitfn.io/shard=a");
    assertThat(a.matches(Map.of("gitfn.io/shard", "a", "app", "x"))).isTrue();
    assertThat(a.matches(Map.of("gitfn.io/shard", "b"))).isFalse();
    assertThat(a.matches(Map.of())).isFalse();
  }

  @Test
  void theUnshardedInstanceTakesWhatHasNoShardLabel() {
    ShardSelector rest = ShardSelector.parse(FLAG, "!gitfn.io/shard");
    assertThat(rest.matches(Map.of())).isTrue();
    assertThat(rest.matches(Map.of("gitfn.io/shard", "a"))).isFalse();
    assertThat(rest.shardLabelsOf(Map.of("team", "x"))).isEmpty();
  }

  @Test
  void setsInequalityAndSeveralRequirementsParse() {
    ShardSelector s = ShardSelector.parse(FLAG, "gitfn.io/shard in (a, b),tier!=test, region");
    assertThat(s.requirements()).hasSize(3);
    assertThat(s.matches(Map.of("gitfn.io/shard", "b", "region", "eu"))).isTrue();
    assertThat(s.matches(Map.of("gitfn.io/shard", "b", "region", "eu", "tier", "test"))).isFalse();
    assertThat(s.matches(Map.of("gitfn.io/shard", "c", "region", "eu"))).isFalse();
  }

  @Test
  void functionsTakeTheRepositorysValuesOfTheSelectorsKeys() {
    ShardSelector a = ShardSelector.parse(FLAG, "gitfn.io/shard=a");
    assertThat(a.shardLabelsOf(Map.of("gitfn.io/shard", "a", "team", "x"))).containsExactly(
        Map.entry("gitfn.io/shard", "a"));
  }

  @Test
  void theConventionalShardLabelTravelsWhateverTheInstanceSelects() {
    Map<String, String> repository = Map.of("gitfn.io/shard", "b", "team", "x");
    assertThat(ShardSelector.ALL.shardLabelsOf(repository)).containsExactly(Map.entry("gitfn.io/shard", "b"));
    assertThat(ShardSelector.parse(FLAG, "team=x").shardLabelsOf(repository)).containsExactly(
        Map.entry("gitfn.io/shard", "b"), Map.entry("team", "x"));
    assertThat(ShardSelector.ALL.shardLabelsOf(Map.of("team", "x"))).isEmpty();
  }

  @Test
  void noSelectorIsEverything() {
    assertThat(ShardSelector.parse(FLAG, null).isAll()).isTrue();
    assertThat(ShardSelector.parse(FLAG, " ").matches(Map.of("any", "thing"))).isTrue();
  }

  @Test
  void aBrokenSelectorNamesTheFlagAndThePart() {
    assertThatThrownBy(() -> ShardSelector.parse(FLAG, "gitfn.io/shard=a b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("--shard-selector `gitfn.io/shard=a b` is not a label selector")
        .hasMessageContaining("`a b`");
    assertThatThrownBy(() -> ShardSelector.parse(FLAG, "gitfn.io/shard=a,,"))
        .hasMessageContaining("--shard-selector").hasMessageContaining("is not a label key");
    assertThatThrownBy(() -> ShardSelector.parse(FLAG, "-bad=x"))
        .hasMessageContaining("`-bad` is not a label key");
  }
}
