package io.gitfn.cli;

import picocli.CommandLine.Command;

/** {@code gitfn reconcile}: ask the controller to act now rather than at the next interval. */
@Command(name = "reconcile", mixinStandardHelpOptions = true,
    description = "Ask the controller to check Git now and apply what it finds.",
    subcommands = {ReconcileRepositoryCommand.class, ReconcileFunctionCommand.class})
final class ReconcileCommand {}
