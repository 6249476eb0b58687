package io.gitfn.dashboard;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The Events about one Function, asked of the API server at most once in {@link #FRESH} whoever looks: the controller
 * keeps no informer on Events (a cluster's worth would cost more memory than all its Functions), so a Function's
 * page asks for them, and {@link FreshAnswers} keeps any number of viewers, and their pages' polling, to one list
 * call per Function every few seconds.
 */
public final class RecentEvents implements DashboardServer.Events {

  static final Duration FRESH = Duration.ofSeconds(5);
  static final int FUNCTIONS = 64;
  static final int EVENTS = 30;
  // Whoever may create Events in a namespace could make thousands about one Function: one page of them is read,
  // in the API server's order, and the newest of that page shown.
  static final long LISTED = 500;
  private static final int MESSAGE = 1024;

  private final KubernetesClient client;
  private final FreshAnswers<List<FunctionPage.EventLine>> answers;

  public RecentEvents(KubernetesClient client, Clock clock) {
    this.client = OneTryClient.of(client);
    this.answers = new FreshAnswers<>(clock, FRESH, FUNCTIONS);
  }

  /** The newest {@value #EVENTS} Events about the Function, or one line that says why there are none to show. */
  @Override
  public List<FunctionPage.EventLine> about(String namespace, String name) {
    return answers.get(namespace + "/" + name, () -> list(namespace, name));
  }

  /** At most {@value #LISTED} Events about the Function, as the API server lists them. */
  List<Event> listed(String namespace, String name) {
    return client.v1().events().inNamespace(namespace)
        .withField("involvedObject.kind", "Function").withField("involvedObject.name", name)
        .list(new ListOptionsBuilder().withLimit(LISTED).build()).getItems();
  }

  private List<FunctionPage.EventLine> list(String namespace, String name) {
    try {
      return listed(namespace, name).stream()
          .sorted(Comparator.comparing(RecentEvents::time, Comparator.nullsFirst(Comparator.naturalOrder())).reversed())
          .limit(EVENTS)
          .map(e -> new FunctionPage.EventLine(e.getType(), e.getReason(), Texts.cut(e.getMessage(), MESSAGE), time(e),
              Objects.requireNonNullElse(e.getCount(), 1)))
          .toList();
    } catch (KubernetesClientException e) {
      return List.of(new FunctionPage.EventLine("Warning", "EventsUnavailable",
          "the API server did not list the Events: " + Texts.cut(e.getMessage(), MESSAGE), null, 1));
    }
  }

  private static String time(Event event) {
    if (event.getLastTimestamp() != null) {
      return event.getLastTimestamp();
    }
    return event.getEventTime() != null ? event.getEventTime().getTime() : event.getFirstTimestamp();
  }
}
