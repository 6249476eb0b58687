package io.gitfn.testbed;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.security.cert.X509Certificate;
import java.util.function.BooleanSupplier;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * etcd on loopback and kube-apiserver on an address of {@link Options} (loopback for the shared test bed), on
 * free ports, with an admin token in {@code system:masters}.
 *
 * <p>The apiserver makes its own self-signed serving certificate in {@code pki/}; clients trust that file.
 * RBAC is on, so tests of least-privilege roles mean something.
 */
public final class ControlPlane implements AutoCloseable {

  /**
   * Where the apiserver listens and what it advertises, its Service range, and flags of its own.
   *
   * @param address the apiserver's bind and advertise address
   * @param serviceRange {@code --service-cluster-ip-range}; its first address is the {@code kubernetes} Service
   * @param apiServerFlags added to the apiserver's command line
   */
  public record Options(String address, String serviceRange, List<String> apiServerFlags) {
    public Options {
      apiServerFlags = List.copyOf(apiServerFlags);
    }
  }

  /**
   * The shared test bed's: loopback, and no kubelet, so the {@code default/kubernetes} Endpoints would point at
   * nothing anyway.
   */
  static final Options LOOPBACK =
      new Options("127.0.0.1", "10.96.0.0/16", List.of("--endpoint-reconciler-type=none"));

  private final Path dir;
  private final Options options;
  private final List<ComponentProcess> processes = new ArrayList<>();
  private final String token = UUID.randomUUID().toString();
  private String etcdUrl;
  private int apiPort;

  private ControlPlane(Path dir, Options options) {
    this.dir = dir;
    this.options = options;
  }

  static ControlPlane start(TestBedBinaries binaries, Path dir, Duration timeout) {
    return start(binaries, dir, timeout, LOOPBACK);
  }

  public static ControlPlane start(TestBedBinaries binaries, Path dir, Duration timeout, Options options) {
    ControlPlane plane = new ControlPlane(dir, options);
    try {
      plane.startEtcd(binaries, timeout);
      plane.startApiServer(binaries, timeout);
      plane.writeKubeconfig();
      return plane;
    } catch (RuntimeException e) {
      plane.close();
      throw e;
    }
  }

  private void startEtcd(TestBedBinaries binaries, Duration timeout) {
    int client = FreePorts.next();
    int peer = FreePorts.next();
    String clientUrl = "http://127.0.0.1:" + client;
    String peerUrl = "http://127.0.0.1:" + peer;
    ComponentProcess etcd =
        ComponentProcess.start(
            "etcd",
            dir.resolve("logs/etcd.log"),
            List.of(
                binaries.binary("etcd").toString(),
                "--name=testbed",
                "--data-dir=" + dir.resolve("etcd"),
                "--listen-client-urls=" + clientUrl,
                "--advertise-client-urls=" + clientUrl,
                "--listen-peer-urls=" + peerUrl,
                "--initial-advertise-peer-urls=" + peerUrl,
                "--initial-cluster=testbed=" + peerUrl,
                // Test data is thrown away; fsync would only slow every write down.
                "--unsafe-no-fsync=true",
                "--log-level=warn"));
    processes.add(etcd);
    waitFor(etcd, timeout, () -> httpOk(clientUrl + "/health", null));
    etcdUrl = clientUrl;
  }

  /** Stops kube-apiserver, as an outage would: etcd and its data stay, and so do the port and certificates. */
  public void stopApiServer() {
    ComponentProcess apiserver = processes.stream().filter(p -> p.name().equals("kube-apiserver")).findFirst()
        .orElseThrow(() -> new IllegalStateException("kube-apiserver is not running"));
    apiserver.close();
    processes.remove(apiserver);
  }

  /** Starts kube-apiserver again after {@link #stopApiServer}, on the same port, and waits until it is ready. */
  public void restartApiServer(TestBedBinaries binaries, Duration timeout) {
    startApiServer(binaries, timeout);
  }

