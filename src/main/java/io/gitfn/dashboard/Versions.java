package io.gitfn.dashboard;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A page's version: a digest of the record it is rendered from, equal for equal pages, so that a browser asking
 * again is told "unchanged" (304) and neither the page nor its rendering travels. The record is written as JSON,
 * which holds every field of its records and of the API's beans alike (not every bean prints its fields).
 */
final class Versions {

  // With the java.time module (fabric8 brings it) for the Instants some records hold.
  private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();

  static String of(Record page) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(JSON.writeValueAsBytes(page));
      return HexFormat.of().formatHex(digest, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a page's record cannot be written as JSON", e);
    }
  }

  private Versions() {}
}
