package io.gitfn.bench;

import static io.gitfn.bench.ControllerBenchmark.percentile;

import com.fasterxml.jackson.databind.JsonNode;
import io.gitfn.secrets.AgeDataKeys;
import io.gitfn.secrets.age.AgeIdentities;
import io.gitfn.secrets.sops.DecryptedDocument;
import io.gitfn.secrets.sops.SopsFile;
import io.gitfn.secrets.sops.Tool;
import io.gitfn.source.verify.GitTool;
import io.gitfn.source.verify.PgpSigning;
import io.gitfn.source.verify.PgpTestKey;
import io.gitfn.source.verify.RevisionVerifier;
import io.gitfn.source.verify.Verdict;
import io.gitfn.source.verify.VerificationKeys;
import io.gitfn.testbed.Directories;
import io.gitfn.testbed.SecretTools;
import io.gitfn.testbed.TestBedBinaries;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToIntFunction;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;

/**
 * Issue 30's costs of trust, in this JVM with no cluster: {@code Range} verification of {@value #COMMITS} new commits
 * ({@link RevisionVerifier#range}), and decrypting a SOPS Secret of {@value #VALUES} values ({@link SopsFile#decrypt}
 * with {@link AgeDataKeys}).
 *
 * <p>One repository holds both chains. A first commit, then {@value #COMMITS} commits made by the real {@code git
 * commit -S} with {@code gpg.format=ssh} and an ed25519 key {@code ssh-keygen} made, so {@code ssh-keygen -Y sign}
 * signs each, as most users sign. On top of them {@value #COMMITS} commits signed in-process with an Ed25519 OpenPGP
 * key made by Bouncy Castle ({@link PgpSigning#chain}, the tests' stand-in for {@code gpg}, which the machines need
 * not have). Then {@code git gc} packs everything, as a mirror's fetch leaves it packed. The SSH range runs from the
 * first commit to the last SSH-signed one; the OpenPGP range from there to the head.
 *
 * <p>The Secret is encrypted by the real {@code sops} (built by {@code scripts/build-testbed.sh}) with its defaults,
 * every value encrypted, to one fresh {@code age-keygen} recipient; gitfn's own SOPS and age code decrypts it. The
 * identity is parsed and the verifier built once, outside the timings, as a repository's Secret is read once.
 *
 * <p>Each figure's task runs once cold, then {@value #WARM_UP} times more to warm up, as a running controller has
 * loaded its classes and compiled the code, then is timed over its repetitions. A refusal fails the benchmark: its
 * time is not the figure.
 */
final class TrustBenchmark implements Benchmark {

  private static final int COMMITS = 1000;
  private static final int VALUES = 100;
  private static final int WARM_UP = 5;
  private static final int RANGE_RUNS = 20;
  private static final int DECRYPT_RUNS = 200;

  static final Row SSH_FIRST = Row.millis("Range, " + COMMITS + " SSH-signed commits: first run in the JVM");
  static final Row SSH_P50 = Row.millis("Range, " + COMMITS + " SSH-signed commits: p50 of " + RANGE_RUNS);
  static final Row SSH_MAX =
      Row.millis("Range, " + COMMITS + " SSH-signed commits: max of " + RANGE_RUNS, Target.atMost(1000));
  static final Row SSH_VERIFIED = Row.count("  SSH-signed commits verified, fewest in a run",
      Target.exactly(COMMITS));
  static final Row PGP_FIRST = Row.millis("Range, " + COMMITS + " OpenPGP-signed commits: first run in the JVM");
  static final Row PGP_P50 = Row.millis("Range, " + COMMITS + " OpenPGP-signed commits: p50 of " + RANGE_RUNS);
  static final Row PGP_MAX =
      Row.millis("Range, " + COMMITS + " OpenPGP-signed commits: max of " + RANGE_RUNS, Target.atMost(1000));
  static final Row PGP_VERIFIED = Row.count("  OpenPGP-signed commits verified, fewest in a run",
      Target.exactly(COMMITS));
  static final Row DECRYPT_FIRST =
      Row.millis("decrypt a " + VALUES + "-value SOPS Secret (age): first run in the JVM");
  static final Row DECRYPT_P50 = Row.millis("decrypt a " + VALUES + "-value SOPS Secret (age): p50 of " + DECRYPT_RUNS);
  static final Row DECRYPT_MAX = Row.millis(
      "decrypt a " + VALUES + "-value SOPS Secret (age): max of " + DECRYPT_RUNS, Target.atMost(50));
  static final Row DECRYPT_VALUES = Row.count("  values decrypted as written, fewest in a run",
      Target.exactly(VALUES));

