package io.gitfn.reconcile.repository;

import static io.gitfn.api.repository.RepositoryConditionReason.PREVIEW_NAMESPACE;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.api.model.rbac.SubjectBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gitfn.api.Annotations;
import io.gitfn.api.Conditions;
import io.gitfn.api.FieldManagers;
import io.gitfn.api.GoDuration;
import io.gitfn.api.Labels;
import io.gitfn.api.repository.CommitStatus;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositorySpec;
import io.gitfn.api.repository.GitRef;
import io.gitfn.api.repository.Preview;
import io.gitfn.api.repository.PreviewOf;
import io.gitfn.api.repository.Previews;
import io.gitfn.api.repository.Verify;
import io.gitfn.api.repository.RepositoryConditionType;
import io.gitfn.notify.CommitState;
import io.gitfn.notify.OpenPullRequest;
import io.gitfn.preview.PreviewNames;
import io.gitfn.preview.PreviewPlan;
import io.gitfn.preview.PreviewPlanner;
import io.gitfn.preview.PreviewRecord;
import io.gitfn.preview.PreviewRules;
import io.gitfn.preview.PullRequest;
import io.gitfn.preview.PullRequestNews;
import io.gitfn.reconcile.ForgeReports;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.Step;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.reconcile.WakeUps;
import io.gitfn.source.Revision;
import io.gitfn.trigger.SourceId;
import io.gitfn.trigger.webhook.PullRequestChange;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Guarantees that each pull request {@code spec.previews} qualifies has a preview running its head, within
 * {@code maxActive} and {@code ttl}, and that no other preview is left: a preview is a namespace gitfn makes
 * ({@code <namespace>-pr-<number>}) and a FunctionRepository beside this one that applies the head there
 * ({@code spec.previewOf}), which gitfn deletes with the pull request. What it knows of the pull requests comes from
 * the webhooks ({@link PullRequestInbox}) and, at the repository's interval, from the forge's list of open ones
 * ({@link PreviewForge}), which is the whole truth; {@code status.previews} keeps the rest, so a restarted controller
 * plans as this one would. Each pull request gets one comment, edited as its preview moves. Nothing here fails the
 * pass: what the forge refuses shows in the preview's message.
 */
final class PreviewsStep implements Step<RepositoryState> {

  private static final Logger log = LoggerFactory.getLogger(PreviewsStep.class);

  static final String PENDING = "Pending";
  static final String RUNNING = "Running";
  static final String FAILED = "Failed";
  static final String STOPPED = "Stopped";
  static final String REMOVED = "Removed";
  /** How soon a pass looks again while a preview is on its way or a comment unsaid. */
  static final Duration SOON = Duration.ofSeconds(10);
  static final int MESSAGE_LIMIT = 1024;
  /**
   * The reporter's kind for a removed preview's last status: its context is the preview's repository's, but its slot
   * is its own, which the preview's repository's clean-up, forgetting its own slot, does not drop before it is sent.
   */
  static final String REMOVAL = "PreviewRemoval";

  private final KubernetesClient client;
  private final PullRequestInbox inbox;
  private final PreviewForge forge;
  private final ForgeReports reports;
  private final BiFunction<String, String, Optional<FunctionRepository>> cached;
  private final List<String> buildSecrets;
  private final WakeUps<FunctionRepository> wakeUps;

  /**
   * @param cached a FunctionRepository of the controller's cache by namespace and name
   * @param buildSecrets the Secrets a namespace's install Jobs mount (the registry push Secret, the package-registry
   *     config), copied from the repository's namespace into each preview's, whose images are the repository's
   */
  PreviewsStep(KubernetesClient client, PullRequestInbox inbox, PreviewForge forge, ForgeReports reports,
      BiFunction<String, String, Optional<FunctionRepository>> cached, List<String> buildSecrets,
      WakeUps<FunctionRepository> wakeUps) {
    this.buildSecrets = List.copyOf(buildSecrets);
    this.wakeUps = wakeUps;
    this.client = client;
    this.inbox = inbox;
    this.forge = forge;
    this.reports = reports;
    this.cached = cached;
  }

