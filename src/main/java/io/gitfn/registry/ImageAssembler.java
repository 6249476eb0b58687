package io.gitfn.registry;

import com.google.cloud.tools.jib.api.Credential;
import com.google.cloud.tools.jib.api.DescriptorDigest;
import com.google.cloud.tools.jib.api.LogEvent;
import com.google.cloud.tools.jib.api.RegistryException;
import com.google.cloud.tools.jib.blob.Blob;
import com.google.cloud.tools.jib.blob.BlobDescriptor;
import com.google.cloud.tools.jib.blob.Blobs;
import com.google.cloud.tools.jib.event.EventHandlers;
import com.google.cloud.tools.jib.http.CappedFailoverHttpClients;
import com.google.cloud.tools.jib.http.FailoverHttpClient;
import com.google.cloud.tools.jib.image.json.BuildableManifestTemplate;
import com.google.cloud.tools.jib.image.json.ManifestListTemplate;
import com.google.cloud.tools.jib.image.json.ManifestTemplate;
import com.google.cloud.tools.jib.image.json.OciManifestTemplate;
import com.google.cloud.tools.jib.registry.ManifestAndDigest;
import com.google.cloud.tools.jib.registry.RegistryClient;
import io.gitfn.image.CappedOutputStream;
import io.gitfn.image.ImageConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.DigestException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Makes an image from one a registry holds and new layers on top, and pushes it: the layers below are mounted
 * from the image's repository (or, from another registry, streamed through once) and never unpacked; only the new
 * layers, the config and the manifest travel. The manifest is OCI's, and its bytes depend only on the image
 * below, the layers and the config, so the same inputs give the same digest wherever they are assembled.
 *
 * <p>Bounded in time: each call runs on the pool it is given and is stopped at its deadline, retries included (jib's
 * client retries a request that failed with an I/O error, with backoff, for about a minute, and gives each request
 * its {@code jib.httpTimeout}); the caller's thread waits for the deadline at most. How many run at once is the
 * pool's size.
 */
public final class ImageAssembler {

  /** The platform gitfn's runtimes run on; an index (a multi-platform image) is read at this entry. */
  static final String OS = "linux";
  static final String ARCHITECTURE = "amd64";

  /**
   * The most any answer of a registry may hold for {@link #boundedAnswers}: what distribution allows a manifest
   * (4 MiB). A token, an error or an image config is far smaller.
   */
  public static final long MAX_ANSWER_BYTES = 4L * 1024 * 1024;

  private final RegistryAccess access;
  private final String userAgent;
  private final ExecutorService pool;
  private final Duration deadline;
  private final long maxAnswerBytes;
  private final Retries retries;

  /**
   * An assembler that reads answers of any size, as {@code gitfn pack} must to stream a base image's layers from
   * another registry. Where registries are a tenant's choice and the reader is shared, use {@link #boundedAnswers}.
   *
   * @param pool where pushes run; a fixed pool bounds how many run at once, and a push waiting for a thread
   *     spends its deadline waiting
   */
  public ImageAssembler(RegistryAccess access, String userAgent, ExecutorService pool, Duration deadline) {
    this(access, userAgent, pool, deadline, Long.MAX_VALUE, Retries.NONE);
  }

  private ImageAssembler(RegistryAccess access, String userAgent, ExecutorService pool, Duration deadline,
      long maxAnswerBytes, Retries retries) {
    this.access = access;
    this.userAgent = userAgent;
    this.pool = pool;
    this.deadline = deadline;
    this.maxAnswerBytes = maxAnswerBytes;
    this.retries = retries;
  }

  /**
   * An assembler whose every registry answer (manifest, token, config, error) is capped at
   * {@link #MAX_ANSWER_BYTES}: the controller's, which asks registries a tenant may name and must not be made to
   * hold a large answer. It mounts the layers below within a registry and never streams them, so the cap costs
   * nothing there.
   */
  public static ImageAssembler boundedAnswers(RegistryAccess access, String userAgent, ExecutorService pool,
      Duration deadline) {
    return new ImageAssembler(access, userAgent, pool, deadline, MAX_ANSWER_BYTES, Retries.NONE);
  }