  @Override
  public String name() {
    return "trust";
  }

  @Override
  public String description() {
    return "Range verification of " + COMMITS + " signed commits (SSH, OpenPGP), decrypting a " + VALUES
        + "-value SOPS Secret";
  }

  @Override
  public List<Row> rows() {
    return List.of(SSH_FIRST, SSH_P50, SSH_MAX, SSH_VERIFIED, PGP_FIRST, PGP_P50, PGP_MAX, PGP_VERIFIED,
        DECRYPT_FIRST, DECRYPT_P50, DECRYPT_MAX, DECRYPT_VALUES);
  }

  @Override
  public List<Metric> run() throws Exception {
    // Fails here, with the commands that provide them, before minutes go into the commits.
    SecretTools tools = SecretTools.locate();
    Path runs = Files.createDirectories(TestBedBinaries.projectDir().resolve("target/bench/trust-runs"));
    Path work = Files.createTempDirectory(runs, "run-");
    try {
      List<Metric> metrics = new ArrayList<>();
      range(work.resolve("range"), metrics);
      decrypt(tools, work.resolve("sops"), metrics);
      return metrics;
    } finally {
      Directories.deleteRecursively(work);
    }
  }

  private void range(Path work, List<Metric> metrics) throws Exception {
    Path alice = GitTool.sshKey(work.resolve("keys"), "alice");
    PgpTestKey bob = PgpTestKey.generate("Bob <bob@gitfn.invalid>");
    GitTool git = GitTool.init(work.resolve("repo"));
    long start = System.nanoTime();
    String first = git.commit("verified before", alice);
    String sshHead = first;
    for (int i = 0; i < COMMITS; i++) {
      sshHead = git.commit("change " + i, alice);
    }
    System.out.printf("%d commits signed by git commit -S (ssh-keygen) in %.1f s%n", COMMITS,
        (System.nanoTime() - start) / 1e9);
    try (Repository repository = git.open()) {
      ObjectId pgpHead = PgpSigning.chain(repository, ObjectId.fromString(sshHead), COMMITS, bob);
      RefUpdate main = repository.updateRef("refs/heads/main");
      main.setNewObjectId(pgpHead);
      main.forceUpdate();
    }
    git.git("gc", "-q");

    RevisionVerifier verifier = new RevisionVerifier(VerificationKeys.fromSecretData(Map.of(
            "alice.sshpub", GitTool.publicLine(alice).getBytes(StandardCharsets.UTF_8),
            "bob.asc", bob.armoredPublicKey())),
        VerificationKeys.none(), Clock.systemUTC());
    try (Repository repository = git.open()) {
      ObjectId lastVerified = ObjectId.fromString(first);
      ObjectId ssh = ObjectId.fromString(sshHead);
      ObjectId pgp = repository.resolve("refs/heads/main");
      Timings sshRange = timed(RANGE_RUNS, () -> verifier.range(repository, lastVerified, ssh),
          TrustBenchmark::verifiedCommits);
      Timings pgpRange = timed(RANGE_RUNS, () -> verifier.range(repository, ssh, pgp),
          TrustBenchmark::verifiedCommits);
      metrics.add(SSH_FIRST.value(sshRange.first()));
      metrics.add(SSH_P50.value(sshRange.p50()));
      metrics.add(SSH_MAX.value(sshRange.max()));
      metrics.add(SSH_VERIFIED.value(sshRange.fewest()));
      metrics.add(PGP_FIRST.value(pgpRange.first()));
      metrics.add(PGP_P50.value(pgpRange.p50()));
      metrics.add(PGP_MAX.value(pgpRange.max()));
      metrics.add(PGP_VERIFIED.value(pgpRange.fewest()));
    }
  }