  @Override
  public Result run(RepositoryState state) {
    FunctionRepository repository = state.resource();
    SourceId id = RepositoryState.idOf(repository);
    Map<Long, PullRequestChange> changes = inbox.take(id);
    Previews spec = repository.getSpec().getPreviews();
    List<Preview> current = new ArrayList<>(Objects.requireNonNullElse(state.status().getPreviews(), List.of()));
    boolean enabled = spec != null && Boolean.TRUE.equals(spec.getEnabled());
    PreviewOf previewOf = repository.getSpec().getPreviewOf();
    if (previewOf != null && previewOf.getRepository() != null) {
      // What the preview's pass found is the previewed repository's news: its status and comment say it.
      String home = repository.getMetadata().getNamespace();
      state.afterWrite(() -> wakeUps.wake(home, previewOf.getRepository()));
    }
    if (previewOf != null || !enabled && current.isEmpty()
        && state.status().getPullRequestsListedAt() == null) {
      return Result.next(); // a preview makes no previews of its own; nothing to do, and no Secret read, without
    }
    Optional<ForgeReports.Access> access = access(repository);
    Instant now = state.now();
    if (!enabled) {
      current.stream().filter(p -> !REMOVED.equals(p.getPhase())).forEach(p -> {
        remove(repository, p);
        p.setPhase(REMOVED);
        p.setMessage("removed: spec.previews is no longer enabled");
      });
    } else {
      PullRequestNews news = news(state, id, changes, access, now);
      PreviewPlan plan = PreviewPlanner.plan(rules(repository, spec), records(current), news, now);
      current = apply(repository, plan, current, spec);
    }
    List<Preview> kept = new ArrayList<>();
    boolean soon = false;
    for (Preview preview : current) {
      String said = said(preview);
      // A pull request is told of a preview once it ran; one that never did (stopped at once to make room, or
      // a made-up number) is not commented on, nor told that it went.
      boolean told = preview.getCommented() != null;
      boolean worthTelling = told || !STOPPED.equals(preview.getPhase()) && !REMOVED.equals(preview.getPhase());
      if (access.isPresent() && worthTelling && !said.equals(preview.getCommented())) {
        if (forge.commented(id, preview.getNumber()).filter(said::equals).isPresent()) {
          preview.setCommented(said);
        } else {
          forge.comment(id, access.get(), preview.getNumber(), said, comment(repository, preview));
          soon = true;
        }
      }
      if (REMOVED.equals(preview.getPhase()) && !gone(repository, preview)) {
        soon = true; // its deletion failed: asked again at the next pass
        remove(repository, preview);
      } else if (REMOVED.equals(preview.getPhase()) && (access.isEmpty() || !told
          || said.equals(preview.getCommented()) || forge.failed(id, preview.getNumber(), said))) {
        forge.forget(id, preview.getNumber());
        if (preview.getRepository() != null) {
          reports.forgetStatus(REMOVAL, repository.getMetadata().getNamespace(), preview.getRepository());
        }
        continue; // told, or nobody to tell, or the forge will not take it
      }
      if (REMOVED.equals(preview.getPhase()) && told) {
        removedStatus(state, repository, preview);
      }
      soon |= PENDING.equals(preview.getPhase());
      kept.add(preview);
    }
    state.status().setPreviews(kept.isEmpty() ? null : kept);
    if (soon) {
      state.requeueWithin(SOON);
    }
    if (enabled) {
      if (access.isPresent()) {
        Duration untilListing = listingDue(state, now).map(due -> Duration.between(now, due)).orElse(SOON);
        state.requeueWithin(untilListing.compareTo(SOON) < 0 ? SOON : untilListing);
      }
      ttlDue(kept, spec, now).ifPresent(state::requeueWithin);
    } else {
      state.status().setPullRequestsListedAt(null);
      state.status().setPullRequestsListError(null);
    }
    return Result.next();
  }

