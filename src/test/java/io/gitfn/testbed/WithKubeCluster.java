package io.gitfn.testbed;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Like {@link WithKubeApi}, and also runs kube-controller-manager, kube-scheduler and kwok with a fake
 * node, so that Deployments roll out and Job Pods complete.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(KubeTestBedExtension.class)
public @interface WithKubeCluster {}
