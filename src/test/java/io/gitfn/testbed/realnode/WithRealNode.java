package io.gitfn.testbed.realnode;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the test class against the JVM's {@link RealNode}, started on first use: its test methods may take a
 * {@link RealNode}, a {@link io.fabric8.kubernetes.client.KubernetesClient} for the node's cluster and a
 * {@link io.gitfn.testbed.TestNamespace} of their own in it, and the node's ingress controller, a {@link Traefik}
 * started on first use. Not for a class that also has
 * {@code @WithKubeApi} or {@code @WithKubeCluster}: both would offer the client.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(RealNodeExtension.class)
public @interface WithRealNode {}
