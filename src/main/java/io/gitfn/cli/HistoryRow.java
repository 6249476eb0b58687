package io.gitfn.cli;

import io.gitfn.api.repository.SyncRecord;
import java.util.List;

/** One line of {@code gitfn history repository}. */
record HistoryRow(String revision, String time, String outcome, String created, String updated, String deleted) {

  static final List<String> HEADER = List.of("REVISION", "TIME", "OUTCOME", "CREATED", "UPDATED", "DELETED");

  static HistoryRow of(SyncRecord record) {
    return new HistoryRow(Table.orNone(record.getRevision()), Table.orNone(record.getTime()),
        Table.orNone(record.getOutcome()), count(record.getCreated()), count(record.getUpdated()),
        count(record.getDeleted()));
  }

  List<String> cells() {
    return List.of(revision, time, outcome, created, updated, deleted);
  }

  private static String count(Integer count) {
    return count == null ? "0" : count.toString();
  }
}