  /**
   * Tells the head commit that its preview is gone, under the preview's repository's context, so that the forge does
   * not go on linking to a preview that no longer answers. The reporter sends the same status once.
   */
  private void removedStatus(RepositoryState state, FunctionRepository repository, Preview preview) {
    CommitStatus status = repository.getSpec().getCommitStatus();
    if (status == null || status.getSecretRef() == null || preview.getRepository() == null
        || preview.getHeadSha() == null || preview.getHeadSha().length() < 40) {
      return;
    }
    ForgeReports.Target target = new ForgeReports.Target(REMOVAL, repository.getMetadata().getNamespace(),
        preview.getRepository(), repository.getSpec().getUrl(), status.getSecretRef().getName(),
        "spec.commitStatus.secretRef", status.getForge(), status.getApiURL());
    Revision head = new Revision(preview.getHeadSha(), preview.getHeadSha());
    ForgeReports.Prepared report = reports.commitStatus(target, Optional.of(new ForgeReports.Verdict(head,
        CommitState.SUCCESS, "PreviewRemoved", cut(preview.getMessage()))), null);
    report.send().ifPresent(state::afterWrite);
  }

  /** The forge and token of {@code spec.commitStatus}, with which gitfn lists pull requests and comments. */
  private Optional<ForgeReports.Access> access(FunctionRepository repository) {
    CommitStatus status = repository.getSpec().getCommitStatus();
    if (status == null || status.getSecretRef() == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(reports.access(new ForgeReports.Target(RepositoryState.KIND,
          repository.getMetadata().getNamespace(), repository.getMetadata().getName(), repository.getSpec().getUrl(),
          status.getSecretRef().getName(), "spec.commitStatus.secretRef", status.getForge(), status.getApiURL())));
    } catch (StepFailure | IllegalArgumentException e) {
      log.info("previews of {} get no forge calls: {}", RepositoryState.idOf(repository), e.getMessage());
      return Optional.empty();
    }
  }

  /** What the webhooks and a finished listing say; asks for the next listing when it is due. */
  private PullRequestNews news(RepositoryState state, SourceId id, Map<Long, PullRequestChange> changes,
      Optional<ForgeReports.Access> access, Instant now) {
    Map<Long, PullRequest> open = new HashMap<>();
    Map<Long, String> closed = new HashMap<>();
    Set<Long> fresh = new HashSet<>();
    boolean complete = false;
    Optional<PreviewForge.Listing> listing = forge.takeListing(id);
    if (listing.isPresent()) {
      // A failed listing is asked for again at the next interval too, and says why in status meanwhile.
      state.status().setPullRequestsListedAt(listing.get().at().toString());
      state.status().setPullRequestsListError(listing.get().open().isPresent() ? null : cut(listing.get().error()));
      listing.get().open().ifPresent(list -> list.forEach(p -> open.put(p.number(), pullRequest(p))));
      complete = listing.get().open().isPresent();
    }
    for (PullRequestChange change : changes.values()) {
      switch (change.action()) {
        case CLOSED -> {
          open.remove(change.number());
          closed.put(change.number(), "was closed");
        }
        case MERGED -> {
          open.remove(change.number());
          closed.put(change.number(), "was merged");
        }
        case OTHER -> { }
        default -> {
          // A webhook newer than the listing wins: the forge's list may lag behind its own webhooks.
          open.put(change.number(), new PullRequest(change.number(), change.headSha(), change.headRef(),
              change.baseRef(), change.labels(), change.fromFork()));
          closed.remove(change.number());
          fresh.add(change.number());
        }
      }
    }
    if (access.isPresent() && listingDue(state, now).map(due -> !due.isAfter(now)).orElse(true)) {
      forge.list(id, access.get());
    }
    return new PullRequestNews(open, closed, complete, fresh);
  }

