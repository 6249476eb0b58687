package io.gitfn.bench;

import io.gitfn.source.GitCredentials;
import io.gitfn.source.Mirror;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.RefSelector;
import io.gitfn.source.RepositoryUrl;
import io.gitfn.source.Revision;
import io.gitfn.source.SourceSettings;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Fetches one repository into a new mirror in a JVM of its own, started with a small heap by
 * {@link SourcesBenchmark}, and prints the peak heap the JVM used: {@code peak-heap-bytes <n>}.
 *
 * <p>Arguments: URL, username, password, branch, max repository bytes.
 */
public final class FetchProbe {

  public static void main(String[] args) throws Exception {
    List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(p -> p.getType() == MemoryType.HEAP).toList();
    heap.forEach(MemoryPoolMXBean::resetPeakUsage);
    Path cache = Files.createTempDirectory("gitfn-fetch-probe");
    SourceSettings settings = SourceSettings.defaults(cache).withMaxRepositoryBytes(Long.parseLong(args[4]));
    try (MirrorCache mirrors = new MirrorCache(settings)) {
      Mirror mirror = mirrors.mirror(RepositoryUrl.parse(args[0]), new GitCredentials.Basic(args[1], args[2]));
      Revision revision = mirror.resolve(new RefSelector.Branch(args[3]));
      mirror.ensure(List.of(revision));
      System.out.println("repository-bytes " + mirrors.diskUsage());
    }
    long peak = heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
    System.out.println("peak-heap-bytes " + peak);
  }

  private FetchProbe() {}
}
