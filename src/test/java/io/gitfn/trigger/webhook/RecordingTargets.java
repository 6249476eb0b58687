package io.gitfn.trigger.webhook;

import io.gitfn.source.RepositoryUrl;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/** Sources registered by URL and ref, the way FunctionRepositories will be; records every trigger. */
class RecordingTargets implements WebhookTargets {

  record Triggered(String name, PushEvent event) {}

  private final List<Source> sources = new CopyOnWriteArrayList<>();
  private final List<Triggered> triggered = new CopyOnWriteArrayList<>();

  /** A source tracking {@code url} (any form) at {@code ref}, verified by {@code secret} (null for none). */
  RecordingTargets track(String name, String url, String ref, String secret) {
    sources.add(new Source(name, RepositoryUrl.parse(url), ref, Optional.ofNullable(secret)));
    return this;
  }

  List<Triggered> triggered() {
    return List.copyOf(triggered);
  }

  List<String> triggeredNames() {
    return triggered.stream().map(Triggered::name).toList();
  }

  /** Called after each trigger, for a receiver in a JVM of its own to report it. */
  void onTrigger(String name) {}

  void clear() {
    triggered.clear();
  }

  @Override
  public List<WebhookTarget> tracking(RepositoryUrl repository) {
    List<WebhookTarget> found = new ArrayList<>();
    for (Source s : sources) {
      if (s.url.matchKey().equals(repository.matchKey())) {
        found.add(s);
      }
    }
    return found;
  }

  private final class Source implements WebhookTarget {
    private final String name;
    private final RepositoryUrl url;
    private final String ref;
    private final Optional<String> secret;

    Source(String name, RepositoryUrl url, String ref, Optional<String> secret) {
      this.name = name;
      this.url = url;
      this.ref = ref;
      this.secret = secret;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Optional<String> secret() {
      return secret;
    }

    @Override
    public boolean moves(String pushed) {
      return ref.equals(pushed);
    }

    @Override
    public void trigger(PushEvent event) {
      triggered.add(new Triggered(name, event));
      onTrigger(name);
    }
  }
}
