package io.gitfn.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The dashboard's HTTP side: pages from the source, read-only, escaped, on its own port. */
class DashboardServerTest {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private static final String SHA = "0123456789abcdef0123456789abcdef01234567";

  private final List<FunctionRepository> repositories = new CopyOnWriteArrayList<>();
  private final List<Function> functions = new CopyOnWriteArrayList<>();
  private final List<FunctionPage.EventLine> events = new CopyOnWriteArrayList<>();
  private final Map<String, Deployment> deployments = new ConcurrentHashMap<>();
  private final Map<String, Job> jobs = new ConcurrentHashMap<>();
  private final Map<String, BuildLog> logs = new ConcurrentHashMap<>();
  private final HttpClient http = HttpClient.newHttpClient();
  private DashboardServer server;

  @BeforeEach
  void start() throws Exception {
    server = DashboardServer.start("127.0.0.1", 0, new DashboardServer.Source() {
      @Override
      public Collection<FunctionRepository> repositories() {
        return repositories;
      }

      @Override
      public Collection<Function> functions() {
        return functions;
      }

      @Override
      public Optional<Deployment> deploymentOf(Function fn) {
        return Optional.ofNullable(deployments.get(fn.getMetadata().getName()));
      }

      @Override
      public Collection<Job> jobsOf(Function fn) {
        return Optional.ofNullable(jobs.get(fn.getMetadata().getName())).map(List::of).orElse(List.of());
      }
    }, (namespace, name) -> events, (namespace, job, whole) -> logs.getOrDefault(job + (whole ? "/whole" : ""),
        BuildLog.missing("no such log")));
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  @Test
  void theOverviewListsEachRepositoryWithItsRevisionsStateAndFunctions() throws Exception {
    repositories.add(repository("shop", "infra", "main@sha1:" + SHA, "True", "Succeeded",
        "revision main@sha1:" + SHA + " runs: 1 Functions ready"));
    functions.add(function("shop", "hello", "shop.infra", "True"));

    HttpResponse<String> page = get("/");

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
    assertThat(page.body())
        .contains("<span class=\"namespace\">shop/</span>infra")
        .contains("<span class=\"badge ready\">Ready</span>")
        .contains("main@sha1:0123456</code>")
        .contains("title=\"main@sha1:" + SHA + "\"")
        .contains("branch:main")
        .contains("1 repositories with 1 Functions");
  }

  @Test
  void aRepositorysPageListsItsFunctionsWithTheFailedFirstAndItsRevisionsWithTheirSigners() throws Exception {
    FunctionRepository repository = repository("shop", "infra", "main@sha1:" + SHA, "False", "FunctionsFailed",
        "revision main@sha1:" + SHA + " is applied, but 1 of 2 Functions failed");
    io.gitfn.api.repository.SyncRecord record = new io.gitfn.api.repository.SyncRecord();
    record.setRevision("main@sha1:" + SHA);
    record.setOutcome("Applied");
    record.setTime("2026-11-26T09:00:00Z");
    record.setCreated(2);
    record.setKeyFingerprint("SHA256:lHvC2nKJzVyC3Ryu/5e0wsWQP0AjyfTMtYTZK3sMjnE");
    record.setSigner("alice@example.com");
    repository.getStatus().setHistory(List.of(record));
    repositories.add(repository);
    functions.add(function("shop", "a-fine", "shop.infra", "True"));
    functions.add(function("shop", "z-broken", "shop.infra", "False"));
    functions.add(function("shop", "elsewhere", "shop.other", "True"));

    assertThat(get("/").body()).contains("<a href=\"/repositories/shop/infra\">");
    HttpResponse<String> page = get("/repositories/shop/infra");

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("<span class=\"badge failed\">Failed</span>")
        .doesNotContain("elsewhere")
        .contains("<td>Applied</td>").contains("2 / 0 / 0")
        .contains("signed by alice@example.com, <code title=\"SHA256:lHvC2nKJzVyC3Ryu/5e0wsWQP0AjyfTMtYTZK3sMjnE\">");
    assertThat(page.body().indexOf("z-broken")).as("failed first").isLessThan(page.body().indexOf("a-fine"));
    assertThat(page.headers().firstValue("etag")).isPresent();
  }

  @Test
  void aRepositorysPageListsItsPreviewsWithTheirBranchPhaseAgesAndLinks() throws Exception {
    FunctionRepository repository = repository("shop", "infra", "main@sha1:" + SHA, "True", "Succeeded", "runs");
    repository.getStatus().setPreviews(List.of(
        preview(12, "Running", "https://hello-pr-12.preview.example.com", "2026-11-26T09:00:00Z"),
        preview(3, "Failed", "http://hello.shop-pr-3.svc.cluster.local", "2026-11-25T09:00:00Z")));
    repository.getStatus().getPreviews().get(1).setMessage("the build of hello failed");
    repositories.add(repository);

    String body = get("/repositories/shop/infra").body();

    assertThat(body).contains("<h2>Previews</h2>")
        .contains("<th scope=\"row\">#12</th>")
        .contains("<span class=\"ref\">feature/pr-12</span>")
        .contains("<code class=\"revision\" title=\"" + SHA + "\">0123456</code>")
        .contains("<span class=\"badge ready\">Running</span>")
        .contains("<span class=\"badge failed\">Failed</span>").contains("the build of hello failed")
        .contains("<time datetime=\"2026-11-26T09:00:00Z\">")
        .contains("<time datetime=\"2026-11-26T10:00:00Z\">")
        .contains("<a href=\"https://hello-pr-12.preview.example.com\" rel=\"noreferrer\">")
        .contains("<a href=\"/repositories/shop/infra-pr-12\">infra-pr-12</a>")
        .contains("runs in shop-pr-12");
    assertThat(body.indexOf("#3<")).as("by number").isLessThan(body.indexOf("#12<"));
    assertThat(body.indexOf("<h2>Previews</h2>")).isLessThan(body.indexOf("<h2>Revisions</h2>"));
  }

  @Test
  void aRepositoryWithoutPreviewsHasNoPreviewsSection() throws Exception {
    repositories.add(repository("shop", "infra", "main@sha1:" + SHA, "True", "Succeeded", "runs"));

    assertThat(get("/repositories/shop/infra").body()).doesNotContain("Previews");
  }

  @Test
  void aPreviewsUrlIsEscapedAndOnlyAWebAddressIsALink() throws Exception {
    FunctionRepository repository = repository("shop", "infra", "main@sha1:" + SHA, "True", "Succeeded", "runs");
    repository.getStatus().setPreviews(List.of(
        preview(1, "Running", "https://x.example/\"><script>alert(1)</script>", "2026-11-26T09:00:00Z"),
        preview(2, "Running", "javascript:alert(2)", "2026-11-26T09:00:00Z"),
        preview(3, "Pending", "  https://padded.example", "2026-11-26T09:00:00Z")));
    repositories.add(repository);

    String body = get("/repositories/shop/infra").body();

    assertThat(body).doesNotContain("<script>alert(1)").doesNotContain("\"><script>")
        .as("in the attribute, its quote cannot end it")
        .contains("<a href=\"https://x.example/&#34;>&lt;script>alert(1)&lt;/script>\" rel=\"noreferrer\">")
        .as("in the text").contains(">https://x.example/\"&gt;&lt;script&gt;alert(1)&lt;/script&gt;</a>");
    assertThat(body).as("no link runs script").doesNotContain("href=\"javascript:")
        .contains("<code>javascript:alert(2)</code>");
    assertThat(body).doesNotContain("href=\"  https://padded.example\"");
  }

  @Test
  void aPreviewWithoutItsTimesIsShownWithoutAges() throws Exception {
    FunctionRepository repository = repository("shop", "infra", "main@sha1:" + SHA, "True", "Succeeded", "runs");
    io.gitfn.api.repository.Preview bare = new io.gitfn.api.repository.Preview();
    bare.setNumber(7L);
    io.gitfn.api.repository.Preview garbled = preview(8, "Pending", null, "last Tuesday");
    garbled.setPushedAt("soon");
    repository.getStatus().setPreviews(List.of(bare, garbled));
    repositories.add(repository);

    HttpResponse<String> page = get("/repositories/shop/infra");

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("<th scope=\"row\">#7</th>").contains("<th scope=\"row\">#8</th>")
        .contains("<span class=\"badge unknown\">Unknown</span>")
        .doesNotContain("last Tuesday").doesNotContain("datetime=\"soon\"");
  }

  @Test
  void aPreviewsOwnRepositorySaysWhatItPreviewsAndTheOverviewMarksIt() throws Exception {
    repositories.add(repository("shop", "infra", "main@sha1:" + SHA, "True", "Succeeded", "runs"));
    FunctionRepository own = repository("shop", "infra-pr-12", "main@sha1:" + SHA, "True", "Succeeded", "runs");
    own.getSpec().setPreviewOf(new io.gitfn.api.repository.PreviewOf("infra", 12L, "shop-pr-12", "feature/pr-12",
        null));
    repositories.add(own);

    assertThat(get("/repositories/shop/infra-pr-12").body())
        .contains("Preview of pull request #12 of <a href=\"/repositories/shop/infra\">infra</a>");
    assertThat(get("/repositories/shop/infra").body()).doesNotContain("Preview of pull request");
    String overview = get("/").body();
    assertThat(overview).contains("infra-pr-12</a> <span class=\"preview-mark\"")
        .contains(">preview #12</span>");
    assertThat(overview.split("preview-mark", -1)).as("only the preview's row is marked").hasSize(2);
  }

  @Test
  void aFunctionsPageShowsItsConditionsVersionsAndEventsAndLinksBackToItsRepository() throws Exception {
    functions.add(function("shop", "hello", "shop.infra", "False"));
    events.add(new FunctionPage.EventLine("Warning", "DeploymentFailed", "<b>pods</b> crash", "2026-11-26T09:59:00Z",
        3));

    assertThat(get("/repositories/shop/infra").statusCode()).as("no such repository").isEqualTo(404);
    HttpResponse<String> page = get("/functions/shop/hello");

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("<a href=\"/repositories/shop/infra\">shop.infra</a>")
        .contains("<span class=\"badge failed\">Failed</span>")
        .contains("<th scope=\"row\">Running</th>")
        .contains("<tr class=\"warning\">").contains("DeploymentFailed").contains("&lt;b&gt;pods&lt;/b&gt; crash")
        .contains("×3");
    assertThat(get("/functions/shop/nothing").statusCode()).isEqualTo(404);
  }

  @Test
  void aFunctionsPageShowsItsRolloutAndTheEndOfItsFailedBuildsLogAsText() throws Exception {
    functions.add(function("shop", "hello", "shop.infra", "False"));
    deployments.put("hello", JSON.unmarshal("""
        {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "hello", "generation": 2},
         "spec": {"replicas": 2, "template": {"spec": {"containers": [{"name": "function",
           "image": "registry.example/hello:abc"}]}}},
         "status": {"observedGeneration": 2, "replicas": 3, "updatedReplicas": 1, "readyReplicas": 2,
           "availableReplicas": 2}}
        """, Deployment.class));
    jobs.put("hello", JSON.unmarshal("""
        {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "hello-build-0a1b2c3d4e5f",
           "creationTimestamp": "2026-11-26T09:00:00Z", "labels": {"gitfn.io/content-key": "0a1b2c3d4e5f"}},
         "status": {"failed": 1, "startTime": "2026-11-26T09:00:01Z", "conditions": [
           {"type": "Failed", "status": "True", "reason": "BackoffLimitExceeded", "message": "no retries"}]}}
        """, Job.class));
    logs.put("hello-build-0a1b2c3d4e5f", BuildLog.of("hello-build-0a1b2c3d4e5f-xyz",
        "npm error 404 'gitfn-no-such-package@1.0.0' <script>alert(1)</script>\n".getBytes(StandardCharsets.UTF_8),
        1000));
    logs.put("hello-build-0a1b2c3d4e5f/whole", BuildLog.of("hello-build-0a1b2c3d4e5f-xyz",
        "step 1\n<b>npm error 404</b>\n".getBytes(StandardCharsets.UTF_8), 1000));

    String body = get("/functions/shop/hello").body();
    HttpResponse<String> whole = get("/functions/shop/hello/build-log");

    assertThat(body).contains("<span class=\"badge reconciling\">Rolling out</span> Deployment hello: 1 of 2 new")
        .contains("2 ready, 1 updated, 2 available of 2")
        .contains("<span class=\"badge failed\">Failed</span> Job hello-build-0a1b2c3d4e5f")
        .contains("BackoffLimitExceeded: no retries")
        .contains("gitfn-no-such-package@1.0.0").contains("&lt;script&gt;alert(1)&lt;/script&gt;")
        .doesNotContain("<script>alert(1)")
        .contains("<a href=\"/functions/shop/hello/build-log\">");
    assertThat(whole.statusCode()).isEqualTo(200);
    assertThat(whole.headers().firstValue("content-type")).hasValue("text/plain; charset=utf-8");
    assertThat(whole.headers().firstValue("x-content-type-options")).hasValue("nosniff");
    assertThat(whole.body()).endsWith("step 1\n<b>npm error 404</b>\n")
        .startsWith("# at most the last 2000 lines of Pod hello-build-0a1b2c3d4e5f-xyz");
    assertThat(get("/functions/shop/other/build-log").statusCode()).isEqualTo(404);
  }

  @Test
  void aFunctionWithNoBuildJobSaysSoAndItsWholeLogIsNotFound() throws Exception {
    functions.add(function("shop", "hello", "shop.infra", "True"));

    assertThat(get("/functions/shop/hello").body()).contains("No build Job").contains("No Deployment yet");
    HttpResponse<String> whole = get("/functions/shop/hello/build-log");
    assertThat(whole.statusCode()).isEqualTo(404);
    assertThat(whole.body()).contains("the Function has no build Job");
  }

  @Test
  void aPathThatNamesNoRepositoryIsNotFoundWhateverItHolds() throws Exception {
    repositories.add(repository("shop", "infra", null, "True", "Succeeded", "runs"));

    assertThat(get("/repositories/shop/other").statusCode()).isEqualTo(404);
    assertThat(get("/repositories/shop/infra/more").statusCode()).isEqualTo(404);
    assertThat(get("/repositories/Shop/infra").statusCode()).isEqualTo(404);
    assertThat(get("/repositories/" + "a".repeat(300) + "/infra").statusCode()).isEqualTo(404);
    assertThat(get("/repositories/shop/%3Cscript%3E").statusCode()).isEqualTo(404);
  }

  @Test
  void whatATenantWroteIsShownAsTextNeverAsMarkup() throws Exception {
    repositories.add(repository("shop", "infra", "main@sha1:x\" onmouseover=\"alert(1)", "False", "InvalidRevision",
        "functions/x.yaml:1: <script>alert(1)</script>"));

    String body = get("/").body();

    assertThat(body).doesNotContain("<script>alert(1)</script>").contains("&lt;script&gt;alert(1)&lt;/script&gt;");
    assertThat(body).as("a revision in an attribute").doesNotContain("\" onmouseover=\"alert(1)")
        .contains("title=\"main@sha1:x&#34; onmouseover=&#34;alert(1)\"");
  }

  @Test
  void repositoriesThatNeedAPersonComeFirst() throws Exception {
    repositories.add(repository("a", "fine", "main@sha1:" + SHA, "True", "Succeeded", "runs"));
    repositories.add(repository("b", "broken", null, "False", "InvalidRevision", "bad"));

    String body = get("/").body();

    assertThat(body.indexOf("broken")).isLessThan(body.indexOf("fine"));
  }

  @Test
  void aPageAskedForAgainWithTheVersionItShowsIsUnchangedUntilTheCacheChanges() throws Exception {
    repositories.add(repository("shop", "infra", "main@sha1:" + SHA, "True", "Succeeded", "runs"));
    HttpResponse<String> first = get("/");
    String etag = first.headers().firstValue("etag").orElseThrow();
    assertThat(first.body()).contains("data-version=" + etag);

    assertThat(getIfNoneMatch(etag).statusCode()).isEqualTo(304);
    assertThat(getIfNoneMatch(etag).body()).isEmpty();
    repositories.set(0, repository("shop", "infra", "main@sha1:" + "f".repeat(40), "True", "Succeeded", "runs"));
    HttpResponse<String> changed = getIfNoneMatch(etag);
    assertThat(changed.statusCode()).isEqualTo(200);
    assertThat(changed.body()).contains("main@sha1:fffffff");
  }

  @Test
  void itIsReadOnlyAndLoadsNothingFromElsewhere() throws Exception {
    HttpResponse<String> post = http.send(HttpRequest.newBuilder(server.baseUri().resolve("/"))
        .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> css = get("/static/dashboard.css");

    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(post.headers().firstValue("allow")).hasValue("GET, HEAD");
    assertThat(css.statusCode()).isEqualTo(200);
    assertThat(css.headers().firstValue("content-type")).hasValue("text/css; charset=utf-8");
    assertThat(get("/").headers().firstValue("content-security-policy")).hasValueSatisfying(policy ->
        assertThat(policy).contains("default-src 'none'").contains("script-src 'self'"));
    assertThat(get("/static/../../etc/passwd").statusCode()).isIn(400, 404);
    assertThat(get("/nothing-here").statusCode()).isEqualTo(404);
  }

  private HttpResponse<String> getIfNoneMatch(String etag) throws Exception {
    return http.send(HttpRequest.newBuilder(server.baseUri()).header("If-None-Match", etag).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(server.baseUri().toString() + path.substring(1))).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static FunctionRepository repository(String namespace, String name, String applied, String ready, String reason,
      String message) {
    return JSON.unmarshal("""
        {"apiVersion": "gitfn.io/v1alpha1", "kind": "FunctionRepository",
         "metadata": {"name": "%s", "namespace": "%s"},
         "spec": {"url": "https://git.example/%s.git", "ref": {"branch": "main"}, "path": "functions"},
         "status": {"lastFetchedRevision": %s, "lastAppliedRevision": %s,
           "conditions": [{"type": "Ready", "status": "%s", "reason": "%s", "message": %s,
             "lastTransitionTime": "2026-11-26T09:00:00Z"}]}}
        """.formatted(name, namespace, name, quoted(applied), quoted(applied), ready, reason, JSON.asJson(message)),
        FunctionRepository.class);
  }

  static Function function(String namespace, String name, String owner, String running) {
    return JSON.unmarshal("""
        {"apiVersion": "serverless.kyma-project.io/v1alpha2", "kind": "Function",
         "metadata": {"name": "%s", "namespace": "%s", "generation": 1, "labels": {"gitfn.io/repository": "%s"}},
         "spec": {"runtime": "nodejs22", "source": {"inline": {"source": "x"}}},
         "status": {"observedGeneration": 1, "conditions": [
           {"type": "ConfigurationReady", "status": "True", "reason": "Ok", "message": ""},
           {"type": "BuildReady", "status": "True", "reason": "Ok", "message": ""},
           {"type": "Running", "status": "%s", "reason": "DeploymentReady", "message": ""}]}}
        """.formatted(name, namespace, owner, running), Function.class);
  }

  /** A preview of pull request {@code number} from branch {@code feature/pr-<number>}, last pushed an hour on. */
  static io.gitfn.api.repository.Preview preview(long number, String phase, String url, String createdAt) {
    io.gitfn.api.repository.Preview preview = new io.gitfn.api.repository.Preview();
    preview.setNumber(number);
    preview.setHeadRef("feature/pr-" + number);
    preview.setHeadSha(SHA);
    preview.setNamespace("shop-pr-" + number);
    preview.setRepository("infra-pr-" + number);
    preview.setUrl(url);
    preview.setPhase(phase);
    preview.setCreatedAt(createdAt);
    preview.setPushedAt("2026-11-26T10:00:00Z");
    return preview;
  }

  private static String quoted(String value) {
    return value == null ? "null" : JSON.asJson(value);
  }
}
