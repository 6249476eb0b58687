package io.gitfn.cli;

import picocli.CommandLine.Command;

/** {@code gitfn suspend}: stop applying until resumed. */
@Command(name = "suspend", mixinStandardHelpOptions = true,
    description = "Stop applying a FunctionRepository; its status keeps reporting Git.",
    subcommands = {SuspendRepositoryCommand.class})
final class SuspendCommand {}