  /**
   * This assembler, making a call again when a registry could not be reached or the connection to it broke
   * ({@link RegistryFailure#unreachable}): up to {@code tries} times in all, pausing {@code firstPause} before the
   * second and twice as long before each after it, all within the same deadline. jib's client retries a request
   * that failed that way, except the first it makes to a registry it may speak plain HTTP to (its probe for HTTPS),
   * so one lost connection there fails the whole call. {@code gitfn pack} wants this: its failure costs a whole
   * install Job. The controller does not: it tries again on a later pass and must not hold a thread meanwhile.
   *
   * @param onRetry told of each failure that is tried again, with the pause before the next try
   */
  public ImageAssembler retryingUnreachable(int tries, Duration firstPause, Consumer<String> onRetry) {
    return new ImageAssembler(access, userAgent, pool, deadline, maxAnswerBytes,
        new Retries(tries, firstPause, onRetry));
  }

  private record Retries(int tries, Duration firstPause, Consumer<String> onRetry) {
    static final Retries NONE = new Retries(1, Duration.ZERO, warning -> { });
  }

  /**
   * What a push did: the manifest's digest, and how much of the image had to travel: the bytes uploaded (layers and
   * config), and the layers mounted from the image below or already in the destination.
   */
  public record Pushed(ImageName image, String digest, long bytesUploaded, int blobsMounted, int blobsPresent) {}

  /**
   * Pushes {@code target}: {@code from} with {@code layers} on top, its config changed by {@code config} after the
   * layers were added.
   *
   * @throws RegistryFailure when a registry refuses, fails or answers what gitfn cannot read; its message names
   *     the registry, the image and what was asked
   */
  public Pushed assemble(ImageName from, List<NewLayer> layers, UnaryOperator<ImageConfig> config,
      ImageName target) throws RegistryFailure {
    Attempt attempt = new Attempt("reading " + from);
    return bounded(attempt, () -> retrying(attempt, () -> assemble(from, layers, config, target, attempt)));
  }

  /**
   * The digest of {@code image}'s manifest, as its registry names it (for a tag that names an index, the index's),
   * or empty when the registry has no such manifest. Bounded like {@link #assemble}.
   *
   * @throws RegistryFailure when the registry refuses, fails or cannot be reached; its message names the image
   */
  public Optional<String> find(ImageName image) throws RegistryFailure {
    Attempt attempt = new Attempt("looking for " + image);
    return bounded(attempt, () -> retrying(attempt, () -> {
      List<FailoverHttpClient> clients = new ArrayList<>();
      try {
        return client(image, null, false, clients, attempt).checkManifest(image.reference())
            .map(found -> found.getDigest().toString());
      } catch (RegistryException | IOException e) {
        throw new RegistryFailure(attempt.step + ": " + describe(e), e);
      } finally {
        shutDown(clients);
      }
    }));
  }

  /** One call to registries, whole: what {@link #retrying} makes again. */
  private interface RegistryCall<T> {
    T call() throws RegistryFailure;
  }

  /** Makes {@code call}, and again after a pause while it fails unreachable, tries are left and it is awaited. */
  private <T> T retrying(Attempt attempt, RegistryCall<T> call) throws RegistryFailure, InterruptedException {
    String firstStep = attempt.step;
    Duration pause = retries.firstPause();
    for (int tried = 1; ; tried++) {
      attempt.step = firstStep;
      try {
        return call.call();
      } catch (RegistryFailure failure) {
        if (tried >= retries.tries() || !failure.unreachable() || attempt.abandoned) {
          throw failure;
        }
        String warning = failure.getMessage() + "; trying again in " + seconds(pause) + " (try " + (tried + 1)
            + " of " + retries.tries() + ")";
        attempt.lastWarning = Optional.of(warning);
        retries.onRetry().accept(warning);
        Thread.sleep(pause.toMillis());
        pause = pause.multipliedBy(2);
      }
    }
  }

  private static String seconds(Duration pause) {
    return pause.toMillis() % 1000 == 0 ? pause.toSeconds() + " s" : pause.toMillis() + " ms";
  }

