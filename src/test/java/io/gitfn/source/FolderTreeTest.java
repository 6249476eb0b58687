package io.gitfn.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A local folder read as a commit would be: links listed, not followed, and nothing outside the folder. */
class FolderTreeTest {

  @TempDir Path folder;

  @Test
  void listsFilesAndSymlinksRelativeToTheRootWithoutGitMetadata() throws Exception {
    Files.createDirectories(folder.resolve("functions/a"));
    Files.createDirectories(folder.resolve(".git"));
    Files.writeString(folder.resolve(".git/config"), "x");
    Files.writeString(folder.resolve("functions/a/handler.js"), "v1");
    Files.createSymbolicLink(folder.resolve("functions/link.js"), Path.of("a/handler.js"));
    Files.createSymbolicLink(folder.resolve("functions/passwd"), Path.of("/etc/passwd"));
    FolderTree tree = new FolderTree(folder);

    assertThat(tree.list("")).containsExactly("functions/a/handler.js", "functions/link.js", "functions/passwd");
    assertThat(tree.list("functions/a")).containsExactly("functions/a/handler.js");
    assertThat(tree.symlinkTarget("functions/link.js")).contains("a/handler.js");
    assertThat(tree.symlinkTarget("functions/a/handler.js")).isEmpty();
    assertThat(tree.read("functions/passwd")).asString().isEqualTo("/etc/passwd");
    assertThat(tree.read("functions/a/handler.js")).asString().isEqualTo("v1");
  }

  @Test
  void refusesPathsThatLeaveTheFolder() throws Exception {
    FolderTree tree = new FolderTree(folder);

    assertThatThrownBy(() -> tree.read("../outside.txt")).hasMessageContaining("leaves the folder");
    assertThatThrownBy(() -> tree.list("..")).hasMessageContaining("leaves the folder");
  }
}
