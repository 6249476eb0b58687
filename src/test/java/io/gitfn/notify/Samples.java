package io.gitfn.notify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Optional;

/** Statuses, repositories and a JSON reader the notify tests share. */
final class Samples {

  static final String SHA = "0123456789abcdef0123456789abcdef01234567";
  static final String CONTEXT = "gitfn/shop/functions";
  static final String DESCRIPTION = "Applied 3 Functions";
  static final String TARGET = "https://gitfn.example/shop/functions";
  static final String TOKEN = "ghp_s3cretTokenValue1234";
  private static final ObjectMapper JSON = new ObjectMapper();

  private Samples() {}

  static CommitStatus status(CommitState state) {
    return new CommitStatus(SHA, state, CONTEXT, DESCRIPTION, TARGET);
  }

  static CommitStatus success() {
    return status(CommitState.SUCCESS);
  }

  static ForgeRepository repository(String url) {
    return ForgeRepository.of(url, Optional.empty(), Optional.empty());
  }

  static ForgeRepository repository(String url, Forge forge) {
    return ForgeRepository.of(url, Optional.of(forge), Optional.empty());
  }

  static ForgeRepository repository(String url, Forge forge, String api) {
    return ForgeRepository.of(url, Optional.of(forge), Optional.of(URI.create(api)));
  }

  static JsonNode json(ForgeRequest request) {
    return json(request.body());
  }

  /** A forge's answer to a GET, as the pull-request clients read it. */
  static JsonAnswer answer(String json) {
    return new JsonAnswer(json(json.getBytes(java.nio.charset.StandardCharsets.UTF_8)), "GET https://forge.example/x",
        "", 200);
  }

  static JsonNode json(byte[] body) {
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
