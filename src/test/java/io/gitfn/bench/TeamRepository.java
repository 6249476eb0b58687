package io.gitfn.bench;

import io.gitfn.testbed.git.BareRepositories;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.RunningGitServers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.TreeFormatter;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * A team's infra repository on the test Git server: inline Functions under {@value InfraRepository#FOLDER}/, each
 * named {@code <repository>-f<i>} so that the repositories of one namespace never collide. Commits are written
 * into the bare repository with JGit, not pushed: a thousand repositories are seeded in seconds, and what the
 * controllers fetch is the same.
 */
final class TeamRepository {

  private static final PersonIdent AUTHOR = new PersonIdent("bench", "bench@gitfn.io");

  private final String name;
  private final String url;
  private final Repository repository;
  private final Map<String, String> versions = new TreeMap<>();
  private ObjectId head;

  private TeamRepository(String name, String url, Repository repository) {
    this.name = name;
    this.url = url;
    this.repository = repository;
  }

  /** A repository of {@code functions} Functions at version {@code v1}, committed on {@code main}. */
  static TeamRepository create(RunningGitServers servers, String name, int functions) throws IOException {
    BareRepository bare = servers.repositories().create(name);
    Repository repository = new FileRepositoryBuilder().setGitDir(bare.directory().toFile()).build();
    TeamRepository team = new TeamRepository(name, servers.http().url(name), repository);
    IntStream.range(0, functions).forEach(i -> team.versions.put(team.function(i), "v1"));
    team.commit("seed " + name);
    return team;
  }

  String name() {
    return name;
  }

  String url() {
    return url;
  }

  List<String> functions() {
    return List.copyOf(versions.keySet());
  }

  String function(int i) {
    return name + "-f" + i;
  }

  /** Commits a new inline source for {@code function}; returns the commit's SHA. */
  String change(String function, String version) throws IOException {
    if (!versions.containsKey(function)) {
      throw new IllegalArgumentException(name + " has no Function " + function);
    }
    versions.put(function, version);
    return commit("change " + function + " to " + version);
  }

  private String commit(String message) throws IOException {
    try (ObjectInserter inserter = repository.newObjectInserter()) {
      TreeFormatter folder = new TreeFormatter();
      for (Map.Entry<String, String> fn : versions.entrySet()) {
        byte[] file = InfraRepository.manifest(fn.getKey(), fn.getValue()).getBytes(StandardCharsets.UTF_8);
        folder.append(fn.getKey() + ".yaml", FileMode.REGULAR_FILE, inserter.insert(Constants.OBJ_BLOB, file));
      }
      TreeFormatter root = new TreeFormatter();
      root.append(InfraRepository.FOLDER, FileMode.TREE, inserter.insert(folder));
      CommitBuilder commit = new CommitBuilder();
      commit.setTreeId(inserter.insert(root));
      if (head != null) {
        commit.setParentId(head);
      }
      commit.setAuthor(AUTHOR);
      commit.setCommitter(AUTHOR);
      commit.setMessage(message);
      ObjectId id = inserter.insert(commit);
      inserter.flush();
      RefUpdate update = repository.updateRef(Constants.R_HEADS + BareRepositories.DEFAULT_BRANCH);
      update.setNewObjectId(id);
      update.setExpectedOldObjectId(head == null ? ObjectId.zeroId() : head);
      RefUpdate.Result result = update.update();
      if (result != RefUpdate.Result.NEW && result != RefUpdate.Result.FAST_FORWARD) {
        throw new IOException("cannot move main of " + name + " to " + id.name() + ": " + result);
      }
      head = id;
      return id.name();
    }
  }
}
