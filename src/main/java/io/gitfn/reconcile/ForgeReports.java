package io.gitfn.reconcile;

import static io.gitfn.api.repository.RepositoryConditionReason.INVALID_SECRET;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.CommitStatusReport;
import io.gitfn.notify.CommitState;
import io.gitfn.notify.CommitStatus;
import io.gitfn.notify.CommitStatusReporter;
import io.gitfn.notify.CommitStatusSender;
import io.gitfn.notify.Forge;
import io.gitfn.notify.ForgeRepository;
import io.gitfn.notify.GenericNotification;
import io.gitfn.source.Revision;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Commit statuses for both kinds: what a pass found about a revision goes to the forge through one
 * {@link CommitStatusReporter}, and the pass shows how the forge took the newest one. A pass prepares its report,
 * and sends it only once its own status is written: the forge never hears of a state the API server does not show.
 * Nothing here fails a pass: a missing Secret, a URL whose forge is unknown or a forge that refuses show in the
 * report alone.
 *
 * <p>The reporter keeps the newest status of each resource in memory until the forge took it. After a restart a
 * status not yet sent is prepared again from the resource's state, since the status shows it was not sent; one sent
 * is not sent again ({@code alreadyTold}).
 */
public final class ForgeReports implements AutoCloseable {

  /**
   * What a pass shows of its report, and what it sends once its status is written.
   *
   * @param shown what {@code status.commitStatus} (or {@code status.notification}) should show; empty to keep it
   * @param send the request to hand to the reporter after the status write, if there is one to make
   */
  public record Prepared(Optional<CommitStatusReport> shown, Optional<Runnable> send) {}

  /**
   * What a pass found about a revision, for the forge's commit status and the generic notification.
   *
   * @param reason the condition reason behind it, such as {@code Succeeded} or {@code FunctionsFailed}
   */
  public record Verdict(Revision revision, CommitState state, String reason, String description) {}

  /**
   * Where a generic notification goes: {@code url}, signed with the {@code token} of {@code secret}.
   *
   * @param secretField the field that names the Secret, for messages
   */
  public record Endpoint(String kind, String namespace, String name, String url, String secret, String secretField) {

    String key() {
      return NOTIFY + kind + "/" + namespace + "/" + name;
    }
  }

  private static final String NOTIFY = "notify:";

  /**
   * Where and as whom to report.
   *
   * @param kind the resource's kind, which wakes the resource when the forge answered
   * @param url the repository URL, which the forge and its API are derived from
   * @param secret the Secret with the forge's {@code token}, and the field that names it, for messages
   * @param forge the forge's id when the spec names it, else null
   * @param apiUrl the API base override, else null
   * @param targetUrl where the status links to (a preview's URL), else null
   */
  public record Target(String kind, String namespace, String name, String url, String secret, String secretField,
      String forge, String apiUrl, String targetUrl) {

    public Target(String kind, String namespace, String name, String url, String secret, String secretField,
        String forge, String apiUrl) {
      this(kind, namespace, name, url, secret, secretField, forge, apiUrl, null);
    }

    String key() {
      return kind + "/" + namespace + "/" + name;
    }
  }

  private final KubernetesClient client;
  private final ControllerSettings settings;
  private final Clock clock;
  private final CommitStatusReporter reporter;
  private final Map<String, Consumer<ResourceID>> wakes = new ConcurrentHashMap<>();

  public ForgeReports(KubernetesClient client, ControllerSettings settings, Clock clock, MeterRegistry meters) {
    this.client = client;
    this.settings = settings;
    this.clock = clock;
    this.reporter = new CommitStatusReporter(new CommitStatusSender()::send, clock, this::wake, meters);
  }

  /** {@code wake} is told the resource of {@code kind} whose commit status the forge has answered for. */
  public void onAnswer(String kind, Consumer<ResourceID> wake) {
    wakes.put(kind, wake);
  }

