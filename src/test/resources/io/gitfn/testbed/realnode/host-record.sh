#!/usr/bin/env bash
# Records, under $RUN_DIR/host/, the state of this machine that the real node will change, so that teardown.sh
# puts back exactly that: the sysctls kubelet, kube-proxy and the bridge set, the nftables tables that exist,
# the system folders containerd, kubelet and CNI may create, the network namespaces and the top-level cgroups.
# Refuses (exit 1) when another node's leftovers are there: recording them as "before" would keep them forever.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=/dev/null
source "$here/node.env"
# shellcheck source=/dev/null
source "$here/host-state.sh"

problems=()
ip link show "$BRIDGE" >/dev/null 2>&1 && problems+=("the bridge $BRIDGE exists")
for h in $(cgroup_hierarchies); do
  [[ -d "$h/kubepods" ]] && problems+=("the cgroup $h/kubepods exists")
done
for cmd in iptables ip6tables; do
  for table in filter nat mangle; do
    chains=$("$cmd" -w 5 -t "$table" -S 2>/dev/null | awk '$1 == "-N" && ($2 ~ /^KUBE-/ || $2 ~ /^GITFN-REALNODE/) { print $2 }' | tr '\n' ' ')
    [[ -n "$chains" ]] && problems+=("$cmd -t $table has chains of another node: $chains")
  done
done
overlap=$(ip -4 route show | awk -v a="$POD_SUBNET" -v b="$SERVICE_RANGE" '$1 == a || $1 == b { print }')
[[ -n "$overlap" ]] && problems+=("a route for the node's subnets exists already: $overlap")
if ((${#problems[@]})); then
  echo "host-record: this machine has another Kubernetes node's state, or an earlier real node's leftovers:" >&2
  printf '  - %s\n' "${problems[@]}" >&2
  last=$(cat "$LOCK.owner" 2>/dev/null)
  echo "  The last real node on this machine ran in ${last:-(none recorded)}; its teardown," \
    "bash ${last:-<run directory>}/bin/teardown.sh, removes what it left." >&2
  exit 1
fi

mkdir -p "$RUN_DIR/host"
record_sysctls >"$RUN_DIR/host/sysctls.before"
nft_tables >"$RUN_DIR/host/nft-tables.before"
existing_paths >"$RUN_DIR/host/paths.before"
netns_entries >"$RUN_DIR/host/netns.before"
top_cgroups >"$RUN_DIR/host/cgroups.before"
echo "host-record: recorded $(wc -l <"$RUN_DIR/host/sysctls.before") sysctls, $(wc -l <"$RUN_DIR/host/nft-tables.before") nftables tables, $(wc -l <"$RUN_DIR/host/paths.before") system folders"
