package io.gitfn.reconcile.repository;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositorySpec;
import io.gitfn.api.repository.GitRef;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.RepositoryReference;
import io.gitfn.source.Revision;
import io.gitfn.trigger.SourceState;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Optional;

/**
 * Builds FunctionRepositories and the state of one pass over them for step tests: repository infra in namespace
 * shop, at generation 1, following main of a Git URL, with no status yet unless a test gives it one.
 */
final class TestRepository {

  static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  static final String URL = "https://git.example.com/shop/infra.git";
  static final Revision REVISION = new Revision("main", "a".repeat(40));

  private final FunctionRepository repository = new FunctionRepository();

  private TestRepository() {
    repository.getMetadata().setName("infra");
    repository.getMetadata().setNamespace("shop");
    repository.getMetadata().setGeneration(1L);
    repository.setSpec(new FunctionRepositorySpec());
    repository.getSpec().setUrl(URL);
    repository.getSpec().setInterval("1m");
    GitRef main = new GitRef();
    main.setBranch("main");
    repository.getSpec().setRef(main);
  }

  static TestRepository infra() {
    return new TestRepository();
  }

  /** Adds {@code name} to spec.dependsOn; a null namespace means the repository's own. */
  TestRepository dependsOn(String namespace, String name) {
    if (repository.getSpec().getDependsOn() == null) {
      repository.getSpec().setDependsOn(new ArrayList<>());
    }
    repository.getSpec().getDependsOn().add(new RepositoryReference(name, namespace));
    return this;
  }

  TestRepository url(String url) {
    repository.getSpec().setUrl(url);
    return this;
  }

  TestRepository annotated(String key, String value) {
    if (repository.getMetadata().getAnnotations() == null) {
      repository.getMetadata().setAnnotations(new LinkedHashMap<>());
    }
    repository.getMetadata().getAnnotations().put(key, value);
    return this;
  }

  /** The status the object shows as the pass begins. */
  TestRepository status(FunctionRepositoryStatus status) {
    repository.setStatus(status);
    return this;
  }

  FunctionRepository build() {
    return repository;
  }

  /** A pass that begins with {@code source} as what the watcher knows, with no Context and no cached Function. */
  RepositoryState pass(SourceState source) {
    return pass(repository, source, Clock.fixed(NOW, ZoneOffset.UTC));
  }

  static RepositoryState pass(FunctionRepository repository, SourceState source, Clock clock) {
    return new RepositoryState(repository, null, source, (namespace, name) -> Optional.empty(),
        Optional.empty(), clock,
        new KubernetesSerialization());
  }

  /** The watcher's last check found {@code revision}. */
  static SourceState fetched(Revision revision) {
    return new SourceState(Optional.of(revision), Optional.of(NOW), Optional.empty(), 0, Optional.empty());
  }

  /** The watcher has not answered yet: a new source, or a restarted controller. */
  static SourceState notFetchedYet() {
    return new SourceState(Optional.empty(), Optional.empty(), Optional.empty(), 0, Optional.empty());
  }

  /** Every check so far failed with {@code error}: no revision is known. */
  static SourceState neverFetched(String error) {
    return new SourceState(Optional.empty(), Optional.of(NOW), Optional.of(error), 1, Optional.empty());
  }
}
