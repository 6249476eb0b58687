package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.realnode.FunctionAnswers;
import io.gitfn.testbed.realnode.NodeGitfn;
import io.gitfn.testbed.realnode.RealNode;
import io.gitfn.testbed.realnode.ServiceLoad;
import io.gitfn.testbed.realnode.WithRealNode;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The layered builder on a real node, in namespaces that enforce Pod Security {@code restricted}: the controller
 * runs an install Job with no privilege for a dependency change, assembles every other image in-process and names
 * it by digest; a handler-only change and a revert start no Job (so no build Pod) and fail no request under load.
 * Each change's time to answering is logged.
 */
@WithRealNode
class RealNodeLayeredE2E {

  private static final Logger log = LoggerFactory.getLogger(RealNodeLayeredE2E.class);
  private static final String MS = "{\"name\": \"clock\", \"version\": \"1.0.0\", \"dependencies\": {\"ms\": \"2.1.3\"}}";
  private static final String MS_AND_ESCAPE = "{\"name\": \"clock\", \"version\": \"1.0.0\", \"dependencies\":"
      + " {\"ms\": \"2.1.3\", \"escape-html\": \"1.0.3\"}}";
  private static NodeGitfn gitfn;

  @BeforeAll
  static void startController(RealNode node) throws Exception {
    gitfn = NodeGitfn.start(node);
  }

  @AfterAll
  static void stopController() throws Exception {
    gitfn.close();
  }

  @Test
  void aRestrictedNamespaceBuildsWithNoPrivilegeAndAHandlerChangeOrARevertStartsNoJob(KubernetesClient client,
      TestNamespace ns) throws Exception {
    prepare(client, ns);
    // Install Jobs go once they made their image, so they are counted as they come.
    try (JobLog jobs = JobLog.watch(client, ns)) {
      long started = System.nanoTime();
      apply(client, clock(ns, "clock", "v1", MS));
      FunctionAnswers.awaitAnswer(client, ns.name(), "clock", "v1 1m");
      log.info("layered, first build of a Function with a dependency: answering after {} ms", since(started));
      assertThat(jobs.uids()).as("one install Job").hasSize(1);
      changesUnderLoad(client, ns, jobs);

      // Another Function with the same dependencies builds on the same dependency image: no Job.
      apply(client, clock(ns, "twin", "twin", MS));
      FunctionAnswers.awaitAnswer(client, ns.name(), "twin", "twin 1m");
      assertThat(jobs.uids()).as("install Jobs: the twin's dependencies were there").hasSize(2);
    }
    Function fn = client.resources(Function.class).inNamespace(ns.name()).withName("clock").get();
    assertThat(fn.getStatus().getHistory()).extracting("image").allSatisfy(image ->
        assertThat((String) image).contains("@sha256:"));
  }

  /** A handler-only change, a dependency change and a revert, under 4 clients that never pause. */
  private static void changesUnderLoad(KubernetesClient client, TestNamespace ns, JobLog jobs) throws Exception {
    String clusterIp = client.services().inNamespace(ns.name()).withName("clock").get().getSpec().getClusterIP();
    try (ServiceLoad load = ServiceLoad.start(URI.create("http://" + clusterIp + "/"), 4)) {
      long started = System.nanoTime();
      apply(client, clock(ns, "clock", "v2", MS));
      await().atMost(FunctionAnswers.BUILD_AND_ROLL_OUT).until(() -> load.lastAnswer().equals("v2 1m"));
      log.info("layered, handler-only change: answering after {} ms ({})", since(started), buildReady(client, ns));
      assertThat(jobs.uids()).as("Jobs after a handler-only change").hasSize(1);

      started = System.nanoTime();
      apply(client, clock(ns, "clock", "v3", MS_AND_ESCAPE));
      await().atMost(FunctionAnswers.BUILD_AND_ROLL_OUT).until(() -> load.lastAnswer().equals("v3 1m &lt;"));
      log.info("layered, dependency change (one npm package added): answering after {} ms", since(started));
      assertThat(jobs.uids()).as("Jobs after a dependency change").hasSize(2);

      started = System.nanoTime();
      apply(client, clock(ns, "clock", "v1", MS));
      await().atMost(FunctionAnswers.BUILD_AND_ROLL_OUT).until(() -> load.lastAnswer().equals("v1 1m"));
      log.info("layered, revert: answering after {} ms", since(started));
      load.stopAfterAnswers(20);

      assertThat(jobs.uids()).as("no Job for the revert").hasSize(2);
      assertThat(load.failures()).as("requests that failed during the changes").isEmpty();
      assertThat(load.answers()).containsSubsequence("v1 1m", "v2 1m", "v3 1m &lt;", "v1 1m");
    }
  }

