package io.gitfn.cli;

import io.gitfn.api.GoDuration;
import io.gitfn.local.LocalException;
import io.gitfn.local.LocalMode;
import io.gitfn.local.LocalSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code gitfn up <folder | git URL>}: the whole GitOps loop on this machine, with no cluster. */
@Command(name = "up", mixinStandardHelpOptions = true,
    description = {"Run every Function a folder or a Git repository declares, on this machine, behind one proxy at"
        + " http://localhost:<port>/<function>, and follow every change blue/green.",
        "A folder is watched for file changes; a Git URL is checked every --interval at --ref. Needs node for"
            + " Node.js Functions and python3 for Python ones. Ctrl-C stops every Function process."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:stopped with Ctrl-C", "1:the proxy could not start"})
final class UpCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "SOURCE", description = "A folder, or a Git URL (https, ssh, file).")
  String source;

  @Option(names = "--ref", paramLabel = "REF", description = "Branch, tag or commit of a Git URL (default: main).")
  String ref;

  @Option(names = "--path", paramLabel = "PATH", defaultValue = ".",
      description = "The folder with the Functions, relative to the source (default: ${DEFAULT-VALUE}).")
  String path;

  @Option(names = "--port", defaultValue = "8080", description = "The proxy's port (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--bind", defaultValue = "127.0.0.1",
      description = "The proxy's address (default: ${DEFAULT-VALUE}).")
  String bind;

  @Option(names = "--interval", defaultValue = "1s",
      description = "How often the folder or the branch is looked at (default: ${DEFAULT-VALUE}).")
  String interval;

  @Option(names = "--cache-dir", paramLabel = "DIR",
      description = "Runtimes, dependencies, builds and logs (default: $XDG_CACHE_HOME/gitfn/up or ~/.cache/gitfn/up).")
  Path cacheDir;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Duration every;
    try {
      every = GoDuration.parse(interval);
    } catch (IllegalArgumentException e) {
      throw new CommandException("--interval: " + e.getMessage());
    }
    LocalMode mode;
    try {
      mode = LocalMode.start(new LocalSettings(cache(), bind, port, every), out);
    } catch (LocalException e) {
      throw new CommandException(e.getMessage());
    }
    StopSignal signal = StopSignal.install("gitfn-up-stop");
    try (mode) {
      mode.follow(source, ref, path);
      signal.await();
      out.println("stopping every Function");
      out.flush();
    } finally {
      signal.closed();
    }
    return 0;
  }

  private Path cache() {
    return cacheDir != null ? cacheDir : CacheHome.of("up");
  }
}
