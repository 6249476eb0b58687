package io.gitfn.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which container of an install Job's Pod the dashboard reads, since the API server asks when there are two. */
class BuildLogsTest {

  @Test
  void anInstallThatFailedIsReadFromItsInitContainer() {
    Pod pod = pod(List.of(terminated("install", 1)), List.of(waiting("pack")));

    assertThat(BuildLogs.container(pod)).isEqualTo("install");
  }

  @Test
  void aPackThatRunsOrFailedIsReadFromItsOwnContainer() {
    assertThat(BuildLogs.container(pod(List.of(terminated("install", 0)), List.of(running("pack")))))
        .isEqualTo("pack");
    assertThat(BuildLogs.container(pod(List.of(terminated("install", 0)), List.of(terminated("pack", 2)))))
        .isEqualTo("pack");
  }

  @Test
  void anInstallThatRunsIsReadFromTheInitContainerAndAPodNotStartedFromItsFirstContainer() {
    assertThat(BuildLogs.container(pod(List.of(running("install")), List.of(waiting("pack"))))).isEqualTo("install");
    assertThat(BuildLogs.container(pod(List.of(), List.of()))).isEqualTo("pack");
  }

  private static Pod pod(List<ContainerStatus> init, List<ContainerStatus> containers) {
    return new PodBuilder().withNewSpec().addNewInitContainer().withName("install").endInitContainer()
        .addNewContainer().withName("pack").endContainer().endSpec()
        .withNewStatus().withInitContainerStatuses(init).withContainerStatuses(containers).endStatus().build();
  }

  private static ContainerStatus terminated(String name, int exitCode) {
    return new ContainerStatusBuilder().withName(name).withNewState().withNewTerminated().withExitCode(exitCode)
        .endTerminated().endState().build();
  }

  private static ContainerStatus running(String name) {
    return new ContainerStatusBuilder().withName(name).withNewState().withNewRunning().endRunning().endState().build();
  }

  private static ContainerStatus waiting(String name) {
    return new ContainerStatusBuilder().withName(name).withNewState().withNewWaiting().withReason("PodInitializing")
        .endWaiting().endState().build();
  }
}
