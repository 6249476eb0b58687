package io.gitfn.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * A command that talks to a cluster with kubectl's options: {@code --kubeconfig}, {@code --context} and
 * {@code -n}. A failure is one line on stderr and exit code 1, never a stack trace.
 */
abstract class ClusterCommand implements Callable<Integer> {

  static final int FAILED = 1;

  @Mixin KubeOptions kube;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NS",
      description = "The namespace (default: the kubeconfig context's namespace, else default).")
  String namespace;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Does the work; returns the exit code, or throws {@link CommandException} to fail with its message. */
  abstract int run(KubernetesClient client, String namespace) throws InterruptedException;

  @Override
  public final Integer call() throws InterruptedException {
    try (KubernetesClient client = kube.client()) {
      return run(client, namespace(client));
    } catch (CommandException e) {
      return fail(e.getMessage());
    } catch (KubernetesClientException e) {
      return fail(oneLine(e));
    } catch (UncheckedIOException e) {
      return fail(e.getCause().getMessage());
    } catch (RuntimeException e) {
      return fail(e.getMessage() == null ? e.toString() : e.getMessage());
    }
  }

  /** The exit code of a failure; 1 unless the command gives its exit codes other meanings. */
  int failureExitCode() {
    return FAILED;
  }

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  /** A line for the person, not for a pipe: it goes to stderr. */
  void note(String line) {
    spec.commandLine().getErr().println(line);
    spec.commandLine().getErr().flush();
  }

  private String namespace(KubernetesClient client) {
    if (namespace != null) {
      return namespace;
    }
    return client.getNamespace() == null ? "default" : client.getNamespace();
  }

  private int fail(String message) {
    PrintWriter err = spec.commandLine().getErr();
    err.println("Error: " + message.strip().lines().findFirst().orElse(""));
    err.flush();
    return failureExitCode();
  }

  private static String oneLine(KubernetesClientException e) {
    if (e.getStatus() != null && e.getStatus().getMessage() != null) {
      return e.getStatus().getMessage();
    }
    // fabric8 wraps connection failures; the cause says which host could not be reached.
    Throwable cause = e.getCause() == null ? e : e.getCause();
    return e.getMessage() + (cause != e && cause.getMessage() != null ? ": " + cause.getMessage() : "");
  }
}
