package io.gitfn.testbed.realnode;

import java.nio.file.Path;

/**
 * hello.c, compiled static, in an image of its own, pushed once per node as {@code tests/hello:1}: the smallest Pod
 * that answers HTTP, for tests of the node itself (its network, its ingress controller) rather than of gitfn.
 */
final class HelloImage {

  private static String pushed;

  private HelloImage() {}

  /** The image's reference in {@code node}'s registry; built and pushed on the first call for that node. */
  static synchronized String on(RealNode node) {
    if (pushed == null || !pushed.startsWith(node.registry() + "/")) {
      Path images = node.runDirectory().resolve("images");
      Path archive = OciArchive.image("tests/hello:1")
          .file("hello", StaticBinary.compile(HelloImage.class, "hello.c", images.resolve("hello")), 0755)
          .entrypoint("/hello")
          .writeTo(images.resolve("hello.tar"));
      node.pushImage(archive, "tests/hello:1");
      pushed = node.registry() + "/tests/hello:1";
    }
    return pushed;
  }
}