  private static Optional<Instant> listingDue(RepositoryState state, Instant now) {
    return Optional.ofNullable(state.status().getPullRequestsListedAt()).map(PreviewsStep::instant)
        .map(at -> at.plus(state.interval()));
  }

  private static Optional<Duration> ttlDue(List<Preview> previews, Previews spec, Instant now) {
    Duration ttl = GoDuration.parse(Objects.requireNonNullElse(spec.getTtl(), "72h"));
    return previews.stream().filter(p -> isRunning(p) && p.getPushedAt() != null)
        .map(p -> Duration.between(now, instant(p.getPushedAt()).plus(ttl)))
        .map(d -> d.isNegative() ? Duration.ZERO : d).min(Duration::compareTo);
  }

  private static PullRequest pullRequest(OpenPullRequest open) {
    return new PullRequest(open.number(), open.headSha(), open.headRef(), open.baseRef(), open.labels(),
        open.fromFork());
  }

  static PreviewRules rules(FunctionRepository repository, Previews spec) {
    GitRef ref = repository.getSpec().getRef();
    Optional<String> branch = ref == null ? Optional.empty() : Optional.ofNullable(ref.getBranch());
    return new PreviewRules(Objects.requireNonNullElse(spec.getLabels(), List.of()),
        Objects.requireNonNullElse(spec.getMaxActive(), 5),
        GoDuration.parse(Objects.requireNonNullElse(spec.getTtl(), "72h")), branch);
  }

  private static List<PreviewRecord> records(List<Preview> previews) {
    return previews.stream().filter(p -> !REMOVED.equals(p.getPhase()) && p.getHeadSha() != null)
        .map(p -> new PreviewRecord(p.getNumber(), p.getHeadSha(), Objects.requireNonNullElse(p.getHeadRef(), ""),
            isRunning(p), instant(p.getCreatedAt()), instant(p.getPushedAt()), p.getMessage()))
        .toList();
  }

  private static boolean isRunning(Preview preview) {
    return !STOPPED.equals(preview.getPhase()) && !REMOVED.equals(preview.getPhase());
  }

  /** A time the status holds; one that is missing or not a time counts as long ago. */
  private static Instant instant(String text) {
    try {
      return text == null ? Instant.EPOCH : Instant.parse(text);
    } catch (DateTimeParseException e) {
      return Instant.EPOCH;
    }
  }

