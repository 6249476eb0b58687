package io.gitfn.secrets.sops;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * A SOPS file decrypted and its MAC checked: the document without its {@code sops} block, as the Jackson tree gitfn's
 * manifests are read into (so that the sync can bind it to a Secret like any other manifest), and the age recipient
 * whose entry gave the data key. The tree holds plaintext: it lives in memory only, and {@link #toString()} does not
 * print it. Callers get a copy, so that nothing they do changes what another caller sees.
 */
public final class DecryptedDocument {

  private final String file;
  private final ObjectNode document;
  private final String recipient;
  private final String sopsVersion;

  DecryptedDocument(String file, ObjectNode document, String recipient, String sopsVersion) {
    this.file = Objects.requireNonNull(file);
    this.document = Objects.requireNonNull(document);
    this.recipient = Objects.requireNonNull(recipient);
    this.sopsVersion = Objects.requireNonNull(sopsVersion);
  }

  public String file() {
    return file;
  }

  /** The decrypted document, a fresh copy each call. */
  public ObjectNode document() {
    return document.deepCopy();
  }

  /** The {@code age1...} recipient whose copy of the data key one of the identities opened. */
  public String recipient() {
    return recipient;
  }

  /** The sops version that last wrote the file ({@code sops.version}), empty if it does not say. */
  public String sopsVersion() {
    return sopsVersion;
  }

  @Override
  public String toString() {
    return "DecryptedDocument[file=" + file + ", recipient=" + recipient + ", values hidden]";
  }
}
