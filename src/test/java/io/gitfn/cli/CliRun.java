package io.gitfn.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One {@code gitfn} command run in this JVM, as a user would type it: its exit code and what it printed. */
record CliRun(int exitCode, String out, String err) {

  static CliRun of(String... arguments) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine command = new CommandLine(new Main());
    command.setOut(new PrintWriter(out));
    command.setErr(new PrintWriter(err));
    int exitCode = command.execute(arguments);
    return new CliRun(exitCode, out.toString(), err.toString());
  }
}
