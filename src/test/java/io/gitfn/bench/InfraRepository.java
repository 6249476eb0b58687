package io.gitfn.bench;

import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.RunningGitServers;
import io.gitfn.testbed.git.WorkingCopy;
import java.io.IOException;

/**
 * An infra repository on the test Git server holding inline Functions under {@value #FOLDER}/, one file each, and a
 * clone to change it through.
 */
final class InfraRepository {

  static final String FOLDER = "functions";

  private final String url;
  private final WorkingCopy copy;

  private InfraRepository(String url, WorkingCopy copy) {
    this.url = url;
    this.copy = copy;
  }

  static InfraRepository create(RunningGitServers servers, String name) throws IOException {
    BareRepository repository = servers.repositories().create(name);
    String url = servers.http().url(repository.name());
    return new InfraRepository(url, servers.newClient(name).clone(url));
  }

  String url() {
    return url;
  }

  /** Writes {@code functions/<name>.yaml}: a nodejs22 Function whose inline source returns {@code version}. */
  InfraRepository write(String name, String version) throws IOException {
    copy.write(FOLDER + "/" + name + ".yaml", manifest(name, version));
    return this;
  }

  /** A nodejs22 Function named {@code name} whose inline source returns {@code "<name> <version>"}. */
  static String manifest(String name, String version) {
    return """
        apiVersion: serverless.kyma-project.io/v1alpha2
        kind: Function
        metadata:
          name: %s
        spec:
          runtime: nodejs22
          source:
            inline:
              source: |
                module.exports = { main: () => "%s %s" };
        """.formatted(name, name, version);
  }

  /** Commits every change and pushes it; returns the commit's SHA. */
  String push(String message) {
    String sha = copy.commit(message);
    copy.push();
    return sha;
  }

  /** Pushes a {@code git revert} of the newest commit; returns the revert's SHA. */
  String pushRevertOfHead() {
    copy.git("revert", "--no-edit", "HEAD");
    copy.push();
    return copy.head();
  }
}
