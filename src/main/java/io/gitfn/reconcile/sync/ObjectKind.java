package io.gitfn.reconcile.sync;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.Map;
import java.util.Objects;

/**
 * What a sync needs to know of a kind it applies beside Functions: its name for messages, its Java type, the object
 * it applies (only the fields gitfn owns), and whether a live one already holds that content.
 */
interface ObjectKind<T extends HasMetadata> {

  String name();

  Class<T> type();

  /** The objects of this kind in {@code namespace}. */
  default NonNamespaceOperation<T, ? extends KubernetesResourceList<T>, Resource<T>> in(KubernetesClient client,
      String namespace) {
    return client.resources(type()).inNamespace(namespace);
  }

  /** The object to server-side apply: {@code desired}'s content under {@code metadata}. */
  T applied(T desired, ObjectMeta metadata);

  /** Whether {@code live} holds what {@code applied} holds, metadata aside. */
  boolean sameContent(T live, T applied);

  ObjectKind<Secret> SECRETS = new ObjectKind<>() {
    @Override
    public String name() {
      return "Secret";
    }

    @Override
    public Class<Secret> type() {
      return Secret.class;
    }

    @Override
    public Secret applied(Secret desired, ObjectMeta metadata) {
      return new SecretBuilder().withApiVersion("v1").withKind("Secret").withMetadata(metadata)
          .withType(desired.getType()).withImmutable(desired.getImmutable()).withData(desired.getData()).build();
    }

    @Override
    public boolean sameContent(Secret live, Secret applied) {
      return Objects.equals(Objects.requireNonNullElse(live.getData(), Map.of()),
              Objects.requireNonNullElse(applied.getData(), Map.of()))
          && Objects.equals(Objects.requireNonNullElse(live.getType(), "Opaque"),
              Objects.requireNonNullElse(applied.getType(), "Opaque"));
    }
  };

  ObjectKind<ConfigMap> CONFIG_MAPS = new ObjectKind<>() {
    @Override
    public String name() {
      return "ConfigMap";
    }

    @Override
    public Class<ConfigMap> type() {
      return ConfigMap.class;
    }

    @Override
    public ConfigMap applied(ConfigMap desired, ObjectMeta metadata) {
      return new ConfigMapBuilder().withApiVersion("v1").withKind("ConfigMap").withMetadata(metadata)
          .withImmutable(desired.getImmutable()).withData(desired.getData())
          .withBinaryData(desired.getBinaryData()).build();
    }

    @Override
    public boolean sameContent(ConfigMap live, ConfigMap applied) {
      return Objects.equals(Objects.requireNonNullElse(live.getData(), Map.of()),
              Objects.requireNonNullElse(applied.getData(), Map.of()))
          && Objects.equals(Objects.requireNonNullElse(live.getBinaryData(), Map.of()),
              Objects.requireNonNullElse(applied.getBinaryData(), Map.of()));
    }
  };
}
