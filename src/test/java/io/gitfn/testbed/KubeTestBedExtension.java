package io.gitfn.testbed;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands tests a client for the shared test bed and a namespace of their own. The test bed starts on the
 * first test that needs it and stops when the JUnit run ends.
 */
final class KubeTestBedExtension
    implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver {

  private static final Namespace STORE = Namespace.create(KubeTestBedExtension.class);
  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  @Override
  public void beforeAll(ExtensionContext context) {
    ExtensionContext.Store root = context.getRoot().getStore(STORE);
    KubeTestBed bed = root.getOrComputeIfAbsent("testbed", key -> new Closing(KubeTestBed.shared()), Closing.class).bed();
    if (context.getRequiredTestClass().isAnnotationPresent(WithKubeCluster.class)) {
      bed.withCluster();
    }
    context.getStore(STORE).put("client", new ClosingClient(bed.newClient()));
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    String name =
        (context.getRequiredTestClass().getSimpleName() + "-" + SEQUENCE.incrementAndGet())
            .toLowerCase(Locale.ROOT)
            .replaceAll("[^a-z0-9-]", "-");
    name = name.length() > 63 ? name.substring(name.length() - 63).replaceAll("^-+", "") : name;
    client(context)
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
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
    return type == KubernetesClient.class || type == TestNamespace.class || type == KubeTestBed.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    if (type == KubernetesClient.class) {
      return client(context);
    }
    if (type == KubeTestBed.class) {
      return KubeTestBed.shared();
    }
    return context.getStore(STORE).get("namespace", TestNamespace.class);
  }

  private static KubernetesClient client(ExtensionContext context) {
    return context.getStore(STORE).get("client", ClosingClient.class).client();
  }

  private record Closing(KubeTestBed bed) implements AutoCloseable {
    @Override
    public void close() {
      bed.close();
    }
  }

  private record ClosingClient(KubernetesClient client) implements AutoCloseable {
    @Override
    public void close() {
      client.close();
    }
  }
}
