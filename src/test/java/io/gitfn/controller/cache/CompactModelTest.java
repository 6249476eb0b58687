package io.gitfn.controller.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.FieldManagers;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.api.function.TestFunction;
import io.gitfn.workload.DesiredDeployment;
import io.gitfn.workload.WorkloadSettings;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CompactModelTest {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  @Test
  void aCachedDeploymentKeepsEveryFieldButNoEmptyMapOfItsOwn() {
    Deployment deployment = fromTheApiServer(DesiredDeployment.forFunction(TestFunction.inline().build(),
        "registry.local:5000/default-fn:abc", WorkloadSettings.defaults()));
    JsonNode before = tree(deployment);
    List<Map<String, Object>> emptyBefore = emptyAdditionalProperties(deployment);
    assertThat(emptyBefore).as("every model object comes with an empty map of its own").hasSizeGreaterThan(30);

    CompactModel.compact(deployment);

    assertThat(tree(deployment)).isEqualTo(before);
    assertThat(emptyAdditionalProperties(deployment)).as("one shared map instead of one each")
        .allSatisfy(map -> assertThat(map).isSameAs(Map.of()));
  }

  @Test
  void equalStringsOfTwoCachedObjectsAreOneStringWhateverTheyAreIn() {
    Function fn = TestFunction.inline().build();
    String image = "registry.local:5000/default-fn:abc";
    Deployment a = fromTheApiServer(DesiredDeployment.forFunction(fn, image, WorkloadSettings.defaults()));
    Deployment b = fromTheApiServer(DesiredDeployment.forFunction(fn, image, WorkloadSettings.defaults()));
    Function f = JSON.unmarshal(JSON.asJson(fn), Function.class);
    f.setStatus(new FunctionStatus());
    f.getStatus().setImage(new String(image.toCharArray()));
    assertThat(image(a)).isNotSameAs(image(b));

    CompactModel.compact(a);
    CompactModel.compact(b);
    CompactModel.compact(f);

    assertThat(image(a)).isSameAs(image(b)).isSameAs(f.getStatus().getImage());
    String label = a.getMetadata().getLabels().keySet().iterator().next();
    assertThat(a.getMetadata().getLabels().get(label)).isSameAs(b.getMetadata().getLabels().get(label));
    assertThat(a.getSpec().getTemplate().getSpec().getContainers().get(0).getName())
        .isSameAs(b.getSpec().getTemplate().getSpec().getContainers().get(0).getName());
  }

  private static String image(Deployment deployment) {
    return deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
  }

  @Test
  void aCachedDeploymentsListsAndMapsAreImmutableCopiesOfTheirSize() {
    Deployment deployment = fromTheApiServer(DesiredDeployment.forFunction(TestFunction.inline().build(),
        "registry.local:5000/default-fn:abc", WorkloadSettings.defaults()));
    JsonNode before = tree(deployment);

    CompactModel.compact(deployment);

    assertThat(tree(deployment)).isEqualTo(before);
    Map<String, String> labels = deployment.getMetadata().getLabels();
    assertThat(labels).isNotEmpty().isEqualTo(Map.copyOf(labels));
    assertThat(labels.getClass()).isEqualTo(Map.copyOf(labels).getClass());
    assertThat(deployment.getMetadata().getFinalizers()).isSameAs(List.of());
    assertThatThrownBy(() -> deployment.getSpec().getTemplate().getSpec().getContainers().add(null))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> labels.put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aListOrMapWithANullInItIsKeptAsItIs() {
    Deployment deployment = fromTheApiServer(DesiredDeployment.forFunction(TestFunction.inline().build(),
        "registry.local:5000/default-fn:abc", WorkloadSettings.defaults()));
    Map<String, String> annotations = new java.util.LinkedHashMap<>();
    annotations.put("empty", null);
    deployment.getMetadata().setAnnotations(annotations);

    CompactModel.compact(deployment);

    assertThat(deployment.getMetadata().getAnnotations()).isSameAs(annotations).containsEntry("empty", null);
  }

  @Test
  void fieldsTheModelDoesNotKnowAreKept() {
    Deployment deployment = JSON.unmarshal("""
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: fn, namespace: default}
        spec:
          futureField: {enabled: true}
          template:
            spec:
              containers: [{name: function, image: x}]
        """, Deployment.class);

    CompactModel.compact(deployment);

    assertThat(deployment.getSpec().getAdditionalProperties()).containsEntry("futureField", Map.of("enabled", true));
    assertThat(JSON.asJson(deployment)).contains("\"futureField\":{\"enabled\":true}");
  }

  @Test
  void aCompactedObjectRefusesToBeChangedWhereItSharesTheEmptyMap() {
    Deployment deployment = CompactModel.compact(fromTheApiServer(DesiredDeployment.forFunction(
        TestFunction.inline().build(), "registry.local:5000/default-fn:abc", WorkloadSettings.defaults())));

    assertThatThrownBy(() -> deployment.getSpec().setAdditionalProperty("x", 1))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void childrenWithTheSameAppliedFieldsShareTheirFieldsNodesAndKeepOnlyThisControllersEntry() {
    OwnFieldsItemStore<Deployment> cache = new OwnFieldsItemStore<>();
    String spec = "\"f:spec\":{\"f:template\":{\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"function\\\"}\":"
        + "{\".\":{},\"f:image\":{}}}}}}";
    String ownedByA = "{\"f:metadata\":{\"f:ownerReferences\":{\"k:{\\\"uid\\\":\\\"a\\\"}\":{}}}," + spec + "}";
    String ownedByB = "{\"f:metadata\":{\"f:ownerReferences\":{\"k:{\\\"uid\\\":\\\"b\\\"}\":{}}}," + spec + "}";

    cache.put("default/a", withManagedFields("a", ownedByA));
    cache.put("default/b", withManagedFields("b", ownedByB));
    Map<String, Object> a = fieldsOf(cache.get("default/a"));
    Map<String, Object> b = fieldsOf(cache.get("default/b"));

    assertThat(cache.get("default/a").getMetadata().getManagedFields()).singleElement()
        .satisfies(entry -> assertThat(entry.getManager()).isEqualTo(FieldManagers.FUNCTION_CONTROLLER));
    assertThat(b.get("f:spec")).as("the equal subtree, once").isSameAs(a.get("f:spec"));
    assertThat(b.get("f:metadata")).as("what names the owner stays each one's").isNotEqualTo(a.get("f:metadata"));
    assertThat(JSON.asJson(cache.get("default/a").getMetadata().getManagedFields().get(0).getFieldsV1()))
        .isEqualTo(ownedByA);
    assertThat(JSON.asJson(cache.get("default/b").getMetadata().getManagedFields().get(0).getFieldsV1()))
        .isEqualTo(ownedByB);
  }

  private static Map<String, Object> fieldsOf(Deployment deployment) {
    return deployment.getMetadata().getManagedFields().get(0).getFieldsV1().getAdditionalProperties();
  }

  private static Deployment withManagedFields(String name, String fieldsV1) {
    return JSON.unmarshal("""
        {"apiVersion": "apps/v1", "kind": "Deployment",
         "metadata": {"name": "%s", "namespace": "default", "managedFields": [
           {"manager": "%s", "operation": "Apply", "fieldsType": "FieldsV1", "fieldsV1": %s},
           {"manager": "kube-controller-manager", "operation": "Update", "subresource": "status",
            "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {"f:replicas": {}}}}]}}
        """.formatted(name, FieldManagers.FUNCTION_CONTROLLER, fieldsV1), Deployment.class);
  }

  /** The object as JSON, whose maps compare without their order. */
  private static JsonNode tree(Object object) {
    return JSON.convertValue(object, JsonNode.class);
  }

  /** As an informer gets it: parsed from JSON. */
  private static Deployment fromTheApiServer(Deployment built) {
    return JSON.unmarshal(JSON.asJson(built), Deployment.class);
  }

  /** The additionalProperties maps that are empty, anywhere in {@code root}. */
  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> emptyAdditionalProperties(Object root) {
    List<Map<String, Object>> found = new ArrayList<>();
    if (root instanceof KubernetesResource) {
      try {
        Map<String, Object> own = (Map<String, Object>) root.getClass().getMethod("getAdditionalProperties")
            .invoke(root);
        if (own.isEmpty()) {
          found.add(own);
        }
      } catch (NoSuchMethodException e) {
        // a model type without a map of its own
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new IllegalStateException(e);
      }
      for (var method : root.getClass().getMethods()) {
        if (method.getName().startsWith("get") && method.getParameterCount() == 0
            && !method.getName().equals("getAdditionalProperties") && !method.getName().equals("getClass")) {
          try {
            found.addAll(emptyAdditionalProperties(method.invoke(root)));
          } catch (IllegalAccessException | InvocationTargetException | RuntimeException e) {
            // not a plain getter
          }
        }
      }
    } else if (root instanceof Collection) {
      ((Collection<?>) root).forEach(item -> found.addAll(emptyAdditionalProperties(item)));
    } else if (root instanceof Map) {
      ((Map<?, ?>) root).values().forEach(item -> found.addAll(emptyAdditionalProperties(item)));
    }
    return found;
  }
}
