package io.gitfn.testbed.git;

import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Starts the test Git servers once per test JVM and hands tests what they need to use them.
 *
 * <p>Resolves {@link GitHttpServer}, {@link GitSshServer}, {@link HttpCredentials}, {@link
 * SshAccess}, a fresh {@link BareRepository} (served by both servers, new for every parameter)
 * and a fresh {@link GitClient} (its own home, new for every parameter).
 */
public final class GitServers implements ParameterResolver {

  private static final Namespace NAMESPACE = Namespace.create(GitServers.class);
  private static final Set<Class<?>> RESOLVED =
      Set.of(
          GitHttpServer.class,
          GitSshServer.class,
          HttpCredentials.class,
          SshAccess.class,
          BareRepository.class,
          GitClient.class);
  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return RESOLVED.contains(parameter.getParameter().getType());
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    RunningGitServers servers = running(context);
    try {
      if (type == GitHttpServer.class) {
        return servers.http();
      } else if (type == GitSshServer.class) {
        return servers.ssh();
      } else if (type == HttpCredentials.class) {
        return servers.http().credentials();
      } else if (type == SshAccess.class) {
        return servers.sshAccess();
      } else if (type == BareRepository.class) {
        return servers.repositories().create(uniqueName(context));
      } else {
        return servers.newClient(uniqueName(context));
      }
    } catch (Exception e) {
      throw new ParameterResolutionException("Cannot provide a " + type.getSimpleName(), e);
    }
  }

  // The root store lives as long as the test JVM's engine run, and closes its AutoCloseable values.
  private static RunningGitServers running(ExtensionContext context) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(RunningGitServers.class, type -> start(), RunningGitServers.class);
  }

  private static RunningGitServers start() {
    try {
      return RunningGitServers.start();
    } catch (Exception e) {
      throw new ParameterResolutionException("The test Git servers did not start", e);
    }
  }

  private static String uniqueName(ExtensionContext context) {
    String test = context.getTestMethod().map(m -> m.getName()).orElse("shared");
    return test + "-" + SEQUENCE.incrementAndGet();
  }
}
