package io.gitfn.dashboard;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The last lines a build Job's Pod wrote, as a page shows them. A build runs the tenant's install scripts, so the
 * text is whatever they print: it is read up to a byte limit, decoded leniently, rid of terminal escapes and other
 * control characters, and each line cut to {@value #LINE} characters. Escaping for HTML is the template's job.
 *
 * @param pod the Pod it came from, or null when there is none to show
 * @param lines the lines, oldest first
 * @param cut whether the Pod wrote more than was read: the limit cut the end off
 * @param missing why there is no log to show, or null when there is one
 */
public record BuildLog(String pod, List<String> lines, boolean cut, String missing) {

  static final int LINE = 2000;
  // Colour, cursor and title sequences of terminals (CSI and OSC), which npm and pip print when they think they can.
  // Possessive: the classes do not overlap, so nothing is worth trying again, and an unfinished sequence costs one
  // look at each of its characters.
  private static final Pattern ESCAPES =
      Pattern.compile("\u001B\\[[0-?]*+[ -/]*+[@-~]|\u001B\\][^\u0007\u001B]*+(\u0007|\u001B\\\\)?");
  private static final Pattern CONTROLS = Pattern.compile("[\\p{Cntrl}&&[^\t]]");

  /**
   * The log of {@code pod} from the bytes read of it.
   *
   * @param limit the most bytes asked for; more in {@code read} means there was more, and only the limit is kept
   */
  static BuildLog of(String pod, byte[] read, int limit) {
    boolean cut = read.length > limit;
    String text = new String(read, 0, Math.min(read.length, limit), StandardCharsets.UTF_8);
    List<String> lines = new ArrayList<>();
    for (String line : text.split("\n", -1)) {
      // A progress bar rewrites its line after each carriage return: a terminal would show the last one.
      String shown = line.substring(line.lastIndexOf('\r') + 1);
      shown = CONTROLS.matcher(ESCAPES.matcher(shown).replaceAll("")).replaceAll("");
      lines.add(Texts.cut(shown, LINE));
    }
    if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      lines.remove(lines.size() - 1); // the newline that ends the last line
    }
    return new BuildLog(pod, List.copyOf(lines), cut, null);
  }

  /** No log to show, and why. */
  static BuildLog missing(String why) {
    return new BuildLog(null, List.of(), false, Texts.cut(why, LINE));
  }

  /** The lines as plain text, one per line. */
  public String text() {
    return lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
  }
}