  private void startApiServer(TestBedBinaries binaries, Duration timeout) {
    if (apiPort == 0) {
      apiPort = FreePorts.next();
    }
    Path pki = dir.resolve("pki");
    try {
      Files.createDirectories(pki);
      Files.writeString(dir.resolve("tokens.csv"), token + ",admin,admin,system:masters\n");
      Files.writeString(serviceAccountKey(), serviceAccountKeyPem());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> command =
        new ArrayList<>(
            List.of(
                binaries.binary("kube-apiserver").toString(),
                "--etcd-servers=" + etcdUrl,
                "--bind-address=" + options.address(),
                "--advertise-address=" + options.address(),
                "--secure-port=" + apiPort,
                "--cert-dir=" + pki,
                "--token-auth-file=" + dir.resolve("tokens.csv"),
                "--authorization-mode=RBAC",
                "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
                "--service-account-key-file=" + serviceAccountKey(),
                "--service-account-signing-key-file=" + serviceAccountKey(),
                "--service-cluster-ip-range=" + options.serviceRange(),
                "--allow-privileged=true",
                "--v=1"));
    command.addAll(options.apiServerFlags());
    ComponentProcess apiserver =
        ComponentProcess.start("kube-apiserver", dir.resolve("logs/kube-apiserver.log"), command);
    processes.add(apiserver);
    waitFor(apiserver, timeout, () -> httpOk(url() + "/readyz", token));
  }

  /**
   * Starts kube-controller-manager or kube-scheduler against this apiserver with what both need, and waits for
   * its /healthz; the caller owns the process. No --authentication-kubeconfig: delegated authn needs the
   * apiserver's client-CA ConfigMap, which a token-only apiserver never writes, and then /healthz is refused; it
   * stays on the always-allow paths.
   */
  public ComponentProcess startControlLoop(
      String name, TestBedBinaries binaries, Duration timeout, String... flags) {
    int port = FreePorts.next();
    List<String> command = new ArrayList<>(List.of(
        binaries.binary(name).toString(),
        "--kubeconfig=" + kubeconfig(),
        "--bind-address=127.0.0.1",
        "--secure-port=" + port,
        "--cert-dir=" + dir.resolve("pki/" + name),
        "--leader-elect=false",
        "--v=1"));
    command.addAll(List.of(flags));
    ComponentProcess process = ComponentProcess.start(name, dir.resolve("logs/" + name + ".log"), command);
    try {
      // /healthz of these components allows anonymous access by default; their TLS is self-signed.
      waitFor(process, timeout, () -> httpOk("https://127.0.0.1:" + port + "/healthz", null));
      return process;
    } catch (RuntimeException e) {
      process.close();
      throw e;
    }
  }

  /** The serving certificate the apiserver wrote for itself; it is its own CA. */
  public Path caCertificate() {
    return dir.resolve("pki/apiserver.crt");
  }

  public Path serviceAccountKey() {
    return dir.resolve("service-account.key");
  }

  public Path kubeconfig() {
    return dir.resolve("kubeconfig");
  }

  public String url() {
    return "https://" + options.address() + ":" + apiPort;
  }

  /** The admin user's bearer token, for tools that take no kubeconfig. */
  public String token() {
    return token;
  }

  public Config config() {
    return new ConfigBuilder(Config.empty())
        .withMasterUrl(url())
        .withCaCertFile(caCertificate().toString())
        .withOauthToken(token)
        .withNamespace("default")
        .withRequestTimeout(30_000)
        .build();
  }

  public KubernetesClient newClient() {
    return new KubernetesClientBuilder().withConfig(config()).build();
  }

  public List<ComponentProcess> processes() {
    return processes;
  }

  private void writeKubeconfig() {
    String yaml =
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: testbed
          cluster:
            server: %s
            certificate-authority: %s
        users:
        - name: admin
          user:
            token: %s
        contexts:
        - name: testbed
          context:
            cluster: testbed
            user: admin
            namespace: default
        current-context: testbed
        """
            .formatted(url(), caCertificate(), token);
    try {
      Files.writeString(kubeconfig(), yaml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String serviceAccountKeyPem() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      byte[] pkcs8 = generator.generateKeyPair().getPrivate().getEncoded();
      return "-----BEGIN PRIVATE KEY-----\n"
          + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(pkcs8)
          + "\n-----END PRIVATE KEY-----\n";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Waits until {@code ready}, or fails with the process's log when it stops first or time runs out. */
  public static void waitFor(ComponentProcess process, Duration timeout, BooleanSupplier ready) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw process.failure("stopped while starting");
      }
      if (ready.getAsBoolean()) {
        return;
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw process.failure("start interrupted");
      }
    }
    throw process.failure("was not ready within " + timeout.toSeconds() + " s");
  }

  /**
   * True when {@code url} answers 200. Only for health polling: it trusts any certificate for any host
   * name, because the components make their self-signed certificates as they start.
   */
  public static boolean httpOk(String url, String bearer) {
    try {
      HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
      if (connection instanceof HttpsURLConnection https) {
        https.setSSLSocketFactory(TRUST_ALL.getSocketFactory());
        https.setHostnameVerifier((host, session) -> true);
      }
      connection.setConnectTimeout(1000);
      connection.setReadTimeout(2000);
      if (bearer != null) {
        connection.setRequestProperty("Authorization", "Bearer " + bearer);
      }
      try {
        return connection.getResponseCode() == 200;
      } finally {
        connection.disconnect();
      }
    } catch (IOException e) {
      return false;
    }
  }

  private static final SSLContext TRUST_ALL = trustAll();

  private static SSLContext trustAll() {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {new TrustAll()}, null);
      return context;
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static final class TrustAll implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }

  @Override
  public void close() {
    ComponentProcess.closeAll(processes);
  }
}
