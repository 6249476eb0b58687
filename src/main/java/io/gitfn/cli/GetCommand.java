package io.gitfn.cli;

import picocli.CommandLine.Command;

/** {@code gitfn get}: kubectl-like listings of gitfn's kinds. */
@Command(name = "get", mixinStandardHelpOptions = true,
    description = "Show FunctionRepositories or Functions as a table, YAML or JSON.",
    subcommands = {GetRepositoriesCommand.class, GetFunctionsCommand.class, GetPreviewsCommand.class})
final class GetCommand {}
