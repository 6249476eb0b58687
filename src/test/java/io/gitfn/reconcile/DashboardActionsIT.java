package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.build.BuildSettings;
import io.gitfn.controller.Controller;
import io.gitfn.controller.OperationSettings;
import io.gitfn.testbed.Browser;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.People;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.WorkloadSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The dashboard's actions in a real browser, on a controller started with them on: a button does nothing without a
 * token, nothing with the token of someone RBAC does not allow, and its change with the token of someone it does.
 */
@WithKubeApi
class DashboardActionsIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final Path SCREENSHOTS = Path.of("target", "dashboard");
  private static ControllerUnderTest running;

  @BeforeAll
  static void startController(KubeTestBed bed) throws Exception {
    running = ControllerUnderTest.start(bed, "dashboard-actions", (client, sources) -> Controller.start(client,
        sources, WebhookSettings.defaults(), ControllerSettings.defaults(), BuildSettings.defaults(),
        WorkloadSettings.defaults(), "127.0.0.1", 0, OperationSettings.defaults().withDashboardActions(),
        new SimpleMeterRegistry(), () -> { }));
  }

  @AfterAll
  static void stopController() throws Exception {
    running.close();
  }

  @Test
  void suspendIsRefusedWithoutATokenAndToSomeoneWithoutTheRightAndWorksForAnOperator(KubernetesClient client,
      TestNamespace ns) {
    client.resource(client.getKubernetesSerialization().unmarshal("---\n{apiVersion: gitfn.io/v1alpha1, kind: "
        + "FunctionRepository, metadata: {name: infra, namespace: " + ns.name() + "}, spec: {url: "
        + "'https://git.example/infra.git', ref: {branch: main}, interval: 1h}}", FunctionRepository.class)).create();
    String viewer = People.withNoRights(client, ns.name(), "viewer");
    String operator = People.withRole(client, ns.name(), "operator", new PolicyRuleBuilder()
        .withApiGroups("gitfn.io").withResources("functionrepositories").withVerbs("patch").build());
    URI page = running.controller().dashboardUri().orElseThrow().resolve("repositories/" + ns.name() + "/infra");

    try (Browser browser = Browser.start()) {
      WebElement suspend = browser.open(page).await("form.actions button[value=suspend]", b -> true, WAIT);

      suspend.click();
      assertThat(result(browser, "✗")).contains("actions need a bearer token");
      browser.driver().findElement(By.id("token")).sendKeys(viewer);
      browser.driver().findElement(By.cssSelector("form.actions button[value=suspend]")).click();
      assertThat(result(browser, "✗ " + People.user(ns.name(), "viewer")))
          .contains("may not patch functionrepositories.gitfn.io in namespace " + ns.name());
      assertThat(suspended(client, ns)).as("after the refusals").isFalse();

      WebElement token = browser.driver().findElement(By.id("token"));
      token.clear();
      token.sendKeys(operator);
      browser.driver().findElement(By.cssSelector("form.actions button[value=suspend]")).click();
      assertThat(result(browser, "✔")).isEqualTo("✔ suspended FunctionRepository " + ns.name() + "/infra");
      assertThat(suspended(client, ns)).isTrue();
      // The page follows: the repository turns Suspended, and the button to press now is Resume.
      browser.await("form.actions button[value=resume]", b -> true, WAIT);
      assertThat(browser.driver().findElement(By.cssSelector("h1 .badge")).getText()).isEqualTo("Suspended");
      browser.screenshot(SCREENSHOTS.resolve("repository-actions.png"));
    }
  }

  /** The answer the header shows once it starts with {@code start}. */
  private static String result(Browser browser, String start) {
    return browser.await("#action-result", r -> r.getText().startsWith(start), WAIT).getText();
  }

  private static boolean suspended(KubernetesClient client, TestNamespace ns) {
    return Boolean.TRUE.equals(client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("infra")
        .get().getSpec().getSuspend());
  }
}
