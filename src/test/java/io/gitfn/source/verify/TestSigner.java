package io.gitfn.source.verify;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;

/** How a test makes a commit or an annotated tag on {@code main}: signed with some key, unsigned, or tampered. */
interface TestSigner {

  /** A new empty commit on main; its id. */
  String commit(GitTool git, String message) throws IOException;

  /** A new annotated tag on HEAD; the tag object's id. */
  String tag(GitTool git, String name) throws IOException;

  /** {@code git commit -S} and {@code git tag -s} with {@code gpg.format=ssh}. */
  static TestSigner ssh(Path key) {
    return new TestSigner() {
      @Override
      public String commit(GitTool git, String message) {
        return git.commit(message, key);
      }

      @Override
      public String tag(GitTool git, String name) {
        return git.signedTag(name, key);
      }
    };
  }

  /** git's commit and tag, then signed as {@code gpg} would sign them. */
  static TestSigner openPgp(PgpTestKey key) {
    return new TestSigner() {
      @Override
      public String commit(GitTool git, String message) throws IOException {
        git.commit(message, null);
        try (Repository repository = git.open()) {
          return PgpSigning.signCommit(repository, "refs/heads/main", key).name();
        }
      }

      @Override
      public String tag(GitTool git, String name) throws IOException {
        git.git("tag", "-a", name, "-m", "release " + name);
        try (Repository repository = git.open()) {
          return PgpSigning.signTag(repository, name, key).name();
        }
      }
    };
  }

  static TestSigner unsigned() {
    return new TestSigner() {
      @Override
      public String commit(GitTool git, String message) {
        return git.commit(message, null);
      }

      @Override
      public String tag(GitTool git, String name) {
        git.git("tag", "-a", name, "-m", "release " + name);
        return git.git("rev-parse", "refs/tags/" + name);
      }
    };
  }

  /** Signed by {@code signer}, then the message changed and the signature kept: what an attacker's edit looks like. */
  static TestSigner tampered(TestSigner signer) {
    return new TestSigner() {
      @Override
      public String commit(GitTool git, String message) throws IOException {
        signer.commit(git, message);
        return rewrite(git, "refs/heads/main", Constants.OBJ_COMMIT, message).name();
      }

      @Override
      public String tag(GitTool git, String name) throws IOException {
        signer.tag(git, name);
        return rewrite(git, Constants.R_TAGS + name, Constants.OBJ_TAG, "release " + name).name();
      }
    };
  }

  private static ObjectId rewrite(GitTool git, String ref, int type, String message) throws IOException {
    try (Repository repository = git.open(); ObjectInserter inserter = repository.newObjectInserter()) {
      String raw = new String(repository.open(repository.resolve(ref)).getBytes(), StandardCharsets.UTF_8);
      String changed = raw.replace("\n\n" + message, "\n\n" + message + ", and something else");
      ObjectId id = inserter.insert(type, changed.getBytes(StandardCharsets.UTF_8));
      inserter.flush();
      RefUpdate update = repository.updateRef(ref);
      update.setNewObjectId(id);
      update.forceUpdate();
      return id;
    }
  }
}
