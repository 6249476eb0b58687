package io.gitfn.notify;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A repository as its forge's commit-status API names it: the forge, the API base every endpoint hangs from, the
 * repository's web page, and its two names there.
 *
 * @param forge the forge that hosts the repository
 * @param api the API base, without a trailing slash: {@code https://api.github.com},
 *     {@code https://ghe.example/api/v3}, {@code https://gitlab.example/api/v4}, {@code https://gitea.example/api/v1},
 *     {@code https://api.bitbucket.org/2.0} or {@code https://bitbucket.example/rest/api/latest}
 * @param web the repository's web page, the link Bitbucket shows when a status has none of its own
 * @param owner the owner, organization or workspace; GitLab's whole namespace ({@code group/sub}); Bitbucket
 *     Server's project key
 * @param name the repository's name (its slug)
 */
public record ForgeRepository(Forge forge, URI api, URI web, String owner, String name) {

  /** Hosts whose forge is known, and the host their web pages and APIs live on (SSH may use another). */
  private static final Map<String, Known> KNOWN_HOSTS = Map.of(
      "github.com", new Known(Forge.GITHUB, "github.com"),
      "ssh.github.com", new Known(Forge.GITHUB, "github.com"),
      "gitlab.com", new Known(Forge.GITLAB, "gitlab.com"),
      "altssh.gitlab.com", new Known(Forge.GITLAB, "gitlab.com"),
      "bitbucket.org", new Known(Forge.BITBUCKET_CLOUD, "bitbucket.org"),
      "altssh.bitbucket.org", new Known(Forge.BITBUCKET_CLOUD, "bitbucket.org"),
      "codeberg.org", new Known(Forge.FORGEJO, "codeberg.org"),
      "gitea.com", new Known(Forge.GITEA, "gitea.com"));

  private record Known(Forge forge, String webHost) {}

  public ForgeRepository {
    Objects.requireNonNull(forge, "forge");
    Objects.requireNonNull(api, "api");
    Objects.requireNonNull(web, "web");
    if (owner == null || owner.isEmpty() || name == null || name.isEmpty()) {
      throw new IllegalArgumentException("a forge repository needs an owner and a name");
    }
  }

  /**
   * Reads a repository URL.
   *
   * @param repositoryUrl https, http, ssh or scp-like ({@code git@github.com:org/repo.git}); never with a password
   * @param forge the forge, when the spec names it; otherwise it is told from the host, for the public forges
   * @param apiOverride the API base of a self-hosted forge where it is not where gitfn would look (a GitLab under
   *     a path prefix, a Bitbucket Server reached over SSH with a context path, a test server)
   * @throws IllegalArgumentException naming the URL and what is wrong with it
   */
  public static ForgeRepository of(String repositoryUrl, Optional<Forge> forge, Optional<URI> apiOverride) {
    RepositoryAddress address = RepositoryAddress.parse(repositoryUrl);
    Optional<Known> known = Optional.ofNullable(KNOWN_HOSTS.get(address.host()));
    Forge chosen = forge.or(() -> known.map(Known::forge)).orElseThrow(() -> address.problem(
        "cannot tell which forge hosts " + address.host() + "; set spec.commitStatus.forge"));
    String origin = known.map(k -> "https://" + k.webHost()).orElse(address.origin());
    Optional<URI> override = apiOverride.map(ForgeRepository::checkedApi);
    List<String> path = address.segments();
    return switch (chosen) {
      case GITHUB -> {
        ownerAndName(address, chosen, path);
        String api = known.isPresent() ? "https://api.github.com" : origin + "/api/v3";
        yield repository(chosen, override.orElse(URI.create(api)), origin, path);
      }
      case GITLAB -> {
        // A GitLab under a relative URL root cannot be told from its groups; the override names the root.
        String root = address.ssh() ? "" : override.map(ForgeRepository::gitLabRoot).orElse("");
        List<String> project = withoutRoot(path, root);
        if (project.size() < 2) {
          throw address.problem("a GitLab repository URL names a group and a project (group/project)");
        }
        yield repository(chosen, override.orElse(URI.create(origin + "/api/v4")), origin + root, project);
      }
      case GITEA, FORGEJO -> {
        // Gitea and Forgejo may serve under a path prefix (ROOT_URL); their API lives under the same one.
        List<String> repository = address.ssh() ? ownerAndName(address, chosen, path) : lastTwo(address, path);
        String prefix = prefix(path.subList(0, path.size() - 2));
        yield repository(chosen, override.orElse(URI.create(origin + prefix + "/api/v1")), origin + prefix,
            repository);
      }
      case BITBUCKET_CLOUD -> {
        ownerAndName(address, chosen, path);
        if (override.isEmpty() && !origin.equals("https://bitbucket.org")) {
          throw address.problem("Bitbucket Cloud is at bitbucket.org, not " + address.host()
              + "; a self-hosted Bitbucket is forge " + Forge.BITBUCKET_SERVER.id());
        }
        yield repository(chosen, override.orElse(URI.create("https://api.bitbucket.org/2.0")), origin, path);
      }
      case BITBUCKET_SERVER -> bitbucketServer(address, origin, override);
    };
  }

  /** The owner and the name joined, as the forge's URLs show them ({@code group/sub/project} on GitLab). */
  public String fullPath() {
    return owner + "/" + name;
  }

  /**
   * The request that sets {@code status} on this repository's commit.
   *
   * @param token the forge token from the commit-status Secret; surrounding whitespace (a newline a shell left in
   *     the Secret) is dropped. For Bitbucket, {@code user:password} is sent as basic auth and any other token as a
   *     bearer token.
   */
  public ForgeRequest request(CommitStatus status, String token) {
    Objects.requireNonNull(status, "status");
    String credential = Authorization.checked(token, forge);
    return switch (forge) {
      case GITHUB -> GitHubStatus.request(this, status, credential);
      case GITLAB -> GitLabStatus.request(this, status, credential);
      case GITEA, FORGEJO -> GiteaStatus.request(this, status, credential);
      case BITBUCKET_CLOUD -> BitbucketCloudStatus.request(this, status, credential);
      case BITBUCKET_SERVER -> BitbucketServerStatus.request(this, status, credential);
    };
  }

  private static ForgeRepository bitbucketServer(RepositoryAddress address, String origin, Optional<URI> override) {
    List<String> path = address.segments();
    String prefix = "";
    if (!address.ssh()) {
      // Clone URLs over http(s) are <context path>/scm/PROJECT/repo; SSH ones are PROJECT/repo on the SSH port.
      if (path.size() < 3 || !path.get(path.size() - 3).equals("scm")) {
        throw address.problem("a Bitbucket Server clone URL over http(s) has the form "
            + "https://host[/context]/scm/PROJECT/repo.git");
      }
      prefix = prefix(path.subList(0, path.size() - 3));
    }
    List<String> repository =
        address.ssh() ? ownerAndName(address, Forge.BITBUCKET_SERVER, path) : lastTwo(address, path);
    String project = repository.get(0);
    // A personal repository's project key is ~user; its web page is under /users/user.
    URI web = URI.create(origin + prefix + (project.startsWith("~")
        ? Endpoint.path("users", project.substring(1), "repos", repository.get(1))
        : Endpoint.path("projects", project, "repos", repository.get(1))));
    URI api = override.orElse(URI.create(origin + prefix + "/rest/api/latest"));
    return new ForgeRepository(Forge.BITBUCKET_SERVER, api, web, project, repository.get(1));
  }

  private static ForgeRepository repository(Forge forge, URI api, String webBase, List<String> path) {
    String owner = String.join("/", path.subList(0, path.size() - 1));
    String name = path.get(path.size() - 1);
    URI web = URI.create(webBase + Endpoint.path(path.toArray(String[]::new)));
    return new ForgeRepository(forge, api, web, owner, name);
  }

  private static List<String> ownerAndName(RepositoryAddress address, Forge forge, List<String> path) {
    if (path.size() != 2) {
      throw address.problem("a " + forge.title() + " repository URL names an owner and a repository (owner/repo), "
          + "not " + String.join("/", path));
    }
    return path;
  }

  private static List<String> lastTwo(RepositoryAddress address, List<String> path) {
    if (path.size() < 2) {
      throw address.problem("the URL names an owner and a repository (owner/repo), not " + String.join("/", path));
    }
    return path.subList(path.size() - 2, path.size());
  }

  /** The relative URL root an API override names: {@code /gitlab} for {@code https://host/gitlab/api/v4}. */
  private static String gitLabRoot(URI api) {
    String path = api.getPath() == null ? "" : api.getPath();
    return path.endsWith("/api/v4") ? path.substring(0, path.length() - "/api/v4".length()) : "";
  }

  private static List<String> withoutRoot(List<String> path, String root) {
    List<String> rootSegments = root.isEmpty() ? List.of() : List.of(root.substring(1).split("/"));
    boolean under = path.size() > rootSegments.size() && path.subList(0, rootSegments.size()).equals(rootSegments);
    return under ? path.subList(rootSegments.size(), path.size()) : path;
  }

  private static String prefix(List<String> segments) {
    return segments.isEmpty() ? "" : Endpoint.path(segments.toArray(String[]::new));
  }

  private static URI checkedApi(URI api) {
    String scheme = api.getScheme() == null ? "" : api.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("https") || scheme.equals("http")) || api.getHost() == null) {
      throw new IllegalArgumentException("commit-status API URL " + api + ": it is not an absolute http or https URL");
    }
    if (api.getRawUserInfo() != null) {
      throw new IllegalArgumentException("commit-status API URL " + api.getHost()
          + ": it has user info in it; put the token in the commit-status Secret instead");
    }
    if (api.getRawQuery() != null || api.getRawFragment() != null) {
      throw new IllegalArgumentException("commit-status API URL " + api + ": an API base has no query or fragment");
    }
    String text = api.toString();
    while (text.endsWith("/")) {
      text = text.substring(0, text.length() - 1);
    }
    try {
      return new URI(text);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("commit-status API URL " + api + ": " + e.getReason());
    }
  }
}
