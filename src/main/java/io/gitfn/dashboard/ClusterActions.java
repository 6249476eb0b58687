package io.gitfn.dashboard;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.events.EventRecorder;
import io.gitfn.request.ControllerRequests;
import io.gitfn.rollback.KnownRevisions;
import io.gitfn.rollback.RollbackException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The dashboard's actions on a cluster: the API server says who a token belongs to (TokenReview) and whether they
 * may patch the object (SubjectAccessReview, the verb the CLI would need); the controller's own client then makes
 * the same change the CLI makes ({@link ControllerRequests}), and records an Event on the object saying who asked
 * for it ({@value #REASON}), as the API server's audit log would otherwise name only the controller. The person's
 * token is used for nothing else and kept nowhere.
 */
public final class ClusterActions implements DashboardServer.Actions {

  /** The reason of the Event each action records: {@code kubectl events --for ... | grep DashboardAction}. */
  public static final String REASON = "DashboardAction";

  private final KubernetesClient client;
  private final ControllerRequests requests;
  private final EventRecorder events;

  public ClusterActions(KubernetesClient client, Clock clock, EventRecorder events) {
    this.client = client;
    this.requests = new ControllerRequests(client, clock);
    this.events = events;
  }

  @Override
  public Optional<Caller> caller(String token) {
    TokenReview review = client.authentication().v1().tokenReviews().create(new TokenReviewBuilder()
        .withNewSpec().withToken(token).endSpec().build());
    if (review.getStatus() == null || !Boolean.TRUE.equals(review.getStatus().getAuthenticated())
        || review.getStatus().getUser() == null) {
      return Optional.empty();
    }
    UserInfo user = review.getStatus().getUser();
    return Optional.of(new Caller(user.getUsername(), user.getUid(),
        user.getGroups() == null ? List.of() : List.copyOf(user.getGroups()),
        user.getExtra() == null ? Map.of() : Map.copyOf(user.getExtra())));
  }

  @Override
  public boolean allowed(Caller caller, Action action, String namespace, String name) {
    SubjectAccessReview review = client.authorization().v1().subjectAccessReview().create(
        new SubjectAccessReviewBuilder().withNewSpec()
            .withUser(caller.user()).withUid(caller.uid()).withGroups(caller.groups()).withExtra(caller.extra())
            .withNewResourceAttributes()
            .withVerb(Action.VERB).withGroup(action.kind().group()).withResource(action.kind().resource())
            .withNamespace(namespace).withName(name)
            .endResourceAttributes()
            .endSpec().build());
    return review.getStatus() != null && Boolean.TRUE.equals(review.getStatus().getAllowed());
  }

  @Override
  public String perform(Caller caller, Action action, String namespace, String name, String revision) {
    String done = action.done(namespace, name);
    HasMetadata changed = switch (action) {
      case RECONCILE_REPOSITORY -> requests.reconcileRepository(namespace, name);
      case SUSPEND_REPOSITORY -> requests.suspendRepository(namespace, name);
      case RESUME_REPOSITORY -> requests.resumeRepository(namespace, name);
      case RECONCILE_FUNCTION -> requests.reconcileFunction(namespace, name);
      case PIN_FUNCTION -> {
        Function fn = function(namespace, name);
        FunctionHistoryEntry entry;
        try {
          entry = KnownRevisions.of(fn).pinnable(Objects.requireNonNullElse(revision, ""));
        } catch (RollbackException e) {
          throw new ActionRefusedException(e.getMessage());
        }
        requests.pinFunction(namespace, name, entry.getRevision());
        done += " to " + entry.getRevision() + " (image " + entry.getImage() + ")";
        yield fn;
      }
      case UNPIN_FUNCTION -> {
        Function fn = function(namespace, name);
        requests.unpinFunction(namespace, name);
        yield fn;
      }
    };
    events.normal(changed, REASON, caller.user() + " " + done + " from the dashboard");
    return done;
  }

  private Function function(String namespace, String name) {
    Function fn = client.resources(Function.class).inNamespace(namespace).withName(name).get();
    if (fn == null) {
      throw new ActionRefusedException("Function " + namespace + "/" + name + " is not there any more");
    }
    return fn;
  }
}
