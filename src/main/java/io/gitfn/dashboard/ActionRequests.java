package io.gitfn.dashboard;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A request to act, {@code POST <pages><namespace>/<name>/actions/<word>} with {@code Authorization: Bearer <token>}:
 * nothing happens unless the API server accepts the token and lets its owner patch the object. A browser does not
 * send such a header to another origin without asking first, which the dashboard never answers, so another site
 * cannot make a visitor act.
 *
 * <p>Each request costs the API server two reviews, so at most {@value #AT_ONCE} are checked at a time and the others
 * are told to come back: a flood of made-up tokens keeps the pages' threads free.
 */
final class ActionRequests {

  private static final Logger log = LoggerFactory.getLogger(ActionRequests.class);
  static final int AT_ONCE = 2;
  static final int REVISION = 300;
  private static final String BEARER = "Bearer ";
  private static final String CHALLENGE = "Bearer realm=\"gitfn dashboard\"";

  /**
   * What to answer.
   *
   * @param challenge the {@code WWW-Authenticate} header of a 401
   */
  record Answer(int status, String message, Optional<String> challenge) {
    static Answer of(int status, String message) {
      return new Answer(status, message, Optional.empty());
    }
  }

  private final DashboardServer.Actions actions;
  private final Semaphore checks = new Semaphore(AT_ONCE);

  ActionRequests(DashboardServer.Actions actions) {
    this.actions = actions;
  }

  /**
   * @param authorization the request's {@code Authorization} header, or null
   * @param revision the {@code revision} query parameter, or null
   */
  Answer handle(String path, String authorization, String revision, DashboardServer.Source source) {
    Optional<Target> target = Target.of(path, source);
    if (target.isEmpty()) {
      return Answer.of(404, "no such action on an object in the controller's cache; actions are POST"
          + " <page>/actions/<action>, such as /repositories/<namespace>/<name>/actions/reconcile");
    }
    Target t = target.get();
    if (authorization == null || !authorization.startsWith(BEARER) || authorization.length() == BEARER.length()) {
      return new Answer(401, "actions need a bearer token of yours (kubectl create token, or your kubeconfig's): "
          + "send it as Authorization: Bearer <token>", Optional.of(CHALLENGE));
    }
    if (revision != null && revision.length() > REVISION) {
      return Answer.of(400, "the revision is longer than " + REVISION + " characters");
    }
    if (t.action() == Action.PIN_FUNCTION && (revision == null || revision.isBlank())) {
      return Answer.of(400, "pin needs ?revision=<a revision of the Function's history>");
    }
    if (!checks.tryAcquire()) {
      return Answer.of(429, "other actions are being checked; try again in a moment");
    }
    try {
      Optional<Caller> caller = actions.caller(authorization.substring(BEARER.length()).strip());
      if (caller.isEmpty()) {
        return new Answer(401, "the API server did not accept the token", Optional.of(CHALLENGE));
      }
      String who = caller.get().user();
      if (!actions.allowed(caller.get(), t.action(), t.namespace(), t.name())) {
        log.info("dashboard: {} may not {} {}", who, t.action().word(), t.describe());
        return Answer.of(403, who + " may not " + Action.VERB + " " + t.action().kind().resource() + "."
            + t.action().kind().group() + " in namespace " + t.namespace() + ", which " + t.action().word()
            + " needs; nothing changed");
      }
      String done = actions.perform(caller.get(), t.action(), t.namespace(), t.name(), revision);
      log.info("dashboard: {} {}", who, done);
      return Answer.of(200, done);
    } catch (ActionRefusedException e) {
      return Answer.of(409, e.getMessage() + "; nothing changed");
    } catch (KubernetesClientException e) {
      log.warn("dashboard: {} of {} failed", t.action().word(), t.describe(), e);
      return Answer.of(502, "the API server did not take it (" + e.getCode() + "); nothing changed: "
          + apiMessage(e));
    } finally {
      checks.release();
    }
  }

  private static String apiMessage(KubernetesClientException e) {
    String message = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
        : String.valueOf(e.getMessage());
    return Texts.cut(message, 500);
  }

  /** The action a path names, on an object of the controller's cache, if it names one. */
  record Target(Action action, String namespace, String name) {

    private static final String ACTIONS = "/actions/";

    /** {@code <page of the object>/actions/<word>}, the object found as its page finds it. */
    static Optional<Target> of(String path, DashboardServer.Source source) {
      int at = path.lastIndexOf(ACTIONS);
      if (at < 0) {
        return Optional.empty();
      }
      for (Action.Kind kind : Action.Kind.values()) {
        Optional<Action> action = Action.of(kind, path.substring(at + ACTIONS.length()));
        Collection<? extends HasMetadata> cached = kind == Action.Kind.REPOSITORY
            ? source.repositories() : source.functions();
        Optional<? extends HasMetadata> object = action.isEmpty() ? Optional.empty()
            : DashboardServer.named(path.substring(0, at), kind.pages(), cached);
        if (object.isPresent()) {
          return Optional.of(new Target(action.get(), object.get().getMetadata().getNamespace(),
              object.get().getMetadata().getName()));
        }
      }
      return Optional.empty();
    }

    String describe() {
      return (action.kind() == Action.Kind.REPOSITORY ? "FunctionRepository " : "Function ") + namespace + "/" + name;
    }
  }
}
