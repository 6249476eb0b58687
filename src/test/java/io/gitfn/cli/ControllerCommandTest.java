package io.gitfn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.build.ImageBuilder;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** Bad values of the controller's operating flags stop it before it starts, with the flag named. */
class ControllerCommandTest {

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(delimiter = '|', value = {
      "--shard-selector|gitfn.io/shard=a b|--shard-selector `gitfn.io/shard=a b` is not a label selector",
      "--log-format|xml|--log-format `xml` is not one of text, json",
      "--log-level|loud|--log-level `loud` is not one of",
      "--shutdown-timeout|soon|--shutdown-timeout `soon` is not a duration",
      "--metrics-port|70000|--metrics-port must be between 0 and 65535",
      "--dashboard-port|-2|--dashboard-port must be between 0 and 65535, or -1 for no dashboard",
      "--leader-election-id|Not_A_Name|--leader-election-id `Not_A_Name` is not a Kubernetes object name",
      "--allowed-git-host|git.example.com:22|--allowed-git-host `git.example.com:22` is not a host name or *.domain",
      "--allowed-kind|Ingress|--allowed-kind `Ingress` is not apiVersion/Kind, as in v1/ConfigMap or gateway.networking.k8s.io/v1/HTTPRoute",
      "--allowed-kind|serverless.kyma-project.io/v1alpha2/Function|--allowed-kind `serverless.kyma-project.io/v1alpha2/Function` is gitfn's own kind",
      "--builder|docker|--builder `docker` is not one of layered",
      "--builder|buildah|--builder `buildah` was removed: gitfn builds every image with the layered builder",
      "--insecure-registry|registry.local/path|insecure registry `registry.local/path` is not a host[:port]",
      "--build-deadline|forever|--build-deadline `forever` is not a duration",
      "--build-deadline|0s|the build deadline must be at least 1s",
      "--build-pod-annotation|no-equals|--build-pod-annotation `no-equals` is not KEY=VALUE",
      "--base-image|nodejs22|--base-image `nodejs22` is not RUNTIME=IMAGE",
      "--base-image|cobol85=registry.example.com/cobol:1|--base-image `cobol85=registry.example.com/cobol:1`: runtime `cobol85` is not one of nodejs20, nodejs22, nodejs24, python312",
      "--resources-config|/no/such/file.yaml|--resources-config /no/such/file.yaml: cannot read it",
      "--base-image|python312=python:3.12 AS evil|--base-image `python312=python:3.12 AS evil`: `python:3.12 AS evil` is not an image reference",
  })
  void aBadFlagValueNamesTheFlag(String flag, String value, String message) {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new Main()).setErr(new PrintWriter(err));
    int code = cli.execute("controller", "--leader-elect", "--leader-election-namespace", "gitfn-system",
        "--kubeconfig", "/dev/null", flag, value);

    assertThat(code).as(err.toString()).isEqualTo(2);
    assertThat(err.toString()).contains(message);
  }

  @Test
  void theOperatingFlagsAreThoseTheChartSets() {
    var options = new CommandLine(new Main()).getSubcommands().get("controller").getCommandSpec().optionsMap();
    assertThat(options).containsKeys("--leader-elect", "--leader-election-namespace", "--leader-election-id",
        "--shard-selector", "--metrics-bind", "--metrics-port", "--log-format", "--log-level", "--shutdown-timeout");
    assertThat(options.get("--metrics-port").defaultValue()).isEqualTo("8080");
    assertThat(options.get("--metrics-bind").defaultValue()).isEqualTo("0.0.0.0");
    assertThat(options.get("--leader-election-id").defaultValue()).isEqualTo("gitfn-controller");
    assertThat(options.get("--shutdown-timeout").defaultValue()).isEqualTo("20s");
  }

  @Test
  void theDashboardIsOnLoopbackUnlessToldOtherwise() {
    var options = new CommandLine(new Main()).getSubcommands().get("controller").getCommandSpec().optionsMap();
    assertThat(options.get("--dashboard-bind").defaultValue()).isEqualTo("127.0.0.1");
    assertThat(options.get("--dashboard-port").defaultValue()).isEqualTo("8081");
  }

  @Test
  void dashboardActionsAreOffByDefaultAndNeedADashboard() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new Main()).setErr(new PrintWriter(err));

    int code = cli.execute("controller", "--kubeconfig", "/dev/null", "--dashboard-actions", "--dashboard-port", "-1");

    assertThat(code).as(err.toString()).isEqualTo(2);
    assertThat(err.toString()).contains("--dashboard-actions needs a dashboard: --dashboard-port is -1");
    var options = new CommandLine(new Main()).getSubcommands().get("controller").getCommandSpec().optionsMap();
    assertThat(options.get("--dashboard-actions").arity().max()).as("a switch").isZero();
    assertThat((Boolean) options.get("--dashboard-actions").getValue()).isFalse();
  }

  @Test
  void layeredIsTheBuilderAndItsInstallJobsPackWithGitfnsOwnImage() {
    var options = new CommandLine(new Main()).getSubcommands().get("controller").getCommandSpec().optionsMap();
    assertThat(options.get("--builder").defaultValue()).isEqualTo("layered")
        .isEqualTo(ImageBuilder.DEFAULT_TOOL.value());
    assertThat(options.get("--builder-image").defaultValue()).as("gitfn's image of this version").isNull();
    assertThat(options.get("--builder-image").description()[0]).contains("ghcr.io/gitfn/gitfn")
        .doesNotContain("buildah", "kaniko");
  }
}
