package io.gitfn.dashboard;

import io.gitfn.api.function.AutoRollback;
import io.gitfn.api.function.FunctionHistoryEntry;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which version of a Function served when, from its history, laid out for a small chart: a band per version from
 * the moment it rolled out until the next one did, coloured by content key (in the order keys first served, so no
 * two keys share one) so that a key coming back (a revert, or gitfn's own rollback) comes back in its own colour,
 * and marks for builds that failed, versions that never rolled out, and the automatic rollback. Positions run from 0 to {@value #WIDTH}; the newest moment in the history is at
 * {@value #NEWEST}, and the band of the version serving now runs on to the edge.
 *
 * <p>It depends on the status alone, not on the clock, so that an unchanged Function's page stays the same page.
 */
public record Timeline(String from, String to, List<Band> bands, List<Mark> marks) {

  static final double WIDTH = 1000;
  static final double NEWEST = 900;
  /** As many as the history keeps entries: no two keys of one timeline share a colour. */
  static final int COLOURS = 10;
  // Narrower than this, a band's key would not fit in it.
  private static final double LABELLED = 70;
  private static final double THINNEST = 3;

  /** How a version came to serve. */
  public enum Origin {
    /** A key not served before in the history. */
    NEW,
    /** A key that served before: a revert, or a pin to an earlier revision. Nothing was built. */
    BACK,
    /** The key gitfn's automatic rollback put back. */
    ROLLED_BACK
  }

  /**
   * One version serving.
   *
   * @param until when the next version rolled out, or null while this one serves
   * @param colour which of {@value #COLOURS} colours its key has: the keys' order of first serving
   */
  public record Band(String key, String revision, String since, String until, double x, double width, int colour,
      Origin origin) {

    /** The key as the band shows it. */
    public String shortKey() {
      return key.length() > 7 ? key.substring(0, 7) : key;
    }

    /** Whether the band is wide enough to print its key. */
    public boolean labelled() {
      return width >= LABELLED;
    }

    public String css() {
      return "key-" + colour + switch (origin) {
        case NEW -> "";
        case BACK -> " back";
        case ROLLED_BACK -> " rolled-back";
      };
    }
  }

  /** Something that happened and served nothing. */
  public enum Event {
    BUILD_FAILED("build failed"),
    NOT_ROLLED_OUT("not rolled out"),
    ROLLED_BACK("rolled back");

    private final String words;

    Event(String words) {
      this.words = words;
    }

    public String words() {
      return words;
    }

    public String css() {
      return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
  }

  /**
   * @param detail the key or reason it is about
   */
  public record Mark(double x, Event event, String detail, String time) {}

  private record Dated(FunctionHistoryEntry entry, Instant time, Instant rolledOut) {}

  /**
   * @param history newest first, as {@code status.history} keeps it
   * @param rollback the automatic rollback holding the Function, or null
   */
  static Timeline of(List<FunctionHistoryEntry> history, AutoRollback rollback) {
    List<Dated> dated = new ArrayList<>();
    for (int i = history.size() - 1; i >= 0; i--) {
      FunctionHistoryEntry entry = history.get(i);
      Optional<Instant> time = instant(entry.getTime());
      if (time.isPresent() && entry.getContentKey() != null) {
        dated.add(new Dated(entry, time.get(), instant(entry.getRolledOut()).orElse(null)));
      }
    }
    Optional<Instant> rolledBack = rollback == null ? Optional.empty() : instant(rollback.getTime());
    List<Instant> moments = new ArrayList<>();
    dated.forEach(d -> {
      moments.add(d.time());
      if (d.rolledOut() != null) {
        moments.add(d.rolledOut());
      }
    });
    rolledBack.ifPresent(moments::add);
    if (moments.isEmpty()) {
      return new Timeline(null, null, List.of(), List.of());
    }
    Instant first = moments.stream().min(Instant::compareTo).orElseThrow();
    Instant last = moments.stream().max(Instant::compareTo).orElseThrow();
    Scale scale = new Scale(first, last);

    List<Dated> served = dated.stream().filter(d -> d.rolledOut() != null).toList();
    List<Band> bands = new ArrayList<>();
    // A key's colour, in the order keys first served; a key already here has served before.
    Map<String, Integer> colours = new HashMap<>();
    for (int i = 0; i < served.size(); i++) {
      Dated d = served.get(i);
      Instant until = i + 1 < served.size() ? served.get(i + 1).rolledOut() : null;
      double x = scale.x(d.rolledOut());
      double end = until == null ? WIDTH : scale.x(until);
      String key = d.entry().getContentKey();
      Origin origin = rollback != null && key.equals(rollback.getRestoredContentKey()) && rolledBack.isPresent()
          && !d.rolledOut().isBefore(rolledBack.get()) ? Origin.ROLLED_BACK
          : colours.containsKey(key) ? Origin.BACK : Origin.NEW;
      bands.add(new Band(key, d.entry().getRevision(), d.rolledOut().toString(),
          until == null ? null : until.toString(), x, Math.max(end - x, THINNEST),
          colours.computeIfAbsent(key, k -> colours.size() % COLOURS), origin));
    }

    List<Mark> marks = new ArrayList<>();
    for (int i = 0; i < dated.size(); i++) {
      Dated d = dated.get(i);
      boolean newest = i == dated.size() - 1;
      if ("Failed".equals(d.entry().getOutcome())) {
        marks.add(new Mark(scale.x(d.time()), Event.BUILD_FAILED, d.entry().getContentKey(), d.time().toString()));
      } else if (d.rolledOut() == null && !newest) {
        marks.add(new Mark(scale.x(d.time()), Event.NOT_ROLLED_OUT, d.entry().getContentKey(), d.time().toString()));
      }
    }
    rolledBack.ifPresent(at -> marks.add(new Mark(scale.x(at), Event.ROLLED_BACK,
        rollback.getFailedContentKey() + " " + rollback.getReason(), at.toString())));
    return new Timeline(first.toString(), last.toString(), List.copyOf(bands), List.copyOf(marks));
  }

  /** Whether there is anything to draw. */
  public boolean isEmpty() {
    return from == null;
  }

  private record Scale(Instant first, Instant last) {
    double x(Instant at) {
      long span = last.toEpochMilli() - first.toEpochMilli();
      return span == 0 ? 0 : Math.round((at.toEpochMilli() - first.toEpochMilli()) * NEWEST / span * 10) / 10.0;
    }
  }

  private static Optional<Instant> instant(String text) {
    if (text == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(text));
    } catch (DateTimeParseException e) {
      return Optional.empty(); // status is the controller's, but whoever may write it could write anything
    }
  }
}
