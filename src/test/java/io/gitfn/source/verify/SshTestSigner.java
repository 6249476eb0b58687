package io.gitfn.source.verify;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.signature.BuiltinSignatures;
import org.apache.sshd.common.signature.Signature;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;
import org.apache.sshd.common.util.security.SecurityUtils;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.GpgSignature;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.TreeFormatter;

/**
 * SSH signatures as {@code ssh-keygen -Y sign -n git} writes them, made in the test with an ed25519 key
 * {@code ssh-keygen} generated: for the long ranges, where a process per commit would measure git, not gitfn.
 */
final class SshTestSigner {

  private final KeyPair key;

  private SshTestSigner(KeyPair key) {
    this.key = key;
  }

  static SshTestSigner load(Path privateKey) throws Exception {
    try (InputStream in = Files.newInputStream(privateKey)) {
      Iterable<KeyPair> keys = SecurityUtils.loadKeyPairIdentities(
          null, NamedResource.ofName(privateKey.toString()), in, FilePasswordProvider.EMPTY);
      return new SshTestSigner(keys.iterator().next());
    }
  }

  byte[] sign(byte[] data) throws Exception {
    byte[] hash = MessageDigest.getInstance("SHA-512").digest(data);
    ByteArrayBuffer signed = new ByteArrayBuffer();
    signed.putRawBytes("SSHSIG".getBytes(StandardCharsets.US_ASCII));
    signed.putString("git");
    signed.putString("");
    signed.putString("sha512");
    signed.putBytes(hash);
    Signature signer = BuiltinSignatures.ed25519.create();
    signer.initSigner(null, key.getPrivate());
    signer.update(null, signed.getCompactData());
    ByteArrayBuffer signature = new ByteArrayBuffer();
    signature.putString("ssh-ed25519");
    signature.putBytes(signer.sign(null));
    ByteArrayBuffer blob = new ByteArrayBuffer();
    blob.putRawBytes("SSHSIG".getBytes(StandardCharsets.US_ASCII));
    blob.putUInt(1);
    ByteArrayBuffer publicKey = new ByteArrayBuffer();
    publicKey.putRawPublicKey(key.getPublic());
    blob.putBytes(publicKey.getCompactData());
    blob.putString("git");
    blob.putString("");
    blob.putString("sha512");
    blob.putBytes(signature.getCompactData());
    String base64 = Base64.getMimeEncoder(70, new byte[] {'\n'}).encodeToString(blob.getCompactData());
    return ("-----BEGIN SSH SIGNATURE-----\n" + base64 + "\n-----END SSH SIGNATURE-----\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  /** {@code count} commits on top of {@code parent}, each signed, straight into the object database; the last. */
  ObjectId chain(Repository repository, ObjectId parent, int count) throws Exception {
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
        commit.setGpgSignature(new GpgSignature(sign(commit.build())));
        head = inserter.insert(commit);
      }
      inserter.flush();
      return head;
    }
  }
}
