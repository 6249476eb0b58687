package io.gitfn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.Annotations;
import io.gitfn.api.FieldManagers;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.reconcile.sync.FunctionSync;
import io.gitfn.rollback.GitCommandLine;
import io.gitfn.source.Revision;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/**
 * {@code gitfn rollback function}, run in-process against the real API server and, for a revert, the test Git
 * server through the real {@code git} client. The Functions, their FunctionRepository and their histories are
 * written by hand, as the controller would have left them; no controller runs.
 *
 * <p>The CLI's {@code git} gets the test {@link GitClient}'s environment, as a user's shell would give it theirs:
 * the password comes through {@code GIT_ASKPASS}, never in a URL or an argument.
 */
@WithKubeApi
@ExtendWith(GitServers.class)
class RollbackIT {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static Path kubeconfig;

  record Run(int exitCode, String out, String err) {}

  /** An infra repository in which hello (a Kyma CLI folder) changed twice after c1, then bye (a file) once. */
  record Infra(String url, WorkingCopy copy, String c1, String c2, String c3, String c4) {}

  @BeforeAll
  static void crds(KubeTestBed bed) {
    bed.installCrds();
    kubeconfig = bed.kubeconfig();
  }

  @Test
  void aPinSetsTheFullRevisionSurvivesASyncAndUnpinRemovesIt(KubernetesClient client, TestNamespace ns) {
    String c1 = "c1c1c1c1" + "1".repeat(32);
    createFunction(client, ns, "hello", "functions/hello", history(ns, "main@sha1:" + "c3".repeat(20), "Succeeded", "k3",
        "main@sha1:" + c1, "Succeeded", "k1"));

    Run pin = gitfn(GitCommandLine.fromEnvironment(), "rollback", "function", "hello", "-n", ns.name(),
        "--to", "c1c1c1c", "--pin");

    assertThat(pin.exitCode()).as(pin.err()).isZero();
    assertThat(pin.out()).isEqualTo("function " + ns.name() + "/hello pinned to main@sha1:c1c1c1c (image registry.local/"
        + ns.name() + "/hello:k1); gitfn rollback function hello -n " + ns.name() + " --unpin releases it\n"
        + "  the controller runs that image with the rest of the Deployment from the spec; syncs from Git keep the pin\n");
    assertThat(pinned(client, ns, "hello")).isEqualTo("main@sha1:" + c1);
    assertThat(gitfn(GitCommandLine.fromEnvironment(), "get", "fn", "hello", "-n", ns.name()).out())
        .contains(" main@sha1:c1c1c1c ");

    // What the next sync does: server-side apply of the Function as Git has it, under the gitfn field manager.
    sync(client, ns, function(ns, "hello", "functions/hello"));
    assertThat(pinned(client, ns, "hello")).as("the sync keeps the pin").isEqualTo("main@sha1:" + c1);

    Run again = gitfn(GitCommandLine.fromEnvironment(), "rollback", "function", "hello", "-n", ns.name(),
        "--to", "main@sha1:" + c1, "--pin");
    assertThat(again.out()).isEqualTo("function " + ns.name() + "/hello is already pinned to main@sha1:c1c1c1c;"
        + " nothing to do\n");

    Run unpin = gitfn(GitCommandLine.fromEnvironment(), "rollback", "function", "hello", "-n", ns.name(), "--unpin");

    assertThat(unpin.exitCode()).as(unpin.err()).isZero();
    assertThat(unpin.out()).isEqualTo("function " + ns.name() + "/hello unpinned (was main@sha1:c1c1c1c);"
        + " it runs the image of its spec again\n");
    assertThat(pinned(client, ns, "hello")).isNull();

    Run noop = gitfn(GitCommandLine.fromEnvironment(), "rollback", "function", "hello", "-n", ns.name(), "--unpin");
    assertThat(noop.exitCode()).isZero();
    assertThat(noop.out()).isEqualTo("function " + ns.name() + "/hello is not pinned; nothing to do\n");
  }

