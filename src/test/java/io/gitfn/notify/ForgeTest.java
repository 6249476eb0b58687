package io.gitfn.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ForgeTest {

  @ParameterizedTest
  @EnumSource(Forge.class)
  void eachForgeIsParsedFromItsSpecName(Forge forge) {
    assertThat(Forge.parse(forge.id())).isEqualTo(forge);
  }

  @Test
  void theSpecNamesAreLowerCaseAndKebab() {
    assertThat(Forge.values()).extracting(Forge::id)
        .containsExactly("github", "gitlab", "gitea", "forgejo", "bitbucket", "bitbucket-server");
  }

  @Test
  void anUnknownForgeIsRefusedWithTheChoices() {
    assertThatThrownBy(() -> Forge.parse("GitHub"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("commit-status forge `GitHub` is not one of "
            + "github, gitlab, gitea, forgejo, bitbucket, bitbucket-server");
  }
}
