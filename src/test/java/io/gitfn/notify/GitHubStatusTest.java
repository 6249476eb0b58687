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
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GitHubStatusTest {

  @Test
  void githubStatusGoesToTheRepositorysStatusesEndpointWithABearerToken() {
    ForgeRequest request = repository("git@github.com:shop/functions.git").request(Samples.success(), TOKEN);

    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.uri()).isEqualTo(URI.create("https://api.github.com/repos/shop/functions/statuses/" + SHA));
    assertThat(request.headers())
        .containsEntry("Authorization", "Bearer " + TOKEN)
        .containsEntry("Accept", "application/vnd.github+json")
        .containsEntry("X-GitHub-Api-Version", "2022-11-28")
        .containsEntry("Content-Type", "application/json");
    JsonNode body = json(request);
    assertThat(body.path("state").asText()).isEqualTo("success");
    assertThat(body.path("context").asText()).isEqualTo(CONTEXT);
    assertThat(body.path("description").asText()).isEqualTo(DESCRIPTION);
    assertThat(body.path("target_url").asText()).isEqualTo(TARGET);
  }

  @Test
  void githubEnterpriseStatusGoesToItsApiV3OnTheSameHost() {
    ForgeRequest request = repository("https://ghe.example/shop/functions.git", Forge.GITHUB)
        .request(Samples.success(), TOKEN);

    assertThat(request.uri()).isEqualTo(URI.create("https://ghe.example/api/v3/repos/shop/functions/statuses/" + SHA));
  }

  @ParameterizedTest
  @CsvSource({"PENDING, pending", "SUCCESS, success", "FAILURE, failure", "ERROR, error"})
  void eachStateIsSentAsGitHubsWordForIt(CommitState state, String word) {
    ForgeRequest request = repository("https://github.com/shop/functions").request(Samples.status(state), TOKEN);

    assertThat(json(request).path("state").asText()).isEqualTo(word);
  }

  @Test
  void aDescriptionLongerThanGitHubKeepsIsCutTo140Characters() {
    CommitStatus status = new CommitStatus(SHA, CommitState.FAILURE, CONTEXT, "x".repeat(500), null);

    String description = json(repository("https://github.com/shop/functions").request(status, TOKEN))
        .path("description").asText();

    assertThat(description).hasSize(140).endsWith("...");
  }

  @Test
  void aStatusWithoutALinkSendsNoTargetUrl() {
    CommitStatus status = new CommitStatus(SHA, CommitState.PENDING, CONTEXT, "Reconciling", null);

    JsonNode body = json(repository("https://github.com/shop/functions").request(status, TOKEN));

    assertThat(body.has("target_url")).isFalse();
  }
}
