package io.gitfn.testbed.packages;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Pattern;

/**
 * A local npm registry and PyPI index, so that builds install gitfn's runtime packages (and a Function's, when they
 * are there) without sending traffic off this machine. They serve what {@code scripts/build-node-images.py} put in
 * its {@code packages/} folder: npm tarballs with an {@code index.json} of their versions, dependencies and
 * integrity, and wheels with an {@code index.json} of their sha256.
 *
 * <ul>
 *   <li>npm: {@code GET /npm/<name>} is the package document (every version, each with its {@code dist.tarball} on
 *       this server and its integrity), {@code GET /npm/<name>/-/<file>.tgz} the tarball;
 *   <li>PyPI: {@code GET /pypi/simple/<project>/} is the PEP 503 page of links with {@code #sha256=},
 *       {@code GET /pypi/files/<wheel>} the wheel.
 * </ul>
 *
 * <p>Anything else is 404, so a build that asks for a package the folder lacks fails instead of finding it
 * elsewhere. Builds use them through the package-registry Secret, as a user's would: {@link #npmrc()} and
 * {@link #pipConf()} are its {@code .npmrc} and {@code pip.conf}. {@link #requests()} says what was asked.
 */
public final class PackageMirrors implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern SEPARATORS = Pattern.compile("[-_.]+");

  private final HttpServer server;
  private final ExecutorService executor;
  private final URI base;
  private final Path npm;
  private final Path pypi;
  private final JsonNode npmIndex;
  private final JsonNode pypiIndex;
  private final List<String> requests = new CopyOnWriteArrayList<>();

  private PackageMirrors(Path packages, InetAddress bind, int port) throws IOException {
    this.npm = packages.resolve("npm");
    this.pypi = packages.resolve("pypi");
    this.npmIndex = JSON.readTree(npm.resolve("index.json").toFile());
    this.pypiIndex = JSON.readTree(pypi.resolve("index.json").toFile());
    this.server = HttpServer.create(new InetSocketAddress(bind, port), 0);
    this.executor = Executors.newFixedThreadPool(4, r -> {
      Thread thread = new Thread(r, "package-mirrors");
      thread.setDaemon(true);
      return thread;
    });
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    String host = bind.getHostAddress().contains(":") ? "[" + bind.getHostAddress() + "]" : bind.getHostAddress();
    this.base = URI.create("http://" + host + ":" + server.getAddress().getPort() + "/");
    server.start();
  }

  /**
   * Serves {@code packages} (the {@code packages/} folder of the node images, {@code NodeImages.packages()}) on
   * {@code bind} at a free port. Bind to an address the builds reach: loopback for a build on this host, the
   * test bed's bridge for build Pods.
   */
  public static PackageMirrors start(Path packages, InetAddress bind) {
    return start(packages, bind, 0);
  }

  public static PackageMirrors start(Path packages, InetAddress bind, int port) {
    try {
      return new PackageMirrors(packages, bind, port);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serve the package mirrors from " + packages + " on " + bind, e);
    }
  }

  /** The npm registry, for {@code registry=} in {@code .npmrc}. */
  public URI npmRegistryUrl() {
    return base.resolve("npm/");
  }

  /** The PEP 503 simple index, for {@code index-url} in {@code pip.conf}. */
  public URI pipIndexUrl() {
    return base.resolve("pypi/simple/");
  }

  /** The {@code .npmrc} of a package-registry Secret that points npm here. */
  public String npmrc() {
    // npm asks its registry for newer npm versions unless told not to; this one has none.
    return "registry=" + npmRegistryUrl() + "\nupdate-notifier=false\n";
  }

  /** The {@code pip.conf} of a package-registry Secret that points pip here; plain HTTP, so its host is trusted. */
  public String pipConf() {
    return "[global]\nindex-url = " + pipIndexUrl() + "\ntrusted-host = " + base.getHost() + "\ntimeout = 30\n";
  }

  /** The method and path of every request so far, in order. */
  public List<String> requests() {
    return List.copyOf(requests);
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getRawPath();
      requests.add(exchange.getRequestMethod() + " " + path);
      if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
        send(exchange, 405, "text/plain", "read-only mirror\n".getBytes(StandardCharsets.UTF_8));
      } else if (path.startsWith("/npm/")) {
        npm(exchange, URLDecoder.decode(path.substring("/npm/".length()), StandardCharsets.UTF_8));
      } else if (path.startsWith("/pypi/")) {
        pypi(exchange, path.substring("/pypi/".length()));
      } else {
        notFound(exchange);
      }
    }
  }

  private void npm(HttpExchange exchange, String rest) throws IOException {
    int tarball = rest.indexOf("/-/");
    if (tarball > 0) {
      String file = rest.substring(tarball + 3);
      if (isPackageFile(npmIndex.path(rest.substring(0, tarball)), file)) {
        send(exchange, 200, "application/octet-stream", Files.readAllBytes(npm.resolve(file)));
      } else {
        notFound(exchange);
      }
      return;
    }
    JsonNode versions = npmIndex.path(rest);
    if (versions.isMissingNode()) {
      notFound(exchange);
      return;
    }
    send(exchange, 200, "application/json", JSON.writeValueAsBytes(packument(rest, versions)));
  }

  /** npm's package document: each version as the index has it, with its tarball's URL here. */
  private ObjectNode packument(String name, JsonNode versions) {
    ObjectNode document = JSON.createObjectNode().put("name", name);
    ObjectNode all = JSON.createObjectNode();
    List<String> names = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = versions.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> version = it.next();
      ObjectNode copy = version.getValue().deepCopy();
      ObjectNode dist = (ObjectNode) copy.path("dist");
      String file = dist.remove("file").asText();
      dist.put("tarball", npmRegistryUrl().resolve(name.replace("/", "%2f") + "/-/" + file).toString());
      all.set(version.getKey(), copy);
      names.add(version.getKey());
    }
    names.sort(PackageMirrors::compareVersions);
    document.set("dist-tags", JSON.createObjectNode().put("latest", names.get(names.size() - 1)));
    document.set("versions", all);
    return document;
  }

  private static boolean isPackageFile(JsonNode versions, String file) {
    for (JsonNode version : versions) {
      if (version.path("dist").path("file").asText().equals(file)) {
        return true;
      }
    }
    return false;
  }

  private void pypi(HttpExchange exchange, String rest) throws IOException {
    if (rest.startsWith("files/")) {
      String file = rest.substring("files/".length());
      if (isWheel(file)) {
        send(exchange, 200, "application/octet-stream", Files.readAllBytes(pypi.resolve(file)));
      } else {
        notFound(exchange);
      }
    } else if (rest.equals("simple/") || rest.equals("simple")) {
      StringBuilder page = new StringBuilder("<!DOCTYPE html>\n<html><body>\n");
      new TreeMap<>(toMap(pypiIndex)).keySet()
          .forEach(project -> page.append("<a href=\"").append(project).append("/\">").append(project).append("</a>\n"));
      send(exchange, 200, "text/html", page.append("</body></html>\n").toString().getBytes(StandardCharsets.UTF_8));
    } else if (rest.startsWith("simple/")) {
      String project = SEPARATORS.matcher(rest.substring("simple/".length()).replaceAll("/$", ""))
          .replaceAll("-").toLowerCase(Locale.ROOT);
      JsonNode files = pypiIndex.path(project);
      if (files.isMissingNode()) {
        notFound(exchange);
        return;
      }
      StringBuilder page = new StringBuilder("<!DOCTYPE html>\n<html><body>\n");
      for (JsonNode file : files) {
        String name = file.path("file").asText();
        page.append("<a href=\"../../files/").append(name).append("#sha256=").append(file.path("sha256").asText())
            .append("\">").append(name).append("</a>\n");
      }
      send(exchange, 200, "text/html", page.append("</body></html>\n").toString().getBytes(StandardCharsets.UTF_8));
    } else {
      notFound(exchange);
    }
  }

  private boolean isWheel(String file) {
    for (JsonNode files : pypiIndex) {
      for (JsonNode entry : files) {
        if (entry.path("file").asText().equals(file)) {
          return true;
        }
      }
    }
    return false;
  }

  private static Map<String, JsonNode> toMap(JsonNode object) {
    Map<String, JsonNode> map = new TreeMap<>();
    object.fields().forEachRemaining(e -> map.put(e.getKey(), e.getValue()));
    return map;
  }

  /** Dotted numeric versions by number; anything after a '-' (a pre-release) sorts before the release. */
  static int compareVersions(String a, String b) {
    String[] left = a.split("-", 2)[0].split("\\.");
    String[] right = b.split("-", 2)[0].split("\\.");
    for (int i = 0; i < Math.max(left.length, right.length); i++) {
      int l = i < left.length ? parse(left[i]) : 0;
      int r = i < right.length ? parse(right[i]) : 0;
      if (l != r) {
        return Integer.compare(l, r);
      }
    }
    return Boolean.compare(!a.contains("-"), !b.contains("-"));
  }

  private static int parse(String number) {
    try {
      return Integer.parseInt(number);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static void notFound(HttpExchange exchange) throws IOException {
    send(exchange, 404, "application/json", "{\"error\":\"not found\"}".getBytes(StandardCharsets.UTF_8));
  }

  private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    boolean head = exchange.getRequestMethod().equals("HEAD");
    exchange.sendResponseHeaders(status, head ? -1 : body.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }
}
