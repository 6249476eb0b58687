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
 * etcd and kube-apiserver on loopback, on free ports, with an admin token in {@code system:masters}.
 *
 * <p>The apiserver makes its own self-signed serving certificate in {@code pki/}; clients trust that file.
 * RBAC is on, so tests of least-privilege roles mean something.
 */
final class ControlPlane implements AutoCloseable {

  private final Path dir;
  private final List<ComponentProcess> processes = new ArrayList<>();
  private final String token = UUID.randomUUID().toString();
  private String etcdUrl;
  private int apiPort;

  private ControlPlane(Path dir) {
    this.dir = dir;
  }

  static ControlPlane start(TestBedBinaries binaries, Path dir, Duration timeout) {
    ControlPlane plane = new ControlPlane(dir);
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

  private void startApiServer(TestBedBinaries binaries, Duration timeout) {
    apiPort = FreePorts.next();
    Path pki = dir.resolve("pki");
    try {
      Files.createDirectories(pki);
      Files.writeString(dir.resolve("tokens.csv"), token + ",admin,admin,system:masters\n");
      Files.writeString(serviceAccountKey(), serviceAccountKeyPem());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ComponentProcess apiserver =
        ComponentProcess.start(
            "kube-apiserver",
            dir.resolve("logs/kube-apiserver.log"),
            List.of(
                binaries.binary("kube-apiserver").toString(),
                "--etcd-servers=" + etcdUrl,
                "--bind-address=127.0.0.1",
                "--advertise-address=127.0.0.1",
                "--secure-port=" + apiPort,
                "--cert-dir=" + pki,
                "--token-auth-file=" + dir.resolve("tokens.csv"),
                "--authorization-mode=RBAC",
                "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
                "--service-account-key-file=" + serviceAccountKey(),
                "--service-account-signing-key-file=" + serviceAccountKey(),
                "--service-cluster-ip-range=10.96.0.0/16",
                "--allow-privileged=true",
                // No kubelets: the default/kubernetes Endpoints would point at nothing anyway.
                "--endpoint-reconciler-type=none",
                "--v=1"));
    processes.add(apiserver);
    waitFor(apiserver, timeout, () -> httpOk(url() + "/readyz", token));
  }

  /** The serving certificate the apiserver wrote for itself; it is its own CA. */
  Path caCertificate() {
    return dir.resolve("pki/apiserver.crt");
  }

  Path serviceAccountKey() {
    return dir.resolve("service-account.key");
  }

  Path kubeconfig() {
    return dir.resolve("kubeconfig");
  }

  String url() {
    return "https://127.0.0.1:" + apiPort;
  }

  Config config() {
    return new ConfigBuilder(Config.empty())
        .withMasterUrl(url())
        .withCaCertFile(caCertificate().toString())
        .withOauthToken(token)
        .withNamespace("default")
        .withRequestTimeout(30_000)
        .build();
  }

  KubernetesClient newClient() {
    return new KubernetesClientBuilder().withConfig(config()).build();
  }

  List<ComponentProcess> processes() {
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

  static void waitFor(ComponentProcess process, Duration timeout, BooleanSupplier ready) {
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
  static boolean httpOk(String url, String bearer) {
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
