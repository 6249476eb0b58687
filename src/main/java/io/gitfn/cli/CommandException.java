package io.gitfn.cli;

/** A command cannot do what was asked; its message is the one line the user sees after {@code Error: }. */
final class CommandException extends RuntimeException {

  CommandException(String message) {
    super(message);
  }

  static CommandException notFound(String kind, String name, String namespace) {
    return new CommandException(kind + " \"" + name + "\" not found in namespace \"" + namespace + "\"");
  }
}
