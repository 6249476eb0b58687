package io.gitfn.notify;

import static io.gitfn.notify.Samples.TOKEN;
import static io.gitfn.notify.Samples.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.notify.UpsertedComment.Change;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** gitfn's one comment on a pull request, against a fake GitHub Enterprise on 127.0.0.1. */
@Timeout(30)
class PullRequestCommentsTest {

  private static final CommentMarker MARKER = CommentMarker.preview("shop", "functions");
  private static final String COMMENTS = "/api/v3/repos/shop/functions/issues/7/comments";

  private FakeForge forge;
  private final PullRequestComments comments =
      new PullRequestComments(new CommitStatusSender(Duration.ofSeconds(2), Duration.ofSeconds(2)));

  @BeforeEach
  void startForge() throws IOException {
    forge = FakeForge.start();
  }

  @AfterEach
  void stopForge() {
    forge.close();
  }

  private ForgeRepository repository() {
    return Samples.repository("https://ghe.example/shop/functions.git", Forge.GITHUB, forge.base() + "/api/v3");
  }

  /** Lists {@code listed} for any GET, answers a POST with comment 99 and any other write with 200. */
  private void listing(String listed) {
    forge.answering(exchange -> {
      switch (exchange.getRequestMethod()) {
        case "GET" -> FakeForge.reply(exchange, 200, listed);
        case "POST" -> FakeForge.reply(exchange, 201, "{\"id\": 99, \"body\": \"x\"}");
        default -> FakeForge.reply(exchange, 200, "{\"id\": 1}");
      }
    });
  }

  @Test
  void aPullRequestWithoutGitfnsCommentGetsOneThatStartsWithTheMarker() {
    listing("[{\"id\": 1, \"body\": \"LGTM\"}]");

    UpsertedComment result = comments.upsert(repository(), TOKEN, 7, MARKER, "Preview: https://pr-7.example");

    assertThat(result).isEqualTo(new UpsertedComment("99", Change.CREATED));
    assertThat(forge.seen()).extracting(seen -> seen.method() + " " + seen.rawPath())
        .containsExactly("GET " + COMMENTS, "POST " + COMMENTS);
    assertThat(json(forge.seen().get(1).body()).path("body").asText())
        .isEqualTo("<!-- gitfn-preview:shop/functions -->\n\nPreview: https://pr-7.example");
  }

  @Test
  void gitfnsCommentIsEditedInPlaceAndAQuoteOfItOrAnotherRepositorysIsLeftAlone() {
    listing("""
        [{"id": 1, "body": "> <!-- gitfn-preview:shop/functions -->\\n> Preview: old"},
         {"id": 2, "body": "<!-- gitfn-preview:shop/other -->\\nPreview: theirs"},
         {"id": 3, "body": "<!-- gitfn-preview:shop/functions -->\\r\\nPreview: old"}]""");

    UpsertedComment result = comments.upsert(repository(), TOKEN, 7, MARKER, "Preview: new");

    assertThat(result).isEqualTo(new UpsertedComment("3", Change.EDITED));
    assertThat(forge.seen()).extracting(seen -> seen.method() + " " + seen.rawPath())
        .containsExactly("GET " + COMMENTS, "PATCH /api/v3/repos/shop/functions/issues/comments/3");
    assertThat(json(forge.seen().get(1).body()).path("body").asText())
        .isEqualTo("<!-- gitfn-preview:shop/functions -->\n\nPreview: new");
  }

  @Test
  void aCommentThatSaysThatAlreadyIsNotEditedAgain() {
    listing("[{\"id\": 3, \"body\": \"<!-- gitfn-preview:shop/functions -->\\r\\n\\r\\nPreview: same\\n\"}]");

    UpsertedComment result = comments.upsert(repository(), TOKEN, 7, MARKER, "Preview: same");

    assertThat(result).isEqualTo(new UpsertedComment("3", Change.UNCHANGED));
    assertThat(forge.seen()).extracting(FakeForge.Seen::method).containsExactly("GET");
  }

  @Test
  void aThreadLongerThanTenPagesWithoutGitfnsCommentGetsNoNewOne() {
    forge.answering(exchange -> {
      exchange.getResponseHeaders().add("Link", "<x>; rel=\"next\"");
      FakeForge.reply(exchange, 200, "[{\"id\": 1, \"body\": \"+1\"}]");
    });

    assertThatThrownBy(() -> comments.upsert(repository(), TOKEN, 7, MARKER, "Preview"))
        .isInstanceOf(ForgeException.class)
        .hasMessageContaining("pull request 7 has more than 10 pages of comments and gitfn's comment "
            + "<!-- gitfn-preview:shop/functions --> is not in them");
    assertThat(forge.seen()).hasSize(PullRequestComments.MAX_PAGES).allMatch(seen -> seen.method().equals("GET"));
  }

  @Test
  void anEditTheForgeRefusesIsThrownWithTheRequestNamed() {
    forge.answering(exchange -> {
      if (exchange.getRequestMethod().equals("GET")) {
        FakeForge.reply(exchange, 200, "[{\"id\": 3, \"body\": \"<!-- gitfn-preview:shop/functions -->\\nold\"}]");
      } else {
        FakeForge.reply(exchange, 403, "{\"message\": \"Resource not accessible by integration\"}");
      }
    });

    assertThatThrownBy(() -> comments.upsert(repository(), TOKEN, 7, MARKER, "new"))
        .isInstanceOf(ForgeException.class)
        .hasMessage("PATCH " + forge.base() + "/api/v3/repos/shop/functions/issues/comments/3: REJECTED 403: "
            + "{\"message\": \"Resource not accessible by integration\"}");
  }

  @Test
  void aCommentListWithAnIdOfTheWrongTypeNamesTheField() {
    listing("[{\"id\": {\"no\": 1}, \"body\": \"<!-- gitfn-preview:shop/functions -->\"}]");

    assertThatThrownBy(() -> comments.upsert(repository(), TOKEN, 7, MARKER, "new"))
        .isInstanceOf(ForgeException.class)
        .hasMessageEndingWith("answered: field [0].id is object, not a whole number");
  }

  @Test
  void onBitbucketServerTheCommentIsFoundInTheActivitiesAndEditedWithItsVersion() {
    ForgeRepository repository = Samples.repository("https://bitbucket.example/scm/SHOP/functions.git",
        Forge.BITBUCKET_SERVER, forge.base() + "/rest/api/latest");
    listing("""
        {"isLastPage": true, "values": [
          {"action": "COMMENTED", "commentAction": "ADDED",
           "comment": {"id": 5, "version": 2, "text": "[gitfn-preview:shop/functions]: #\\n\\nPreview: old"}}]}""");

    UpsertedComment result = comments.upsert(repository, TOKEN, 7, MARKER, "Preview: new");

    assertThat(result).isEqualTo(new UpsertedComment("5", Change.EDITED));
    assertThat(forge.seen()).extracting(seen -> seen.method() + " " + seen.rawPath()).containsExactly(
        "GET /rest/api/latest/projects/SHOP/repos/functions/pull-requests/7/activities",
        "PUT /rest/api/latest/projects/SHOP/repos/functions/pull-requests/7/comments/5");
    assertThat(json(forge.seen().get(1).body()).path("version").asLong()).isEqualTo(2);
    assertThat(json(forge.seen().get(1).body()).path("text").asText())
        .isEqualTo("[gitfn-preview:shop/functions]: #\n\nPreview: new");
  }
}
