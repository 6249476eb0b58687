package io.gitfn.testbed.realnode;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.Preview;
import io.gitfn.testbed.GiteaServer;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.WorkingCopy;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A Gitea repository of three layered Node.js Functions on main ({@link #FUNCTIONS}, each depending on {@code ms})
 * and FunctionRepository {@value #NAME} following it with previews on, for the real-node previews test and
 * benchmark: Gitea delivers pushes and pull-request events to the controller's webhook, and the forge token lists
 * the open pull requests. Pull requests are opened, merged and closed through Gitea's API, as a user would.
 */
public final class PreviewedRepository {

  public static final String NAME = "infra";
  public static final List<String> FUNCTIONS = List.of("hello", "orders", "greeting");
  private static final String HOOK_SECRET = "realnode-previews-hook";

  private final KubernetesClient client;
  private final GiteaServer gitea;
  private final String namespace;
  private final String repository;
  private final WorkingCopy copy;

  private PreviewedRepository(KubernetesClient client, GiteaServer gitea, String namespace, String repository,
      WorkingCopy copy) {
    this.client = client;
    this.gitea = gitea;
    this.namespace = namespace;
    this.repository = repository;
    this.copy = copy;
  }

  /**
   * Pushes the three Functions answering {@code <name> v1} to main of a new Gitea repository and creates the
   * FunctionRepository in {@code namespace}, whose builds' Secrets {@link NodeGitfn#prepare} made.
   */
  public static PreviewedRepository create(KubernetesClient client, GiteaServer gitea, NodeGitfn gitfn,
      String namespace, Path home) throws Exception {
    String repository = "previews-" + namespace;
    String cloneUrl = gitea.createRepository(repository);
    WorkingCopy copy = GitClient.create(home, gitea.admin(), null).clone(cloneUrl);
    for (String name : FUNCTIONS) {
      copy.write("functions/" + name + ".yaml", function(name, name + " v1", List.of()));
    }
    copy.commit("three Functions");
    copy.push("HEAD:refs/heads/main");
    gitea.addWebhook(repository, gitfn.webhookUri().resolve("gitea"), HOOK_SECRET,
        List.of("push", "pull_request", "pull_request_sync", "pull_request_label"));
    String token = gitea.createToken("previews-" + namespace, List.of("write:repository", "write:issue"));
    client.secrets().inNamespace(namespace).resource(gitea.basicAuthSecret("git")).create();
    client.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName("forge")
        .endMetadata().withStringData(Map.of("token", token)).build()).create();
    client.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName("hook")
        .endMetadata().withStringData(Map.of("token", HOOK_SECRET)).build()).create();
    // Listed hourly: only the webhooks bring pull requests in time.
    client.resource(client.getKubernetesSerialization().unmarshal(
        "---\n{apiVersion: gitfn.io/v1alpha1, kind: FunctionRepository, metadata: {name: " + NAME + ", namespace: "
            + namespace + "}, spec: {url: '" + cloneUrl + "', ref: {branch: main}, path: functions, interval: 1h,"
            + " secretRef: {name: git}, webhook: {secretRef: {name: hook}},"
            + " commitStatus: {forge: gitea, secretRef: {name: forge}}, previews: {enabled: true}}}",
        FunctionRepository.class)).create();
    return new PreviewedRepository(client, gitea, namespace, repository, copy);
  }

  /**
   * A Node.js Function (the XS profile, so that two namespaces of three and an install Job fit the node's two cores)
   * that answers {@code answer} and requires {@code ms} and each of {@code packages} ({@code name@version}).
   */
  public static String function(String name, String answer, List<String> packages) {
    StringBuilder dependencies = new StringBuilder("\"ms\": \"2.1.3\"");
    StringBuilder requires = new StringBuilder("const ms = require('ms');\n");
    for (String spec : packages) {
      String[] parts = spec.split("@");
      dependencies.append(", \"").append(parts[0]).append("\": \"").append(parts[1]).append('"');
      requires.append("require('").append(parts[0]).append("');\n");
    }
    return TestFunction.declared(name).profile("XS")
        .code(requires + "module.exports = { main: () => '" + answer + "' };\n")
        .dependencies("{\"name\": \"" + name + "\", \"version\": \"1.0.0\", \"dependencies\": {" + dependencies
            + "}}")
        .toYaml();
  }

  /** A pull request into main: its number and head commit. */
  public record PullRequest(long number, String head) {}

  /**
   * Commits {@code function} as {@code functions/<name>.yaml} on a new branch from main as Gitea has it now, pushes
   * the branch and opens a pull request of it into main.
   */
  public PullRequest openPullRequest(String branch, String name, String function) throws Exception {
    copy.git("fetch", "-q", "origin");
    copy.git("checkout", "-q", "-B", branch, "origin/main");
    String head = copy.write("functions/" + name + ".yaml", function).commit(branch);
    copy.push("HEAD:refs/heads/" + branch);
    long number = gitea.call("POST", repositoryPath() + "/pulls",
        Map.of("head", branch, "base", "main", "title", branch)).get("number").asLong();
    return new PullRequest(number, head);
  }

  /** Merges the pull request with a merge commit; returns main's new head. */
  public String merge(long number) {
    gitea.call("POST", repositoryPath() + "/pulls/" + number + "/merge", Map.of("Do", "merge"));
    return gitea.call("GET", repositoryPath() + "/branches/main", null).get("commit").get("id").asText();
  }

  /** Closes the pull request without merging it. */
  public void close(long number) {
    gitea.call("PATCH", repositoryPath() + "/pulls/" + number, Map.of("state", "closed"));
  }

  /** Where gitfn previews pull request {@code number}: {@code <namespace>-pr-<number>}. */
  public String previewNamespace(long number) {
    return namespace + "-pr-" + number;
  }

  /** The previewed repository's {@code status.previews} entry of pull request {@code number}, if it has one. */
  public Optional<Preview> preview(long number) {
    FunctionRepository infra = infra();
    List<Preview> previews = infra == null || infra.getStatus() == null ? null : infra.getStatus().getPreviews();
    return Objects.requireNonNullElse(previews, List.<Preview>of()).stream().filter(p -> p.getNumber() == number)
        .findFirst();
  }

  /** Whether the preview runs {@code head}: phase Running at that commit. */
  public boolean running(PullRequest pullRequest) {
    return preview(pullRequest.number()).filter(p -> "Running".equals(p.getPhase())
        && pullRequest.head().equals(p.getHeadSha())).isPresent();
  }

  /** Whether the preview's namespace is gone or terminating. */
  public boolean namespaceGone(long number) {
    Namespace ns = client.namespaces().withName(previewNamespace(number)).get();
    return ns == null || ns.getMetadata().getDeletionTimestamp() != null;
  }

  /** The previewed FunctionRepository as it is now. */
  public FunctionRepository infra() {
    return client.resources(FunctionRepository.class).inNamespace(namespace).withName(NAME).get();
  }

  private String repositoryPath() {
    return "/api/v1/repos/" + gitea.admin().username() + "/" + repository;
  }
}
