package io.gitfn.manifest;

import static io.gitfn.manifest.ManifestReaderTest.errors;
import static io.gitfn.manifest.ManifestReaderTest.function;
import static io.gitfn.manifest.ManifestReaderTest.functionWithSpec;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each rule of a valid revision, as the error a user sees: file, line, field and what to do. In Function
 * documents built by {@link ManifestReaderTest#function}, line 4 is the name, 6 the runtime, 10 the first extra
 * spec line.
 */
class ManifestValidationTest {

  static Arguments rule(String rule, FakeTree tree, String... expected) {
    return Arguments.of(rule, tree, List.of(expected));
  }

  static FakeTree doc(String text) {
    return FakeTree.of("functions/fn.yaml", text);
  }

  static Stream<Arguments> rules() {
    return Stream.of(
        rule("runtime must be supported",
            doc(functionWithSpec("fn", "runtime: cobol85", "source: {inline: {source: x}}")),
            "functions/fn.yaml:6: spec.runtime: runtime `cobol85` is not one of nodejs20, nodejs22, nodejs24, python312"),
        rule("runtime is required",
            doc(functionWithSpec("fn", "source: {inline: {source: x}}")),
            "functions/fn.yaml:5: spec.runtime: is required: one of nodejs20, nodejs22, nodejs24, python312"),
        rule("a misspelt field is an error, not silently dropped",
            doc(function("fn", "scaleConfig:", "  minReplica: 1", "  maxReplicas: 2")),
            "functions/fn.yaml:10: spec.scaleConfig.minReplicas: is required in scaleConfig",
            "functions/fn.yaml:11: spec.scaleConfig.minReplica: unknown field `minReplica`; a typo? Known here:"
                + " maxReplicas, minReplicas"),
        rule("a misspelt security context field is an error too",
            doc(function("fn", "podSecurityContext:", "  runAsUsr: 1000")),
            "functions/fn.yaml:11: spec.podSecurityContext.runAsUsr: unknown field `runAsUsr`; a typo? Known here:"
                + " appArmorProfile, fsGroup, fsGroupChangePolicy, runAsGroup, runAsNonRoot, runAsUser,"
                + " seLinuxChangePolicy, seLinuxOptions, seccompProfile, supplementalGroups,"
                + " supplementalGroupsPolicy, sysctls, windowsOptions"),
        rule("a field of the wrong type",
            doc(function("fn", "replicas: many")),
            "functions/fn.yaml:10: spec.replicas: has a value of the wrong type: Cannot deserialize value of type"
                + " `java.lang.Integer` from String \"many\": not a valid `java.lang.Integer` value"),
        rule("exactly one source",
            doc(functionWithSpec("fn", "runtime: nodejs22", "source:", "  inline: {source: x}",
                "  gitRepository: {url: 'https://github.com/o/r.git', baseDir: /, reference: main}")),
            "functions/fn.yaml:7: spec.source: set exactly one of inline or gitRepository"),
        rule("a source is required",
            doc(functionWithSpec("fn", "runtime: nodejs22")),
            "functions/fn.yaml:5: spec.source: set exactly one of inline or gitRepository"),
        rule("git baseDir, reference and secretName are not blank; auth type is basic or key",
            doc(functionWithSpec("fn", "runtime: nodejs22", "source:", "  gitRepository:",
                "    url: https://github.com/o/r.git", "    baseDir: ' '", "    reference: ''",
                "    auth: {type: token, secretName: ' '}")),
            "functions/fn.yaml:10: spec.source.gitRepository.baseDir: is required and cannot be empty (use / for"
                + " the root)",
            "functions/fn.yaml:11: spec.source.gitRepository.reference: is required and cannot be empty: a branch,"
                + " tag or commit",
            "functions/fn.yaml:12: spec.source.gitRepository.auth.type: auth type `token` is not one of basic, key",
            "functions/fn.yaml:12: spec.source.gitRepository.auth.secretName: is required and cannot be empty"),
        rule("the git URL has a form Kyma accepts",
            doc(functionWithSpec("fn", "runtime: nodejs22", "source:", "  gitRepository:",
                "    url: github.com/username/repo", "    baseDir: /", "    reference: main")),
            "functions/fn.yaml:9: spec.source.gitRepository.url: `github.com/username/repo` is not a Git URL: use"
                + " https://host/path, ssh://host/path, git://host/path or git@host:path, or `./` (this repository)"
                + " or `../name.git` (a repository beside it)"),
        rule("a relative git URL names this repository with ./ alone",
            doc(gitSourced("./../..")),
            "functions/fn.yaml:9: spec.source.gitRepository.url: `./../..`: `./` names this repository and takes"
                + " nothing after it; use `./` (this repository) or `../name.git` (a repository beside it)"),
        rule("a relative git URL with ../ names a repository, not a folder of the server",
            doc(gitSourced("../")),
            "functions/fn.yaml:9: spec.source.gitRepository.url: `../` names a folder of the server, not a"
                + " repository; use `./` (this repository) or `../name.git` (a repository beside it)"),
        rule("a relative git URL climbs only at its start",
            doc(gitSourced("../org/../other.git")),
            "functions/fn.yaml:9: spec.source.gitRepository.url: `../org/../other.git`: after its leading `../` a"
                + " relative URL names a path without empty, `.` or `..` segments; use `./` (this repository) or"
                + " `../name.git` (a repository beside it)"),
        rule("an absolute path is a path on one machine",
            doc(gitSourced("/srv/git/repo.git")),
            "functions/fn.yaml:9: spec.source.gitRepository.url: `/srv/git/repo.git` is a path on one machine, which"
                + " the controller cannot read: use https://host/path, ssh://host/path, git://host/path or"
                + " git@host:path, or `./` (this repository) or `../name.git` (a repository beside it)"),
        rule("a file URL is a path on one machine",
            doc(gitSourced("file:///srv/git/repo.git")),
            "functions/fn.yaml:9: spec.source.gitRepository.url: `file:///srv/git/repo.git` is a path on one"
                + " machine, which the controller cannot read: use https://host/path, ssh://host/path,"
                + " git://host/path or git@host:path, or `./` (this repository) or `../name.git` (a repository beside"
                + " it)"),
        rule("an SSH URL needs auth",
            doc(functionWithSpec("fn", "runtime: nodejs22", "source:", "  gitRepository:",
                "    url: git@github.com:o/r.git", "    baseDir: /", "    reference: main")),
            "functions/fn.yaml:8: spec.source.gitRepository.auth: is required for an SSH URL: type key and a Secret"
                + " with the key"),
        rule("reserved env names",
            doc(function("fn", "env:", "  - {name: FUNC_PORT, value: '1'}")),
            "functions/fn.yaml:11: spec.env[0].name: `FUNC_PORT` is reserved for the runtime; the reserved names"
                + " are FUNC_RUNTIME, FUNC_HANDLER, FUNC_PORT, FUNC_HANDLER_SOURCE, FUNC_HANDLER_DEPENDENCIES,"
                + " MOD_NAME, NODE_PATH, PYTHONPATH"),
        rule("Kyma's buildless env names are reserved too",
            doc(function("fn", "env:", "  - {name: FUNC_HANDLER_SOURCE, value: x}")),
            "functions/fn.yaml:11: spec.env[0].name: `FUNC_HANDLER_SOURCE` is reserved for the runtime; the"
                + " reserved names are FUNC_RUNTIME, FUNC_HANDLER, FUNC_PORT, FUNC_HANDLER_SOURCE,"
                + " FUNC_HANDLER_DEPENDENCIES, MOD_NAME, NODE_PATH, PYTHONPATH"),
        rule("the Istio sidecar's proxy config is not a Function's to set",
            doc(function("fn", "annotations: {proxy.istio.io/config: '{}'}")),
            "functions/fn.yaml:10: spec.annotations[proxy.istio.io/config]: is not allowed on a Function's Pods,"
                + " as in Kyma: the sidecar's proxy configuration is the mesh's to set"),
        rule("security contexts keep the Pod Security restricted level",
            doc(function("fn",
                "podSecurityContext:",
                "  runAsUser: 0",
                "  seccompProfile: {type: Unconfined}",
                "  sysctls: [{name: kernel.msgmax, value: '1'}]",
                "containerSecurityContext:",
                "  privileged: true",
                "  allowPrivilegeEscalation: true",
                "  runAsNonRoot: false",
                "  capabilities: {add: [NET_ADMIN]}",
                "  procMount: Unmasked")),
            "functions/fn.yaml:11: spec.podSecurityContext.runAsUser: breaks the Pod Security restricted level that"
                + " every Function Pod keeps: user 0 is root",
            "functions/fn.yaml:12: spec.podSecurityContext.seccompProfile.type: breaks the Pod Security restricted"
                + " level that every Function Pod keeps: `Unconfined` is not RuntimeDefault or Localhost",
            "functions/fn.yaml:13: spec.podSecurityContext.sysctls[0].name: breaks the Pod Security restricted level"
                + " that every Function Pod keeps: `kernel.msgmax` is not one of the safe sysctls"
                + " kernel.shm_rmid_forced, net.ipv4.ip_local_port_range, net.ipv4.ip_local_reserved_ports,"
                + " net.ipv4.ip_unprivileged_port_start, net.ipv4.ping_group_range, net.ipv4.tcp_fin_timeout,"
                + " net.ipv4.tcp_keepalive_intvl, net.ipv4.tcp_keepalive_probes, net.ipv4.tcp_keepalive_time,"
                + " net.ipv4.tcp_syncookies",
            "functions/fn.yaml:15: spec.containerSecurityContext.privileged: breaks the Pod Security restricted level"
                + " that every Function Pod keeps: a privileged container",
            "functions/fn.yaml:16: spec.containerSecurityContext.allowPrivilegeEscalation: breaks the Pod Security"
                + " restricted level that every Function Pod keeps: privilege escalation must be off",
            "functions/fn.yaml:17: spec.containerSecurityContext.runAsNonRoot: breaks the Pod Security restricted"
                + " level that every Function Pod keeps: containers must run as a non-root user",
            "functions/fn.yaml:18: spec.containerSecurityContext.capabilities.drop: breaks the Pod Security"
                + " restricted level that every Function Pod keeps: it must hold ALL (capabilities set here replace"
                + " gitfn's default, which drops ALL)",
            "functions/fn.yaml:18: spec.containerSecurityContext.capabilities.add[0]: breaks the Pod Security"
                + " restricted level that every Function Pod keeps: `NET_ADMIN` may not be added; only"
                + " NET_BIND_SERVICE may",
            "functions/fn.yaml:19: spec.containerSecurityContext.procMount: breaks the Pod Security restricted level"
                + " that every Function Pod keeps: only Default is allowed"),
        rule("env names are C identifiers",
            doc(function("fn", "env:", "  - name: LOG-LEVEL", "    value: debug")),
            "functions/fn.yaml:11: spec.env[0].name: `LOG-LEVEL` is not a C identifier (letters, digits and _, not"
                + " starting with a digit)"),
        rule("replicas is 0 or more",
            doc(function("fn", "replicas: -1")),
            "functions/fn.yaml:10: spec.replicas: is -1; it must be 0 or more"),
        rule("minReplicas is at most maxReplicas",
            doc(function("fn", "scaleConfig: {minReplicas: 3, maxReplicas: 1}")),
            "functions/fn.yaml:10: spec.scaleConfig: minReplicas 3 is more than maxReplicas 1"),
        rule("profile or resources, and profiles from the list",
            doc(function("fn", "resourceConfiguration:", "  function:", "    profile: XXL",
                "    resources: {limits: {cpu: 100m}}", "  build:", "    profile: turbo")),
            "functions/fn.yaml:11: spec.resourceConfiguration.function: set profile or resources, not both",
            "functions/fn.yaml:12: spec.resourceConfiguration.function.profile: profile `XXL` is not one of XS, S,"
                + " M, L, XL",
            "functions/fn.yaml:15: spec.resourceConfiguration.build.profile: profile `turbo` is not one of"
                + " local-dev, slow, normal, fast"),
        rule("function resources are at least 10m and 16Mi, and requests are within limits",
            doc(function("fn", "resourceConfiguration:", "  function:", "    resources:",
                "      requests: {cpu: 5m, memory: 256Mi}", "      limits: {cpu: 100m, memory: 128Mi}")),
            "functions/fn.yaml:13: spec.resourceConfiguration.function.resources.requests.cpu: cpu 5m is below the"
                + " minimum of 10m for function resources",
            "functions/fn.yaml:13: spec.resourceConfiguration.function.resources.requests.memory: memory request"
                + " 256Mi is more than its limit 128Mi"),
        rule("build resources are at least 200m and 200Mi",
            doc(function("fn", "resourceConfiguration:", "  build:", "    resources:",
                "      limits: {memory: 100Mi}")),
            "functions/fn.yaml:13: spec.resourceConfiguration.build.resources.limits.memory: memory 100Mi is below"
                + " the minimum of 200Mi for build resources"),
        rule("build resources are at most 4 CPUs and 8Gi, so one build cannot claim a node",
            doc(function("fn", "resourceConfiguration:", "  build:", "    resources:",
                "      limits: {cpu: 64, memory: 64Gi}")),
            "functions/fn.yaml:13: spec.resourceConfiguration.build.resources.limits.cpu: cpu 64 is above the"
                + " maximum of 4 for build resources",
            "functions/fn.yaml:13: spec.resourceConfiguration.build.resources.limits.memory: memory 64Gi is above"
                + " the maximum of 8Gi for build resources"),
        rule("no serverless.kyma-project.io/ label or annotation keys",
            doc(function("fn", "labels: {serverless.kyma-project.io/function-name: x}",
                "annotations: {serverless.kyma-project.io/x: y}")),
            "functions/fn.yaml:10: spec.labels[serverless.kyma-project.io/function-name]: keys starting with"
                + " serverless.kyma-project.io/ are reserved for the controller; use another prefix",
            "functions/fn.yaml:11: spec.annotations[serverless.kyma-project.io/x]: keys starting with"
                + " serverless.kyma-project.io/ are reserved for the controller; use another prefix"),
        rule("labels are valid Kubernetes labels",
            doc(function("fn", "labels:", "  team: " + "x".repeat(64), "  'bad key!': ok")),
            "functions/fn.yaml:11: spec.labels[team]: value `" + "x".repeat(64) + "` is not a valid label value:"
                + " at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit",
            "functions/fn.yaml:12: spec.labels[bad key!]: key `bad key!` is not a valid name: at most 63 letters,"
                + " digits, '-', '_' or '.', starting and ending with a letter or digit, after an optional DNS"
                + " prefix and '/'"),
        rule("template is forbidden",
            doc(function("fn", "template:", "  labels: {a: b}")),
            "functions/fn.yaml:10: spec.template: is not supported; move its labels and annotations to spec.labels"
                + " and spec.annotations"),
        rule("secret mounts: DNS-1123 names, unique, with a mount path",
            doc(function("fn", "secretMounts:", "  - {secretName: tls, mountPath: /a}",
                "  - {secretName: tls, mountPath: /b}", "  - {secretName: " + "a".repeat(254) + ", mountPath: ''}")),
            "functions/fn.yaml:12: spec.secretMounts[1].secretName: Secret `tls` is mounted twice; mount it once",
            "functions/fn.yaml:13: spec.secretMounts[2].secretName: `" + "a".repeat(254) + "` is not a Secret name"
                + " (a DNS-1123 subdomain: lower-case letters, digits, '-' and '.', at most 253 characters)",
            "functions/fn.yaml:13: spec.secretMounts[2].mountPath: is required"),
        rule("Node.js dependencies are a JSON object",
            doc(functionWithSpec("fn", "runtime: nodejs22", "source:", "  inline:", "    source: x",
                "    dependencies: lodash")),
            "functions/fn.yaml:10: spec.source.inline.dependencies: Node.js dependencies must be a package.json"
                + " object, starting with { and ending with }"),
        rule("a name is a DNS-1035 label",
            doc(function("Hello_World")),
            "functions/fn.yaml:4: metadata.name: name `Hello_World` is not a DNS-1035 label: use lower-case"
                + " letters, digits and '-', start with a letter and end with a letter or digit"),
        rule("the build-mode annotation names a mode",
            doc(function("fn").replace("  name: fn\n",
                "  name: fn\n  annotations:\n    gitfn.io/build-mode: buildles\n")),
            "functions/fn.yaml:6: metadata.annotations[gitfn.io/build-mode]: `buildles` is not a build mode: use"
                + " one of image, buildless"),
        rule("a name has at most 63 characters",
            doc(function("a".repeat(64))),
            "functions/fn.yaml:4: metadata.name: name `" + "a".repeat(64) + "` is 64 characters; a Function name"
                + " has at most 63"),
        rule("only v1alpha2",
            doc(function("fn").replace("v1alpha2", "v1alpha1")),
            "functions/fn.yaml:1: apiVersion: `serverless.kyma-project.io/v1alpha1` is not supported; gitfn reads"
                + " Functions of serverless.kyma-project.io/v1alpha2 (convert v1alpha1 Functions to it)"),
        rule("YAML syntax errors have their line",
            doc(function("fn") + "  labels: {a: [b\n"),
            "functions/fn.yaml:11: is not valid YAML: expected ',' or ']', but got <stream end>; fix the syntax"),
        rule("a key given twice",
            doc(function("fn", "replicas: 1", "replicas: 2")),
            "functions/fn.yaml:11: spec.replicas: is given twice in the same mapping; keep one"),
        rule("a symlink that leaves the path",
            new FakeTree().file("functions/a/package.json", "{}")
                .symlink("functions/a/handler.js", "../../secrets/handler.js")
                .file("secrets/handler.js", "x"),
            "functions/a/handler.js: is a symlink to `../../secrets/handler.js`, which leaves `functions`; gitfn"
                + " reads nothing outside the repository's path. Replace the link with the file, or ignore it in"
                + " .gitfnignore"),
        rule("an absolute symlink",
            new FakeTree().file("functions/a.yaml", function("a")).symlink("functions/passwd", "/etc/passwd"),
            "functions/passwd: is a symlink to `/etc/passwd`, which leaves `functions`; gitfn reads nothing outside"
                + " the repository's path. Replace the link with the file, or ignore it in .gitfnignore"),
        rule("a sourcePath that leaves the path",
            FakeTree.of("functions/orders/config.yaml",
                "name: orders\nruntime: nodejs22\nsource:\n  sourcePath: ../../shared\n",
                "shared/handler.js", "x", "shared/package.json", "{}"),
            "functions/orders/config.yaml:4: source.sourcePath: `../../shared` leaves `functions`; gitfn reads"
                + " nothing outside the repository's path"),
        rule("unknown runtime in config.yaml",
            FakeTree.of("functions/orders/config.yaml", "name: orders\nruntime: cobol85\n"),
            "functions/orders/config.yaml:2: spec.runtime: runtime `cobol85` is not one of nodejs20, nodejs22,"
                + " nodejs24, python312"),
        rule("errors about a config.yaml Function point at its keys",
            FakeTree.of("functions/orders/config.yaml",
                "name: orders\nruntime: nodejs22\nenv:\n  - name: FUNC_PORT\n    value: '1'\nresource:\n"
                    + "  limits: {cpu: 1m}\n",
                "functions/orders/handler.js", "x", "functions/orders/package.json", "oops"),
            "functions/orders/config.yaml:4: spec.env[0].name: `FUNC_PORT` is reserved for the runtime; the"
                + " reserved names are FUNC_RUNTIME, FUNC_HANDLER, FUNC_PORT, FUNC_HANDLER_SOURCE,"
                + " FUNC_HANDLER_DEPENDENCIES, MOD_NAME, NODE_PATH, PYTHONPATH",
            "functions/orders/config.yaml:7: spec.resourceConfiguration.function.resources.limits.cpu: cpu 1m is"
                + " below the minimum of 10m for function resources",
            "functions/orders/package.json: spec.source.inline.dependencies: Node.js dependencies must be a"
                + " package.json object, starting with { and ending with }"),
        rule("a misspelt config.yaml key",
            FakeTree.of("functions/orders/config.yaml", "name: orders\nruntime: nodejs22\nsource:\n  sourcType: git\n",
                "functions/orders/handler.js", "x", "functions/orders/package.json", "{}"),
            "functions/orders/config.yaml:4: source.sourcType: unknown field `sourcType` of a Kyma CLI config.yaml;"
                + " a typo? Known here: sourceType, sourcePath, sourceHandlerName, depsHandlerName, url, repository,"
                + " reference, baseDir, credentialsType, credentialsSecretName"),
        rule("both resource and resources in config.yaml",
            FakeTree.of("functions/orders/config.yaml",
                "name: orders\nruntime: nodejs22\nresource: {}\nresources: {}\n",
                "functions/orders/handler.js", "x", "functions/orders/package.json", "{}"),
            "functions/orders/config.yaml:4: resources: config.yaml has both resource and resources; keep one"),
        rule("a config.yaml's handler must exist",
            FakeTree.of("functions/orders/config.yaml", "name: orders\nruntime: python312\n",
                "functions/orders/requirements.txt", ""),
            "functions/orders/config.yaml:1: source: there is no handler.py in `functions/orders` (or it is"
                + " ignored); add it or set source.sourceHandlerName"),
        rule("a config.yaml that is not a Kyma CLI config",
            FakeTree.of("functions/app/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"),
            "functions/app/config.yaml:2: kind: is not a Kyma CLI function config (it is a Kubernetes ConfigMap); in"
                + " gitfn a file named config.yaml is one, with name, runtime and source. Rename this file or list"
                + " it in .gitfnignore"),
        rule("a folder with both Node.js and Python handlers",
            FakeTree.of("functions/both/handler.js", "x", "functions/both/package.json", "{}",
                "functions/both/handler.py", "x", "functions/both/requirements.txt", ""),
            "functions/both: holds both handler.js and handler.py; a function folder is one Function: keep one"
                + " runtime's files, or add a config.yaml that says which"),
        rule("a handler without its dependency file",
            FakeTree.of("functions/lonely/handler.js", "x"),
            "functions/lonely/handler.js: has no package.json next to it; add one (`{}` will do), or list the folder"
                + " in .gitfnignore"));
  }

  /** A Function built from {@code url}, which is on line 9. */
  private static String gitSourced(String url) {
    return functionWithSpec("fn", "runtime: nodejs22", "source:", "  gitRepository:", "    url: '" + url + "'",
        "    baseDir: /", "    reference: main");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void rejects(String rule, FakeTree tree, List<String> expected) {
    assertThat(errors(tree)).containsExactlyElementsOf(expected);
  }
}
