package io.gitfn.cli;

import picocli.CommandLine.Command;

/** {@code gitfn history}: what was applied, when, and what it changed. */
@Command(name = "history", mixinStandardHelpOptions = true,
    description = "Show the latest syncs of a FunctionRepository, or builds and rollouts of a Function.",
    subcommands = {HistoryRepositoryCommand.class, HistoryFunctionCommand.class})
final class HistoryCommand {}
