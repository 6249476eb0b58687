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
 * Commit statuses for both reconcilers: what a pass found about a revision goes to the forge through one
 * {@link CommitStatusReporter}, and the pass shows how the forge took the newest one. Nothing here fails a pass: a
 * missing Secret, a URL whose forge is unknown or a forge that refuses show in the report alone.
 */
final class ForgeReports implements AutoCloseable {

  /**
   * What a pass found about a revision, for the forge's commit status and the generic notification.
   *
   * @param reason the condition reason behind it, such as {@code Succeeded} or {@code FunctionsFailed}
   */
  record Verdict(Revision revision, CommitState state, String reason, String description) {}

  /**
   * Where a generic notification goes: {@code url}, signed with the {@code token} of {@code secret}.
   *
   * @param secretField the field that names the Secret, for messages
   */
  record Endpoint(String kind, String namespace, String name, String url, String secret, String secretField) {

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
   */
  record Target(String kind, String namespace, String name, String url, String secret, String secretField,
      String forge, String apiUrl) {

    String key() {
      return kind + "/" + namespace + "/" + name;
    }
  }

  private final KubernetesClient client;
  private final ControllerSettings settings;
  private final Clock clock;
  private final CommitStatusReporter reporter;
  private final Map<String, Consumer<ResourceID>> wakes = new ConcurrentHashMap<>();

  ForgeReports(KubernetesClient client, ControllerSettings settings, Clock clock, MeterRegistry meters) {
    this.client = client;
    this.settings = settings;
    this.clock = clock;
    this.reporter = new CommitStatusReporter(new CommitStatusSender()::send, clock, this::wake, meters);
  }

  /** {@code wake} is told the resource of {@code kind} whose commit status the forge has answered for. */
  void onAnswer(String kind, Consumer<ResourceID> wake) {
    wakes.put(kind, wake);
  }

  /** {@code gitfn/<cluster>/<namespace>/<name>}, with {@code function/} before a Function's name. */
  String context(Target target) {
    return "gitfn/" + settings.clusterName() + "/" + target.namespace() + "/"
        + (target.kind().equals("Function") ? "function/" : "") + target.name();
  }

  /**
   * Sends {@code verdict} unless {@code last} says the forge has it already (after a restart too), and returns what
   * the resource's status should show: the newest outcome, or {@code last} when there is none.
   */
  Optional<CommitStatusReport> report(Target target, Optional<Verdict> verdict, CommitStatusReport last) {
    String context = context(target);
    if (verdict.isPresent() && !alreadyTold(last, verdict.get(), context)) {
      Verdict v = verdict.get();
      try {
        ForgeRepository forge = forgeOf(target);
        String token = SourceBinding.secret(client, target.namespace(), target.secret(), target.secretField())
            .get("token");
        if (token == null || token.isBlank()) {
          throw new InvalidSourceException(INVALID_SECRET, target.secretField() + " " + target.secret()
              + " has no key `token`");
        }
        reporter.report(target.key(), forge, token, new CommitStatus(v.revision().sha(), v.state(), context,
            v.description(), null), v.revision().toString());
      } catch (InvalidSourceException | IllegalArgumentException e) {
        reporter.forget(target.key());
        CommitStatusReport invalid = report(v.revision().toString(), v.state().word(), context, "Invalid",
            e.getMessage(), clock.instant());
        // The same refusal at every pass keeps its first time: a new one would be a status write each pass.
        return Optional.of(sameBut(last, invalid) ? last : invalid);
      }
    }
    return outcome(target.key()).or(() -> Optional.ofNullable(last));
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
   * Posts {@code verdict} to {@code endpoint} as a signed generic notification, unless {@code last} says it got
   * this state of this revision already; returns what the resource's status should show, as {@link #report} does.
   * The URL's host must be one the controller may reach ({@code --allowed-git-host}).
   */
  Optional<CommitStatusReport> notification(Endpoint endpoint, Optional<Verdict> verdict, CommitStatusReport last) {
    String context = context(new Target(endpoint.kind(), endpoint.namespace(), endpoint.name(), "", "", "", null,
        null));
    if (verdict.isPresent() && !alreadyTold(last, verdict.get(), context)) {
      Verdict v = verdict.get();
      try {
        URI url = URI.create(endpoint.url());
        if (url.getHost() == null || !settings.gitHosts().allows(url.getHost())) {
          throw new IllegalArgumentException("the notification URL's host " + url.getHost() + " is not one the"
              + " controller may reach (--allowed-git-host: " + settings.gitHosts() + ")");
        }
        String token = SourceBinding.secret(client, endpoint.namespace(), endpoint.secret(), endpoint.secretField())
            .get("token");
        if (token == null || token.isBlank()) {
          throw new InvalidSourceException(INVALID_SECRET, endpoint.secretField() + " " + endpoint.secret()
              + " has no key `token`");
        }
        CommitStatus status = new CommitStatus(v.revision().sha(), v.state(), context, v.description(), null);
        reporter.notify(endpoint.key(), url, token.strip().getBytes(StandardCharsets.UTF_8), new GenericNotification(
            endpoint.kind().equals("Function") ? GenericNotification.Kind.FUNCTION
                : GenericNotification.Kind.FUNCTION_REPOSITORY, endpoint.namespace(), endpoint.name(),
            v.revision().toString(), status, v.reason(), clock.instant(), settings.clusterName()));
      } catch (InvalidSourceException | IllegalArgumentException e) {
        reporter.forget(endpoint.key());
        CommitStatusReport invalid = report(v.revision().toString(), v.state().word(), context, "Invalid",
            e.getMessage(), clock.instant());
        return Optional.of(sameBut(last, invalid) ? last : invalid);
      }
    }
    return outcome(endpoint.key()).or(() -> Optional.ofNullable(last));
  }

  /** The resource is gone: its pending status and notification are dropped. */
  void forget(String kind, String namespace, String name) {
    forgetStatus(kind, namespace, name);
    forgetNotification(kind, namespace, name);
  }

  /** The resource reports no commit status any more. */
  void forgetStatus(String kind, String namespace, String name) {
    reporter.forget(kind + "/" + namespace + "/" + name);
  }

  /** The resource sends no notification any more. */
  void forgetNotification(String kind, String namespace, String name) {
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
    report.setError(error == null ? null : StatusPass.shortened(error));
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
