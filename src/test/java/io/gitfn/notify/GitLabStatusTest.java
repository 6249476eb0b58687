package io.gitfn.notify;

import static io.gitfn.notify.Samples.CONTEXT;
import static io.gitfn.notify.Samples.DESCRIPTION;
import static io.gitfn.notify.Samples.SHA;
import static io.gitfn.notify.Samples.TARGET;
import static io.gitfn.notify.Samples.TOKEN;
import static io.gitfn.notify.Samples.json;
import static io.gitfn.notify.Samples.repository;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GitLabStatusTest {

  @Test
  void gitlabStatusGoesToTheProjectNamedByItsEncodedPathWithAPrivateTokenHeader() {
    ForgeRequest request = repository("https://gitlab.com/shop/team/functions.git").request(Samples.success(), TOKEN);

    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.uri().toString())
        .isEqualTo("https://gitlab.com/api/v4/projects/shop%2Fteam%2Ffunctions/statuses/" + SHA);
    assertThat(request.headers())
        .containsEntry("PRIVATE-TOKEN", TOKEN)
        .containsEntry("Content-Type", "application/json")
        .doesNotContainKey("Authorization");
    JsonNode body = json(request);
    assertThat(body.path("state").asText()).isEqualTo("success");
    assertThat(body.path("name").asText()).isEqualTo(CONTEXT);
    assertThat(body.path("description").asText()).isEqualTo(DESCRIPTION);
    assertThat(body.path("target_url").asText()).isEqualTo(TARGET);
  }

  @Test
  void aSelfManagedGitLabUnderARelativeRootIsReachedThroughTheOverride() {
    ForgeRequest request = repository("https://h.example/gitlab/shop/functions.git", Forge.GITLAB,
        "https://h.example/gitlab/api/v4").request(Samples.success(), TOKEN);

    assertThat(request.uri().toString())
        .isEqualTo("https://h.example/gitlab/api/v4/projects/shop%2Ffunctions/statuses/" + SHA);
  }

  @ParameterizedTest
  @CsvSource({"PENDING, pending", "SUCCESS, success", "FAILURE, failed", "ERROR, failed"})
  void eachStateIsSentAsGitLabsWordForIt(CommitState state, String word) {
    ForgeRequest request = repository("https://gitlab.com/shop/functions").request(Samples.status(state), TOKEN);

    assertThat(json(request).path("state").asText()).isEqualTo(word);
  }

  @Test
  void aLongDescriptionIsCutTo255Characters() {
    CommitStatus status = new CommitStatus(SHA, CommitState.FAILURE, CONTEXT, "x".repeat(500), null);

    String description = json(repository("https://gitlab.com/shop/functions").request(status, TOKEN))
        .path("description").asText();

    assertThat(description).hasSize(255).endsWith("...");
  }
}
