package io.gitfn.dashboard;

import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.TemplateException;
import gg.jte.output.Utf8ByteOutput;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.gitfn.api.KubernetesNames;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.server.SmallServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the dashboard on a port of its own, apart from the webhook receiver and the metrics, so that it can stay on
 * loopback (reached with {@code kubectl port-forward}) while those are exposed. Read-only: it answers GET and HEAD
 * from what {@link Source} holds. The only API calls are for what no informer holds, a Function's Events and its
 * build's log, and those are shared between viewers for a few seconds, however many people look.
 */
public final class DashboardServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DashboardServer.class);

  /** What the pages show, read at each request: the controller's informer caches. */
  public interface Source {
    Collection<FunctionRepository> repositories();

    Collection<Function> functions();

    /** The Function's Deployment. */
    Optional<Deployment> deploymentOf(Function fn);

    /** The Function's build Jobs: their metadata and status. */
    Collection<Job> jobsOf(Function fn);

    /**
     * Whether its Functions run as processes of {@code gitfn up} on this machine, with no Deployments, build Jobs or
     * Events to show.
     */
    default boolean local() {
      return false;
    }
  }

  /** The Events about a Function, which no informer holds ({@link RecentEvents}). */
  public interface Events {
    List<FunctionPage.EventLine> about(String namespace, String name);
  }

  /** The log of a build Job's Pod, which no informer holds ({@link BuildLogs}). */
  public interface Logs {
    /**
     * The end of the log of the Job's newest Pod.
     *
     * @param whole the longer end the "whole log" link shows, rather than the end a Function's page shows
     */
    BuildLog tail(String namespace, String job, boolean whole);
  }

  /**
   * What the action buttons do, when they are on ({@code --dashboard-actions}): who a bearer token belongs to,
   * whether they may make a change, and the change.
   */
  public interface Actions {
    /** Who the token belongs to, as the API server says; empty when it does not accept it. */
    Optional<Caller> caller(String token);

    /** Whether the API server's authorizer lets the caller patch the object, as the CLI would. */
    boolean allowed(Caller caller, Action action, String namespace, String name);

    /**
     * Makes the change the caller asked for, records who asked, and says what it did.
     *
     * @param revision what to pin to, for {@link Action#PIN_FUNCTION}; else null
     * @throws ActionRefusedException when the change cannot be made as asked
     */
    String perform(Caller caller, Action action, String namespace, String name, String revision);
  }

  // The page may load only its own style sheet and script: no inline script, no other origin, no framing.
  private static final String POLICY = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
      + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
  private static final String REPOSITORIES = "/repositories/";
  private static final String FUNCTIONS = "/functions/";
  private static final String BUILD_LOG = "/build-log";
  private static final Map<String, String> STATIC = Map.of(
      "/static/dashboard.css", "text/css; charset=utf-8",
      "/static/dashboard.js", "text/javascript; charset=utf-8");

  private final SmallServer server;

  private DashboardServer(SmallServer server) {
    this.server = server;
  }

  /** Starts serving on {@code host:port} (port 0 takes a free one). */
  public static DashboardServer start(String host, int port, Source source, Events events, Logs logs)
      throws Exception {
    return start(host, port, source, events, logs, Optional.empty());
  }

  /**
   * Starts serving on {@code host:port} (port 0 takes a free one).
   *
   * @param actions what the action buttons do; without, the dashboard is read-only and shows none
   */
  public static DashboardServer start(String host, int port, Source source, Events events, Logs logs,
      Optional<Actions> actions) throws Exception {
    // A few people at a time.
    SmallServer server = SmallServer.start("gitfn-dashboard", 6, host, port, pages("", source, events, logs,
        actions), "the dashboard");
    log.info("dashboard at {}", server.baseUri());
    return new DashboardServer(server);
  }

  /**
   * The pages as a handler of another server, such as {@code gitfn up}'s: it answers paths within its context, and
   * its links start with {@code base}, the context's path ({@code ""} at the root).
   */
  public static Handler pages(String base, Source source, Events events, Logs logs, Optional<Actions> actions) {
    return new Pages(base, source, events, logs, actions.map(ActionRequests::new),
        TemplateEngine.createPrecompiled(null, ContentType.Html, DashboardServer.class.getClassLoader(),
            "io.gitfn.dashboard.html"));
  }

  /** Where the dashboard is, ending in {@code /}. */
  public URI baseUri() {
    return server.baseUri();
  }

  @Override
  public void close() throws Exception {
    server.close();
  }

  /**
   * The object {@code <prefix><namespace>/<name>} names, if the cache holds it. Only names Kubernetes allows are
   * looked up: anything else in a path is not found, whatever it holds.
   */
  static <T extends io.fabric8.kubernetes.api.model.HasMetadata> Optional<T> named(String path, String prefix,
      Collection<T> cached) {
    if (!path.startsWith(prefix)) {
      return Optional.empty();
    }
    String[] parts = path.substring(prefix.length()).split("/", -1);
    if (parts.length != 2 || !KubernetesNames.isDns1123Label(parts[0])
        || !KubernetesNames.isDns1123Subdomain(parts[1])) {
      return Optional.empty();
    }
    return cached.stream().filter(o -> parts[0].equals(o.getMetadata().getNamespace())
        && parts[1].equals(o.getMetadata().getName())).findFirst();
  }

  private static final class Pages extends Handler.Abstract {
    private final String base;
    private final Source source;
    private final Events events;
    private final Logs logs;
    private final Optional<ActionRequests> actions;
    private final TemplateEngine templates;
    private final Map<String, byte[]> statics;

    Pages(String base, Source source, Events events, Logs logs, Optional<ActionRequests> actions,
        TemplateEngine templates) {
      this.base = base;
      this.source = source;
      this.events = events;
      this.logs = logs;
      this.actions = actions;
      this.templates = templates;
      this.statics = Map.copyOf(STATIC.keySet().stream().collect(java.util.stream.Collectors.toMap(p -> p,
          Pages::resource)));
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      String path = Request.getPathInContext(request);
      if (!base.isEmpty()) {
        if (!path.equals(base) && !path.startsWith(base + "/")) {
          return false; // another handler's
        }
        path = path.equals(base) ? "/" : path.substring(base.length());
      }
      response.getHeaders().put("Content-Security-Policy", POLICY);
      response.getHeaders().put("X-Content-Type-Options", "nosniff");
      response.getHeaders().put("Referrer-Policy", "no-referrer");
      if (HttpMethod.POST.is(request.getMethod()) && actions.isPresent()) {
        ActionRequests.Answer answer = actions.get().handle(path,
            request.getHeaders().get(HttpHeader.AUTHORIZATION),
            Request.extractQueryParameters(request).getValue("revision"), source);
        answer.challenge().ifPresent(c -> response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, c));
        return answer(response, callback, answer.status(), "text/plain; charset=utf-8",
            (answer.message() + "\n").getBytes(StandardCharsets.UTF_8));
      }
      if (!HttpMethod.GET.is(request.getMethod()) && !HttpMethod.HEAD.is(request.getMethod())) {
        response.getHeaders().put(HttpHeader.ALLOW, actions.isPresent() ? "GET, HEAD, POST" : "GET, HEAD");
        return answer(response, callback, 405, "text/plain; charset=utf-8", (actions.isPresent()
            ? "use GET for pages, POST for actions\n" : "the dashboard is read-only: use GET\n")
            .getBytes(StandardCharsets.UTF_8));
      }
      if (STATIC.containsKey(path)) {
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "max-age=300");
        return answer(response, callback, 200, STATIC.get(path), statics.get(path));
      }
      if (path.equals("/")) {
        Overview overview = Overview.of(source.repositories(), source.functions());
        return page(request, response, callback, "overview.jte", overview, overview.version());
      }
      Optional<FunctionRepository> repository = named(path, REPOSITORIES, source.repositories());
      if (repository.isPresent()) {
        RepositoryPage page = RepositoryPage.of(repository.get(), source.functions(), source::deploymentOf);
        return page(request, response, callback, "repository.jte", page, page.version());
      }
      Optional<Function> function = named(path, FUNCTIONS, source.functions());
      if (function.isPresent()) {
        Function fn = function.get();
        String namespace = fn.getMetadata().getNamespace();
        Optional<BuildJob> build = BuildJob.newest(source.jobsOf(fn))
            .map(job -> job.withLog(logs.tail(namespace, job.name(), false)));
        FunctionPage page = FunctionPage.of(fn, source.deploymentOf(fn), build,
            events.about(namespace, fn.getMetadata().getName()));
        return page(request, response, callback, "function.jte", page, page.version());
      }
      if (path.endsWith(BUILD_LOG)) {
        Optional<Function> logged = named(path.substring(0, path.length() - BUILD_LOG.length()), FUNCTIONS,
            source.functions());
        if (logged.isPresent()) {
          return buildLog(response, callback, logged.get());
        }
      }
      return answer(response, callback, 404, "text/plain; charset=utf-8",
          ("no such page; the dashboard starts at " + base + "/\n").getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The longer end of the log of the Function's newest build, as plain text: the tenant's build printed it, and
     * as {@code text/plain} with {@code nosniff} no browser runs any of it.
     */
    private boolean buildLog(Response response, Callback callback, Function fn) {
      Optional<BuildJob> build = BuildJob.newest(source.jobsOf(fn));
      if (build.isEmpty()) {
        return answer(response, callback, 404, "text/plain; charset=utf-8",
            "the Function has no build Job: nothing was built for it, or its Jobs were cleaned up\n"
                .getBytes(StandardCharsets.UTF_8));
      }
      BuildLog log = logs.tail(fn.getMetadata().getNamespace(), build.get().name(), true);
      String text = log.missing() != null ? "no log of Job " + build.get().name() + ": " + log.missing() + "\n"
          : "# at most the last " + BuildLogs.MORE.lines() + " lines of Pod " + log.pod() + " of Job "
              + build.get().name()
              + (log.cut() ? ", cut at " + BuildLogs.MORE.bytes() / 1024 + " KiB" : "") + "\n" + log.text();
      response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
      return answer(response, callback, log.missing() != null ? 404 : 200, "text/plain; charset=utf-8",
          text.getBytes(StandardCharsets.UTF_8));
    }

    /** Renders {@code template} with {@code model}, or answers 304 when the browser shows this version already. */
    private boolean page(Request request, Response response, Callback callback, String template, Object model,
        String version) {
      String etag = '"' + version + '"';
      response.getHeaders().put(HttpHeader.ETAG, etag);
      response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
      if (etag.equals(request.getHeaders().get(HttpHeader.IF_NONE_MATCH))) {
        response.setStatus(304); // the page's script asks every few seconds; most answers are this one
        callback.succeeded();
        return true;
      }
      Utf8ByteOutput page = new Utf8ByteOutput();
      try {
        templates.render(template, Map.of("page", model, "actions", actions.isPresent(), "base", base,
            "local", source.local()), page);
      } catch (TemplateException e) {
        log.error("the dashboard's {} failed to render", template, e);
        return answer(response, callback, 500, "text/plain; charset=utf-8",
            "the page failed to render; the controller's log says why\n".getBytes(StandardCharsets.UTF_8));
      }
      return answer(response, callback, 200, "text/html; charset=utf-8", page.toByteArray());
    }

    private static byte[] resource(String path) {
      try (InputStream in = DashboardServer.class.getResourceAsStream(path.substring(1))) {
        if (in == null) {
          throw new IllegalStateException("the jar lacks the dashboard's " + path);
        }
        return in.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static boolean answer(Response response, Callback callback, int status, String type, byte[] body) {
      response.setStatus(status);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
      response.write(true, ByteBuffer.wrap(body), callback);
      return true;
    }
  }
}
