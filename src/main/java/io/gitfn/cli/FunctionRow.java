package io.gitfn.cli;

import io.gitfn.api.Conditions;
import io.gitfn.api.Labels;
import io.gitfn.api.function.ConditionType;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.rollback.Pins;
import io.gitfn.rollback.Revisions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One line of {@code gitfn get functions}. */
record FunctionRow(String namespace, String name, String runtime, String configured, String built, String running,
    String repository, String pinned, String rolledBack, String age) {

  static FunctionRow of(Function function, Instant now) {
    FunctionStatus status = function.getStatus() == null ? new FunctionStatus() : function.getStatus();
    Map<String, String> labels = function.getMetadata().getLabels();
    return new FunctionRow(
        function.getMetadata().getNamespace(),
        function.getMetadata().getName(),
        Table.orNone(function.getSpec() == null || function.getSpec().getRuntime() == null ? null
            : function.getSpec().getRuntime().toString()),
        Conditions.status(status.getConditions(), ConditionType.CONFIGURATION_READY),
        Conditions.status(status.getConditions(), ConditionType.BUILD_READY),
        Conditions.status(status.getConditions(), ConditionType.RUNNING),
        Table.orNone(labels == null ? null : labels.get(Labels.REPOSITORY)),
        Table.orNone(Revisions.shorten(pinned(function, status))),
        status.getRollback() == null ? Table.orNone(null)
            : "to " + Revisions.shorten(status.getRollback().getRestoredRevision()),
        Age.since(function.getMetadata().getCreationTimestamp(), now));
  }

  // What the controller reports; until it has caught up with a new pin, what was asked for.
  private static String pinned(Function function, FunctionStatus status) {
    return status.getPinnedRevision() != null ? status.getPinnedRevision() : Pins.annotated(function);
  }

  static List<String> header(boolean allNamespaces) {
    List<String> header = new ArrayList<>();
    if (allNamespaces) {
      header.add("NAMESPACE");
    }
    header.addAll(List.of("NAME", "RUNTIME", "CONFIGURED", "BUILT", "RUNNING", "REPOSITORY", "PINNED", "ROLLED-BACK", "AGE"));
    return header;
  }

  List<String> cells(boolean allNamespaces) {
    List<String> cells = new ArrayList<>();
    if (allNamespaces) {
      cells.add(namespace);
    }
    cells.addAll(List.of(name, runtime, configured, built, running, repository, pinned, rolledBack, age));
    return cells;
  }
}
