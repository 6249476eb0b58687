package io.gitfn.cli;

import picocli.CommandLine.Command;

/** {@code gitfn rollback}: go back to an earlier revision, in Git or by a pin. */
@Command(name = "rollback", mixinStandardHelpOptions = true,
    description = "Roll a Function back to an earlier revision: a revert pushed to Git, or a pin to its image.",
    subcommands = {RollbackFunctionCommand.class})
final class RollbackCommand {}
