package io.gitfn.notify;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gitfn.notify.SendResult.Outcome;
import java.io.IOException;
import java.util.Objects;

/**
 * Sends a request to a forge through the {@link CommitStatusSender} and reads its JSON answer, or says in a
 * {@link ForgeException} why there is none to read: the forge refused, did not answer, or said too much.
 */
final class ForgeReader {

  /**
   * The most of one answer that is read: a page of 50 GitHub pull requests is about 1.5 MiB (each carries its head
   * and base repositories whole), a page of 100 comments at GitHub's 64 KiB limit each could be more, and is then
   * refused rather than held.
   */
  static final int READ_LIMIT = 4 * 1024 * 1024;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final CommitStatusSender sender;

  ForgeReader(CommitStatusSender sender) {
    this.sender = Objects.requireNonNull(sender, "sender");
  }

  /** A page of the answer with the headers that say whether another follows. */
  record Page(ForgeAnswer answer, JsonAnswer json) {}

  /** Sends {@code request} and reads its JSON answer; a refusal, no answer or an unusable one is thrown. */
  Page read(ForgeRequest request) {
    ForgeAnswer answer = sender.exchange(request, READ_LIMIT);
    SendResult result = answer.result();
    if (result.outcome() != Outcome.SENT) {
      throw ForgeException.failed(request, result);
    }
    if (answer.cut()) {
      // Cut JSON would parse as an error at best, as a shorter list at worst: neither is the forge's answer.
      throw ForgeException.unusable(request.named() + " answered", result.statusCode(),
          "the answer is larger than " + READ_LIMIT / (1024 * 1024) + " MiB, which gitfn does not read");
    }
    try {
      JsonNode json = JSON.readTree(answer.body());
      if (json == null || json.isMissingNode()) {
        throw ForgeException.unusable(request.named() + " answered", result.statusCode(), "the answer is empty");
      }
      return new Page(answer, JsonAnswer.of(json, request, result.statusCode()));
    } catch (JsonProcessingException e) {
      throw ForgeException.unusable(request.named() + " answered", result.statusCode(),
          "the answer is not JSON: " + Excerpt.clean(e.getOriginalMessage()));
    } catch (IOException e) {
      throw new IllegalStateException("reading bytes in memory does not fail", e);
    }
  }
}