  @Test
  void aPinToAnUnknownOrFailedRevisionIsRefusedAndNamesTheKnownOnes(KubernetesClient client, TestNamespace ns) {
    String failed = "main@sha1:" + "f".repeat(40);
    String good = "main@sha1:" + "a".repeat(40);
    createFunction(client, ns, "hello", "functions/hello", history(ns, failed, "Failed", "k2", good, "Succeeded", "k1"));

    Run unknown = gitfn(GitCommandLine.fromEnvironment(), "rollback", "function", "hello", "-n", ns.name(),
        "--to", "0123abc", "--pin");
    Run broken = gitfn(GitCommandLine.fromEnvironment(), "rollback", "function", "hello", "-n", ns.name(),
        "--to", "fffffff", "--pin");

    assertThat(unknown.exitCode()).isEqualTo(1);
    assertThat(unknown.err()).isEqualTo("Error: function " + ns.name() + "/hello has no revision \"0123abc\" in its"
        + " history; known: main@sha1:fffffff (Failed), main@sha1:aaaaaaa (Succeeded) (gitfn history function hello)\n");
    assertThat(broken.exitCode()).isEqualTo(1);
    assertThat(broken.err()).startsWith("Error: the build of main@sha1:fffffff failed for function " + ns.name()
        + "/hello, so there is no image to pin; pick a Succeeded or Reused revision: main@sha1:aaaaaaa (Succeeded)");
    assertThat(pinned(client, ns, "hello")).isNull();
  }

  @Test
  void aRevertPushesOneCommitThatRestoresOnlyTheFunctionsFiles(KubernetesClient client, TestNamespace ns,
      GitHttpServer http, BareRepository repository, GitClient git) throws IOException {
    Infra infra = infra(http, repository, git);
    createRepository(client, ns, infra.url(), "{branch: main}");
    createFunction(client, ns, "hello", "functions/hello", history(ns, "main@sha1:" + infra.c3(), "Succeeded", "k3",
        "main@sha1:" + infra.c1(), "Succeeded", "k1"));
    createFunction(client, ns, "bye", "functions/bye.yaml", null);
    String c1 = infra.c1().substring(0, 7);

    Run revert = gitfn(asUser(git), "rollback", "function", "hello", "-n", ns.name(), "--to", c1);

    assertThat(revert.exitCode()).as(revert.err()).isZero();
    WorkingCopy copy = infra.copy();
    copy.git("pull", "--quiet");
    String pushed = copy.head();
    assertThat(copy.git("rev-parse", "HEAD^").strip()).as("one commit on top of the branch").isEqualTo(infra.c4());
    assertThat(copy.git("show", "HEAD:functions/hello/handler.js")).isEqualTo(handler("v1"));
    assertThat(copy.git("ls-tree", "-r", "--name-only", "HEAD", "functions/hello").lines())
        .as("a file added since is gone").containsExactly("functions/hello/config.yaml", "functions/hello/handler.js",
            "functions/hello/package.json");
    assertThat(copy.git("show", "HEAD:functions/bye.yaml")).as("other Functions keep their newest content")
        .isEqualTo(byeYaml("v2"));
    assertThat(copy.git("log", "-1", "--format=%B")).isEqualTo("Revert " + ns.name() + "/hello to " + c1 + "\n\n"
        + "Restore functions/hello as of " + c1 + " (hello v1, bye v1), undoing:\n\n"
        + infra.c3().substring(0, 7) + " hello v3 with a helper\n"
        + infra.c2().substring(0, 7) + " hello v2\n\n");
    assertThat(copy.git("log", "-1", "--format=%an <%ae>").strip())
        .as("the commit is the user's").isEqualTo(GitClient.AUTHOR_NAME + " <" + GitClient.AUTHOR_EMAIL + ">");
    assertThat(revert.out()).isEqualTo("► cloning branch main of " + infra.url() + "\n"
        + "► restoring functions/hello as of " + c1 + "\n"
        + "► pushing to branch main\n"
        + "✔ pushed " + pushed + " to branch main: Revert " + ns.name() + "/hello to " + c1 + " (undoes 2 commits)\n"
        + "  the controller rolls function " + ns.name() + "/hello back on its next sync or webhook; image"
        + " registry.local/" + ns.name() + "/hello:k1 is known, so no build is needed\n");
    assertThat(revert.out() + revert.err()).doesNotContain(http.credentials().password());

    Run same = gitfn(asUser(git), "rollback", "function", "hello", "-n", ns.name(), "--to", c1);
    assertThat(same.exitCode()).isEqualTo(1);
    assertThat(same.err()).isEqualTo("Error: function " + ns.name() + "/hello is already at " + c1
        + ": functions/hello on branch main did not change since; nothing to revert\n");
  }