  private static int verifiedCommits(Verdict verdict) {
    if (!verdict.verified()) {
      throw new IllegalStateException("the range was refused, so its time is not the figure: " + verdict.message());
    }
    return verdict.checks().size();
  }

  private void decrypt(SecretTools tools, Path work, List<Metric> metrics) throws Exception {
    Files.createDirectories(work);
    Path identityFile = work.resolve("identity.agekey");
    Tool.ok(work, Map.of(), new byte[0], List.of(tools.ageKeygen().toString(), "-o", identityFile.toString()));
    String recipient = new String(Tool.ok(work, Map.of(), new byte[0],
        List.of(tools.ageKeygen().toString(), "-y", identityFile.toString())), StandardCharsets.UTF_8).strip();
    Map<String, String> values = values();
    Path plain = work.resolve("secret.yaml");
    Files.writeString(plain, secret(values));
    byte[] encrypted = Tool.ok(work, Map.of(), new byte[0],
        List.of(tools.sops().toString(), "encrypt", "--age", recipient, plain.toString()));
    AgeDataKeys keys = new AgeDataKeys(AgeIdentities.parse("identity.agekey", Files.readString(identityFile)));

    Timings decrypt = timed(DECRYPT_RUNS, () -> SopsFile.decrypt("secret.sops.yaml", encrypted, keys),
        decrypted -> asWritten(decrypted, values));
    metrics.add(DECRYPT_FIRST.value(decrypt.first()));
    metrics.add(DECRYPT_P50.value(decrypt.p50()));
    metrics.add(DECRYPT_MAX.value(decrypt.max()));
    metrics.add(DECRYPT_VALUES.value(decrypt.fewest()));
  }

  /** {@value #VALUES} random values of 8 to 64 characters, as passwords, tokens and URLs are. */
  private static Map<String, String> values() {
    SecureRandom random = new SecureRandom();
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < VALUES; i++) {
      byte[] bytes = new byte[6 + random.nextInt(43)];
      random.nextBytes(bytes);
      values.put(String.format("value-%03d", i), Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
    }
    return values;
  }

  private static String secret(Map<String, String> values) {
    StringBuilder yaml = new StringBuilder("apiVersion: v1\nkind: Secret\nmetadata:\n  name: bench\ntype: Opaque\n"
        + "stringData:\n");
    values.forEach((key, value) -> yaml.append("  ").append(key).append(": ").append(value).append('\n'));
    return yaml.toString();
  }

  private static int asWritten(DecryptedDocument decrypted, Map<String, String> values) {
    JsonNode stringData = decrypted.document().path("stringData");
    return (int) values.entrySet().stream()
        .filter(e -> e.getValue().equals(stringData.path(e.getKey()).asText(null)))
        .count();
  }

  /** How long a task took, in ms, cold and over its timed repetitions; and the smallest count its results gave. */
  private record Timings(double first, double[] timed, int fewest) {
    double p50() {
      return percentile(timed, 50);
    }

    double max() {
      return Arrays.stream(timed).max().orElse(Double.NaN);
    }
  }

  /** {@code task} once cold, {@value #WARM_UP} times more, then {@code runs} times timed; counted outside the time. */
  private static <T> Timings timed(int runs, Callable<T> task, ToIntFunction<T> count) throws Exception {
    int fewest = Integer.MAX_VALUE;
    double first = 0;
    double[] timed = new double[runs];
    for (int i = 0; i < 1 + WARM_UP + runs; i++) {
      long start = System.nanoTime();
      T result = task.call();
      double millis = (System.nanoTime() - start) / 1e6;
      fewest = Math.min(fewest, count.applyAsInt(result));
      if (i == 0) {
        first = millis;
      } else if (i > WARM_UP) {
        timed[i - WARM_UP - 1] = millis;
      }
    }
    return new Timings(first, timed, fewest);
  }
}
