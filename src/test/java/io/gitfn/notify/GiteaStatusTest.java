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

class GiteaStatusTest {

  @Test
  void giteaStatusGoesToTheRepositorysStatusesEndpointWithATokenHeader() {
    ForgeRequest request = repository("https://h.example/gitea/shop/functions.git", Forge.GITEA)
        .request(Samples.success(), TOKEN);

    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.uri())
        .isEqualTo(URI.create("https://h.example/gitea/api/v1/repos/shop/functions/statuses/" + SHA));
    assertThat(request.headers())
        .containsEntry("Authorization", "token " + TOKEN)
        .containsEntry("Content-Type", "application/json");
    JsonNode body = json(request);
    assertThat(body.path("state").asText()).isEqualTo("success");
    assertThat(body.path("context").asText()).isEqualTo(CONTEXT);
    assertThat(body.path("description").asText()).isEqualTo(DESCRIPTION);
    assertThat(body.path("target_url").asText()).isEqualTo(TARGET);
  }

  @Test
  void forgejoTakesTheSameRequestAsGitea() {
    ForgeRequest forgejo = repository("https://codeberg.org/shop/functions.git").request(Samples.success(), TOKEN);
    ForgeRequest gitea = repository("https://codeberg.org/shop/functions.git", Forge.GITEA)
        .request(Samples.success(), TOKEN);

    assertThat(forgejo).isEqualTo(gitea);
    assertThat(forgejo.uri()).isEqualTo(URI.create("https://codeberg.org/api/v1/repos/shop/functions/statuses/" + SHA));
  }

  @Test
  void aTestGiteaOverPlainHttpIsReachedThroughTheOverride() {
    ForgeRequest request = repository("git@git.example:shop/functions.git", Forge.GITEA, "http://127.0.0.1:3000/api/v1")
        .request(Samples.success(), TOKEN);

    assertThat(request.uri())
        .isEqualTo(URI.create("http://127.0.0.1:3000/api/v1/repos/shop/functions/statuses/" + SHA));
  }

  @ParameterizedTest
  @CsvSource({"PENDING, pending", "SUCCESS, success", "FAILURE, failure", "ERROR, error"})
  void eachStateIsSentAsGiteasWordForIt(CommitState state, String word) {
    ForgeRequest request = repository("https://gitea.com/shop/functions").request(Samples.status(state), TOKEN);

    assertThat(json(request).path("state").asText()).isEqualTo(word);
  }
}
