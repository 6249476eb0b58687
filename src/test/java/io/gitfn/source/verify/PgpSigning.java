package io.gitfn.source.verify;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.GpgSignature;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.TreeFormatter;

/**
 * OpenPGP signatures on objects git made, written the way git writes them when {@code gpg} signs: the commit's
 * raw bytes signed and the signature put in a {@code gpgsig} header, or the tag's raw bytes signed and the
 * signature appended. This stands in for the {@code gpg} binary, which the tests must not need.
 */
public final class PgpSigning {

  private PgpSigning() {}

  /** Signs the commit {@code ref} points at and moves {@code ref} to the signed commit; its id. */
  static ObjectId signCommit(Repository repository, String ref, PgpTestKey key) throws IOException {
    ObjectId unsigned = repository.resolve(ref);
    byte[] raw = repository.open(unsigned, Constants.OBJ_COMMIT).getBytes();
    String text = new String(raw, StandardCharsets.UTF_8);
    int headersEnd = text.indexOf("\n\n") + 1;
    String signature = new String(key.sign(raw), StandardCharsets.US_ASCII).strip().replace("\n", "\n ");
    String signed = text.substring(0, headersEnd) + "gpgsig " + signature + "\n" + text.substring(headersEnd);
    return insertAndMove(repository, ref, Constants.OBJ_COMMIT, signed.getBytes(StandardCharsets.UTF_8));
  }

  /** Signs the annotated tag object {@code refs/tags/name} points at and moves the tag to it; its id. */
  static ObjectId signTag(Repository repository, String name, PgpTestKey key) throws IOException {
    String ref = Constants.R_TAGS + name;
    byte[] raw = repository.open(repository.resolve(ref), Constants.OBJ_TAG).getBytes();
    String signed = new String(raw, StandardCharsets.UTF_8) + new String(key.sign(raw), StandardCharsets.US_ASCII);
    return insertAndMove(repository, ref, Constants.OBJ_TAG, signed.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * {@code count} commits on top of {@code parent}, each signed by {@code key}, written straight into the object
   * database (git would take a process per commit); the last one's id.
   */
  public static ObjectId chain(Repository repository, ObjectId parent, int count, PgpTestKey key) throws IOException {
    try (ObjectInserter inserter = repository.newObjectInserter()) {
      ObjectId tree = inserter.insert(new TreeFormatter());
      ObjectId head = parent;
      PersonIdent ident = new PersonIdent(GitTool.NAME, GitTool.EMAIL);
      for (int i = 0; i < count; i++) {
        CommitBuilder commit = new CommitBuilder();
        commit.setTreeId(tree);
        commit.setParentIds(List.of(head));
        commit.setAuthor(ident);
        commit.setCommitter(ident);
        commit.setMessage("change " + i + "\n");
        commit.setGpgSignature(new GpgSignature(key.sign(commit.build())));
        head = inserter.insert(commit);
      }
      inserter.flush();
      return head;
    }
  }

  private static ObjectId insertAndMove(Repository repository, String ref, int type, byte[] object)
      throws IOException {
    ObjectId id;
    try (ObjectInserter inserter = repository.newObjectInserter()) {
      id = inserter.insert(type, object);
      inserter.flush();
    }
    RefUpdate update = repository.updateRef(ref);
    update.setNewObjectId(id);
    RefUpdate.Result result = update.forceUpdate();
    if (result != RefUpdate.Result.FORCED && result != RefUpdate.Result.NEW && result != RefUpdate.Result.NO_CHANGE) {
      throw new IOException("moving " + ref + ": " + result);
    }
    return id;
  }
}
