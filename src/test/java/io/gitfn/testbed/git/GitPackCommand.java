package io.gitfn.testbed.git;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.sshd.server.command.AbstractCommandSupport;
import org.apache.sshd.server.command.Command;
import org.apache.sshd.server.shell.UnknownCommand;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.transport.ReceivePack;
import org.eclipse.jgit.transport.UploadPack;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one {@code git-upload-pack '<path>'} or {@code git-receive-pack '<path>'} over an SSH
 * channel. JGit has no SSH server side, so MINA sshd hands the channel's streams to JGit's
 * {@link UploadPack} or {@link ReceivePack} here.
 */
final class GitPackCommand extends AbstractCommandSupport {

  private static final Logger LOG = LoggerFactory.getLogger(GitPackCommand.class);
  private static final Pattern GIT_COMMAND =
      Pattern.compile("(git-upload-pack|git-receive-pack) '/?([^']+)'");
  /** What git-upload-pack exits with when it cannot serve the repository. */
  private static final int FATAL = 128;

  private final Service service;
  private final Path baseDirectory;
  private final String repositoryPath;

  private enum Service {
    UPLOAD_PACK,
    RECEIVE_PACK
  }

  private GitPackCommand(
      String commandLine, Service service, Path baseDirectory, String repositoryPath) {
    super(commandLine, null);
    this.service = service;
    this.baseDirectory = baseDirectory;
    this.repositoryPath = repositoryPath;
  }

  /** The command that serves {@code commandLine}; anything but the two Git services is refused. */
  static Command forCommandLine(Path baseDirectory, String commandLine) {
    Matcher git = GIT_COMMAND.matcher(commandLine);
    if (!git.matches()) {
      return new UnknownCommand(commandLine);
    }
    Service service =
        git.group(1).equals("git-upload-pack") ? Service.UPLOAD_PACK : Service.RECEIVE_PACK;
    return new GitPackCommand(commandLine, service, baseDirectory, git.group(2));
  }

  @Override
  public void run() {
    Path gitDir = baseDirectory.resolve(repositoryPath).normalize();
    if (!gitDir.startsWith(baseDirectory) || !gitDir.resolve("objects").toFile().isDirectory()) {
      fail("'" + repositoryPath + "' does not appear to be a git repository");
      return;
    }
    try (Repository repository =
        new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build()) {
      serve(repository);
      onExit(0);
    } catch (IOException | RuntimeException e) {
      LOG.warn("{} failed", getCommand(), e);
      onExit(FATAL, String.valueOf(e.getMessage()));
    }
  }

  private void serve(Repository repository) throws IOException {
    switch (service) {
      case UPLOAD_PACK -> {
        UploadPack upload = new UploadPack(repository);
        // The client asks for protocol v2 through the GIT_PROTOCOL environment variable.
        String protocol = getEnvironment().getEnv().get("GIT_PROTOCOL");
        if (protocol != null) {
          upload.setExtraParameters(List.of(protocol.split(":")));
        }
        upload.upload(getInputStream(), getOutputStream(), getErrorStream());
      }
      case RECEIVE_PACK ->
          new ReceivePack(repository)
              .receive(getInputStream(), getOutputStream(), getErrorStream());
    }
  }

  private void fail(String message) {
    try {
      OutputStream err = getErrorStream();
      err.write(("fatal: " + message + "\n").getBytes(StandardCharsets.UTF_8));
      err.flush();
    } catch (IOException e) {
      LOG.debug("Could not tell the client: {}", message, e);
    }
    onExit(FATAL, message);
  }
}
