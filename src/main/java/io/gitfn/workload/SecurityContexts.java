package io.gitfn.workload;

import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.gitfn.api.function.Function;
import java.util.Objects;

/**
 * The security contexts a Function's Pod and container run with: the Function's {@code spec.podSecurityContext}
 * and {@code spec.containerSecurityContext} field by field, and gitfn's defaults for every field they leave unset,
 * as Kyma merges them. The defaults meet the Pod Security {@code restricted} level, and the manifest's rules refuse
 * a Function's setting that would not, so the result always does.
 *
 * <p>Who runs the process (user, group, seccomp) is the Pod's to say, so the container's defaults leave it out: a
 * Function that sets {@code podSecurityContext.runAsUser} gets that user.
 */
public final class SecurityContexts {

  /** The user and group Functions run as when they name none; the images' files are readable by any user. */
  public static final long RUN_AS = 10001L;

  private SecurityContexts() {}

  public static PodSecurityContext pod(Function fn) {
    return pod(fn.getSpec().getPodSecurityContext());
  }

  /** {@code given} with gitfn's defaults for what it leaves unset; {@code null} gives the defaults alone. */
  public static PodSecurityContext pod(PodSecurityContext given) {
    PodSecurityContextBuilder merged = new PodSecurityContextBuilder(
        Objects.requireNonNullElseGet(given, PodSecurityContext::new));
    if (merged.getRunAsUser() == null) {
      merged.withRunAsUser(RUN_AS);
    }
    if (merged.getRunAsGroup() == null) {
      merged.withRunAsGroup(RUN_AS);
    }
    if (merged.getRunAsNonRoot() == null) {
      merged.withRunAsNonRoot(true);
    }
    if (!merged.hasSeccompProfile()) {
      merged.withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile();
    }
    return merged.build();
  }

  public static SecurityContext container(Function fn) {
    return container(fn.getSpec().getContainerSecurityContext());
  }

  /** {@code given} with gitfn's defaults for what it leaves unset; {@code null} gives the defaults alone. */
  public static SecurityContext container(SecurityContext given) {
    SecurityContextBuilder merged = new SecurityContextBuilder(
        Objects.requireNonNullElseGet(given, SecurityContext::new));
    if (merged.getPrivileged() == null) {
      merged.withPrivileged(false);
    }
    if (merged.getAllowPrivilegeEscalation() == null) {
      merged.withAllowPrivilegeEscalation(false);
    }
    if (merged.getReadOnlyRootFilesystem() == null) {
      merged.withReadOnlyRootFilesystem(true);
    }
    if (!merged.hasCapabilities()) {
      merged.withNewCapabilities().withDrop("ALL").endCapabilities();
    }
    return merged.build();
  }
}
