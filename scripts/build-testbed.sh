#!/usr/bin/env bash
# Builds the test-bed binaries from their Go modules and caches them outside the repository:
#   etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok, and the real node's kubelet and kube-proxy
# into ${GITFN_TESTENV_DIR:-~/.cache/gitfn-testenv}/<versions>/bin, and gitea, helm, kustomize and the real
# node's registry, CoreDNS and ingress controller (Traefik, with the Gateway API's CRDs), and sops, into folders of
# their own beside it (gitea-<version>, helm-<version>, kustomize-<version>, registry-<version>, coredns-<version>,
# traefik-<version>, gateway-api-<version>, sops-<version>), so that bumping one does not rebuild the others.
# A binary already there is not rebuilt.
# `build-testbed.sh flux` builds only Flux's source-controller and its CRDs, for the scale benchmark, into
# source-controller-<version>; without the argument Flux is not built.
# Kyma's Function test program (src/test/kyma/serverless, vendored) is built too, into kyma-tests-<key>,
# where <key> hashes the vendored sources; `build-testbed.sh kyma-tests` builds only it.
# GOMODCACHE and GOCACHE are Go's own defaults, so they survive between runs too.
set -euo pipefail

case "${1:-}" in
  "" | flux | kyma-tests) ;;
  *) echo "usage: build-testbed.sh [flux|kyma-tests]" >&2; exit 2 ;;
esac

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=testbed.versions
source "$here/testbed.versions"

key="k8s-${KUBERNETES_VERSION}_etcd-${ETCD_VERSION}_kwok-${KWOK_VERSION}"
root="${GITFN_TESTENV_DIR:-$HOME/.cache/gitfn-testenv}/$key"
bin="$root/bin"
work="$root/work"
mkdir -p "$bin" "$work"

# One build at a time per cache directory: two checkouts running tests at once share it.
exec 9>"$root/.lock"
flock 9

log() { printf '%s build-testbed: %s\n' "$(date +%H:%M:%S)" "$*"; }

# Kubernetes' go.mod asks for a recent Go. Go >= 1.21 fetches that toolchain through the module proxy
# itself (GOTOOLCHAIN=auto); an older Go, or none, gets ${GO_TOOLCHAIN} from the proxy, as Go would.
ensure_go() {
  export GOTOOLCHAIN="${GOTOOLCHAIN:-auto}"
  local have=""
  command -v go >/dev/null && have=$(go env GOVERSION 2>/dev/null || true)
  if [[ "$have" =~ ^go1\.([0-9]+) ]] && ((BASH_REMATCH[1] >= 21)); then
    return
  fi
  local goroot="${GITFN_TESTENV_DIR:-$HOME/.cache/gitfn-testenv}/toolchain/${GO_TOOLCHAIN}"
  if [[ ! -x "$goroot/bin/go" ]]; then
    log "go: found ${have:-no go} on PATH, need go1.21 or newer; fetching ${GO_TOOLCHAIN} from the Go module proxy"
    local proxy="${GOPROXY:-https://proxy.golang.org}"
    proxy="${proxy%%,*}"
    local zip
    zip=$(mktemp)
    curl -fsSL -o "$zip" "$proxy/golang.org/toolchain/@v/v0.0.1-${GO_TOOLCHAIN}.linux-amd64.zip"
    local unpack
    unpack=$(mktemp -d)
    unzip -q "$zip" -d "$unpack"
    mkdir -p "$(dirname "$goroot")"
    rm -rf "$goroot"
    mv "$unpack/golang.org/toolchain@v0.0.1-${GO_TOOLCHAIN}.linux-amd64" "$goroot"
    chmod +x "$goroot"/bin/* "$goroot"/pkg/tool/*/*
    rm -rf "$zip" "$unpack"
  fi
  export PATH="$goroot/bin:$PATH" GOTOOLCHAIN=local
  log "go: using $(go env GOVERSION) from $goroot"
}
ensure_go
export GOFLAGS="${GOFLAGS:--buildvcs=false} -trimpath"
export CGO_ENABLED=0

