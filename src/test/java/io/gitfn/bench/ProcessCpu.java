package io.gitfn.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** The CPU time a process has used, user and system, as the kernel counts it in {@code /proc/<pid>/stat}. */
final class ProcessCpu {

  /** Linux's USER_HZ, the unit of the stat file's times, is 100 on every architecture the JDK runs on. */
  private static final long MILLIS_PER_TICK = 10;

  private ProcessCpu() {}

  static Duration of(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    // Field 2, the command name, is in parentheses and may hold spaces; the fields after it are plain numbers.
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime and stime, fields 14 and 15
    return Duration.ofMillis(ticks * MILLIS_PER_TICK);
  }

  /** VmRSS of {@code /proc/<pid>/status}, in MiB. */
  static double rssMib(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
      }
    }
    throw new IOException("no VmRSS in /proc/" + pid + "/status");
  }
}
