package io.gitfn.preview;

import java.util.Objects;

/**
 * The pull request a preview is of, and where the preview goes.
 *
 * @param number the pull request's number, as its forge shows it
 * @param repository the FunctionRepository's name
 * @param repositoryNamespace the FunctionRepository's namespace: production's, and its Gateways'
 * @param previewNamespace where the preview's objects go
 */
public record PreviewContext(long number, String repository, String repositoryNamespace, String previewNamespace) {

  public PreviewContext {
    if (number < 1) {
      throw new IllegalArgumentException("a pull request's number is 1 or more, not " + number);
    }
    Objects.requireNonNull(repository, "repository");
    Objects.requireNonNull(repositoryNamespace, "repositoryNamespace");
    Objects.requireNonNull(previewNamespace, "previewNamespace");
  }
}
