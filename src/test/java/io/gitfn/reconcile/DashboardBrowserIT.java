package io.gitfn.reconcile;

import static io.gitfn.api.function.FunctionRuntime.NODEJS22;
import static io.gitfn.api.function.FunctionRuntime.PYTHON312;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.testbed.Browser;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/**
 * The dashboard in a real browser (Debian's headless Chromium), served by a controller on a real API server and a
 * real Git server. Each test leaves a screenshot of its page under {@code target/dashboard/}.
 */
@WithKubeApi
@ExtendWith(GitServers.class)
class DashboardBrowserIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final Path SCREENSHOTS = Path.of("target", "dashboard");
  private static ControllerUnderTest running;

  @BeforeAll
  static void startController(KubeTestBed bed) throws Exception {
    running = ControllerUnderTest.start(bed, "dashboard", ControllerSettings.defaults());
  }

  @AfterAll
  static void stopController() throws Exception {
    running.close();
  }

  @Test
  void aRepositoryWithFunctionsAppearsWithItsRevisionsStateAndCounts(KubernetesClient client, TestNamespace ns,
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String sha = copy.write("functions/hello.yaml", Repositories.function("hello", NODEJS22, "v1").toYaml())
        .write("functions/bye.yaml", Repositories.function("bye", PYTHON312, "v1").toYaml()).commit("two");
    applied(client, ns, http, repository, copy, sha);
    URI dashboard = running.controller().dashboardUri().orElseThrow();

    try (Browser browser = Browser.start()) {
      WebElement row = browser.open(dashboard).await("tbody tr",
          r -> r.getText().contains(ns.name() + "/infra"), WAIT);

      assertThat(row.findElement(By.cssSelector("th")).getText()).isEqualTo(ns.name() + "/infra");
      // On an API server alone both Functions roll out; when the suite's bed runs kwok too, they may run already.
      assertThat(row.findElement(By.cssSelector(".badge")).getText()).isIn("Reconciling", "Ready");
      assertThat(row.findElement(By.cssSelector(".numbers")).getText()).matches("[0-2] / [0-2] / 0")
          .satisfies(counts -> assertThat(counts.chars().filter(Character::isDigit).map(c -> c - '0').sum())
              .as("running and rolling out make both Functions").isEqualTo(2));
      assertThat(row.findElements(By.cssSelector("code"))).extracting(WebElement::getText)
          .contains("main@sha1:" + sha.substring(0, 7));
      assertThat(browser.driver().getTitle()).startsWith("gitfn");
      assertThat(browser.screenshot(SCREENSHOTS.resolve("overview.png"))).isNotEmptyFile();

      // The keyboard reaches the repository's page: Enter on its link.
      row.findElement(By.cssSelector("th a")).sendKeys(Keys.ENTER);
      WebElement functions = browser.await("table.functions", t -> t.getText().contains("hello"), WAIT);
      assertThat(functions.findElements(By.cssSelector("tbody th"))).extracting(WebElement::getText)
          .containsExactlyInAnyOrder("bye", "hello");
      assertThat(functions.getText()).containsAnyOf("Rolling out", "Running").contains("nodejs22")
          .contains("python312");
      assertThat(browser.driver().findElement(By.cssSelector("table.history")).getText())
          .contains("main@sha1:" + sha.substring(0, 7));
      assertThat(browser.driver().getTitle()).isEqualTo("gitfn: " + ns.name() + "/infra");
      browser.screenshot(SCREENSHOTS.resolve("repository.png"));

      functions.findElement(By.linkText("hello")).sendKeys(Keys.ENTER);
      WebElement conditions = browser.await("table.conditions", t -> t.getText().contains("BuildReady"), WAIT);
      assertThat(conditions.findElements(By.cssSelector("tbody th"))).extracting(WebElement::getText)
          .contains("ConfigurationReady", "BuildReady");
      assertThat(browser.driver().findElement(By.cssSelector(".crumbs")).getText()).contains(ns.name() + ".infra");
      assertThat(browser.driver().getTitle()).isEqualTo("gitfn: Function " + ns.name() + "/hello");
      browser.screenshot(SCREENSHOTS.resolve("function.png"));
    }
  }

  @Test
  void aPushShowsUpAsANewRevisionWithoutAReload(KubernetesClient client, TestNamespace ns, GitHttpServer http,
      BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String first = copy.write("functions/hello.yaml", Repositories.function("hello", NODEJS22, "v1").toYaml())
        .commit("v1");
    applied(client, ns, http, repository, copy, first);

    try (Browser browser = Browser.start()) {
      browser.open(running.controller().dashboardUri().orElseThrow()).await("tbody tr",
          r -> r.getText().contains(ns.name() + "/infra"), WAIT);
      // A reload would forget this; the page's own updates keep it.
      browser.script("window.sameDocument = true;");

      String second = copy.write("functions/hello.yaml", Repositories.function("hello", NODEJS22, "v2").toYaml())
          .commit("v2");
      copy.push();
      Repositories.requestReconcile(client, ns.name(), "infra");

      WebElement row = browser.await("tbody tr", r -> r.getText().contains(ns.name() + "/infra")
          && r.getText().contains("main@sha1:" + second.substring(0, 7)), WAIT);
      assertThat(row.findElements(By.cssSelector("code.revision"))).extracting(WebElement::getText)
          .containsExactly("main@sha1:" + second.substring(0, 7), "main@sha1:" + second.substring(0, 7));
      assertThat(browser.script("return window.sameDocument === true;")).isEqualTo(true);
      browser.screenshot(SCREENSHOTS.resolve("overview-after-push.png"));
    }
  }

  /** Pushes {@code copy}, makes the FunctionRepository {@code infra} of it, and waits until {@code sha} is applied. */
  private static void applied(KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository,
      WorkingCopy copy, String sha) throws Exception {
    copy.push();
    Repositories.gitSecret(client, ns.name(), http);
    Repositories.create(client, ns.name(), "infra", http.url(repository.name()), Map.of());
    await().atMost(WAIT).until(() -> ("main@sha1:" + sha).equals(
        Repositories.repository(client, ns.name(), "infra").getStatus().getLastAppliedRevision()));
  }
}