  /** Runs {@code work} on the pool and waits for it up to the deadline; what it throws is a RegistryFailure. */
  private <T> T bounded(Attempt attempt, Callable<T> work) throws RegistryFailure {
    Future<T> running = pool.submit(work);
    try {
      return running.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      attempt.abandoned = true;
      running.cancel(true);
      throw new RegistryFailure(attempt.step + ": did not finish within " + deadline.toSeconds() + " s"
          + attempt.lastWarning.map(w -> " (" + w + ")").orElse(""), e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RegistryFailure failure) {
        throw failure;
      }
      throw new RegistryFailure(attempt.step + ": " + describe(e.getCause()), e.getCause());
    } catch (InterruptedException e) {
      attempt.abandoned = true;
      running.cancel(true);
      Thread.currentThread().interrupt();
      throw new RegistryFailure(attempt.step + ": interrupted", e);
    }
  }

  /** Where a push stands, for the message of one stopped at its deadline. */
  private static final class Attempt {
    volatile String step;
    volatile Optional<String> lastWarning = Optional.empty();
    /** Its caller stopped waiting (deadline, interrupt): an I/O failure that follows is not tried again. */
    volatile boolean abandoned;

    Attempt(String step) {
      this.step = step;
    }
  }

  private Pushed assemble(ImageName from, List<NewLayer> layers, UnaryOperator<ImageConfig> config,
      ImageName target, Attempt attempt) throws RegistryFailure {
    List<FailoverHttpClient> clients = new ArrayList<>();
    try {
      RegistryClient source = client(from, null, false, clients, attempt);
      BuildableManifestTemplate below = manifest(source, from);
      ImageConfig image = ImageConfig.parse(configBytes(source, below));
      for (NewLayer layer : layers) {
        image = image.withLayer(layer.digests(), layer.createdBy());
      }
      image = config.apply(image);
      byte[] configBytes = image.bytes();

      attempt.step = "pushing " + target;
      String mountFrom = from.registry().equals(target.registry()) ? from.repository() : null;
      RegistryClient destination = client(target, mountFrom, true, clients, attempt);
      Transfers transfers = new Transfers(destination);
      OciManifestTemplate manifest = new OciManifestTemplate();
      for (BuildableManifestTemplate.ContentDescriptorTemplate layer : below.getLayers()) {
        transfers.layer(layer.getDigest(), streamed(source, layer.getDigest()), mountFrom);
        manifest.addLayer(layer.getSize(), layer.getDigest());
      }
      for (NewLayer layer : layers) {
        DescriptorDigest digest = DescriptorDigest.fromDigest(layer.digests().digest());
        transfers.layer(digest, opened(layer), null);
        manifest.addLayer(layer.digests().size(), digest);
      }
      Blob configBlob = Blobs.from(out -> out.write(configBytes), true);
      BlobDescriptor configDescriptor = configBlob.writeTo(OutputStream.nullOutputStream());
      transfers.ensure(configDescriptor.getDigest(), configBlob, null);
      manifest.setContainerConfiguration(configDescriptor.getSize(), configDescriptor.getDigest());
      DescriptorDigest pushed = destination.pushManifest(manifest, target.reference());
      return new Pushed(target, pushed.toString(), transfers.uploaded.get(),
          transfers.layers(Transfers.Outcome.MOUNTED), transfers.layers(Transfers.Outcome.PRESENT));
    } catch (RegistryException | IOException | DigestException e) {
      throw new RegistryFailure(attempt.step + ": " + describe(e), e);
    } catch (RuntimeException e) {
      // jib's client reads what a registry answers; an answer it cannot read must not fail the caller's thread.
      throw new RegistryFailure(attempt.step + ": the registry's answer could not be read (" + describe(e) + ")", e);
    } finally {
      shutDown(clients);
    }
  }

  /** jib's client opens a connection pool per request; only shutDown closes them. */
  private static void shutDown(List<FailoverHttpClient> clients) {
    for (FailoverHttpClient client : clients) {
      try {
        client.shutDown();
      } catch (IOException ignored) {
        // closing what is done with; nothing to tell
      }
    }
  }

  /** Puts blobs where the destination lacks them; counts the bytes uploaded, and how each layer got there. */
  private static final class Transfers {
    private enum Outcome { PRESENT, MOUNTED, UPLOADED }

    private final RegistryClient destination;
    private final Map<Outcome, Integer> layers = new EnumMap<>(Outcome.class);
    final AtomicLong uploaded = new AtomicLong();

    Transfers(RegistryClient destination) {
      this.destination = destination;
    }

