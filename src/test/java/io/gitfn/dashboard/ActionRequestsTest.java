package io.gitfn.dashboard;

import static io.gitfn.dashboard.DashboardServerTest.function;
import static io.gitfn.dashboard.DashboardServerTest.repository;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Who may act from the dashboard: nobody without a token the API server accepts and an authorizer that agrees. */
class ActionRequestsTest {

  private static final Caller ALICE = new Caller("alice", "u-1", List.of("team-a"), Map.of());
  private static final String REPOSITORY = "/repositories/shop/infra/actions/";
  private static final String FUNCTION = "/functions/shop/hello/actions/";

  private final List<String> performed = new ArrayList<>();
  private final DashboardServer.Source source = new DashboardServer.Source() {
    @Override
    public Collection<FunctionRepository> repositories() {
      return List.of(repository("shop", "infra", null, "True", "Succeeded", "runs"));
    }

    @Override
    public Collection<Function> functions() {
      return List.of(function("shop", "hello", "shop.infra", "True"));
    }

    @Override
    public Optional<Deployment> deploymentOf(Function fn) {
      return Optional.empty();
    }

    @Override
    public Collection<Job> jobsOf(Function fn) {
      return List.of();
    }
  };

  @Test
  void anAllowedCallerActsAndIsToldWhatHappened() {
    ActionRequests.Answer answer = requests(true).handle(REPOSITORY + "suspend", "Bearer good", null, source);

    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.message()).isEqualTo("suspended FunctionRepository shop/infra");
    assertThat(performed).containsExactly("alice: SUSPEND_REPOSITORY shop/infra null");
  }

  @Test
  void withoutATokenOrWithOneTheApiServerRefusesNothingHappens() {
    ActionRequests requests = requests(true);

    ActionRequests.Answer none = requests.handle(REPOSITORY + "reconcile", null, null, source);
    ActionRequests.Answer basic = requests.handle(REPOSITORY + "reconcile", "Basic YWxpY2U6eA==", null, source);
    ActionRequests.Answer empty = requests.handle(REPOSITORY + "reconcile", "Bearer ", null, source);
    ActionRequests.Answer unknown = requests.handle(REPOSITORY + "reconcile", "Bearer made-up", null, source);

    assertThat(List.of(none, basic, empty, unknown)).extracting(ActionRequests.Answer::status)
        .containsOnly(401);
    assertThat(none.challenge()).hasValue("Bearer realm=\"gitfn dashboard\"");
    assertThat(none.message()).contains("Authorization: Bearer <token>");
    assertThat(unknown.message()).isEqualTo("the API server did not accept the token");
    assertThat(performed).isEmpty();
  }

  @Test
  void aCallerTheAuthorizerRefusesIsToldWhichRightIsMissing() {
    ActionRequests.Answer answer = requests(false).handle(FUNCTION + "unpin", "Bearer good", null, source);

    assertThat(answer.status()).isEqualTo(403);
    assertThat(answer.message()).isEqualTo("alice may not patch functions.serverless.kyma-project.io in namespace"
        + " shop, which unpin needs; nothing changed");
    assertThat(performed).isEmpty();
  }

  @Test
  void onlyActionsOnObjectsInTheCacheAreTried() {
    ActionRequests requests = requests(true);

    assertThat(requests.handle(REPOSITORY + "delete", "Bearer good", null, source).status()).isEqualTo(404);
    assertThat(requests.handle("/repositories/shop/other/actions/suspend", "Bearer good", null, source).status())
        .isEqualTo(404);
    assertThat(requests.handle("/repositories/shop/infra/reconcile", "Bearer good", null, source).status())
        .isEqualTo(404);
    assertThat(requests.handle("/functions/Shop/hello/actions/pin", "Bearer good", null, source).status())
        .isEqualTo(404);
    assertThat(requests.handle("/functions/shop/hello/actions/pin/more", "Bearer good", null, source).status())
        .isEqualTo(404);
    assertThat(performed).isEmpty();
  }

  @Test
  void aPinNeedsARevisionOfReasonableLengthAndOneTheHistoryCanPin() {
    ActionRequests requests = requests(true);

    assertThat(requests.handle(FUNCTION + "pin", "Bearer good", null, source).status()).isEqualTo(400);
    assertThat(requests.handle(FUNCTION + "pin", "Bearer good", "x".repeat(301), source).status()).isEqualTo(400);
    ActionRequests.Answer refused = requests.handle(FUNCTION + "pin", "Bearer good", "main@sha1:unknown", source);

    assertThat(refused.status()).isEqualTo(409);
    assertThat(refused.message()).isEqualTo("no such revision; nothing changed");
  }

  @Test
  void whileTwoActionsAreCheckedAThirdIsToldToComeBack() throws Exception {
    CountDownLatch inReview = new CountDownLatch(ActionRequests.AT_ONCE);
    CountDownLatch release = new CountDownLatch(1);
    ActionRequests requests = new ActionRequests(new Recording(true) {
      @Override
      public Optional<Caller> caller(String token) {
        inReview.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return super.caller(token);
      }
    });
    List<CompletableFuture<ActionRequests.Answer>> slow = new ArrayList<>();
    for (int i = 0; i < ActionRequests.AT_ONCE; i++) {
      slow.add(CompletableFuture.supplyAsync(() -> requests.handle(REPOSITORY + "reconcile", "Bearer good", null,
          source)));
    }
    inReview.await();

    assertThat(requests.handle(REPOSITORY + "reconcile", "Bearer good", null, source).status()).isEqualTo(429);
    release.countDown();
    assertThat(slow).allSatisfy(f -> assertThat(f.get().status()).isEqualTo(200));
    assertThat(requests.handle(REPOSITORY + "reconcile", "Bearer good", null, source).status()).isEqualTo(200);
  }

  private ActionRequests requests(boolean allowed) {
    return new ActionRequests(new Recording(allowed));
  }

  /** Accepts the token "good" as alice's, lets her do anything or nothing, and notes what was done. */
  private class Recording implements DashboardServer.Actions {
    private final boolean allowed;

    Recording(boolean allowed) {
      this.allowed = allowed;
    }

    @Override
    public Optional<Caller> caller(String token) {
      return token.equals("good") ? Optional.of(ALICE) : Optional.empty();
    }

    @Override
    public boolean allowed(Caller caller, Action action, String namespace, String name) {
      return allowed;
    }

    @Override
    public String perform(Caller caller, Action action, String namespace, String name, String revision) {
      if (action == Action.PIN_FUNCTION && revision.equals("main@sha1:unknown")) {
        throw new ActionRefusedException("no such revision");
      }
      synchronized (performed) {
        performed.add(caller.user() + ": " + action + " " + namespace + "/" + name + " " + revision);
      }
      return action.done(namespace, name);
    }
  }
}
