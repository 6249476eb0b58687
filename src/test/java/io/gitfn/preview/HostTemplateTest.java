package io.gitfn.preview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code spec.previews.host}: a host with placeholders, that names {@code {number}} so that no two pull requests share
 * a host, and whose every filling is checked to be a host.
 */
class HostTemplateTest {

  @Test
  void everyPlaceholderIsFilledAndTheTemplateIsWhatItShows() {
    HostTemplate template = HostTemplate.parse("{function}-pr-{number}.{repository}.{namespace}.preview.example.com");

    assertThat(template.host("orders", 7, "shop", "team-a")).isEqualTo("orders-pr-7.shop.team-a.preview.example.com");
    assertThat(template).hasToString("{function}-pr-{number}.{repository}.{namespace}.preview.example.com");
  }

  @Test
  void aTemplateNeedNotNameTheFunctionButMayNameAPlaceholderTwice() {
    assertThat(HostTemplate.parse("pr-{number}.example.com").host("orders", 12, "shop", "team-a"))
        .isEqualTo("pr-12.example.com");
    assertThat(HostTemplate.parse("{number}.{number}.example.com").host("orders", 12, "shop", "team-a"))
        .isEqualTo("12.12.example.com");
  }

  @Test
  void aValueThatLooksLikeAPlaceholderIsNotFilledAgain() {
    assertThatThrownBy(() -> HostTemplate.parse("{function}-pr-{number}.example.com").host("{number}", 7, "shop", "a"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith("which is not a DNS-1123 subdomain: its label `{number}-pr-7` has `{`; a label takes"
            + " lower-case letters, digits and `-`");
  }

  @Test
  void onlyTheFourPlaceholdersAreTaken() {
    assertThatThrownBy(() -> HostTemplate.parse("{branch}-pr-{number}.example.com"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("spec.previews.host `{branch}-pr-{number}.example.com` has the placeholder `{branch}`; it takes"
            + " {function}, {number}, {repository}, {namespace}");
    assertThatThrownBy(() -> HostTemplate.parse("{Function}-pr-{number}.example.com"))
        .hasMessageContaining("has the placeholder `{Function}`");
    assertThatThrownBy(() -> HostTemplate.parse("pr-{number}.{}.example.com"))
        .hasMessageContaining("has the placeholder `{}`");
  }

  @Test
  void aPlaceholderIsClosed() {
    assertThatThrownBy(() -> HostTemplate.parse("pr-{number}.{function.example.com"))
        .hasMessage("spec.previews.host `pr-{number}.{function.example.com` has `{` at character 13 without a `}` to"
            + " close it");
  }

  @Test
  void withoutTheNumberTwoPullRequestsWouldShareAHost() {
    assertThatThrownBy(() -> HostTemplate.parse("{function}.preview.example.com"))
        .hasMessage("spec.previews.host `{function}.preview.example.com` does not name {number}: the previews of two"
            + " pull requests would share a host");
  }

  @Test
  void outsideItsPlaceholdersItTakesLowerCaseLettersDigitsHyphensAndDots() {
    assertThatThrownBy(() -> HostTemplate.parse("{function}-PR-{number}.example.com"))
        .hasMessage("spec.previews.host `{function}-PR-{number}.example.com` has `P` at character 12; outside its"
            + " placeholders it takes lower-case letters, digits, `-` and `.`");
    assertThatThrownBy(() -> HostTemplate.parse("pr_{number}.example.com")).hasMessageContaining("has `_` at");
    assertThatThrownBy(() -> HostTemplate.parse("pr-{number}.example.com}")).hasMessageContaining("has `}` at");
    assertThatThrownBy(() -> HostTemplate.parse("https://pr-{number}.example.com")).hasMessageContaining("has `:` at");
    assertThatThrownBy(() -> HostTemplate.parse("pr-{number}.exämple.com")).hasMessageContaining("has `ä` at");
  }

  @Test
  void aWildcardIsNotOneHost() {
    assertThatThrownBy(() -> HostTemplate.parse("*.pr-{number}.example.com"))
        .hasMessage("spec.previews.host `*.pr-{number}.example.com` has `*`: a preview's host is one host, not a"
            + " wildcard");
  }

  @Test
  void aTemplateIsAtMost253Characters() {
    String longest = "pr-{number}" + ".abcdefghi".repeat(23) + ".example.com";

    assertThat(longest).hasSize(253);
    assertThat(HostTemplate.parse(longest)).hasToString(longest);
    assertThatThrownBy(() -> HostTemplate.parse(longest + "x"))
        .hasMessage("spec.previews.host is 254 characters long; a host has at most 253");
  }

  @Test
  void aHostileTemplateIsRefusedByItsLengthBeforeAnythingScansIt() {
    String hostile = "{number}" + "a-".repeat(4995) + "!!";

    assertThat(hostile).hasSize(10_000);
    assertTimeoutPreemptively(Duration.ofMillis(500), () -> assertThatThrownBy(() -> HostTemplate.parse(hostile))
        .hasMessage("spec.previews.host is 10000 characters long; a host has at most 253"));
  }

  @Test
  void itStartsAndEndsWithALetterDigitOrPlaceholderAndHasNoEmptyLabel() {
    assertThatThrownBy(() -> HostTemplate.parse(".pr-{number}.example.com"))
        .hasMessage("spec.previews.host `.pr-{number}.example.com` starts with `.`; a host starts with a letter or"
            + " digit");
    assertThatThrownBy(() -> HostTemplate.parse("-{number}.example.com")).hasMessageContaining("starts with `-`");
    assertThatThrownBy(() -> HostTemplate.parse("pr-{number}.example.com."))
        .hasMessage("spec.previews.host `pr-{number}.example.com.` ends with `.`; a host ends with a letter or digit");
    assertThatThrownBy(() -> HostTemplate.parse("pr-{number}.example-")).hasMessageContaining("ends with `-`");
    assertThatThrownBy(() -> HostTemplate.parse("pr-{number}..example.com"))
        .hasMessage("spec.previews.host `pr-{number}..example.com` has an empty label (`..`)");
    assertThatThrownBy(() -> HostTemplate.parse("pr-{number}-.example.com"))
        .hasMessage("spec.previews.host `pr-{number}-.example.com` has a label that starts or ends with `-`");
    assertThatThrownBy(() -> HostTemplate.parse("")).hasMessageContaining("does not name {number}");
  }

  @Test
  void aFilledLabelIsAtMost63CharactersAndTheMessageNamesTheValues() {
    HostTemplate template = HostTemplate.parse("{function}-pr-{number}.preview.example.com");
    String function = "x".repeat(60);

    assertThat(template.host("x".repeat(58), 7, "shop", "team-a")).startsWith("x".repeat(58) + "-pr-7.");
    assertThatThrownBy(() -> template.host(function, 7, "shop", "team-a"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("spec.previews.host `{function}-pr-{number}.preview.example.com` gives `" + function
            + "-pr-7.preview.example.com` for function `" + function + "`, pull request 7, repository `shop` and"
            + " namespace `team-a`, which is not a DNS-1123 subdomain: its label `" + function + "-pr-7` has 65"
            + " characters, more than 63");
  }

  @Test
  void aFilledHostIsAtMost253Characters() {
    HostTemplate template = HostTemplate.parse("{function}.{repository}.{namespace}.pr-{number}." + "a".repeat(60));
    String name = "n".repeat(63);

    assertThatThrownBy(() -> template.host(name, 1, name, name))
        .hasMessageEndingWith("which is not a DNS-1123 subdomain: it has 257 characters, more than 253");
  }

  @Test
  void aFilledValueMayNotMakeALabelEmptyOrUpperCaseOrStartWithAHyphen() {
    HostTemplate template = HostTemplate.parse("{function}.pr-{number}.{repository}.example.com");

    assertThatThrownBy(() -> template.host("orders", 7, "", "team-a"))
        .hasMessageEndingWith("which is not a DNS-1123 subdomain: it has an empty label");
    assertThatThrownBy(() -> template.host("Orders", 7, "shop", "team-a"))
        .hasMessageEndingWith("its label `Orders` has `O`; a label takes lower-case letters, digits and `-`");
    assertThatThrownBy(() -> template.host("-orders", 7, "shop", "team-a"))
        .hasMessageEndingWith("its label `-orders` starts or ends with `-`");
  }
}