  /** Brings the cluster to {@code plan} and returns the status entries it leaves, by number. */
  private List<Preview> apply(FunctionRepository repository, PreviewPlan plan, List<Preview> current,
      Previews spec) {
    Map<Long, Preview> before = new LinkedHashMap<>();
    current.forEach(p -> before.put(p.getNumber(), p));
    Map<Long, Preview> after = new TreeMap<>();
    String home = repository.getMetadata().getNamespace();
    // What goes, goes first: at no time do more than maxActive previews run.
    for (PreviewPlan.Stopped stopped : plan.stopped()) {
      Preview preview = before.getOrDefault(stopped.number(), new Preview());
      preview.setNumber(stopped.number());
      preview.setHeadSha(stopped.headSha());
      preview.setHeadRef(stopped.headRef());
      preview.setCreatedAt(stopped.createdAt().toString());
      preview.setPushedAt(stopped.pushedAt().toString());
      if (stopped.stopping() || isRunning(preview)) {
        remove(repository, preview);
      }
      preview.setPhase(STOPPED);
      preview.setMessage(cut(stopped.message()));
      preview.setUrl(null);
      after.put(stopped.number(), preview);
    }
    for (PreviewPlan.Removed removed : plan.removed()) {
      Preview preview = before.get(removed.number());
      remove(repository, preview);
      preview.setPhase(REMOVED);
      preview.setUrl(null);
      preview.setMessage(cut("removed: pull request #" + removed.number() + " " + removed.why()));
      after.put(removed.number(), preview);
    }
    for (PreviewPlan.Run run : plan.run()) {
      Preview preview = before.getOrDefault(run.number(), new Preview());
      preview.setNumber(run.number());
      preview.setHeadSha(run.headSha());
      preview.setHeadRef(run.headRef());
      preview.setCreatedAt(run.createdAt().toString());
      preview.setPushedAt(run.pushedAt().toString());
      try {
        preview.setNamespace(PreviewNames.namespace(home, run.number()));
        preview.setRepository(PreviewNames.repository(home, repository.getMetadata().getName(), run.number()));
        Optional<FunctionRepository> child = ensure(repository, spec, run, preview);
        observe(preview, child);
      } catch (KubernetesClientException | IllegalArgumentException e) {
        preview.setPhase(FAILED);
        preview.setMessage(cut("cannot make the preview: " + e.getMessage()));
      }
      after.put(run.number(), preview);
    }
    // Those removed before whose comment is not yet said stay until it is.
    before.values().stream().filter(p -> REMOVED.equals(p.getPhase()) && !after.containsKey(p.getNumber()))
        .forEach(p -> after.put(p.getNumber(), p));
    return new ArrayList<>(after.values());
  }

  /**
   * Makes the preview's namespace and repository when the cache does not hold the repository as it should be, and
   * returns the repository as the cache has it.
   */
  private Optional<FunctionRepository> ensure(FunctionRepository parent, Previews spec, PreviewPlan.Run run,
      Preview preview) {
    String home = parent.getMetadata().getNamespace();
    Optional<FunctionRepository> child = cached.apply(home, preview.getRepository());
    FunctionRepository wanted = child(parent, spec, run, preview);
    String digest = digest(wanted.getSpec());
    wanted.getMetadata().setAnnotations(Map.of(Annotations.APPLIED_DIGEST, digest));
    boolean waitsForNamespace = child.map(FunctionRepository::getStatus).map(s -> s.getConditions())
        .flatMap(c -> Conditions.find(c, RepositoryConditionType.READY))
        .filter(c -> PREVIEW_NAMESPACE.equals(c.getReason())).isPresent();
    // Told by the digest of the spec it was written with: the API server's defaults make the live spec differ.
    boolean written = child.map(c -> c.getMetadata().getAnnotations()).map(a -> a.get(Annotations.APPLIED_DIGEST))
        .filter(digest::equals).isPresent();
    if (written && !run.started() && !waitsForNamespace) {
      return child;
    }
    String owner = Labels.repository(home, parent.getMetadata().getName());
    Namespace namespace = new NamespaceBuilder().withNewMetadata().withName(preview.getNamespace())
        .addToLabels(Labels.PREVIEW_OF, owner).addToLabels(Labels.PULL_REQUEST, Long.toString(run.number()))
        .endMetadata().build();
    Namespace live = client.namespaces().withName(preview.getNamespace()).get();
    if (live == null) {
      client.namespaces().resource(namespace).create();
    } else if (live.getMetadata().getDeletionTimestamp() != null) {
      // A preview stopped a moment ago and started again: its repository waits until the namespace can be made.
      preview.setMessage("waiting for the namespace " + preview.getNamespace() + " of its last run to be deleted");
    } else if (!ownedBy(parent, live)) {
      throw new KubernetesClientException("namespace " + preview.getNamespace() + " exists and is not a preview"
          + " namespace of " + home + "/" + parent.getMetadata().getName() + "; gitfn leaves it alone");
    }
    if (live == null || live.getMetadata().getDeletionTimestamp() == null) {
      // Again whenever the preview's repository is written: what failed before is tried again, and SSA of the same
      // objects changes nothing.
      copyBuildSecrets(home, preview.getNamespace(), owner);
      RepositoryIdentity.serviceAccount(parent).ifPresent(account ->
          grantServiceAccount(home, account, preview.getNamespace(), owner));
    }
    client.resources(FunctionRepository.class).inNamespace(home).resource(wanted)
        .fieldManager(FieldManagers.PREVIEWS).forceConflicts().serverSideApply();
    return child;
  }

