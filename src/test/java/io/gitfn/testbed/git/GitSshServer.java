package io.gitfn.testbed.git;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.ServerAuthenticationManager;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;
import org.apache.sshd.server.command.CommandFactory;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An SSH Git server: MINA sshd on 127.0.0.1 that runs {@code git-upload-pack} and {@code
 * git-receive-pack} for the bare repositories in one directory. It accepts user {@code git} with
 * any public key that a test {@linkplain #authorize(PublicKey) authorized}, and nothing else.
 */
public final class GitSshServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(GitSshServer.class);
  private static final String USER = "git";

  private final SshServer server;
  private final PublicKey hostKey;
  private final Set<PublicKey> authorizedKeys;

  private GitSshServer(SshServer server, PublicKey hostKey, Set<PublicKey> authorizedKeys) {
    this.server = server;
    this.hostKey = hostKey;
    this.authorizedKeys = authorizedKeys;
  }

  /**
   * Starts a server on a free port that serves {@code <baseDirectory>/<repo>.git}, with a host key
   * generated into {@code stateDirectory}.
   */
  public static GitSshServer start(Path baseDirectory, Path stateDirectory) throws IOException {
    Path repositories = baseDirectory.toAbsolutePath().normalize();
    return start(stateDirectory, (channel, commandLine) -> GitPackCommand.forCommandLine(repositories, commandLine),
        repositories.toString());
  }

  /**
   * A server as a hostile tenant runs one: every command, whatever repository it names, answers with a ref
   * advertisement that never ends ({@link HostileGitServer#flood}), as fast as the client reads.
   */
  public static GitSshServer flooding(Path stateDirectory) throws IOException {
    return start(stateDirectory, (channel, commandLine) -> new FloodingCommand(), "a flood of refs");
  }

  private static GitSshServer start(Path stateDirectory, CommandFactory commands, String serves) throws IOException {
    long started = System.nanoTime();
    Files.createDirectories(stateDirectory);
    SimpleGeneratorHostKeyProvider hostKeys =
        new SimpleGeneratorHostKeyProvider(stateDirectory.resolve("ssh_host_ecdsa_key"));
    // ECDSA: generated in milliseconds and, unlike ed25519, supported by sshd without extra jars.
    hostKeys.setAlgorithm(KeyUtils.EC_ALGORITHM);
    hostKeys.setKeySize(256);
    PublicKey hostKey = hostKeys.loadKeys(null).get(0).getPublic();

    Set<PublicKey> authorizedKeys = ConcurrentHashMap.newKeySet();
    SshServer server = SshServer.setUpDefaultServer();
    server.setHost("127.0.0.1");
    server.setPort(0);
    server.setKeyPairProvider(hostKeys);
    server.setUserAuthFactories(
        List.of(ServerAuthenticationManager.DEFAULT_USER_AUTH_PUBLIC_KEY_FACTORY));
    server.setPublickeyAuthenticator(
        (user, key, session) ->
            USER.equals(user)
                && authorizedKeys.stream().anyMatch(known -> KeyUtils.compareKeys(known, key)));
    server.setCommandFactory(commands);
    server.start();

    GitSshServer ssh = new GitSshServer(server, hostKey, authorizedKeys);
    LOG.info(
        "Git SSH server on port {} for {} started in {} ms",
        ssh.port(),
        serves,
        (System.nanoTime() - started) / 1_000_000);
    return ssh;
  }

  /** Lets a client that holds the private half of {@code key} in as user {@code git}. */
  public void authorize(PublicKey key) {
    authorizedKeys.add(key);
  }

  /** The clone URL of {@code repo}. */
  public String url(String repo) {
    return "ssh://" + USER + "@127.0.0.1:" + port() + "/" + repo + ".git";
  }

  /** The line a known_hosts file needs for a client to trust this server. */
  public String knownHostsLine() {
    return "[127.0.0.1]:" + port() + " " + PublicKeyEntry.toString(hostKey);
  }

  public int port() {
    return server.getPort();
  }

  @Override
  public void close() throws IOException {
    server.stop(true);
  }

  /** Writes the endless advertisement on a thread of its own, until the client closes the channel. */
  private static final class FloodingCommand implements Command {
    private OutputStream out;
    private ExitCallback exit;
    private Thread writer;

    @Override
    public void setInputStream(InputStream in) {}

    @Override
    public void setOutputStream(OutputStream out) {
      this.out = out;
    }

    @Override
    public void setErrorStream(OutputStream err) {}

    @Override
    public void setExitCallback(ExitCallback callback) {
      this.exit = callback;
    }

    @Override
    public void start(ChannelSession channel, Environment env) {
      writer = new Thread(() -> {
        try {
          HostileGitServer.flood(out);
        } catch (IOException e) {
          exit.onExit(0); // the client stopped reading
        }
      }, "flooding-git-ssh");
      writer.setDaemon(true);
      writer.start();
    }

    @Override
    public void destroy(ChannelSession channel) {
      writer.interrupt();
    }
  }
}
