package io.gitfn.testbed;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the test class against the real kube-apiserver and etcd of the test bed. Test methods may take a
 * {@link io.fabric8.kubernetes.client.KubernetesClient} and a {@link TestNamespace}: a namespace of their
 * own, made before and deleted after each test.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(KubeTestBedExtension.class)
public @interface WithKubeApi {}