  /** {@code gitfn/<cluster>/<namespace>/<name>}, with {@code function/} before a Function's name. */
  public String context(Target target) {
    return "gitfn/" + settings.clusterName() + "/" + target.namespace() + "/"
        + (target.kind().equals("Function") ? "function/" : "") + target.name();
  }

  /**
   * Prepares {@code verdict} for the forge unless {@code last} says the forge has it already (after a restart too),
   * and says what the resource's status should show: the newest outcome, or {@code last} when there is none, or why
   * the report cannot be made (a missing token, an unknown forge).
   */
  public Prepared commitStatus(Target target, Optional<Verdict> verdict, CommitStatusReport last) {
    String context = context(target);
    Optional<Runnable> send = Optional.empty();
    if (verdict.isPresent() && !alreadyTold(last, verdict.get(), context)) {
      Verdict v = verdict.get();
      try {
        ForgeRepository forge = forgeOf(target);
        String token = token(target.namespace(), target.secret(), target.secretField());
        CommitStatus status = new CommitStatus(v.revision().sha(), v.state(), context, v.description(),
            target.targetUrl());
        send = Optional.of(() -> reporter.report(target.key(), forge, token, status, v.revision().toString()));
      } catch (StepFailure | IllegalArgumentException e) {
        return invalid(target.key(), v, context, e.getMessage(), last);
      }
    }
    return new Prepared(outcome(target.key()).or(() -> Optional.ofNullable(last)), send);
  }

  private Prepared invalid(String key, Verdict v, String context, String why, CommitStatusReport last) {
    reporter.forget(key);
    CommitStatusReport invalid = report(v.revision().toString(), v.state().word(), context, "Invalid", why,
        clock.instant());
    // The same refusal at every pass keeps its first time: a new one would be a status write each pass.
    return new Prepared(Optional.of(sameBut(last, invalid) ? last : invalid), Optional.empty());
  }

  /** A forge repository and a token that may act on it. The token is never shown. */
  public record Access(ForgeRepository repository, String token) {
    @Override
    public String toString() {
      return "Access[" + repository + "]";
    }
  }

  /**
   * The forge and token {@code target} names, for calls other than commit statuses (a preview's pull requests).
   *
   * @throws StepFailure when the Secret is missing or has no token
   * @throws IllegalArgumentException when the forge cannot be told from the URL, or its API host is not allowed
   */
  public Access access(Target target) throws StepFailure {
    return new Access(forgeOf(target), token(target.namespace(), target.secret(), target.secretField()));
  }

  /** The {@code token} of the Secret {@code field} names; a Secret the API server did not hand over is invalid too. */
  private String token(String namespace, String secret, String field) throws StepFailure {
    String token = SourceBinding.secret(client, namespace, secret, field).get("token");
    if (token == null || token.isBlank()) {
      throw StepFailure.stalled(INVALID_SECRET, field + " " + secret + " has no key `token`");
    }
    return token;
  }

  private Optional<CommitStatusReport> outcome(String key) {
    return reporter.outcome(key).map(o -> report(o.revision(), o.status().state().word(), o.status().context(),
        switch (o.result()) {
          case SENDING -> "Sending";
          case SENT -> "Sent";
          case RETRYING -> "Retrying";
          case REJECTED -> "Rejected";
        }, o.error().isEmpty() ? null : o.error(), o.time()));
  }

