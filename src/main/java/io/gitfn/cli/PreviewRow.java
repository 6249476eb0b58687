package io.gitfn.cli;

import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.Preview;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** One line of {@code gitfn get previews}: a pull request's preview, as its repository's status lists it. */
record PreviewRow(String namespace, String repository, String pullRequest, String phase, String head, String url,
    String age, String lastPush, String message, String previewNamespace) {

  static final int MESSAGE_WIDTH = 60;

  /** The rows of {@code repository}'s previews, by number. */
  static List<PreviewRow> of(FunctionRepository repository, Instant now) {
    List<Preview> previews = repository.getStatus() == null ? List.of()
        : Objects.requireNonNullElse(repository.getStatus().getPreviews(), List.of());
    return previews.stream().map(preview -> new PreviewRow(
        repository.getMetadata().getNamespace(),
        repository.getMetadata().getName(),
        preview.getNumber() == null ? "#?" : "#" + preview.getNumber(),
        Table.orNone(preview.getPhase()),
        Table.orNone(preview.getHeadSha() == null ? null
            : preview.getHeadSha().substring(0, Math.min(7, preview.getHeadSha().length()))),
        Table.orNone(preview.getUrl()),
        Age.since(preview.getCreatedAt(), now),
        Age.since(preview.getPushedAt(), now),
        Table.shorten(preview.getMessage(), MESSAGE_WIDTH),
        Table.orNone(preview.getNamespace()))).toList();
  }

  static List<String> header(boolean allNamespaces, boolean wide) {
    List<String> header = new ArrayList<>();
    if (allNamespaces) {
      header.add("NAMESPACE");
    }
    header.addAll(List.of("REPOSITORY", "PR", "PHASE", "HEAD", "URL", "AGE", "LAST-PUSH"));
    if (wide) {
      header.addAll(List.of("PREVIEW-NAMESPACE", "MESSAGE"));
    }
    return header;
  }

  List<String> cells(boolean allNamespaces, boolean wide) {
    List<String> cells = new ArrayList<>();
    if (allNamespaces) {
      cells.add(namespace);
    }
    cells.addAll(List.of(repository, pullRequest, phase, head, url, age, lastPush));
    if (wide) {
      cells.addAll(List.of(previewNamespace, message));
    }
    return cells;
  }
}
