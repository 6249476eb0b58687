package io.gitfn.secrets.age;

import java.util.List;

/** One recipient stanza of an age header: {@code -> type args...} and its body, the wrapped file key. */
record Stanza(String type, List<String> args, byte[] body) {

  Stanza {
    args = List.copyOf(args);
  }
}
