package io.gitfn.testbed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.gitfn.testbed.git.HttpCredentials;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Gitea on loopback (or on an address given, such as the real node's host address, where Pods reach it),
 * built from its Go module, with SQLite, an admin user and no SSH: the forge that end-to-end tests create
 * repositories and webhooks on, and push to with the {@code git} client.
 */
public final class GiteaServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(GiteaServer.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<ComponentProcess> processes = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final HttpCredentials admin = new HttpCredentials("gitfn", "Gitfn-" + UUID.randomUUID());
  private final int port = FreePorts.next();
  private final Path dir;
  private final String host;

  private GiteaServer(Path dir, String host) {
    this.dir = dir;
    this.host = host;
  }

  /** Starts Gitea on loopback in {@code dir} and creates its admin user. */
  public static GiteaServer start(Path dir) {
    return start(dir, "127.0.0.1");
  }

  /**
   * Starts Gitea on {@code host} (an IPv4 address of this machine) in {@code dir}: its clone URLs name that address,
   * and it delivers webhooks to loopback and private addresses, such as a Service's ClusterIP.
   */
  public static GiteaServer start(Path dir, String host) {
    TestBedBinaries binaries = TestBedBinaries.locate();
    GiteaServer gitea = new GiteaServer(dir, host);
    try {
      long started = System.nanoTime();
      gitea.configure(binaries);
      gitea.run(binaries, "migrate");
      gitea.run(binaries, "admin", "user", "create", "--admin", "--username", gitea.admin.username(),
          "--password", gitea.admin.password(), "--email", "gitfn@example.invalid", "--must-change-password=false");
      ComponentProcess web = ComponentProcess.start(
          "gitea", dir.resolve("logs/gitea.log"), gitea.command(binaries, "web"), environment(dir));
      gitea.processes.add(web);
      ControlPlane.waitFor(web, Duration.ofSeconds(60), () -> ControlPlane.httpOk(gitea.url("/api/healthz"), null));
      log.info("Gitea ready at {} in {} ms", gitea.baseUrl(), (System.nanoTime() - started) / 1_000_000);
      return gitea;
    } catch (RuntimeException e) {
      gitea.close();
      throw e;
    }
  }

  public URI baseUrl() {
    return URI.create("http://" + host + ":" + port + "/");
  }

  /** The admin's name and password, for the {@code git} client and the API. */
  public HttpCredentials admin() {
    return admin;
  }
  /** A basic-auth Secret with the admin's credentials, as a Function's or repository's {@code secretRef} names one. */
  public Secret basicAuthSecret(String name) {
    return new SecretBuilder().withNewMetadata().withName(name).endMetadata()
        .withStringData(Map.of("username", admin().username(), "password", admin().password()))
        .build();
  }


  /** Creates an empty repository owned by the admin; returns its HTTP clone URL. */
  public String createRepository(String name) {
    JsonNode created = api("POST", "/api/v1/user/repos",
        Map.of("name", name, "auto_init", false, "default_branch", "main", "private", false));
    return created.get("clone_url").asText();
  }

  /** Adds a push webhook of type {@code gitea} with a secret to the admin's repository. */
  public void addWebhook(String repository, URI target, String secret) {
    api("POST", "/api/v1/repos/" + admin.username() + "/" + repository + "/hooks",
        Map.of(
            "type", "gitea",
            "active", true,
            "events", List.of("push"),
            "config", Map.of("url", target.toString(), "content_type", "json", "secret", secret)));
  }

  /** Adds a webhook of type {@code gitea} with a secret to the admin's repository, for {@code events}. */
  public void addWebhook(String repository, URI target, String secret, List<String> events) {
    api("POST", "/api/v1/repos/" + admin.username() + "/" + repository + "/hooks",
        Map.of(
            "type", "gitea",
            "active", true,
            "events", events,
            "config", Map.of("url", target.toString(), "content_type", "json", "secret", secret)));
  }

  /** An API token of the admin with {@code scopes}. */
  public String createToken(String name, List<String> scopes) {
    return api("POST", "/api/v1/users/" + admin.username() + "/tokens", Map.of("name", name, "scopes", scopes))
        .get("sha1").asText();
  }

  /** Calls Gitea's API as its admin, for what a test sets up and reads back ({@code path} from {@code /api/v1}). */
  public JsonNode call(String method, String path, Object body) {
    return api(method, path, body);
  }

  /** An API token of the admin that may write repositories, as a forge integration would be given one. */
  public String createToken(String name) {
    JsonNode created = api("POST", "/api/v1/users/" + admin.username() + "/tokens",
        Map.of("name", name, "scopes", List.of("write:repository")));
    return created.get("sha1").asText();
  }

  /** The commit statuses of the admin's repository at {@code sha}, newest first, as Gitea's API lists them. */
  public List<JsonNode> commitStatuses(String repository, String sha) {
    List<JsonNode> statuses = new ArrayList<>();
    api("GET", "/api/v1/repos/" + admin.username() + "/" + repository + "/commits/" + sha + "/statuses", null)
        .forEach(statuses::add);
    return statuses;
  }

  private JsonNode api(String method, String path, Object body) {
    String basic = Base64.getEncoder().encodeToString(
        (admin.username() + ":" + admin.password()).getBytes(StandardCharsets.UTF_8));
    try {
      HttpRequest request = HttpRequest.newBuilder(URI.create(url(path)))
          .header("Authorization", "Basic " + basic)
          .header("Content-Type", "application/json")
          .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)))
          .timeout(Duration.ofSeconds(10))
          .build();
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() / 100 != 2) {
        throw new IllegalStateException("Gitea " + method + " " + path + " answered " + response.statusCode()
            + ": " + response.body());
      }
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException("Gitea " + method + " " + path + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted calling Gitea", e);
    }
  }

  private String url(String path) {
    return "http://" + host + ":" + port + path;
  }

  private void configure(TestBedBinaries binaries) {
    String ini = """
        APP_NAME = gitfn test forge
        RUN_MODE = prod
        WORK_PATH = %1$s

        [server]
        PROTOCOL = http
        HTTP_ADDR = %6$s
        HTTP_PORT = %2$d
        ROOT_URL = http://%6$s:%2$d/
        DISABLE_SSH = true
        START_SSH_SERVER = false
        OFFLINE_MODE = true
        LFS_START_SERVER = false
        STATIC_ROOT_PATH = %3$s
        APP_DATA_PATH = %1$s/data

        [database]
        DB_TYPE = sqlite3
        PATH = %1$s/data/gitea.db

        [repository]
        ROOT = %1$s/repositories
        DEFAULT_BRANCH = main

        [security]
        INSTALL_LOCK = true
        SECRET_KEY = %4$s
        INTERNAL_TOKEN = %5$s

        [oauth2]
        ENABLED = false

        [service]
        DISABLE_REGISTRATION = true

        [webhook]
        ; Gitea refuses to deliver to loopback and private addresses by default; the receiver under test is on
        ; 127.0.0.1, or behind a Service's ClusterIP.
        ALLOWED_HOST_LIST = %7$s
        DELIVER_TIMEOUT = 5

        [queue]
        ; In memory: Gitea's default on-disk queue hands webhook deliveries to its workers a second or two late.
        TYPE = channel

        [indexer]
        REPO_INDEXER_ENABLED = false

        [cron]
        ENABLED = false

        [mailer]
        ENABLED = false

        [log]
        MODE = console
        LEVEL = Warn
        """.formatted(dir, port, binaries.giteaSources(), UUID.randomUUID(), internalToken(), host,
            host.equals("127.0.0.1") ? "loopback" : "loopback,private");
    try {
      Files.createDirectories(dir.resolve("data"));
      Files.writeString(dir.resolve("app.ini"), ini);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // Gitea wants a JWT-shaped internal token; any long random string of that alphabet is accepted.
  private static String internalToken() {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(
        (UUID.randomUUID() + "." + UUID.randomUUID() + "." + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8));
  }

  private List<String> command(TestBedBinaries binaries, String... args) {
    List<String> command = new ArrayList<>(List.of(binaries.gitea().toString()));
    command.addAll(List.of(args));
    command.addAll(List.of("--config", dir.resolve("app.ini").toString(), "--work-path", dir.toString()));
    return command;
  }

  /** Runs a one-off Gitea command (migrate, admin ...) to completion. */
  private void run(TestBedBinaries binaries, String... args) {
    ComponentProcess process = ComponentProcess.start(
        "gitea-" + args[0], dir.resolve("logs/gitea-" + args[0] + ".log"), command(binaries, args), environment(dir));
    int code = process.waitForExit(Duration.ofSeconds(60));
    if (code != 0) {
      throw process.failure("failed");
    }
  }

  // Gitea will not run as root unless told that we know; these machines run tests as root.
  private static Map<String, String> environment(Path dir) {
    return Map.of("GITEA_I_AM_BEING_UNSAFE_RUNNING_AS_ROOT", "true", "HOME", dir.toString(),
        "GITEA_WORK_DIR", dir.toString());
  }

  @Override
  public void close() {
    ComponentProcess.closeAll(processes);
  }
}