  @Test
  void aDryRunShowsTheCommitAndPushesNothing(KubernetesClient client, TestNamespace ns, GitHttpServer http,
      BareRepository repository, GitClient git) throws IOException {
    Infra infra = infra(http, repository, git);
    createRepository(client, ns, infra.url(), "{branch: main}");
    createFunction(client, ns, "hello", "functions/hello", null);
    String c2 = infra.c2().substring(0, 7);

    Run dryRun = gitfn(asUser(git), "rollback", "function", "hello", "-n", ns.name(), "--to", infra.c2(), "--dry-run");

    assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
    assertThat(dryRun.out()).contains("would push this commit to branch main:\n\nRevert " + ns.name() + "/hello to "
            + c2 + "\n\nRestore functions/hello as of " + c2 + " (hello v2), undoing:\n\n"
            + infra.c3().substring(0, 7) + " hello v3 with a helper\n\n",
        " functions/hello/handler.js | 2 +-\n", " functions/hello/helper.js  | 1 -\n",
        "✔ dry run: nothing pushed\n");
    assertThat(git.run(infra.copy().directory(), "ls-remote", "origin", "refs/heads/main"))
        .as("the branch did not move").startsWith(infra.c4());
  }

  @Test
  void aBranchThatMovesDuringTheRevertIsNotOverwritten(KubernetesClient client, TestNamespace ns,
      GitHttpServer http, BareRepository repository, GitClient git) throws IOException {
    Infra infra = infra(http, repository, git);
    createRepository(client, ns, infra.url(), "{branch: main}");
    createFunction(client, ns, "hello", "functions/hello", null);
    // The user's own hooks run; this one makes someone else push between the revert's commit and its push.
    WorkingCopy someoneElse = git.clone(infra.url());
    Path hooks = Files.createDirectories(git.home().resolve("hooks"));
    Path hook = hooks.resolve("post-commit");
    Files.writeString(hook, "#!/bin/sh\nunset GIT_DIR GIT_INDEX_FILE GIT_WORK_TREE GIT_CONFIG_COUNT\ncd '" + someoneElse.directory()
        + "' && git commit --quiet --allow-empty -m meanwhile && git push --quiet origin HEAD\n");
    Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwx------"));
    Map<String, String> withHook = new HashMap<>(git.environment());
    withHook.put("GIT_CONFIG_COUNT", "1");
    withHook.put("GIT_CONFIG_KEY_0", "core.hooksPath");
    withHook.put("GIT_CONFIG_VALUE_0", hooks.toString());

    Run revert = gitfn(GitCommandLine.withEnvironment(withHook), "rollback", "function", "hello", "-n", ns.name(),
        "--to", infra.c1());

    assertThat(revert.exitCode()).isEqualTo(1);
    assertThat(revert.err()).isEqualTo("Error: branch main of " + infra.url() + " moved while the revert was made;"
        + " nothing was pushed: run the same command again\n");
    assertThat(git.run(infra.copy().directory(), "ls-remote", "origin", "refs/heads/main"))
        .startsWith(someoneElse.head());
  }

