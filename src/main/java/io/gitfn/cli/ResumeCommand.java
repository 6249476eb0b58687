package io.gitfn.cli;

import picocli.CommandLine.Command;

/** {@code gitfn resume}: apply again what was suspended. */
@Command(name = "resume", mixinStandardHelpOptions = true,
    description = "Resume a suspended FunctionRepository and reconcile it at once.",
    subcommands = {ResumeRepositoryCommand.class})
final class ResumeCommand {}