  @Test
  void aPythonFunctionWithAPipDependencyBuildsAndAPackageThatDoesNotExistFailsWithPipsOwnLine(
      KubernetesClient client, TestNamespace ns) throws Exception {
    prepare(client, ns);
    long started = System.nanoTime();
    apply(client, TestFunction.inline().named("py").inNamespace(ns.name()).uid(null)
        .runtime(FunctionRuntime.PYTHON312)
        .code("import six\n\ndef main(event, context):\n    return 'py ' + six.ensure_text(b'six')\n")
        .dependencies("six==1.17.0\n").build());
    FunctionAnswers.awaitAnswer(client, ns.name(), "py", "py six");
    log.info("layered, first build of a Python Function with a pip dependency: answering after {} ms",
        since(started));

    apply(client, TestFunction.inline().named("py").inNamespace(ns.name()).uid(null)
        .runtime(FunctionRuntime.PYTHON312)
        .code("def main(event, context):\n    return 'never'\n")
        .dependencies("gitfn-no-such-package==1.0.0\n").build());
    await().atMost(FunctionAnswers.BUILD_AND_ROLL_OUT).untilAsserted(() -> {
      Condition buildReady = condition(client, ns, "py", "BuildReady");
      assertThat(buildReady.getStatus()).isEqualTo("False");
      assertThat(buildReady.getReason()).isEqualTo("JobFailed");
      assertThat(buildReady.getMessage()).contains("which installs the dependencies")
          .contains("gitfn-no-such-package").contains("the running version stays")
          .as("pip's own line, not the pack container's beside it").doesNotContain("the install ended with exit code");
    });
    String clusterIp = client.services().inNamespace(ns.name()).withName("py").get().getSpec().getClusterIP();
    assertThat(FunctionAnswers.get("http://" + clusterIp + "/")).as("the running version").isEqualTo("py six");
  }

  /** Pod Security {@code restricted}, enforced, and the Secrets the namespace's builds mount. */
  private static void prepare(KubernetesClient client, TestNamespace ns) {
    client.namespaces().withName(ns.name()).edit(n -> {
      n.getMetadata().getLabels().put("pod-security.kubernetes.io/enforce", "restricted");
      return n;
    });
    gitfn.prepare(client, ns.name());
  }

  private static Function clock(TestNamespace ns, String name, String version, String dependencies) {
    String escape = dependencies.contains("escape-html") ? " + ' ' + require('escape-html')('<')" : "";
    return TestFunction.inline().named(name).inNamespace(ns.name()).uid(null).runtime(FunctionRuntime.NODEJS22)
        .code("const ms = require('ms');\nmodule.exports = { main: () => '" + version + " ' + ms(60000)" + escape
            + " };\n")
        .dependencies(dependencies).build();
  }

  private static void apply(KubernetesClient client, Function fn) {
    client.resource(fn).fieldManager("realnode-layered-e2e").forceConflicts().serverSideApply();
  }

  private static String buildReady(KubernetesClient client, TestNamespace ns) {
    Condition condition = condition(client, ns, "clock", "BuildReady");
    return condition.getReason() + ": " + condition.getMessage();
  }

  private static Condition condition(KubernetesClient client, TestNamespace ns, String name, String type) {
    Function fn = client.resources(Function.class).inNamespace(ns.name()).withName(name).get();
    return fn.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst().orElseThrow();
  }

  private static long since(long started) {
    return (System.nanoTime() - started) / 1_000_000;
  }
}
