package io.gitfn.reconcile.function;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.registry.ImageName;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Install Jobs against a real API server: two Functions of a namespace whose passes both found no install Job for
 * the same dependencies (they ran at once, before either's Job reached the informer) end up sharing one, each an
 * owner of it and of its ConfigMap. An apply by the second would have failed on the Job's immutable Pod template
 * and taken the ConfigMap from the first.
 */
@WithKubeApi
class BuildJobsIT {

  private static final String DEPENDENCIES = "{\"dependencies\": {\"ms\": \"2.1.3\"}}";

  @Test
  void twoFunctionsThatStartTheSameInstallAtOnceShareIt(KubeTestBed bed, KubernetesClient client, TestNamespace ns)
      throws Exception {
    bed.installCrds();
    BuildSettings settings = BuildSettings.defaults();
    BuildJobs jobs = new BuildJobs(client, settings);
    Function orders = create(client, ns, "orders");
    Function payments = create(client, ns, "payments");
    String name = "gitfn-deps-0123456789abcdef0123456789abcdef";
    LayeredImages.Progress.NeedsDependencies needs = new LayeredImages.Progress.NeedsDependencies(
        ImageName.parse("registry.local:5000/" + ns.name() + "/gitfn-dependencies:deps-0123"),
        ImageName.parse("registry.local:5000/base/nodejs22@sha256:" + "ab".repeat(32)),
        ImageName.parse("registry.local:5000/" + ns.name() + "/gitfn-dependencies:runtime-0123"), false,
        Instant.now());

    Job first = jobs.startInstall(orders, FunctionBuildPlan.ofInline(orders, settings), name, needs);
    Job second = jobs.startInstall(payments, FunctionBuildPlan.ofInline(payments, settings), name, needs);

    Set<String> both = Set.of(orders.getMetadata().getUid(), payments.getMetadata().getUid());
    assertThat(second.getMetadata().getUid()).as("the same Job").isEqualTo(first.getMetadata().getUid());
    assertThat(owners(client.batch().v1().jobs().inNamespace(ns.name()).withName(name).get())).isEqualTo(both);
    assertThat(owners(client.configMaps().inNamespace(ns.name()).withName(name).get())).isEqualTo(both);
    assertThat(BuildJobs.ownedBy(orders, second)).as("still the first Function's, whose slot it holds").isTrue();
  }

  @Test
  void tenFunctionsLeavingTheirSharedJobAtOnceFromOneStaleCopyLeaveNothingBehind(KubeTestBed bed,
      KubernetesClient client, TestNamespace ns) throws Exception {
    bed.installCrds();
    BuildSettings settings = BuildSettings.defaults();
    BuildJobs jobs = new BuildJobs(client, settings);
    String name = "gitfn-deps-0123456789abcdef0123456789abcdef";
    List<Function> functions = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      Function fn = create(client, ns, "fn-" + i);
      functions.add(fn);
      jobs.startInstall(fn, FunctionBuildPlan.ofInline(fn, settings), name, needs(ns));
    }
    // Every pass reads the Job from its informer: all ten passes may hold the same copy, each one write behind.
    Job copy = client.batch().v1().jobs().inNamespace(ns.name()).withName(name).get();
    assertThat(copy.getMetadata().getOwnerReferences()).hasSize(10);

    ExecutorService passes = Executors.newFixedThreadPool(10);
    try {
      List<Future<?>> left = new ArrayList<>();
      for (Function fn : functions) {
        left.add(passes.submit(() -> jobs.leave(fn, copy)));
      }
      for (Future<?> leaving : left) {
        leaving.get(30, TimeUnit.SECONDS);
      }
    } finally {
      passes.shutdownNow();
    }

    assertThat(client.batch().v1().jobs().inNamespace(ns.name()).withName(name).get())
        .as("the Job, after its ten owners left it in one pass each").isNull();
    assertThat(client.configMaps().inNamespace(ns.name()).withName(name).get()).as("its ConfigMap").isNull();
  }

  private static LayeredImages.Progress.NeedsDependencies needs(TestNamespace ns) {
    return new LayeredImages.Progress.NeedsDependencies(
        ImageName.parse("registry.local:5000/" + ns.name() + "/gitfn-dependencies:deps-0123"),
        ImageName.parse("registry.local:5000/base/nodejs22@sha256:" + "ab".repeat(32)),
        ImageName.parse("registry.local:5000/" + ns.name() + "/gitfn-dependencies:runtime-0123"), false,
        Instant.now());
  }

  private static Function create(KubernetesClient client, TestNamespace ns, String name) {
    return client.resource(TestFunction.inline().named(name).inNamespace(ns.name()).uid(null)
        .runtime(FunctionRuntime.NODEJS22).code("module.exports = { main: () => '" + name + "' };")
        .dependencies(DEPENDENCIES).build()).create();
  }

  private static Set<String> owners(HasMetadata object) {
    return object.getMetadata().getOwnerReferences().stream().map(OwnerReference::getUid).collect(Collectors.toSet());
  }
}
