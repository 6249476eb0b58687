package io.gitfn.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The merge patches the CLI and the dashboard send, as the API server receives them: each changes only what its
 * request is about, so it leaves alone whatever else a person or a sync wrote.
 */
class ControllerRequestsTest {

  private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-27T10:15:30.123Z"), ZoneOffset.UTC);

  private final List<String> sent = new ArrayList<>();
  private final ControllerRequests requests = new ControllerRequests((kind, namespace, name, patch) -> {
    sent.add(kind.getSimpleName() + " " + namespace + "/" + name + " " + patch);
    return null;
  }, NOW);

  @Test
  void reconcilingARepositoryAnnotatesItWithTheTimeOfTheRequest() {
    requests.reconcileRepository("shop", "infra");

    assertThat(sent).containsExactly("FunctionRepository shop/infra "
        + json("{'metadata':{'annotations':{'gitfn.io/requested-at':'2026-11-27T10:15:30.123Z'}}}"));
  }

  @Test
  void suspendingARepositorySetsSpecSuspendAndAsksNothingElse() {
    requests.suspendRepository("shop", "infra");

    assertThat(sent).containsExactly("FunctionRepository shop/infra " + json("{'spec':{'suspend':true}}"));
  }

  @Test
  void resumingARepositoryClearsSpecSuspendAndAsksForACheckInTheSameWrite() {
    requests.resumeRepository("shop", "infra");

    assertThat(sent).containsExactly("FunctionRepository shop/infra "
        + json("{'metadata':{'annotations':{'gitfn.io/requested-at':'2026-11-27T10:15:30.123Z'}},"
            + "'spec':{'suspend':false}}"));
  }

  @Test
  void reconcilingAFunctionAnnotatesItAsARepositoryIsAnnotated() {
    requests.reconcileFunction("shop", "hello");

    assertThat(sent).containsExactly("Function shop/hello "
        + json("{'metadata':{'annotations':{'gitfn.io/requested-at':'2026-11-27T10:15:30.123Z'}}}"));
  }

  @Test
  void aPinIsTheRevisionsAnnotationAndAnUnpinRemovesItWithNull() {
    requests.pinFunction("shop", "hello", "main@sha1:0123456789abcdef0123456789abcdef01234567");
    requests.unpinFunction("shop", "hello");

    assertThat(sent).containsExactly(
        "Function shop/hello " + json("{'metadata':{'annotations':"
            + "{'gitfn.io/pinned-revision':'main@sha1:0123456789abcdef0123456789abcdef01234567'}}}"),
        "Function shop/hello " + json("{'metadata':{'annotations':{'gitfn.io/pinned-revision':null}}}"));
  }

  /** JSON written with single quotes, which read better inside a Java string. */
  private static String json(String singleQuoted) {
    return singleQuoted.replace('\'', '"');
  }
}
