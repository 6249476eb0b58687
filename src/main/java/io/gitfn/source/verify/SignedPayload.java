package io.gitfn.source.verify;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevTag;

/**
 * A commit or annotated tag split the way Git signs it: the bytes the signature covers, and the armored signature.
 *
 * <p>A commit's signature is its {@code gpgsig} header (continuation lines start with a space), and the signed
 * bytes are the raw commit without that header; a tag's signature is the armored block at the end of its message,
 * and the signed bytes are everything before it. Git drops the {@code gpgsig-sha256} header from the signed bytes
 * too, so this does.
 *
 * @param object the object's id
 * @param type {@code commit} or {@code tag}
 * @param data the signed bytes
 * @param signature the armored signature, empty when the object is unsigned
 * @param signedAt the committer's or tagger's time: the only time an SSH signature has
 */
record SignedPayload(String object, String type, byte[] data, Optional<byte[]> signature, Instant signedAt) {

  private static final byte[] GPGSIG = "gpgsig ".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] GPGSIG_SHA256 = "gpgsig-sha256 ".getBytes(StandardCharsets.US_ASCII);
  private static final String[] TAG_SIGNATURE_STARTS = {
      "-----BEGIN PGP SIGNATURE-----", "-----BEGIN SSH SIGNATURE-----", "-----BEGIN SIGNED MESSAGE-----"};

  // What a header line is, so that its continuation lines (starting with a space) follow it.
  private enum Header { KEPT, SIGNATURE, DROPPED }

  static SignedPayload of(RevCommit commit) {
    byte[] raw = commit.getRawBuffer();
    ByteArrayOutputStream data = new ByteArrayOutputStream(raw.length);
    ByteArrayOutputStream signature = new ByteArrayOutputStream();
    int pos = 0;
    boolean inHeaders = true;
    Header current = Header.KEPT;
    while (pos < raw.length) {
      int end = lineEnd(raw, pos);
      if (inHeaders && end == pos + 1) {
        inHeaders = false;
      }
      if (inHeaders) {
        if (raw[pos] != ' ') {
          current = startsWith(raw, pos, GPGSIG) ? Header.SIGNATURE
              : startsWith(raw, pos, GPGSIG_SHA256) ? Header.DROPPED : Header.KEPT;
        }
        if (current == Header.SIGNATURE) {
          int from = raw[pos] == ' ' ? pos + 1 : pos + GPGSIG.length;
          signature.write(raw, from, end - from);
        }
        if (current != Header.KEPT) {
          pos = end;
          continue;
        }
      }
      data.write(raw, pos, end - pos);
      pos = end;
    }
    byte[] sig = signature.toByteArray();
    return new SignedPayload(
        commit.name(), "commit", sig.length == 0 ? raw : data.toByteArray(),
        sig.length == 0 ? Optional.empty() : Optional.of(sig), time(commit.getCommitterIdent()));
  }

  static SignedPayload of(RevTag tag) {
    byte[] raw = tag.getRawBuffer();
    String text = new String(raw, StandardCharsets.ISO_8859_1);
    int start = -1;
    for (String marker : TAG_SIGNATURE_STARTS) {
      int at = text.lastIndexOf("\n" + marker);
      start = Math.max(start, at < 0 ? -1 : at + 1);
    }
    Instant when = time(tag.getTaggerIdent());
    if (start < 0) {
      return new SignedPayload(tag.name(), "tag", raw, Optional.empty(), when);
    }
    return new SignedPayload(
        tag.name(), "tag", Arrays.copyOf(raw, start), Optional.of(Arrays.copyOfRange(raw, start, raw.length)), when);
  }

  private static Instant time(PersonIdent ident) {
    return ident == null ? Instant.EPOCH : ident.getWhenAsInstant();
  }

  private static int lineEnd(byte[] raw, int from) {
    for (int i = from; i < raw.length; i++) {
      if (raw[i] == '\n') {
        return i + 1;
      }
    }
    return raw.length;
  }

  private static boolean startsWith(byte[] raw, int pos, byte[] prefix) {
    return raw.length - pos >= prefix.length && Arrays.equals(raw, pos, pos + prefix.length, prefix, 0, prefix.length);
  }

  String armorHeader() {
    String text = new String(signature.orElseThrow(), StandardCharsets.ISO_8859_1).strip();
    int eol = text.indexOf('\n');
    return (eol < 0 ? text : text.substring(0, eol)).strip();
  }
}
