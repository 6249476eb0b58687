package io.gitfn.trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gitfn.source.Backoff;
import io.gitfn.source.GitCredentials;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.RefSelector;
import io.gitfn.source.RepositoryUrl;
import io.gitfn.source.Revision;
import io.gitfn.source.SourceException;
import io.gitfn.source.SourceSettings;
import io.gitfn.testbed.GiteaServer;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.WorkingCopy;
import io.gitfn.trigger.webhook.WebhookReceiver;
import io.gitfn.trigger.webhook.WebhookServer;
import io.gitfn.trigger.webhook.WebhookSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole trigger path with a real forge: Gitea delivers a signed push webhook to gitfn's receiver, and the
 * source reports the pushed commit because of that delivery, although it polls only once an hour. How fast that is
 * belongs to a benchmark (docs/benchmarks.md, {@code sources} and {@code controller}), not to this test.
 */
class GiteaWebhookE2E {

  private static final SourceId SOURCE = new SourceId("FunctionRepository", "team-a", "functions");

  @Test
  void aPushToGiteaIsSeenThroughItsWebhookWhilePollingIsHourly(@TempDir Path home, @TempDir Path cache) throws Exception {
    Path dir = Files.createTempDirectory(
        Files.createDirectories(TestBedBinaries.projectDir().resolve("target/testbed")), "gitea-");
    Map<SourceId, Revision> seen = new ConcurrentHashMap<>();
    Map<String, String> causes = new ConcurrentHashMap<>();
    SourceEvents events = new SourceEvents() {
      @Override
      public void revision(SourceId source, Revision revision, String cause) {
        causes.put(revision.sha(), cause);
        seen.put(source, revision);
      }

      @Override
      public void failed(SourceId source, SourceException error, Duration retryIn) {}
    };
    String secret = "gitea-hook-secret";
    try (GiteaServer gitea = GiteaServer.start(dir);
        MirrorCache mirrors = new MirrorCache(SourceSettings.defaults(cache));
        SourceWatcher watcher = new SourceWatcher(
            mirrors, Clock.systemUTC(), new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(1)), 2);
        WebhookServer receiver = WebhookServer.start("127.0.0.1", 0,
            new WebhookReceiver(watcher.webhookTargets(), WebhookSettings.defaults(), Clock.systemUTC()))) {
      String cloneUrl = gitea.createRepository("functions");
      WorkingCopy copy = GitClient.create(home, gitea.admin(), null).clone(cloneUrl);
      String first = copy.write("functions/hello/handler.js", "module.exports = { main: () => 'v1' };\n").commit("v1");
      copy.push("HEAD:refs/heads/main");
      watcher.track(new TrackedSource(SOURCE, RepositoryUrl.parse(cloneUrl),
          new GitCredentials.Basic(gitea.admin().username(), gitea.admin().password()),
          new RefSelector.Branch("main"), Duration.ofHours(1), Optional.of(secret)), events);
      await().atMost(Duration.ofSeconds(10)).until(() -> first.equals(sha(seen.get(SOURCE))));
      gitea.addWebhook("functions", receiver.baseUri().resolve("gitea"), secret);

      String second = copy.write("functions/hello/handler.js", "module.exports = { main: () => 'v2' };\n").commit("v2");
      copy.push("HEAD:refs/heads/main");
      // The next scheduled check is an hour away: only the webhook can bring the commit within this wait.
      await().atMost(Duration.ofSeconds(30)).until(() -> second.equals(sha(seen.get(SOURCE))));

      SourceState state = watcher.state(SOURCE);
      assertThat(state.lastDelivery()).hasValueSatisfying(d -> {
        assertThat(d.forge()).isEqualTo("gitea");
        assertThat(causes.get(second)).as("what the check that found the commit was for")
            .isEqualTo("webhook gitea " + d.deliveryId());
      });
      assertThat(state.revision()).contains(new Revision("main", second));
    }
  }

  private static String sha(Revision revision) {
    return revision == null ? null : revision.sha();
  }
}