  @Test
  void aGitFunctionIsRevertedInItsBaseDirOnItsReferenceBranch(KubernetesClient client, TestNamespace ns,
      GitHttpServer http, BareRepository repository, GitClient git) throws IOException {
    Infra infra = infra(http, repository, git);
    client.resource(TestFunction.fromGit(infra.url(), "main", "/functions/hello").named("orders")
        .inNamespace(ns.name()).uid(null).build()).create();

    Run revert = gitfn(asUser(git), "rollback", "function", "orders", "-n", ns.name(), "--to", infra.c2());

    assertThat(revert.exitCode()).as(revert.err()).isZero();
    assertThat(revert.out()).contains("(undoes 1 commit)",
        "it builds an image only if no earlier build has the same content");
    infra.copy().git("pull", "--quiet");
    assertThat(infra.copy().git("show", "HEAD:functions/hello/handler.js")).isEqualTo(handler("v2"));
    assertThat(infra.copy().git("show", "HEAD:functions/bye.yaml")).isEqualTo(byeYaml("v2"));
  }

  @Test
  void aCloneThatFailsShowsGitsWordsWithoutCredentials(KubernetesClient client, TestNamespace ns,
      GitHttpServer http, GitClient git) {
    String password = http.credentials().password();
    String url = http.url("missing").replace("://", "://" + http.credentials().username() + ":" + password + "@");
    client.resource(TestFunction.fromGit(url, "main", "/").named("orders").inNamespace(ns.name()).uid(null).build())
        .create();

    Run revert = gitfn(asUser(git), "rollback", "function", "orders", "-n", ns.name(), "--to", "a".repeat(40));

    assertThat(revert.exitCode()).isEqualTo(1);
    assertThat(revert.err()).startsWith("Error: cannot clone branch main of " + http.url("missing")
        .replace("://", "://***@") + ": fatal:").contains("not found");
    assertThat(revert.out() + revert.err()).doesNotContain(password);
  }

  @Test
  void aRepositoryThatFollowsATagIsRefusedWithAPointerToPin(KubernetesClient client, TestNamespace ns) {
    createRepository(client, ns, "https://git.example/infra.git", "{tag: v1.2.0}");
    createFunction(client, ns, "hello", "functions/hello", history(ns, "v1.2.0@sha1:" + "a".repeat(40), "Succeeded", "k1",
        "v1.1.0@sha1:" + "b".repeat(40), "Succeeded", "k0"));

    Run revert = gitfn(GitCommandLine.fromEnvironment(), "rollback", "function", "hello", "-n", ns.name(),
        "--to", "bbbbbbb");

    assertThat(revert.exitCode()).isEqualTo(1);
    assertThat(revert.err()).isEqualTo("Error: function " + ns.name() + "/hello comes from FunctionRepository "
        + ns.name() + "/infra, which follows tag v1.2.0, not a branch, so there is no branch to push a revert to;"
        + " run its earlier image with --pin\n");
  }

  @Test
  void aFileThatHoldsSeveralFunctionsIsNotRevertedForOne(KubernetesClient client, TestNamespace ns) {
    createRepository(client, ns, "https://git.example/infra.git", "{branch: main}");
    createFunction(client, ns, "hello", "functions/all.yaml", null);
    createFunction(client, ns, "bye", "functions/all.yaml", null);

    Run revert = gitfn(GitCommandLine.fromEnvironment(), "rollback", "function", "hello", "-n", ns.name(),
        "--to", "bbbbbbb");

    assertThat(revert.exitCode()).isEqualTo(1);
    assertThat(revert.err()).isEqualTo("Error: functions/all.yaml also holds function(s) bye of namespace " + ns.name()
        + ", so a revert would roll them back too; pin hello with --pin, or edit the repository by hand\n");
  }

