package io.gitfn.reconcile;

import io.gitfn.api.function.FunctionProgress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The newest progress of each Function, as its last pass left it, and the wake-up of its FunctionRepository when
 * that progress moves. A Function pass reports here before its status write reaches the API server, so a
 * repository pass woken by it could list the Function's older status; it takes the board's word instead, as long
 * as the board speaks of the same generation or a newer one. A Function whose generation moved, or that is gone,
 * wakes its repository too: that is how a hand edit is set back at once.
 */
final class FunctionProgressBoard {

  private final Map<String, FunctionProgress> newest = new ConcurrentHashMap<>();
  private final Consumer<String> wakeRepository;

  /** @param wakeRepository called with a {@code gitfn.io/repository} label value */
  FunctionProgressBoard(Consumer<String> wakeRepository) {
    this.wakeRepository = wakeRepository;
  }

  /**
   * Records what a pass leaves; wakes {@code repository} (a label value, or null for a Function of no repository)
   * when the phase or reason moved from {@code before}, what the Function's status said when the pass began.
   */
  void report(FunctionProgress before, FunctionProgress after, String repository) {
    if (repository == null) {
      return; // no repository reads it
    }
    FunctionProgress previous = newest.put(key(after.namespace(), after.name()), after);
    if (after.movedFrom(previous == null ? before : previous)) {
      wakeRepository.accept(repository);
    }
  }

  /** The Function is gone; {@code repository} (a label value, or null) is woken, as it may want it back. */
  void forget(String namespace, String name, String repository) {
    newest.remove(key(namespace, name));
    if (repository != null) {
      wakeRepository.accept(repository);
    }
  }

  /** The board's progress for a Function the API server listed, when it is as new; otherwise the listed one. */
  FunctionProgress newest(FunctionProgress listed) {
    FunctionProgress known = newest.get(key(listed.namespace(), listed.name()));
    return known != null && known.generation() >= listed.generation() ? known : listed;
  }

  /** What the Function's last pass reported, if it reported since this controller started. */
  Optional<FunctionProgress> known(String namespace, String name) {
    return Optional.ofNullable(newest.get(key(namespace, name)));
  }

  private static String key(String namespace, String name) {
    return namespace + "/" + name;
  }
}
