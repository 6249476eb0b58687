package io.gitfn.source;

/** Revisions for tests: commit {@code n} of main, whose SHA is {@code n} in hex. */
public final class TestRevision {

  private TestRevision() {
  }

  public static Revision revision(int commit) {
    return new Revision("main", String.format("%040x", commit));
  }
}