# timed NAME COMMAND... runs the build of NAME unless $bin/NAME exists, and says how long it took. The
# command writes $out; only a finished build is moved into $bin, so an interrupted one is never "cached".
# timed_in DIR NAME COMMAND... does the same into a cache folder of its own, DIR: what the command puts beside
# the binary (Gitea's source folder, Flux's CRDs) is written before the binary, so the binary vouches for it.
timed() {
  local name=$1; shift
  timed_in "$bin" "$name" "$@"
}
timed_in() {
  local dir=$1 name=$2; shift 2
  if [[ -x "$dir/$name" ]]; then
    log "$name: cached"
    return
  fi
  log "$name: building"
  local start=$SECONDS
  mkdir -p "$dir"
  out="$work/$name.partial"
  rm -f "$out"
  "$@"
  [[ -x "$out" ]] || { echo "build-testbed: $name was not produced" >&2; exit 1; }
  mv "$out" "$dir/$name"
  log "$name: built in $((SECONDS - start)) s"
}

# module_of_our_own NAME MODULE@VERSION makes $work/NAME a module that requires MODULE and repeats its replace
# lines, which a consuming module must do; those into MODULE's own folder are left out, as a consuming module
# cannot follow them. `go build` there then builds MODULE's commands with the dependencies MODULE pins. Sets
# $module_source to MODULE's folder in the module cache.
module_of_our_own() {
  local name=$1 module=$2 json gomod
  mkdir -p "$work/$name"
  json=$(go mod download -json "$module")
  gomod=$(sed -n 's/.*"GoMod": "\(.*\)".*/\1/p' <<<"$json")
  module_source=$(sed -n 's/.*"Dir": "\(.*\)".*/\1/p' <<<"$json")
  {
    echo "module gitfn.io/testbed/$name"
    echo
    grep -m1 '^go ' "$gomod"
    echo
    # awk, not grep: a module without replace lines (CoreDNS) must not end the script under pipefail.
    awk '/^replace / && !/=> \.\.?\// { sub(/ \/\/.*/, ""); print }' "$gomod"
  } >"$work/$name/go.mod"
  (cd "$work/$name" && go get "$module")
}

build_etcd() {
  # The etcd repository's root module points at its siblings through local replace directives, so the
  # server is built from a three-line main in a module of our own.
  local dir="$work/etcd"
  mkdir -p "$dir"
  cat >"$dir/main.go" <<'GO'
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
  (cd "$dir" && rm -f go.mod go.sum && go mod init gitfn.io/testbed/etcd >/dev/null 2>&1 &&
    go get "go.etcd.io/etcd/server/v3@${ETCD_VERSION}" &&
    go mod tidy &&
    go build -o "$out" .)
}

# k8s.io/kubernetes requires its staging modules at v0.0.0 and replaces them with local paths. A consuming
# module must replace each with its published version: Kubernetes v1.N.P matches staging v0.N.P.
prepare_kubernetes_module() {
  local dir="$work/kubernetes"
  [[ -f "$dir/go.sum" && -f "$dir/.ready" ]] && return
  mkdir -p "$dir"
  local gomod staging
  gomod=$(go mod download -json "k8s.io/kubernetes@${KUBERNETES_VERSION}" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
  staging="v0.${KUBERNETES_VERSION#v1.}"
  {
    echo "module gitfn.io/testbed/kubernetes"
    echo
    grep -m1 '^go ' "$gomod"
    echo
    echo "replace ("
    grep -E '^\s+k8s\.io/[a-z0-9-]+ v0\.0\.0( |$)' "$gomod" | awk -v v="$staging" '{ printf "\t%s => %s %s\n", $1, $1, v }' | sort -u
    echo ")"
  } >"$dir/go.mod"
  (cd "$dir" && go get \
    "k8s.io/kubernetes/cmd/kube-apiserver@${KUBERNETES_VERSION}" \
    "k8s.io/kubernetes/cmd/kube-controller-manager@${KUBERNETES_VERSION}" \
    "k8s.io/kubernetes/cmd/kube-scheduler@${KUBERNETES_VERSION}")
  touch "$dir/.ready"
}

# The module above was first prepared for the three control-plane commands; another command of the same module
# (kubelet, kube-proxy) needs its own packages' go.sum lines, added once.
prepare_kubernetes_command() {
  local dir="$work/kubernetes" name=$1
  case "$name" in kube-apiserver | kube-controller-manager | kube-scheduler) return ;; esac
  [[ -f "$dir/.ready-$name" ]] && return
  (cd "$dir" && go get "k8s.io/kubernetes/cmd/$name@${KUBERNETES_VERSION}")
  touch "$dir/.ready-$name"
}

