package io.gitfn.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine;

/** The {@code gitfn} command line. */
@Command(
    name = "gitfn",
    mixinStandardHelpOptions = true,
    versionProvider = VersionCommand.Provider.class,
    description = "A GitOps reconciler for serverless Functions on Kubernetes.",
    subcommands = {VersionCommand.class, UpCommand.class, RenderCommand.class, ControllerCommand.class, GetCommand.class,
        ReconcileCommand.class, SuspendCommand.class, ResumeCommand.class, HistoryCommand.class, DiffCommand.class,
        RollbackCommand.class, PackCommand.class})
public final class Main implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(new CommandLine(new Main()).execute(args));
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
