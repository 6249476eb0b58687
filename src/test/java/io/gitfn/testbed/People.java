package io.gitfn.testbed;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * People of a test namespace, as the API server knows them: a ServiceAccount each, with a real bearer token from
 * the TokenRequest API (which a TokenReview accepts), and the rights a Role grants them there.
 */
public final class People {

  private People() {}

  /** A new ServiceAccount of the namespace with no rights at all; returns its token. */
  public static String withNoRights(KubernetesClient admin, String namespace, String name) {
    admin.serviceAccounts().inNamespace(namespace).resource(new ServiceAccountBuilder()
        .withNewMetadata().withName(name).endMetadata().build()).create();
    return admin.serviceAccounts().inNamespace(namespace).withName(name).tokenRequest(new TokenRequestBuilder()
        .withNewSpec().withExpirationSeconds(3600L).endSpec().build()).getStatus().getToken();
  }

  /** A new ServiceAccount of the namespace bound to a Role of {@code rules} there; returns its token. */
  public static String withRole(KubernetesClient admin, String namespace, String name, PolicyRule... rules) {
    String token = withNoRights(admin, namespace, name);
    admin.rbac().roles().inNamespace(namespace).resource(new RoleBuilder()
        .withNewMetadata().withName(name).endMetadata().withRules(rules).build()).create();
    admin.rbac().roleBindings().inNamespace(namespace).resource(new RoleBindingBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("Role").withName(name).endRoleRef()
        .addNewSubject().withKind("ServiceAccount").withName(name).withNamespace(namespace).endSubject()
        .build()).create();
    return token;
  }

  /** The user name the API server gives a ServiceAccount. */
  public static String user(String namespace, String name) {
    return "system:serviceaccount:" + namespace + ":" + name;
  }
}