build_kubernetes() {
  local name=$1
  prepare_kubernetes_module
  prepare_kubernetes_command "$name"
  local minor=${KUBERNETES_VERSION#v1.}; minor=${minor%%.*}
  local pkg=k8s.io/component-base/version
  # Without these the binaries report v0.0.0-master, which clients and kwok read as an unknown server.
  local ldflags="-s -w -X $pkg.gitVersion=${KUBERNETES_VERSION} -X $pkg.gitMajor=1 -X $pkg.gitMinor=${minor} -X $pkg.gitTreeState=clean"
  (cd "$work/kubernetes" && go build -ldflags "$ldflags" -o "$out" "k8s.io/kubernetes/cmd/$name")
}

build_kwok() {
  local gobin="$work/kwok-bin"
  GOBIN="$gobin" go install "sigs.k8s.io/kwok/cmd/kwok@${KWOK_VERSION}"
  mv "$gobin/kwok" "$out"
}

# kwok on its own (not through kwokctl) starts with no Stages: nothing would ever become Ready. Its own stage
# set from the module makes fake nodes Ready and keeps their leases, makes Pods Ready, completes Job Pods
# and finishes deletions.
write_kwok_stages() {
  local src out="$root/kwok-stages.yaml"
  [[ -s "$out" ]] && return
  src=$(go mod download -json "sigs.k8s.io/kwok@${KWOK_VERSION}" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')/kustomize/stage
  local tmp="$out.tmp"
  : >"$tmp"
  for f in node/fast/node-initialize.yaml node/heartbeat-with-lease/node-heartbeat-with-lease.yaml \
    pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml; do
    { echo "---"; cat "$src/$f"; } >>"$tmp"
  done
  mv "$tmp" "$out"
  log "kwok stages: $out"
}

# Gitea's module has replace directives of its own, which a consuming module must repeat. SQLite needs cgo
# and these tags. Without the bindata tag Gitea reads templates and options from its source tree, so the
# module's directory is recorded beside the binary for the test to point STATIC_ROOT_PATH at.
gitea_root="${GITFN_TESTENV_DIR:-$HOME/.cache/gitfn-testenv}/gitea-${GITEA_VERSION}"
# Gitea lives in a cache folder of its own, so that bumping it does not rebuild Kubernetes and back.
build_gitea() {
  module_of_our_own gitea "code.gitea.io/gitea@${GITEA_VERSION}"
  (cd "$work/gitea" && CGO_ENABLED=1 go build -tags 'sqlite sqlite_unlock_notify' -o "$out" code.gitea.io/gitea)
  echo "$module_source" >"$gitea_root/source-dir"
}

# helm and kustomize install gitfn (charts/gitfn, config/default); the install tests render and apply them.
# Neither module has replace directives, so `go install module/cmd@version` builds each as published.
# tool_root NAME VERSION is the folder that caches one such tool.
tool_root() { echo "${GITFN_TESTENV_DIR:-$HOME/.cache/gitfn-testenv}/$1-$2"; }
timed_tool() {
  local name=$1 version=$2 pkg=$3
  local dir
  dir=$(tool_root "$name" "$version")
  if [[ -x "$dir/$name" ]]; then
    log "$name: cached"
    return
  fi
  log "$name: building"
  local start=$SECONDS gobin="$work/$name-bin"
  mkdir -p "$dir"
  rm -rf "$gobin"
  GOBIN="$gobin" go install -ldflags "${4:-}" "$pkg@$version"
  [[ -x "$gobin/$name" ]] || { echo "build-testbed: $name was not produced" >&2; exit 1; }
  mv "$gobin/$name" "$dir/$name"
  log "$name: built in $((SECONDS - start)) s"
}

# The real node's cluster DNS (CoreDNS). Its own main (`coredns` at the module's root) imports every plugin,
# with the cloud SDKs of route53, azure and clouddns: 321 s, a 1.1 GB build cache and a 79 MB binary on 2 cores
# with nothing cached, against 115 s, 650 MB and 56 MB for this main with the four plugins the node's Corefile
# (CoreDns.java) uses. A plugin registers itself when imported; dnsserver.Directives lists every plugin in order.
build_coredns() {
  module_of_our_own coredns "github.com/coredns/coredns@${COREDNS_VERSION}"
  cat >"$work/coredns/main.go" <<'GO'
package main

import (
	_ "github.com/coredns/coredns/core/dnsserver"
	"github.com/coredns/coredns/coremain"
	_ "github.com/coredns/coredns/plugin/bind"
	_ "github.com/coredns/coredns/plugin/errors"
	_ "github.com/coredns/coredns/plugin/kubernetes"
	_ "github.com/coredns/coredns/plugin/template"
)

func main() { coremain.Run() }
GO
  (cd "$work/coredns" && go mod tidy && go build -ldflags "-s -w" -o "$out" .)
}

# The real node's ingress controller (Traefik), for Ingresses and the Gateway API's HTTPRoutes
# (src/test/java/io/gitfn/testbed/realnode/Traefik.java). Three of the modules it imports cannot come as published,
# so our module replaces each with a folder of its own:
# - github.com/traefik/traefik/dynamic/ext is a module of its own at ./pkg/config/dynamic/ext, and so left out of
#   Traefik's module zip, and no proxy serves it under that path. At this tag it is two empty structs (extension
#   points of Traefik's commercial builds), which ext/ here repeats.
# - github.com/containous/go-http-auth, Traefik's fork of github.com/abbot/go-http-auth (basicAuth and digestAuth
#   middlewares): the Go module proxy refuses it (403). v0.4.0 of the original, which it serves, lacks two functions
#   of the fork that Traefik calls; go-http-auth/ is v0.4.0 with them added (fork.go below). The test bed uses neither
#   middleware.
# - github.com/go-acme/lego/v5's providers/dns imports every ACME DNS-01 provider, and the proxy refuses the SDKs of
#   a dozen of them (akamai, huaweicloud, ucloud, oci, ...). lego/ is lego with a providers/dns that knows no provider:
#   ACME needs the internet, which the test bed never reaches.
# -mod=mod: the build adds the go.sum lines of the packages it compiles; `go get` of the command would ask the
# proxy for the refused modules. Only the main module's exclude lines count, so Traefik's one is repeated.
# On 2 cores shared with other builds, modules already downloaded and no package of it in the Go build cache: 265 s,
# a 144 MB binary (-s -w).
traefik_root=$(tool_root traefik "${TRAEFIK_VERSION}")
build_traefik() {
  local dir="$work/traefik" json gomod lego
  rm -rf "$dir"
  mkdir -p "$dir/ext"
  printf 'module github.com/traefik/traefik/dynamic/ext\n\ngo 1.24.0\n' >"$dir/ext/go.mod"
  cat >"$dir/ext/ext.go" <<'GO'
package ext

// HTTP is a dynamic.HTTP extension.
type HTTP struct{}

// Router is a dynamic.Router extension.
type Router struct{}
GO
  json=$(go mod download -json "github.com/traefik/traefik/v3@${TRAEFIK_VERSION}")
  gomod=$(sed -n 's/.*"GoMod": "\(.*\)".*/\1/p' <<<"$json")

  copy_module "$dir/go-http-auth" github.com/abbot/go-http-auth@v0.4.0
  # v0.4.0 predates modules; a folder that replaces a module needs a go.mod.
  printf 'module github.com/abbot/go-http-auth\n\ngo 1.12\n' >"$dir/go-http-auth/go.mod"
  cat >"$dir/go-http-auth/fork.go" <<'GO'
package auth

import (
	"net/http"
	"strings"
)

// CheckSecret returns true if the password matches the encrypted secret: BasicAuth.CheckAuth's comparison, by the
// secret's prefix, as Traefik's fork of this module exports it.
func CheckSecret(password, secret string) bool {
	compare := compareFuncs[0].compare
	for _, cmp := range compareFuncs[1:] {
		if strings.HasPrefix(secret, cmp.prefix) {
			compare = cmp.compare
			break
		}
	}
	return compare([]byte(secret), []byte(password)) == nil
}

// RequireAuthStale is what Traefik calls when the fork's CheckAuth reports a nonce out of order ("stale"). This
// CheckAuth never does, so it is never called; it asks for credentials again like RequireAuth.
func (a *DigestAuth) RequireAuthStale(w http.ResponseWriter, r *http.Request) {
	a.RequireAuth(w, r)
}
GO

  lego=$(awk '$1 == "github.com/go-acme/lego/v5" { print $2; exit }' "$gomod")
  copy_module "$dir/lego" "github.com/go-acme/lego/v5@$lego"
  cat >"$dir/lego/providers/dns/zz_gen_dns_providers.go" <<'GO'
package dns

import (
	"fmt"

	"github.com/go-acme/lego/v5/challenge"
)

// NewDNSChallengeProviderByName knows no provider in the test bed's build (scripts/build-testbed.sh says why).
func NewDNSChallengeProviderByName(name string) (challenge.Provider, error) {
	return nil, fmt.Errorf("unrecognized DNS provider: %s (the test bed builds Traefik without DNS-01 providers)", name)
}
GO

  {
    echo "module gitfn.io/testbed/traefik"
    echo
    grep -m1 '^go ' "$gomod"
    echo
    echo "require github.com/traefik/traefik/v3 ${TRAEFIK_VERSION}"
    echo
    echo "replace github.com/traefik/traefik/dynamic/ext => ./ext"
    echo "replace github.com/abbot/go-http-auth => ./go-http-auth"
    echo "replace github.com/go-acme/lego/v5 => ./lego"
    # Traefik's other replace lines (its forks of gorilla/mux and go-http-auth, the latter replaced above), in a
    # `replace (` block, which module_of_our_own's awk does not follow.
    awk '/^replace \($/ { block = 1; next } block && /^\)/ { block = 0; next }
      block && !/=> \.\.?\// && !/go-http-auth/ { sub(/ \/\/.*/, ""); sub(/^[ \t]+/, ""); print "replace " $0 }
      /^replace [^(]/ && !/=> \.\.?\// { sub(/ \/\/.*/, ""); print }' "$gomod"
    grep '^exclude ' "$gomod" || true
  } >"$dir/go.mod"
  (cd "$dir" && go build -mod=mod \
    -ldflags "-s -w -X github.com/traefik/traefik/v3/pkg/version.Version=${TRAEFIK_VERSION}" \
    -o "$out" github.com/traefik/traefik/v3/cmd/traefik)
}

# copy_module DIR MODULE@VERSION puts a writable copy of MODULE, from the module cache, into DIR.
copy_module() {
  local src
  src=$(go mod download -json "$2" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
  rm -rf "$1"
  cp -r "$src" "$1"
  chmod -R u+w "$1"
}

# The Gateway API's CRDs for Traefik's kubernetesgateway provider, from the release manifests in the module Traefik
# is built against (GATEWAY_API_VERSION, which its go.mod requires). The standard channel: its informers watch
# GatewayClass, Gateway, HTTPRoute, GRPCRoute, ReferenceGrant, BackendTLSPolicy and TLSRoute, all there, and
# TCPRoute only with its experimentalChannel option, which the test bed leaves off. It waits for every informer to
# sync before it serves anything, so a missing kind would stop it. Only the CRDs: the folder's ValidatingAdmissionPolicy
# (vap_safeupgrades) guards upgrades of a long-lived cluster. GatewayApiCrds.java applies them.
gateway_api_root=$(tool_root gateway-api "${GATEWAY_API_VERSION}")
write_gateway_api_crds() {
  local out="$gateway_api_root/crds" src tmp
  [[ -d "$out" ]] && { log "gateway-api CRDs: cached"; return; }
  src=$(go mod download -json "sigs.k8s.io/gateway-api@${GATEWAY_API_VERSION}" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
  tmp="$gateway_api_root/crds.partial"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  grep -l '^kind: CustomResourceDefinition$' "$src"/config/crd/standard/*.yaml | xargs cp -t "$tmp"
  chmod 644 "$tmp"/*.yaml
  mv "$tmp" "$out"
  log "gateway-api CRDs: $out ($(ls "$out" | wc -l) files)"
}

# Flux's source-controller (only with the `flux` argument, for the scale benchmark). Its go.mod replaces its api
# module with ./api, which a consuming module cannot follow, but also requires the published api module of the same
# version; so a module of our own repeats only the other replace lines, like Gitea's. No cgo, as upstream's
# Dockerfile builds it. Its CRDs come from the same module zip, all of them: it exits if a kind it watches is unknown.
flux_root=$(tool_root source-controller "${FLUX_SOURCE_CONTROLLER_VERSION}")
build_source_controller() {
  module_of_our_own source-controller "github.com/fluxcd/source-controller@${FLUX_SOURCE_CONTROLLER_VERSION}"
  (cd "$work/source-controller" && go build -ldflags "-s -w" -o "$out" github.com/fluxcd/source-controller)
  rm -rf "$flux_root/crds"
  mkdir -p "$flux_root/crds"
  cp "$module_source"/config/crd/bases/*.yaml "$flux_root/crds/"
}
if [[ "${1:-}" == flux ]]; then
  timed_in "$flux_root" source-controller build_source_controller
  log "source-controller ready: $flux_root"
  exit 0
fi

# Kyma's Function test program (`tests/serverless` of github.com/kyma-project/serverless at KYMA_TESTS_COMMIT),
# whose sources are in this repository because the Go module proxy refuses Kyma's module; its dependencies come
# from the proxy, as its go.sum pins them. The folder's key is a hash of every file the build reads, so an unchanged
# tree is not rebuilt and a changed one gets a new folder (src/test/kyma/serverless/README.md: how to make the key).
# -mod=readonly: the build never edits go.mod or go.sum; if they do not fit the sources it fails.
kyma_src=$(cd "$here/../src/test/kyma/serverless" && pwd)
kyma_key=$(cd "$kyma_src" && find . -type f \( -name '*.go' -o -name go.mod -o -name go.sum \) -print0 |
  LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
kyma_root="${GITFN_TESTENV_DIR:-$HOME/.cache/gitfn-testenv}/kyma-tests-$kyma_key"
build_kyma_tests() {
  (cd "$kyma_src" && go build -mod=readonly -ldflags "-s -w" -o "$out" ./tests/serverless/cmd)
}
if [[ "${1:-}" == kyma-tests ]]; then
  timed_in "$kyma_root" kyma-serverless-tests build_kyma_tests
  log "kyma-serverless-tests ready: $kyma_root/kyma-serverless-tests"
  exit 0
fi

total=$SECONDS
timed etcd build_etcd
timed kube-apiserver build_kubernetes kube-apiserver
timed kube-controller-manager build_kubernetes kube-controller-manager
timed kube-scheduler build_kubernetes kube-scheduler
timed kwok build_kwok
# The real node (src/test/java/io/gitfn/testbed/realnode): kubelet takes about 5 minutes on 2 cores, once.
timed kubelet build_kubernetes kubelet
timed kube-proxy build_kubernetes kube-proxy
write_kwok_stages
timed_in "$gitea_root" gitea build_gitea
# helm's own Makefile sets these: its version, and the Kubernetes release that `helm template` and `helm lint`
# assume without a cluster, taken from the client-go it is built with (v0.N.P is Kubernetes 1.N). Without
# them helm assumes Kubernetes 1.20 and refuses charts that ask for a newer one.
helm_ldflags() {
  local gomod minor
  gomod=$(go mod download -json "helm.sh/helm/v3@${HELM_VERSION}" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
  minor=$(sed -n 's/^\s*k8s\.io\/client-go v0\.\([0-9]*\)\..*/\1/p' "$gomod")
  [[ -n "$minor" ]] || { echo "build-testbed: no k8s.io/client-go in $gomod" >&2; exit 1; }
  local x="-X helm.sh/helm/v3"
  echo "-s -w $x/internal/version.version=${HELM_VERSION} $x/pkg/lint/rules.k8sVersionMajor=1" \
    "$x/pkg/lint/rules.k8sVersionMinor=$minor $x/pkg/chartutil.k8sVersionMajor=1 $x/pkg/chartutil.k8sVersionMinor=$minor"
}
timed_tool helm "$HELM_VERSION" helm.sh/helm/v3/cmd/helm "$(helm_ldflags)"
timed_tool kustomize "$KUSTOMIZE_VERSION" sigs.k8s.io/kustomize/kustomize/v5 "-s -w"
# The real node's image registry; its module has no replace directives either.
timed_tool registry "$REGISTRY_VERSION" github.com/distribution/distribution/v3/cmd/registry \
  "-s -w -X github.com/distribution/distribution/v3/version.version=${REGISTRY_VERSION}"
timed_in "$(tool_root coredns "$COREDNS_VERSION")" coredns build_coredns
# sops encrypts the Secrets that gitfn's own SOPS reader is tested on (SopsRoundTripIT); version.Version is set in
# its source, so no -X is needed.
timed_tool sops "$SOPS_VERSION" github.com/getsops/sops/v3/cmd/sops "-s -w"
timed_in "$traefik_root" traefik build_traefik
write_gateway_api_crds
# Kyma's Function test program, which `mvn -B verify` runs against gitfn on the real node (issue 29).
timed_in "$kyma_root" kyma-serverless-tests build_kyma_tests
log "all binaries ready in $((SECONDS - total)) s: $bin, $gitea_root, $(tool_root helm "$HELM_VERSION"), $(tool_root kustomize "$KUSTOMIZE_VERSION"), $(tool_root registry "$REGISTRY_VERSION"), $(tool_root coredns "$COREDNS_VERSION"), $(tool_root sops "$SOPS_VERSION"), $traefik_root, $gateway_api_root, $kyma_root"
