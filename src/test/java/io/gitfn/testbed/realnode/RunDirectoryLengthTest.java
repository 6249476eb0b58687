package io.gitfn.testbed.realnode;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** kubelet makes unix sockets under the real node's run directory, so its path has a length limit. */
class RunDirectoryLengthTest {

  @Test
  void theRunDirectoryThatBrokeCiIsRefusedBeforeAnythingStarts() {
    // CI's checkout, with the standalone node's old temporary name: kubelet failed to bind its pod-resources socket.
    Path dir = Path.of("/check/work/main/target/testbed/realnode-standalone-7255068704343932250");

    assertThatThrownBy(() -> RealNode.requireShortEnoughForSockets(dir))
        .hasMessageContaining(dir + " is too deep")
        .hasMessageContaining(dir + "/kubelet/root/pod-resources/kubelet.sock would be 111 bytes")
        .hasMessageContaining("at most 107");
  }

  @Test
  void todaysRunDirectoryNameLeavesRoomInThatCheckout() {
    assertThatCode(() -> RealNode.requireShortEnoughForSockets(Path.of("/check/work/main/target/testbed/realnode-a1b2c3")))
        .doesNotThrowAnyException();
  }
}