  /**
   * Gives the repository's ServiceAccount in the preview's namespace the rights it has in its own, and no more: a copy
   * of each RoleBinding of the repository's namespace that names it, bound to it alone, with the Role it refers to
   * (a ClusterRole is referred to as it is). The API server lets the controller bind only a role whose every right
   * the controller holds itself, so a binding to a wider role (such as {@code edit}) is refused, with its message.
   *
   * @throws KubernetesClientException when a binding cannot be copied; the preview then fails and says why
   */
  private void grantServiceAccount(String home, String account, String namespace, String owner) {
    for (RoleBinding binding : client.rbac().roleBindings().inNamespace(home).list().getItems()) {
      List<Subject> subjects = Objects.requireNonNullElse(binding.getSubjects(), List.<Subject>of());
      boolean names = subjects.stream().anyMatch(s -> "ServiceAccount".equals(s.getKind())
          && account.equals(s.getName()) && (s.getNamespace() == null || home.equals(s.getNamespace())));
      if (!names) {
        continue;
      }
      if ("Role".equals(binding.getRoleRef().getKind())) {
        Role role = client.rbac().roles().inNamespace(home).withName(binding.getRoleRef().getName()).get();
        if (role == null) {
          continue; // a binding to a Role that does not exist grants nothing in the repository's namespace either
        }
        client.rbac().roles().inNamespace(namespace).resource(new RoleBuilder().withNewMetadata()
            .withName(role.getMetadata().getName()).withNamespace(namespace).addToLabels(Labels.PREVIEW_OF, owner)
            .endMetadata().withRules(role.getRules()).build()).fieldManager(FieldManagers.PREVIEWS).forceConflicts()
            .serverSideApply();
      }
      client.rbac().roleBindings().inNamespace(namespace).resource(new RoleBindingBuilder().withNewMetadata()
          .withName(binding.getMetadata().getName()).withNamespace(namespace).addToLabels(Labels.PREVIEW_OF, owner)
          .endMetadata().withRoleRef(binding.getRoleRef()).withSubjects(new SubjectBuilder()
              .withKind("ServiceAccount").withName(account).withNamespace(home).build()).build())
          .fieldManager(FieldManagers.PREVIEWS).forceConflicts().serverSideApply();
    }
  }

  /** The install Jobs' Secrets of the repository's namespace, into the new preview namespace; read by name only. */
  private void copyBuildSecrets(String home, String namespace, String owner) {
    for (String name : buildSecrets) {
      Secret secret = client.secrets().inNamespace(home).withName(name).get();
      if (secret == null) {
        continue;
      }
      Secret copy = new SecretBuilder().withNewMetadata().withName(name).withNamespace(namespace)
          .addToLabels(Labels.PREVIEW_OF, owner).endMetadata().withType(secret.getType()).withData(secret.getData())
          .build();
      client.secrets().inNamespace(namespace).resource(copy).fieldManager(FieldManagers.PREVIEWS).forceConflicts()
          .serverSideApply();
    }
  }