    /** A layer of the new image: put there, and counted. */
    void layer(DescriptorDigest digest, Blob blob, String mountFrom) throws IOException, RegistryException {
      layers.merge(ensure(digest, blob, mountFrom), 1, Integer::sum);
    }

    /** Nothing when the destination has it; else mounted from {@code mountFrom} if it can be, else uploaded. */
    Outcome ensure(DescriptorDigest digest, Blob blob, String mountFrom) throws IOException, RegistryException {
      if (destination.checkBlob(digest).isPresent()) {
        return Outcome.PRESENT;
      }
      return destination.pushBlob(digest, blob, mountFrom, uploaded::addAndGet) ? Outcome.MOUNTED : Outcome.UPLOADED;
    }

    int layers(Outcome outcome) {
      return layers.getOrDefault(outcome, 0);
    }
  }

  private BuildableManifestTemplate manifest(RegistryClient source, ImageName image)
      throws IOException, RegistryException {
    ManifestAndDigest<ManifestTemplate> found = source.pullManifest(image.reference());
    ManifestTemplate manifest = found.getManifest();
    if (manifest instanceof ManifestListTemplate index) {
      List<String> digests = index.getDigestsForPlatform(ARCHITECTURE, OS);
      if (digests.isEmpty()) {
        throw new IOException(image + " is an index with no " + OS + "/" + ARCHITECTURE + " image");
      }
      manifest = source.pullManifest(digests.get(0)).getManifest();
    }
    if (!(manifest instanceof BuildableManifestTemplate buildable)) {
      throw new IOException(image + " has a manifest of type " + manifest.getManifestMediaType()
          + ", which is not an image gitfn can build on (Docker schema 1 is not read)");
    }
    return buildable;
  }

  private static byte[] configBytes(RegistryClient source, BuildableManifestTemplate manifest) throws IOException {
    BuildableManifestTemplate.ContentDescriptorTemplate descriptor = manifest.getContainerConfiguration();
    if (descriptor == null || descriptor.getDigest() == null) {
      throw new IOException("the manifest names no config");
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    source.pullBlob(descriptor.getDigest(), size -> { }, size -> { }).writeTo(new CappedOutputStream(bytes,
        ImageConfig.MAX_BYTES, () -> new IOException("the image config is larger than the cap of "
            + ImageConfig.MAX_BYTES + " bytes")));
    return bytes.toByteArray();
  }

  /** A layer of the image below, read from its registry only if the destination can neither find nor mount it. */
  private static Blob streamed(RegistryClient source, DescriptorDigest digest) {
    return Blobs.from(out -> source.pullBlob(digest, size -> { }, size -> { }).writeTo(out), true);
  }

  private static Blob opened(NewLayer layer) {
    return Blobs.from(out -> {
      try (InputStream in = layer.content().open()) {
        in.transferTo(out);
      }
    }, true);
  }

  private RegistryClient client(ImageName image, String sourceRepository, boolean push,
      List<FailoverHttpClient> clients, Attempt attempt) throws IOException, RegistryException {
    boolean insecure = access.insecure(image.registry());
    Consumer<LogEvent> warnings = event -> {
      if (event.getLevel() == LogEvent.Level.WARN) {
        attempt.lastWarning = Optional.of(event.getMessage());
      }
    };
    FailoverHttpClient http = maxAnswerBytes == Long.MAX_VALUE ? new FailoverHttpClient(insecure, false, warnings)
        : CappedFailoverHttpClients.create(insecure, warnings, maxAnswerBytes);
    clients.add(http);
    RegistryClient.Factory factory = RegistryClient.factory(EventHandlers.NONE, image.registry(),
        image.repository(), sourceRepository, http).setUserAgent(userAgent);
    Optional<RegistryCredentials> credentials = access.credentials().apply(image.registry());
    credentials.ifPresent(c -> factory.setCredential(Credential.from(c.username(), c.password())));
    RegistryClient client = factory.newRegistryClient();
    // A registry that asks for a bearer token gets one for this repository (and, for a push, the one it mounts
    // from); otherwise the credentials, if any, go as basic auth.
    boolean bearer = push ? client.doPushBearerAuth() : client.doPullBearerAuth();
    if (!bearer && credentials.isPresent()) {
      client.configureBasicAuth();
    }
    return client;
  }

  private static String describe(Throwable e) {
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }
}