  /**
   * Prepares {@code verdict} for {@code endpoint} as a signed generic notification, unless {@code last} says it got
   * this state of this revision already; says what the resource's status should show, as {@link #commitStatus}
   * does. The URL's host must be one the controller may reach ({@code --allowed-git-host}).
   */
  public Prepared notification(Endpoint endpoint, Optional<Verdict> verdict, CommitStatusReport last) {
    String context = context(new Target(endpoint.kind(), endpoint.namespace(), endpoint.name(), "", "", "", null,
        null));
    Optional<Runnable> send = Optional.empty();
    if (verdict.isPresent() && !alreadyTold(last, verdict.get(), context)) {
      Verdict v = verdict.get();
      try {
        URI url = URI.create(endpoint.url());
        if (url.getHost() == null || !settings.gitHosts().allows(url.getHost())) {
          throw new IllegalArgumentException("the notification URL's host " + url.getHost() + " is not one the"
              + " controller may reach (--allowed-git-host: " + settings.gitHosts() + ")");
        }
        byte[] token = token(endpoint.namespace(), endpoint.secret(), endpoint.secretField()).strip()
            .getBytes(StandardCharsets.UTF_8);
        CommitStatus status = new CommitStatus(v.revision().sha(), v.state(), context, v.description(), null);
        GenericNotification notification = new GenericNotification(endpoint.kind().equals("Function")
            ? GenericNotification.Kind.FUNCTION : GenericNotification.Kind.FUNCTION_REPOSITORY,
            endpoint.namespace(), endpoint.name(), v.revision().toString(), status, v.reason(), clock.instant(),
            settings.clusterName());
        send = Optional.of(() -> reporter.notify(endpoint.key(), url, token, notification));
      } catch (StepFailure | IllegalArgumentException e) {
        return invalid(endpoint.key(), v, context, e.getMessage(), last);
      }
    }
    return new Prepared(outcome(endpoint.key()).or(() -> Optional.ofNullable(last)), send);
  }

  /** The resource is gone: its pending status and notification are dropped. */
  public void forget(String kind, String namespace, String name) {
    forgetStatus(kind, namespace, name);
    forgetNotification(kind, namespace, name);
  }

  /** The resource reports no commit status any more. */
  public void forgetStatus(String kind, String namespace, String name) {
    reporter.forget(kind + "/" + namespace + "/" + name);
  }

  /** The resource sends no notification any more. */
  public void forgetNotification(String kind, String namespace, String name) {
    reporter.forget(NOTIFY + kind + "/" + namespace + "/" + name);
  }

  @Override
  public void close() {
    reporter.close();
  }

  /** The forge has this revision's state already, as the status says it accepted it. */
  private static boolean alreadyTold(CommitStatusReport last, Verdict verdict, String context) {
    return last != null && "Sent".equals(last.getResult()) && verdict.revision().toString().equals(last.getRevision())
        && verdict.state().word().equals(last.getState()) && context.equals(last.getContext());
  }

  /** The two reports differ in their time at most. */
  private static boolean sameBut(CommitStatusReport last, CommitStatusReport next) {
    return last != null && java.util.Objects.equals(last.getRevision(), next.getRevision())
        && java.util.Objects.equals(last.getState(), next.getState())
        && java.util.Objects.equals(last.getContext(), next.getContext())
        && java.util.Objects.equals(last.getResult(), next.getResult())
        && java.util.Objects.equals(last.getError(), next.getError());
  }

  /** The forge of the repository's URL; an apiURL override must name a host the controller may reach. */
  private ForgeRepository forgeOf(Target target) {
    Optional<URI> api = Optional.ofNullable(target.apiUrl()).map(URI::create);
    api.ifPresent(uri -> {
      if (uri.getHost() == null || !settings.gitHosts().allows(uri.getHost())) {
        throw new IllegalArgumentException("the commit status API URL's host " + uri.getHost() + " is not one the"
            + " controller may reach (--allowed-git-host: " + settings.gitHosts() + ")");
      }
    });
    return ForgeRepository.of(target.url(), Optional.ofNullable(target.forge()).map(Forge::parse), api);
  }

  private static CommitStatusReport report(String revision, String state, String context, String result, String error,
      Instant time) {
    CommitStatusReport report = new CommitStatusReport();
    report.setRevision(revision);
    report.setState(state);
    report.setContext(context);
    report.setResult(result);
    report.setError(error == null ? null : StatusDraft.shortened(error));
    report.setTime(time.toString());
    return report;
  }

  private void wake(String key) {
    String[] parts = (key.startsWith(NOTIFY) ? key.substring(NOTIFY.length()) : key).split("/", 3);
    Consumer<ResourceID> wake = wakes.get(parts[0]);
    if (wake != null && parts.length == 3) {
      wake.accept(new ResourceID(parts[2], parts[1]));
    }
  }
}
