package io.gitfn.testbed.realnode;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.testbed.TestNamespace;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands tests the real node, a client for its cluster and a namespace of their own there. The node starts on
 * the first test that needs it and is torn down when the JUnit run ends.
 */
final class RealNodeExtension implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver {

  private static final Namespace STORE = Namespace.create(RealNodeExtension.class);
  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  @Override
  public void beforeAll(ExtensionContext context) {
    RealNode node = RealNode.shared();
    context.getRoot().getStore(STORE).getOrComputeIfAbsent("stop", key -> new StopShared(), StopShared.class);
    context.getStore(STORE).put("client", new ClosingClient(node.newClient()));
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    String name = (context.getRequiredTestClass().getSimpleName() + "-" + SEQUENCE.incrementAndGet())
        .toLowerCase(Locale.ROOT)
        .replaceAll("[^a-z0-9-]", "-");
    name = name.length() > 63 ? name.substring(name.length() - 63).replaceAll("^-+", "") : name;
    KubernetesClient client = client(context);
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
    // The controller-manager adds the namespace's default ServiceAccount; a Pod created before it is refused.
    client.serviceAccounts().inNamespace(name).withName("default").waitUntilCondition(Objects::nonNull, 60, TimeUnit.SECONDS);
    context.getStore(STORE).put("namespace", new TestNamespace(name));
  }

  @Override
  public void afterEach(ExtensionContext context) {
    TestNamespace namespace = context.getStore(STORE).get("namespace", TestNamespace.class);
    if (namespace != null) {
      client(context).namespaces().withName(namespace.name()).delete();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == KubernetesClient.class || type == TestNamespace.class || type == RealNode.class
        || type == Traefik.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    if (type == KubernetesClient.class) {
      return client(context);
    }
    if (type == RealNode.class) {
      return RealNode.shared();
    }
    if (type == Traefik.class) {
      return RealNode.shared().ingressController();
    }
    return context.getStore(STORE).get("namespace", TestNamespace.class);
  }

  private static KubernetesClient client(ExtensionContext context) {
    return context.getStore(STORE).get("client", ClosingClient.class).client();
  }

  /** Tears the node down when the JUnit run ends, before the JVM's shutdown hook would. */
  private record StopShared() implements AutoCloseable {
    @Override
    public void close() {
      RealNode.stopShared();
    }
  }

  private record ClosingClient(KubernetesClient client) implements AutoCloseable {
    @Override
    public void close() {
      client.close();
    }
  }
}
