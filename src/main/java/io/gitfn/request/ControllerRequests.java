package io.gitfn.request;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import java.time.Clock;

/**
 * What a person asks of the controller through the API server, the same from the CLI and from the dashboard: act now
 * ({@link Annotations#REQUESTED_AT}), suspend or resume a FunctionRepository ({@code spec.suspend}), pin a Function to
 * a revision of its history or unpin it ({@link Annotations#PINNED_REVISION}). Each is one JSON merge patch, so each
 * needs the {@code patch} verb on the object and no other, which is what the dashboard checks.
 *
 * <p>A merge patch rather than server-side apply: under the {@code gitfn} field manager a FunctionRepository's sync
 * would own the annotations on its Functions, and its next apply would remove them.
 *
 * <p>This is a package of its own because {@code io.gitfn.cli} and {@code io.gitfn.dashboard} both write these and
 * neither may depend on the other ({@code cli} starts the controller in {@code io.gitfn.controller}, which serves the
 * dashboard); {@code io.gitfn.api}, which holds the keys, does no I/O; and of these requests only the pin is a
 * rollback.
 */
public final class ControllerRequests {

  /** Where the patches go: the API server, except in a test. */
  interface ApiServer {
    HasMetadata mergePatch(Class<? extends HasMetadata> kind, String namespace, String name, String patch);
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ApiServer api;
  private final Clock clock;

  /** @param clock the time a request to act now carries */
  public ControllerRequests(KubernetesClient client, Clock clock) {
    this((kind, namespace, name, patch) -> client.resources(kind).inNamespace(namespace).withName(name)
        .patch(PatchContext.of(PatchType.JSON_MERGE), patch), clock);
  }

  ControllerRequests(ApiServer api, Clock clock) {
    this.api = api;
    this.clock = clock;
  }

  /**
   * Asks the controller to check the repository's Git now, as {@code flux reconcile} does; the annotation's value
   * on the returned repository comes back in its status once the controller has handled the request.
   */
  public FunctionRepository reconcileRepository(String namespace, String name) {
    return patch(FunctionRepository.class, namespace, name, requestedNow());
  }

  /** Stops the controller acting on the repository until it is resumed. */
  public FunctionRepository suspendRepository(String namespace, String name) {
    ObjectNode patch = JSON.createObjectNode();
    patch.putObject("spec").put("suspend", true);
    return patch(FunctionRepository.class, namespace, name, patch);
  }

  /** Lets the controller act on the repository again and asks it to check Git now, in one write. */
  public FunctionRepository resumeRepository(String namespace, String name) {
    ObjectNode patch = requestedNow();
    patch.putObject("spec").put("suspend", false);
    return patch(FunctionRepository.class, namespace, name, patch);
  }

  /** Asks the controller to act on the Function now: check its Git source, and build a key whose build failed. */
  public Function reconcileFunction(String namespace, String name) {
    return patch(Function.class, namespace, name, requestedNow());
  }

  /** Makes the Function run the image of {@code revision}, an entry of its history, until it is unpinned. */
  public Function pinFunction(String namespace, String name, String revision) {
    return patch(Function.class, namespace, name, pin(revision));
  }

  /** Makes the Function run the image of its spec again. */
  public Function unpinFunction(String namespace, String name) {
    return patch(Function.class, namespace, name, pin(null));
  }

  private ObjectNode requestedNow() {
    ObjectNode patch = JSON.createObjectNode();
    patch.putObject("metadata").putObject("annotations").put(Annotations.REQUESTED_AT, clock.instant().toString());
    return patch;
  }

  // In a merge patch, null removes the key.
  private static ObjectNode pin(String revision) {
    ObjectNode patch = JSON.createObjectNode();
    patch.putObject("metadata").putObject("annotations").put(Annotations.PINNED_REVISION, revision);
    return patch;
  }

  private <T extends HasMetadata> T patch(Class<T> kind, String namespace, String name, ObjectNode patch) {
    return kind.cast(api.mergePatch(kind, namespace, name, patch.toString()));
  }
}
