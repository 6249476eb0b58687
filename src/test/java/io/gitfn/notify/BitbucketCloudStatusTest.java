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
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BitbucketCloudStatusTest {

  private static final ForgeRepository REPOSITORY = repository("git@bitbucket.org:shop/functions.git");

  @Test
  void bitbucketStatusGoesToTheCommitsBuildStatusesWithABearerToken() {
    ForgeRequest request = REPOSITORY.request(Samples.success(), TOKEN);

    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.uri()).isEqualTo(URI.create(
        "https://api.bitbucket.org/2.0/repositories/shop/functions/commit/" + SHA + "/statuses/build"));
    assertThat(request.headers())
        .containsEntry("Authorization", "Bearer " + TOKEN)
        .containsEntry("Content-Type", "application/json");
    JsonNode body = json(request);
    assertThat(body.path("state").asText()).isEqualTo("SUCCESSFUL");
    assertThat(body.path("key").asText()).isEqualTo(CONTEXT);
    assertThat(body.path("name").asText()).isEqualTo(CONTEXT);
    assertThat(body.path("description").asText()).isEqualTo(DESCRIPTION);
    assertThat(body.path("url").asText()).isEqualTo(TARGET);
  }

  @Test
  void aUserAndAppPasswordAreSentAsBasicAuth() {
    ForgeRequest request = REPOSITORY.request(Samples.success(), "alice:app-password-123");

    String expected = Base64.getEncoder().encodeToString("alice:app-password-123".getBytes(StandardCharsets.UTF_8));
    assertThat(request.headers()).containsEntry("Authorization", "Basic " + expected);
  }

  @Test
  void aStatusWithoutALinkPointsAtTheRepositoryBecauseBitbucketRequiresAUrl() {
    CommitStatus status = new CommitStatus(SHA, CommitState.PENDING, CONTEXT, "Reconciling", null);

    assertThat(json(REPOSITORY.request(status, TOKEN)).path("url").asText())
        .isEqualTo("https://bitbucket.org/shop/functions");
  }

  @Test
  void aContextLongerThanAKeyIsHashedToFortyHexCharactersAndKeptWholeAsTheName() throws Exception {
    String context = "gitfn/a-namespace-with-a-long-name/a-function-repository-with-a-long-name";
    CommitStatus status = new CommitStatus(SHA, CommitState.SUCCESS, context, "", null);

    JsonNode body = json(REPOSITORY.request(status, TOKEN));

    String sha1 = HexFormat.of().formatHex(
        MessageDigest.getInstance("SHA-1").digest(context.getBytes(StandardCharsets.UTF_8)));
    assertThat(body.path("key").asText()).hasSize(40).isEqualTo(sha1);
    assertThat(body.path("name").asText()).isEqualTo(context);
  }

  @Test
  void aContextThatFitsAKeyIsTheKey() {
    String forty = "c".repeat(40);

    assertThat(BitbucketCloudStatus.key(forty)).isEqualTo(forty);
    assertThat(BitbucketCloudStatus.key(forty + "c")).hasSize(40).isNotEqualTo(forty);
  }

  @ParameterizedTest
  @CsvSource({"PENDING, INPROGRESS", "SUCCESS, SUCCESSFUL", "FAILURE, FAILED", "ERROR, FAILED"})
  void eachStateIsSentAsBitbucketsWordForIt(CommitState state, String word) {
    assertThat(json(REPOSITORY.request(Samples.status(state), TOKEN)).path("state").asText()).isEqualTo(word);
  }
}
