package io.gitfn.api.function;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How gitfn authenticates to a Function's Git repository. */
public enum AuthType {
  /** A username with a password or token, over HTTPS. */
  @JsonProperty("basic")
  BASIC,
  /** An SSH private key. */
  @JsonProperty("key")
  KEY
}
