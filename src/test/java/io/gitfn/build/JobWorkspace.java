package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The build context as a build Job's container sees it under {@link BuildJobSpec#WORKSPACE}, written into a folder
 * of this machine from the Job's volumes and mounts and the ConfigMap's data, for tests that build without a
 * cluster ({@code DockerfileRehearsalIT}, {@code BuildahBuildIT}).
 */
final class JobWorkspace {

  private JobWorkspace() {
  }

  /**
   * Writes each mounted file where the Job's mounts put it: mountPath from the item whose path is the subPath, and
   * a Secret volume's items below its mountPath. Mounts outside the workspace (push credentials, storage) are
   * left out. Fails when a key of the ConfigMap is not mounted.
   *
   * @param secretData the package-registry Secret's data, for a Job that mounts one
   */
  static void materialise(Job job, ConfigMap configMap, Map<String, String> secretData, Path workspace)
      throws IOException {
    PodSpec pod = job.getSpec().getTemplate().getSpec();
    Map<String, Volume> volumes = new LinkedHashMap<>();
    pod.getVolumes().forEach(v -> volumes.put(v.getName(), v));
    Volume context = volumes.get("context");
    assertThat(context.getConfigMap().getName()).isEqualTo(configMap.getMetadata().getName());
    int written = 0;
    for (VolumeMount mount : pod.getContainers().get(0).getVolumeMounts()) {
      if (!mount.getMountPath().startsWith(BuildJobSpec.WORKSPACE + "/")) {
        continue;
      }
      Path at = workspace.resolve(mount.getMountPath().substring(BuildJobSpec.WORKSPACE.length() + 1));
      Volume volume = volumes.get(mount.getName());
      if (volume.getConfigMap() != null) {
        KeyToPath item = volume.getConfigMap().getItems().stream().filter(i -> i.getPath().equals(mount.getSubPath()))
            .findFirst().orElseThrow(() -> new AssertionError("no item for subPath " + mount.getSubPath()));
        write(at, configMap.getData().get(item.getKey()));
        written++;
      } else {
        for (KeyToPath item : volume.getSecret().getItems()) {
          write(at.resolve(item.getPath()), secretData.get(item.getKey()));
        }
      }
    }
    assertThat(written).as("every key of the ConfigMap is mounted").isEqualTo(configMap.getData().size());
  }

  private static void write(Path file, String content) throws IOException {
    assertThat(content).as("content of " + file).isNotNull();
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
    // A ConfigMap volume's files have mode 0644 (defaultMode).
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
  }
}