  private static Run gitfn(GitCommandLine git, String... arguments) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    // The factory hands the rollback command the test user's git; every other command is made as usual.
    CommandLine command = new CommandLine(new Main(), new CommandLine.IFactory() {
      @Override
      public <K> K create(Class<K> type) throws Exception {
        return type == RollbackFunctionCommand.class ? type.cast(new RollbackFunctionCommand(git))
            : CommandLine.defaultFactory().create(type);
      }
    });
    command.setOut(new PrintWriter(out));
    command.setErr(new PrintWriter(err));
    List<String> all = new ArrayList<>(List.of(arguments));
    all.addAll(List.of("--kubeconfig", kubeconfig.toString()));
    int exitCode = command.execute(all.toArray(String[]::new));
    return new Run(exitCode, out.toString(), err.toString());
  }

  private static GitCommandLine asUser(GitClient git) {
    return GitCommandLine.withEnvironment(git.environment());
  }

  private static Infra infra(GitHttpServer http, BareRepository repository, GitClient git) throws IOException {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String c1 = copy.write("functions/hello/config.yaml", "name: hello\nruntime: nodejs22\n")
        .write("functions/hello/handler.js", handler("v1"))
        .write("functions/hello/package.json", "{}\n")
        .write("functions/bye.yaml", byeYaml("v1"))
        .commit("hello v1, bye v1");
    String c2 = copy.write("functions/hello/handler.js", handler("v2")).commit("hello v2");
    String c3 = copy.write("functions/hello/handler.js", handler("v3"))
        .write("functions/hello/helper.js", "module.exports = 3;\n")
        .commit("hello v3 with a helper");
    String c4 = copy.write("functions/bye.yaml", byeYaml("v2")).commit("bye v2");
    copy.push();
    return new Infra(http.url(repository.name()), copy, c1, c2, c3, c4);
  }

  private static String handler(String version) {
    return "module.exports = { main: () => \"" + version + "\" };\n";
  }

  private static String byeYaml(String version) {
    return TestFunction.declared("bye").code("module.exports = { main: () => '" + version + "' };").toYaml();
  }

  private static void createRepository(KubernetesClient client, TestNamespace ns, String url, String ref) {
    client.resource(SERIALIZATION.unmarshal("""
        apiVersion: gitfn.io/v1alpha1
        kind: FunctionRepository
        metadata: {name: infra, namespace: %s}
        spec: {url: "%s", ref: %s, path: functions, interval: 1h}
        """.formatted(ns.name(), url, ref), FunctionRepository.class)).create();
  }

  /** A Function as the sync of FunctionRepository infra leaves it, with {@code history} in its status. */
  private static void createFunction(KubernetesClient client, TestNamespace ns, String name, String sourcePath,
      List<FunctionHistoryEntry> history) {
    sync(client, ns, function(ns, name, sourcePath));
    if (history != null) {
      Function created = client.resources(Function.class).inNamespace(ns.name()).withName(name).get();
      created.setStatus(new FunctionStatus());
      created.getStatus().setHistory(history);
      client.resource(created).updateStatus();
    }
  }

  private static Function function(TestNamespace ns, String name, String sourcePath) {
    return TestFunction.declared(name).code("module.exports = {}")
        .metadataAnnotation("gitfn.io/source-path", sourcePath).build();
  }

  private static void sync(KubernetesClient client, TestNamespace ns, Function function) {
    client.genericKubernetesResources(ResourceDefinitionContext.fromResourceType(Function.class))
        .inNamespace(ns.name())
        .resource(FunctionSync.appliedObject(function, ns.name(), ns.name() + ".infra",
            new Revision("main", "e".repeat(40))))
        .fieldManager(FieldManagers.SYNC).forceConflicts().serverSideApply();
  }

  private static String pinned(KubernetesClient client, TestNamespace ns, String name) {
    Map<String, String> annotations =
        client.resources(Function.class).inNamespace(ns.name()).withName(name).get().getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(Annotations.PINNED_REVISION);
  }

  // Two entries, newest first: (revision, outcome, key) twice, with the image named after the key.
  private static List<FunctionHistoryEntry> history(TestNamespace ns, String newest, String newestOutcome,
      String newestKey, String older, String olderOutcome, String olderKey) {
    return List.of(entry(ns, newest, newestOutcome, newestKey, "2026-03-01T11:00:00Z"),
        entry(ns, older, olderOutcome, olderKey, "2026-03-01T10:00:00Z"));
  }

  private static FunctionHistoryEntry entry(TestNamespace ns, String revision, String outcome, String key,
      String time) {
    FunctionHistoryEntry entry = new FunctionHistoryEntry();
    entry.setRevision(revision);
    entry.setOutcome(outcome);
    entry.setContentKey(key);
    entry.setImage("Failed".equals(outcome) ? null : "registry.local/" + ns.name() + "/hello:" + key);
    entry.setTime(time);
    return entry;
  }
}
