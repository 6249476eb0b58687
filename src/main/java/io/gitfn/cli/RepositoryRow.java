package io.gitfn.cli;

import io.gitfn.api.Conditions;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositorySpec;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.RepositoryConditionType;
import io.gitfn.api.repository.WebhookReceipt;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** One line of {@code gitfn get repositories}. */
record RepositoryRow(String namespace, String name, String url, String revision, String ready, String status,
    String age, String ref, String path, String lastWebhook) {

  static final int STATUS_WIDTH = 60;

  static RepositoryRow of(FunctionRepository repository, Instant now) {
    FunctionRepositorySpec spec = repository.getSpec() == null ? new FunctionRepositorySpec() : repository.getSpec();
    FunctionRepositoryStatus status = repository.getStatus() == null ? new FunctionRepositoryStatus()
        : repository.getStatus();
    return new RepositoryRow(
        repository.getMetadata().getNamespace(),
        repository.getMetadata().getName(),
        Table.orNone(spec.getUrl()),
        Table.orNone(status.getLastAppliedRevision()),
        Conditions.status(status.getConditions(), RepositoryConditionType.READY),
        Table.shorten(Conditions.message(status.getConditions(), RepositoryConditionType.READY), STATUS_WIDTH),
        Age.since(repository.getMetadata().getCreationTimestamp(), now),
        Table.orNone(spec.getRef() == null ? null : spec.getRef().describe()),
        Table.orNone(spec.getPath()),
        Table.orNone(webhook(status.getLastWebhook(), now)));
  }

  static List<String> header(boolean allNamespaces, boolean wide) {
    List<String> header = new ArrayList<>();
    if (allNamespaces) {
      header.add("NAMESPACE");
    }
    header.addAll(List.of("NAME", "URL", "REVISION", "READY", "STATUS", "AGE"));
    if (wide) {
      header.addAll(List.of("REF", "PATH", "LAST-WEBHOOK"));
    }
    return header;
  }

  List<String> cells(boolean allNamespaces, boolean wide) {
    List<String> cells = new ArrayList<>();
    if (allNamespaces) {
      cells.add(namespace);
    }
    cells.addAll(List.of(name, url, revision, ready, status, age));
    if (wide) {
      cells.addAll(List.of(ref, path, lastWebhook));
    }
    return cells;
  }

  private static String webhook(WebhookReceipt receipt, Instant now) {
    if (receipt == null || receipt.getForge() == null) {
      return null;
    }
    return receipt.getTime() == null ? receipt.getForge()
        : receipt.getForge() + " " + Age.since(receipt.getTime(), now) + " ago";
  }
}
