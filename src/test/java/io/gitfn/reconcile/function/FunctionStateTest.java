package io.gitfn.reconcile.function;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionSpec;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.build.ContentKey;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FunctionStateTest {

  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

  @Test
  void aKeyIsKnownGoodOnlyAfterASucceededOrReusedEntry() {
    FunctionState pass = pass(function(null));
    pass.record(key('a'), "img:a", FunctionState.FAILED);
    assertThat(pass.knownGood(key('a'), "img:a")).isFalse();

    pass.record(key('b'), "img:b", FunctionState.SUCCEEDED);
    pass.record(key('a'), "img:a", FunctionState.REUSED);

    assertThat(pass.knownGood(key('a'), "img:a")).isTrue();
    assertThat(pass.knownGood(key('b'), "img:b")).isTrue();
    assertThat(pass.knownGood(key('c'), "img:c")).isFalse();
  }

  @Test
  void aKeyBuiltUnderTheOldImageNameIsNotKnownGoodUnderTheNewOne() {
    FunctionState pass = pass(function(null));
    pass.record(key('a'), "registry.local/shop-hello:a", FunctionState.SUCCEEDED);

    assertThat(pass.knownGood(key('a'), "registry.local/shop/hello:a")).isFalse();
  }

  @Test
  void theSameOutcomeForTheNewestKeyIsNotRecordedTwice() {
    FunctionState pass = pass(function("main@sha1:abc"));
    pass.record(key('a'), "img:a", FunctionState.SUCCEEDED);
    pass.record(key('a'), "img:a", FunctionState.SUCCEEDED);

    assertThat(pass.status().getHistory()).singleElement().satisfies(e -> {
      assertThat(e.getRevision()).isEqualTo("main@sha1:abc");
      assertThat(e.getTime()).isEqualTo("2026-01-01T00:00:00Z");
      assertThat(pass.newestIs(key('a'))).isTrue();
    });
  }

  @Test
  void historyKeepsTheNewestTenAndNamesInlineRevisions() {
    FunctionState pass = pass(function(null));
    String hex = "0123456789abcdef";
    for (int i = 0; i < 12; i++) {
      pass.record(key(hex.charAt(i)), "img:" + i, FunctionState.SUCCEEDED);
    }

    assertThat(pass.status().getHistory()).hasSize(FunctionStatus.HISTORY_LIMIT);
    assertThat(pass.status().getHistory().get(0).getImage()).isEqualTo("img:11");
    assertThat(pass.status().getHistory().get(0).getRevision()).isEqualTo("inline");
  }

  private static FunctionState pass(Function fn) {
    return new FunctionState(fn, null, java.util.List.of(), CLOCK, new KubernetesSerialization());
  }

  private static ContentKey key(char c) {
    return new ContentKey(String.valueOf(c).repeat(64));
  }

  private static Function function(String revision) {
    Function fn = new Function();
    fn.getMetadata().setName("hello");
    fn.getMetadata().setGeneration(1L);
    if (revision != null) {
      fn.getMetadata().setAnnotations(Map.of(Annotations.REVISION, revision));
    }
    fn.setSpec(new FunctionSpec());
    return fn;
  }
}