  private String digest(FunctionRepositorySpec spec) {
    try {
      byte[] json = client.getKubernetesSerialization().asJson(spec).getBytes(StandardCharsets.UTF_8);
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json)).substring(0, 32);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /** The repository that applies the preview: the parent's source and rules, at the pull request's head. */
  static FunctionRepository child(FunctionRepository parent, Previews previews, PreviewPlan.Run run,
      Preview preview) {
    FunctionRepositorySpec from = parent.getSpec();
    FunctionRepositorySpec spec = new FunctionRepositorySpec();
    spec.setUrl(from.getUrl());
    GitRef ref = new GitRef();
    if (run.headSha().length() == 40) {
      ref.setCommit(run.headSha());
    } else {
      // Bitbucket Cloud names a head by 12 digits, which no ref takes: the preview follows the branch instead, told
      // of its pushes by the same webhook.
      ref.setBranch(run.headRef());
      spec.setWebhook(from.getWebhook());
    }
    spec.setRef(ref);
    spec.setPath(from.getPath());
    spec.setIgnore(from.getIgnore());
    spec.setInterval(from.getInterval());
    spec.setTimeout(from.getTimeout());
    spec.setSecretRef(from.getSecretRef());
    // A preview follows a commit, so it verifies that commit, whatever mode the repository uses.
    Optional.ofNullable(from.getVerify()).ifPresent(verify -> spec.setVerify(new Verify("HEAD",
        verify.getSecretRef())));
    spec.setServiceAccountName(from.getServiceAccountName());
    spec.setCommitStatus(from.getCommitStatus());
    spec.setAllowEmpty(from.getAllowEmpty());
    // A preview that fails shows it; it does not roll back to an older head of the pull request.
    spec.setAutoRollback(false);
    if (Boolean.TRUE.equals(previews.getDecryption())) {
      spec.setDecryption(from.getDecryption());
    }
    spec.setPreviewOf(new PreviewOf(parent.getMetadata().getName(), run.number(), preview.getNamespace(),
        run.headRef(), previews.getHost()));
    FunctionRepository child = new FunctionRepository();
    child.getMetadata().setName(preview.getRepository());
    child.getMetadata().setNamespace(parent.getMetadata().getNamespace());
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(Labels.PREVIEW_OF, Labels.repository(parent.getMetadata().getNamespace(),
        parent.getMetadata().getName()));
    labels.put(Labels.PULL_REQUEST, Long.toString(run.number()));
    Optional.ofNullable(parent.getMetadata().getLabels()).map(l -> l.get(Labels.SHARD))
        .ifPresent(shard -> labels.put(Labels.SHARD, shard));
    child.getMetadata().setLabels(labels);
    child.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder()
        .withApiVersion(parent.getApiVersion()).withKind(parent.getKind()).withName(parent.getMetadata().getName())
        .withUid(parent.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(false).build()));
    child.setSpec(spec);
    return child;
  }

  /** The preview's phase, message and URL, from its repository's status. */
  private static void observe(Preview preview, Optional<FunctionRepository> child) {
    List<Condition> conditions = child.map(FunctionRepository::getStatus).map(s -> s.getConditions())
        .orElse(List.of());
    boolean atHead = child.map(FunctionRepository::getStatus).map(s -> s.getLastAppliedRevision())
        .filter(r -> r.contains(preview.getHeadSha().substring(0, Math.min(12, preview.getHeadSha().length()))))
        .isPresent();
    if (Conditions.isTrue(conditions, RepositoryConditionType.STALLED)) {
      preview.setPhase(FAILED);
      preview.setMessage(cut(Conditions.message(conditions, RepositoryConditionType.READY)));
    } else if (atHead && Conditions.isTrue(conditions, RepositoryConditionType.READY)) {
      preview.setPhase(RUNNING);
      preview.setMessage(cut("runs " + short7(preview.getHeadSha())));
    } else {
      preview.setPhase(PENDING);
      String message = Conditions.message(conditions, RepositoryConditionType.READY);
      preview.setMessage(cut(message == null || message.isBlank() ? "making the preview of "
          + short7(preview.getHeadSha()) : message));
    }
    preview.setUrl(child.map(FunctionRepository::getStatus).map(s -> s.getPreviewURL()).orElse(null));
  }

  /** Whether the preview's repository is gone and its namespace gone or on its way out. */
  private boolean gone(FunctionRepository parent, Preview preview) {
    try {
      boolean repositoryGone = preview.getRepository() == null || client.resources(FunctionRepository.class)
          .inNamespace(parent.getMetadata().getNamespace()).withName(preview.getRepository()).get() == null;
      Namespace namespace = preview.getNamespace() == null ? null
          : client.namespaces().withName(preview.getNamespace()).get();
      return repositoryGone && (namespace == null || namespace.getMetadata().getDeletionTimestamp() != null
          || !ownedBy(parent, namespace));
    } catch (KubernetesClientException e) {
      return false;
    }
  }

  private static boolean ownedBy(FunctionRepository parent, Namespace namespace) {
    return Labels.repository(parent.getMetadata().getNamespace(), parent.getMetadata().getName()).equals(
        Objects.requireNonNullElse(namespace.getMetadata().getLabels(), Map.<String, String>of())
            .get(Labels.PREVIEW_OF));
  }

  /** Deletes every preview {@code parent}'s status lists, when it is deleted: namespaces have no owner. */
  static void removeAll(KubernetesClient client, FunctionRepository parent) {
    Optional.ofNullable(parent.getStatus()).map(s -> s.getPreviews()).orElse(List.of())
        .forEach(preview -> remove(client, parent, preview));
  }

  private void remove(FunctionRepository parent, Preview preview) {
    remove(client, parent, preview);
  }

  /** Deletes the preview's repository and its namespace, with all it holds. */
  private static void remove(KubernetesClient client, FunctionRepository parent, Preview preview) {
    String home = parent.getMetadata().getNamespace();
    try {
      if (preview.getRepository() != null) {
        client.resources(FunctionRepository.class).inNamespace(home).withName(preview.getRepository()).delete();
      }
      if (preview.getNamespace() != null) {
        Namespace live = client.namespaces().withName(preview.getNamespace()).get();
        if (live != null && Labels.repository(home, parent.getMetadata().getName()).equals(
            Objects.requireNonNullElse(live.getMetadata().getLabels(), Map.<String, String>of())
                .get(Labels.PREVIEW_OF))) {
          client.namespaces().withName(preview.getNamespace()).delete();
        }
      }
    } catch (KubernetesClientException e) {
      log.warn("cannot remove preview #{} of {}/{}: {}", preview.getNumber(), home, parent.getMetadata().getName(),
          e.getMessage());
    }
  }

  /** What the comment says, in a line; the status records it once the forge took it. */
  private static String said(Preview preview) {
    return cut(preview.getPhase() + ": " + preview.getMessage() + (preview.getUrl() == null ? ""
        : " " + preview.getUrl()));
  }

  private static String comment(FunctionRepository repository, Preview preview) {
    String head = preview.getHeadSha() == null ? "" : " at `" + short7(preview.getHeadSha()) + "`";
    StringBuilder body = new StringBuilder("**gitfn preview** of " + repository.getMetadata().getNamespace() + "/"
        + repository.getMetadata().getName() + head + ": **" + preview.getPhase() + "**\n\n");
    if (preview.getUrl() != null) {
      body.append(preview.getUrl()).append("\n\n");
    }
    body.append(Objects.requireNonNullElse(preview.getMessage(), "")).append('\n');
    if (preview.getNamespace() != null && !REMOVED.equals(preview.getPhase())
        && !STOPPED.equals(preview.getPhase())) {
      body.append("\nNamespace `").append(preview.getNamespace()).append("`, FunctionRepository `")
          .append(preview.getRepository()).append("`.\n");
    }
    return body.toString();
  }

  private static String short7(String sha) {
    return sha.substring(0, Math.min(7, sha.length()));
  }

  private static String cut(String text) {
    String value = Objects.requireNonNullElse(text, "");
    return value.length() <= MESSAGE_LIMIT ? value : value.substring(0, MESSAGE_LIMIT - 1) + "…";
  }
}
