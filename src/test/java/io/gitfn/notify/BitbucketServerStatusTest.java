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
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BitbucketServerStatusTest {

  private static final ForgeRepository REPOSITORY =
      repository("https://bb.example/bitbucket/scm/SHOP/functions.git", Forge.BITBUCKET_SERVER);

  @Test
  void bitbucketServerStatusGoesToTheRepositorysBuildsOfTheCommitUnderTheContextPath() {
    ForgeRequest request = REPOSITORY.request(Samples.success(), TOKEN);

    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.uri()).isEqualTo(URI.create(
        "https://bb.example/bitbucket/rest/api/latest/projects/SHOP/repos/functions/commits/" + SHA + "/builds"));
    assertThat(request.headers())
        .containsEntry("Authorization", "Bearer " + TOKEN)
        .containsEntry("Content-Type", "application/json")
        .containsEntry("X-Atlassian-Token", "no-check");
    JsonNode body = json(request);
    assertThat(body.path("state").asText()).isEqualTo("SUCCESSFUL");
    assertThat(body.path("key").asText()).isEqualTo(CONTEXT);
    assertThat(body.path("name").asText()).isEqualTo(CONTEXT);
    assertThat(body.path("description").asText()).isEqualTo(DESCRIPTION);
    assertThat(body.path("url").asText()).isEqualTo(TARGET);
  }

  @Test
  void aUserAndPasswordAreSentAsBasicAuth() {
    ForgeRequest request = REPOSITORY.request(Samples.success(), "alice:pw:with:colons");

    String expected = Base64.getEncoder().encodeToString("alice:pw:with:colons".getBytes(StandardCharsets.UTF_8));
    assertThat(request.headers()).containsEntry("Authorization", "Basic " + expected);
  }

  @Test
  void aStatusWithoutALinkPointsAtTheRepositoryPageBecauseBitbucketRequiresAUrl() {
    CommitStatus status = new CommitStatus(SHA, CommitState.PENDING, CONTEXT, "Reconciling", null);

    assertThat(json(REPOSITORY.request(status, TOKEN)).path("url").asText())
        .isEqualTo("https://bb.example/bitbucket/projects/SHOP/repos/functions");
  }

  @Test
  void aLinkLongerThanBitbucketKeepsIsReplacedByTheRepositoryPage() {
    String longLink = "https://gitfn.example/" + "x".repeat(450);
    CommitStatus status = new CommitStatus(SHA, CommitState.SUCCESS, CONTEXT, "", longLink);

    assertThat(json(REPOSITORY.request(status, TOKEN)).path("url").asText())
        .isEqualTo("https://bb.example/bitbucket/projects/SHOP/repos/functions");
  }

  @ParameterizedTest
  @CsvSource({"PENDING, INPROGRESS", "SUCCESS, SUCCESSFUL", "FAILURE, FAILED", "ERROR, FAILED"})
  void eachStateIsSentAsBitbucketServersWordForIt(CommitState state, String word) {
    assertThat(json(REPOSITORY.request(Samples.status(state), TOKEN)).path("state").asText()).isEqualTo(word);
  }
}
