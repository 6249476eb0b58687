package io.gitfn.cli;

import io.gitfn.api.repository.SyncRecord;
import java.util.List;

/** One line of {@code gitfn history repository}. */
record HistoryRow(String revision, String time, String outcome, String created, String updated, String deleted,
    String author, String message) {

  static final List<String> HEADER = List.of("REVISION", "TIME", "OUTCOME", "CREATED", "UPDATED", "DELETED",
      "AUTHOR", "MESSAGE");
  private static final int MESSAGE = 50;

  static HistoryRow of(SyncRecord record) {
    return new HistoryRow(Table.orNone(record.getRevision()), Table.orNone(record.getTime()),
        Table.orNone(record.getOutcome()), count(record.getCreated()), count(record.getUpdated()),
        count(record.getDeleted()), Table.orNone(record.getAuthor()),
        Table.orNone(Table.shorten(record.getMessage(), MESSAGE)));
  }

  List<String> cells() {
    return List.of(revision, time, outcome, created, updated, deleted, author, message);
  }

  private static String count(Integer count) {
    return count == null ? "0" : count.toString();
  }
}
