package io.gitfn.testbed.git;

import java.util.Objects;
import java.util.UUID;
import org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider;

/** The one user the test HTTP Git server accepts. */
public record HttpCredentials(String username, String password) {

  public HttpCredentials {
    Objects.requireNonNull(username, "username");
    Objects.requireNonNull(password, "password");
  }

  /** A user with a password nobody can guess, new for each test JVM. */
  public static HttpCredentials random(String username) {
    return new HttpCredentials(username, UUID.randomUUID().toString());
  }

  /** These credentials for a JGit command. */
  public UsernamePasswordCredentialsProvider forJGit() {
    return new UsernamePasswordCredentialsProvider(username, password);
  }

  @Override
  public String toString() {
    return "HttpCredentials[username=" + username + ", password=***]";
  }
}
