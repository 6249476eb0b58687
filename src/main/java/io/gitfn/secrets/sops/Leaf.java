package io.gitfn.secrets.sops;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One value of the tree as sops sees it: what goes into the decrypted document, and the bytes it adds to the MAC
 * ({@code ToBytes} in sops' {@code sops.go}), or null for a YAML null, which sops' walk skips. Holds plaintext, so
 * {@link #toString()} does not print it.
 */
record Leaf(JsonNode value, byte[] macBytes) {

  @Override
  public String toString() {
    return "Leaf[" + value.getNodeType() + ", (hidden)]";
  }
}
