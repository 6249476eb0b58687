package io.gitfn.manifest;

import io.fabric8.kubernetes.api.model.AppArmorProfile;
import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.SELinuxOptions;
import io.fabric8.kubernetes.api.model.SeccompProfile;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Sysctl;
import io.fabric8.kubernetes.api.model.WindowsSecurityContextOptions;
import java.util.List;
import java.util.Set;

/**
 * The Pod Security Standard's {@code restricted} level, as it applies to what a Function may set in
 * {@code spec.podSecurityContext} and {@code spec.containerSecurityContext}. gitfn promises that every Function Pod
 * meets that level, so a setting that breaks it is refused here, with the rule it breaks, instead of becoming a
 * ReplicaSet event the author never sees when the namespace enforces the level.
 *
 * <p>The checks follow the fields the standard names (kubernetes.io/docs/concepts/security/pod-security-standards),
 * read with gitfn's merge in mind: a field the Function leaves unset takes gitfn's default, which meets the level,
 * and a {@code capabilities} it sets replaces the default whole, so it must drop ALL itself.
 */
final class RestrictedPodSecurity {

  static final String POD = "spec.podSecurityContext";
  static final String CONTAINER = "spec.containerSecurityContext";

  /** Baseline's safe sysctls, which restricted keeps. */
  private static final Set<String> SAFE_SYSCTLS = Set.of(
      "kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range", "net.ipv4.ip_unprivileged_port_start",
      "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range", "net.ipv4.ip_local_reserved_ports",
      "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl",
      "net.ipv4.tcp_keepalive_probes");
  private static final Set<String> SELINUX_TYPES =
      Set.of("container_t", "container_init_t", "container_kvm_t", "container_engine_t");
  private static final Set<String> SECCOMP_TYPES = Set.of("RuntimeDefault", "Localhost");

  private RestrictedPodSecurity() {}

  static void check(PodSecurityContext pod, SecurityContext container, List<Violation> violations) {
    if (pod != null) {
      checkPod(pod, violations);
    }
    if (container != null) {
      checkContainer(container, violations);
    }
  }

  private static void checkPod(PodSecurityContext pod, List<Violation> violations) {
    checkIdentity(POD, pod.getRunAsNonRoot(), pod.getRunAsUser(), violations);
    checkSeccomp(POD, pod.getSeccompProfile(), violations);
    checkSeLinux(POD, pod.getSeLinuxOptions(), violations);
    checkAppArmor(POD, pod.getAppArmorProfile(), violations);
    checkWindows(POD, pod.getWindowsOptions(), violations);
    List<Sysctl> sysctls = pod.getSysctls() == null ? List.of() : pod.getSysctls();
    for (int i = 0; i < sysctls.size(); i++) {
      String name = sysctls.get(i).getName();
      if (!SAFE_SYSCTLS.contains(name)) {
        violations.add(breaks(POD + ".sysctls[" + i + "].name", "`" + name + "` is not one of the safe sysctls "
            + String.join(", ", SAFE_SYSCTLS.stream().sorted().toList())));
      }
    }
  }

  private static void checkContainer(SecurityContext container, List<Violation> violations) {
    if (Boolean.TRUE.equals(container.getPrivileged())) {
      violations.add(breaks(CONTAINER + ".privileged", "a privileged container"));
    }
    if (Boolean.TRUE.equals(container.getAllowPrivilegeEscalation())) {
      violations.add(breaks(CONTAINER + ".allowPrivilegeEscalation", "privilege escalation must be off"));
    }
    checkIdentity(CONTAINER, container.getRunAsNonRoot(), container.getRunAsUser(), violations);
    checkCapabilities(container.getCapabilities(), violations);
    checkSeccomp(CONTAINER, container.getSeccompProfile(), violations);
    checkSeLinux(CONTAINER, container.getSeLinuxOptions(), violations);
    checkAppArmor(CONTAINER, container.getAppArmorProfile(), violations);
    checkWindows(CONTAINER, container.getWindowsOptions(), violations);
    if (container.getProcMount() != null && !container.getProcMount().equals("Default")) {
      violations.add(breaks(CONTAINER + ".procMount", "only Default is allowed"));
    }
  }

  private static void checkIdentity(String at, Boolean runAsNonRoot, Long runAsUser, List<Violation> violations) {
    if (Boolean.FALSE.equals(runAsNonRoot)) {
      violations.add(breaks(at + ".runAsNonRoot", "containers must run as a non-root user"));
    }
    if (runAsUser != null && runAsUser == 0) {
      violations.add(breaks(at + ".runAsUser", "user 0 is root"));
    }
  }

  private static void checkCapabilities(Capabilities capabilities, List<Violation> violations) {
    if (capabilities == null) {
      return;
    }
    List<String> drop = capabilities.getDrop() == null ? List.of() : capabilities.getDrop();
    if (!drop.contains("ALL")) {
      violations.add(breaks(CONTAINER + ".capabilities.drop", "it must hold ALL (capabilities set here replace"
          + " gitfn's default, which drops ALL)"));
    }
    List<String> add = capabilities.getAdd() == null ? List.of() : capabilities.getAdd();
    for (int i = 0; i < add.size(); i++) {
      if (!add.get(i).equals("NET_BIND_SERVICE")) {
        violations.add(breaks(CONTAINER + ".capabilities.add[" + i + "]",
            "`" + add.get(i) + "` may not be added; only NET_BIND_SERVICE may"));
      }
    }
  }

  private static void checkSeccomp(String at, SeccompProfile profile, List<Violation> violations) {
    if (profile != null && profile.getType() != null && !SECCOMP_TYPES.contains(profile.getType())) {
      violations.add(breaks(at + ".seccompProfile.type", "`" + profile.getType()
          + "` is not RuntimeDefault or Localhost"));
    }
  }

  private static void checkSeLinux(String at, SELinuxOptions options, List<Violation> violations) {
    if (options == null) {
      return;
    }
    if (options.getType() != null && !options.getType().isEmpty() && !SELINUX_TYPES.contains(options.getType())) {
      violations.add(breaks(at + ".seLinuxOptions.type", "`" + options.getType() + "` is not one of "
          + String.join(", ", SELINUX_TYPES.stream().sorted().toList())));
    }
    if (options.getUser() != null && !options.getUser().isEmpty()) {
      violations.add(breaks(at + ".seLinuxOptions.user", "a custom SELinux user"));
    }
    if (options.getRole() != null && !options.getRole().isEmpty()) {
      violations.add(breaks(at + ".seLinuxOptions.role", "a custom SELinux role"));
    }
  }

  private static void checkAppArmor(String at, AppArmorProfile profile, List<Violation> violations) {
    if (profile != null && "Unconfined".equals(profile.getType())) {
      violations.add(breaks(at + ".appArmorProfile.type", "Unconfined"));
    }
  }

  private static void checkWindows(String at, WindowsSecurityContextOptions options, List<Violation> violations) {
    if (options != null && Boolean.TRUE.equals(options.getHostProcess())) {
      violations.add(breaks(at + ".windowsOptions.hostProcess", "a host process"));
    }
  }

  private static Violation breaks(String field, String why) {
    return new Violation(field, "breaks the Pod Security restricted level that every Function Pod keeps: " + why);
  }
}
