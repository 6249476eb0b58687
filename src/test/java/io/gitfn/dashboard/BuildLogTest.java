package io.gitfn.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What a build printed, made fit for a page: whatever the tenant's scripts wrote, bounded and plain. */
class BuildLogTest {

  @Test
  void terminalColoursTitlesAndControlCharactersAreDropped() {
    BuildLog log = of("\u001B[31mnpm error\u001B[0m 404\n\u001B]0;title\u0007done\u0000\u0008\tok\n");

    assertThat(log.lines()).containsExactly("npm error 404", "done\tok");
    assertThat(log.cut()).isFalse();
  }

  @Test
  void aProgressBarShowsItsLastStateAsATerminalWould() {
    assertThat(of("[    ] 0%\r[==  ] 50%\r[====] 100%\nnext\n").lines()).containsExactly("[====] 100%", "next");
  }

  @Test
  void moreBytesThanTheLimitAreCutAndSaidToBe() {
    BuildLog log = BuildLog.of("pod", "a\nbbbbbbbbbb".getBytes(StandardCharsets.UTF_8), 5);

    assertThat(log.cut()).isTrue();
    assertThat(log.lines()).containsExactly("a", "bbb");
  }

  @Test
  void aLineLongerThanAPageCanHoldIsCut() {
    BuildLog log = of("x".repeat(BuildLog.LINE * 3));

    assertThat(log.lines()).singleElement().satisfies(line -> assertThat(line).hasSize(BuildLog.LINE + 1)
        .endsWith("…"));
  }

  @Test
  void bytesThatAreNotUtf8AndAHalfCharacterAtTheLimitDoNotBreakIt() {
    byte[] bytes = {'o', 'k', (byte) 0xff, (byte) 0xc3, '\n', (byte) 0xe2, (byte) 0x82};

    assertThat(BuildLog.of("pod", bytes, bytes.length).lines()).containsExactly("ok\uFFFD\uFFFD", "\uFFFD");
  }

  @Test
  void aMegabyteOfUnfinishedEscapeSequencesIsReadInOnePass() {
    String hostile = ("\u001B[" + "0".repeat(1000)).repeat(1000) + "\u001B]" + "t".repeat(100_000);

    BuildLog log = of(hostile);

    assertThat(log.lines()).singleElement().satisfies(line -> assertThat(line).startsWith("[000"));
  }

  private static BuildLog of(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    return BuildLog.of("pod", bytes, bytes.length);
  }
}
