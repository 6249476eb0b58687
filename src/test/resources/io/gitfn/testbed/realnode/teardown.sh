#!/usr/bin/env bash
# Puts this machine back as it was before the real node in this run directory started: RealNode.close() runs
# it, and so does node-guard.sh when the test JVM is gone, even after kill -9. Running it again finds nothing to
# do. Every step goes on when one before it failed; the last one lists what is still there, and then the
# script exits 1.
#
#  1. processes: kubelet first (it would start Pods again), then every process in the kubepods cgroups (the
#     Pods' containers), the containerd shims, and every other process whose command line names this run
#     directory (the components and their guards);
#  2. conntrack entries of the Pod subnet and the Service range;
#  3. `kube-proxy --cleanup`, then kubelet's and kube-proxy's KUBE-* chains and this node's GITFN-REALNODE-*
#     chains in iptables and ip6tables, and the nftables tables the node created once they hold no rule;
#  4. mounts under the run directory (kubelet's root dir, volumes, containerd's rootfs and shm mounts, network
#     namespaces) and the /run/netns entries that were not there before;
#  5. the bridge, with any veth still on it;
#  6. the kubepods cgroups, and the k8s.io ones when they were not there before;
#  7. the recorded sysctls;
#  8. files in system folders (log links, CNI caches, shim sockets), and the folders themselves when the node
#     created them;
#  9. the run directory's data (etcd, containerd, kubelet, registry), keeping its logs.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=/dev/null
source "$here/node.env"
# shellcheck source=/dev/null
source "$here/host-state.sh"
host="$RUN_DIR/host"

# Another node's guard holding the lock means this run is long over and that node's changes are not ours to
# undo (its sysctls, its KUBE-* chains): an old run's teardown.sh, run by hand, must not break a live node.
exec 8>>"$LOCK"
if ! flock -n 8 && [[ "$(cat "$LOCK.owner" 2>/dev/null)" != "$RUN_DIR" ]]; then
  echo "teardown: another real node runs now ($(cat "$LOCK.owner" 2>/dev/null)); nothing of it is undone" >&2
  exit 2
fi
exec 8>&-

log() { printf 'teardown: %s\n' "$*"; }
in_list() { [[ -f "$2" ]] && grep -qxF -- "$1" "$2"; }

# --- 1. processes --------------------------------------------------------------------------------------------

# Process ids whose command line names this run directory, but not this script nor the guard that runs it.
# The run directory is this node's own (target/testbed/realnode-XXXX), so only processes this node started match.
node_pids() {
  local file pid cmdline
  # One grep over every command line; the few matches are then looked at one by one.
  for file in $(grep -lasF -- "$RUN_DIR" /proc/[0-9]*/cmdline); do
    pid=${file#/proc/}
    pid=${pid%/cmdline}
    [[ "$pid" == "$$" || "$pid" == "$BASHPID" ]] && continue
    cmdline=$({ tr '\0' ' ' <"$file"; } 2>/dev/null) || continue
    [[ "$cmdline" == *"$RUN_DIR"* ]] || continue
    [[ "$cmdline" == *"$here/node-guard.sh"* || "$cmdline" == *"$here/teardown.sh"* ]] && continue
    if [[ -z "${1:-}" ]] || [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == "$1"* ]]; then
      echo "$pid"
    fi
  done
}

# stop WAIT PIDS...: TERM, up to WAIT seconds for them to end, then KILL.
stop() {
  local wait=$1 pid i
  shift
  (($#)) || return 0
  kill -TERM "$@" 2>/dev/null
  for ((i = 0; i < wait * 10; i++)); do
    local alive=0
    for pid in "$@"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    ((alive)) || return 0
    sleep 0.1
  done
  kill -KILL "$@" 2>/dev/null
  sleep 0.2
}

pod_pids() {
  local h
  for h in $(cgroup_hierarchies); do
    [[ -d "$h/kubepods" ]] && find "$h/kubepods" -name cgroup.procs -exec cat {} + 2>/dev/null
  done | sort -u
}

# A test node's data is thrown away, so nothing needs a long graceful stop: 1 s, then KILL.
# shellcheck disable=SC2046
stop 1 $(node_pids kubelet)
for _ in $(seq 50); do
  pids=$(pod_pids)
  [[ -z "$pids" ]] && break
  # shellcheck disable=SC2086
  kill -KILL $pids 2>/dev/null
  sleep 0.1
done
# shellcheck disable=SC2046
stop 0 $(node_pids containerd-shim)
# The servers get TERM and 1 s; their bash guards ignore TERM by design (ComponentProcess) and get KILL.
servers=()
guards=()
for pid in $(node_pids); do
  if [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == bash ]]; then guards+=("$pid"); else servers+=("$pid"); fi
done
stop 1 "${servers[@]}"
((${#guards[@]})) && kill -KILL "${guards[@]}" 2>/dev/null
[[ -n "$(node_pids)" ]] && log "processes still running: $(node_pids | tr '\n' ' ')"

# --- 2. conntrack -----------------------------------------------------------------------------------------------

if command -v conntrack >/dev/null; then
  for range in "$POD_SUBNET" "$SERVICE_RANGE"; do
    conntrack -D --orig-src "$range" >/dev/null 2>&1
    conntrack -D --orig-dst "$range" >/dev/null 2>&1
  done
fi

# --- 3. packet filter rules ---------------------------------------------------------------------------------------

if [[ -x "${KUBE_PROXY:-}" ]]; then
  "$KUBE_PROXY" --cleanup --v=0 >"$RUN_DIR/logs/kube-proxy-cleanup.log" 2>&1 ||
    log "kube-proxy --cleanup failed; see $RUN_DIR/logs/kube-proxy-cleanup.log"
fi

node_chain() { [[ "$1" == KUBE-* || "$1" == GITFN-REALNODE-* ]]; }
for cmd in iptables ip6tables; do
  for table in filter nat mangle; do
    saved=$("$cmd" -w 5 -t "$table" -S 2>/dev/null) || continue
    # Jumps from the built-in chains into the node's chains (kubelet's -j KUBE-FIREWALL, ours, kube-proxy's).
    while read -r line; do
      eval "rule=($line)"
      # shellcheck disable=SC2154
      [[ "${rule[0]}" == "-A" ]] || continue
      node_chain "${rule[1]}" && continue
      for ((i = 2; i < ${#rule[@]} - 1; i++)); do
        if [[ "${rule[i]}" == "-j" ]] && node_chain "${rule[i + 1]}"; then
          "$cmd" -w 5 -t "$table" -D "${rule[@]:1}" || log "cannot delete $cmd -t $table $line"
          break
        fi
      done
    done <<<"$saved"
    chains=$(awk '$1 == "-N" { print $2 }' <<<"$saved")
    for chain in $chains; do node_chain "$chain" && "$cmd" -w 5 -t "$table" -F "$chain"; done
    for chain in $chains; do node_chain "$chain" && { "$cmd" -w 5 -t "$table" -X "$chain" || log "cannot delete $cmd -t $table $chain"; }; done
  done
done

if [[ -f "$host/nft-tables.before" ]]; then
  while read -r family name; do
    [[ -n "$family" ]] || continue
    in_list "$family $name" "$host/nft-tables.before" && continue
    if ! nft -j list table "$family" "$name" 2>/dev/null | grep -q '"rule"'; then
      nft delete table "$family" "$name" || log "cannot delete the nftables table $family $name"
    else
      log "the nftables table $family $name was made while the node ran and has rules; left alone"
    fi
  done < <(nft_tables)
fi

# --- 4. mounts ----------------------------------------------------------------------------------------------------

node_mounts() {
  awk '{ print $5 }' /proc/self/mountinfo | while read -r m; do
    m=$(printf '%b' "$m") # mountinfo writes a space as \040
    if [[ "$m" == "$RUN_DIR" || "$m" == "$RUN_DIR/"* ]]; then
      echo "$m"
    elif [[ "$m" == /run/netns/* && -f "$host/netns.before" ]] && ! in_list "${m#/run/netns/}" "$host/netns.before"; then
      echo "$m"
    fi
  done | awk '{ print length, $0 }' | sort -rn | cut -d' ' -f2-
}
for _ in 1 2 3 4 5; do
  mounts=$(node_mounts)
  [[ -z "$mounts" ]] && break
  while read -r m; do
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
  done <<<"$mounts"
done
[[ -n "$(node_mounts)" ]] && log "mounts still there: $(node_mounts | tr '\n' ' ')"
if [[ -d /run/netns && -f "$host/netns.before" ]]; then
  for entry in /run/netns/*; do
    [[ -e "$entry" ]] || continue
    in_list "${entry#/run/netns/}" "$host/netns.before" || rm -f "$entry"
  done
fi

# --- 5. the bridge ------------------------------------------------------------------------------------------------

if ip link show "$BRIDGE" >/dev/null 2>&1; then
  for port in $(ip -o link show master "$BRIDGE" 2>/dev/null | awk -F': ' '{ print $2 }' | cut -d@ -f1); do
    ip link del "$port" 2>/dev/null
  done
  ip link del "$BRIDGE" || log "cannot delete the bridge $BRIDGE"
fi

# --- 6. cgroups ---------------------------------------------------------------------------------------------------

remove_cgroup() {
  local dir
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    [[ -d "$1" ]] || return 0
    while read -r dir; do rmdir "$dir" 2>/dev/null; done < <(find "$1" -depth -type d 2>/dev/null)
    [[ -d "$1" ]] || return 0
    sleep 0.2
  done
  log "cannot remove the cgroup $1 (processes: $(find "$1" -name cgroup.procs -exec cat {} + 2>/dev/null | tr '\n' ' '))"
}
for h in $(cgroup_hierarchies); do
  remove_cgroup "$h/kubepods"
  [[ -f "$host/cgroups.before" ]] && ! in_list "$h/k8s.io" "$host/cgroups.before" && remove_cgroup "$h/k8s.io"
done

# --- 7. sysctls ---------------------------------------------------------------------------------------------------

if [[ -f "$host/sysctls.before" ]]; then
  while IFS='=' read -r file value; do
    [[ "$file" == /proc/sys/* && -w "$file" ]] || continue
    if [[ "$(<"$file")" != "$value" ]]; then
      name=${file#/proc/sys/}
      echo "$value" >"$file" 2>/dev/null && log "restored ${name//\//.}=$value" || log "cannot restore $file=$value"
    fi
  done <"$host/sysctls.before"
fi

# --- 8. files in system folders -----------------------------------------------------------------------------------

if [[ -d /var/log/containers ]]; then
  for link in /var/log/containers/*; do
    [[ -L "$link" && "$(readlink "$link")" == "$RUN_DIR/"* ]] && rm -f "$link"
  done
fi
# libcni caches results under /var/lib/cni/results as <network>-<sandbox>-<interface>, for the node's network and
# the loopback one containerd adds (cni-loopback).
for sandbox in "$RUN_DIR"/containerd/root/io.containerd.grpc.v1.cri/sandboxes/*; do
  [[ -d "$sandbox" ]] && rm -f /var/lib/cni/results/*-"$(basename "$sandbox")"-*
done
rm -f /var/lib/cni/results/"$CNI_NETWORK"-* 2>/dev/null
# Shim sockets live under /run/containerd/s whatever containerd's state directory is; each task records its own.
for address in "$RUN_DIR"/containerd/state/io.containerd.runtime.v2.task/*/*/address; do
  [[ -f "$address" ]] || continue
  socket=$(sed 's|^unix://||' "$address")
  [[ "$socket" == /run/containerd/s/* ]] && rm -f "$socket"
done
if [[ -f "$host/paths.before" ]]; then
  # Deepest first, so that /run/containerd/s goes before /run/containerd.
  for ((i = ${#NODE_PATHS[@]} - 1; i >= 0; i--)); do
    path=${NODE_PATHS[i]}
    [[ -d "$path" ]] || continue
    in_list "$path" "$host/paths.before" && continue
    # Sockets left by processes that are gone now: kubelet's device-plugin socket, whose folder is fixed.
    find "$path" -type s -delete 2>/dev/null
    find "$path" -depth -type d -empty -delete 2>/dev/null
    [[ -e "$path" ]] && log "$path was created while the node ran and is not empty; left alone"
  done
fi

# --- 9. the run directory's data ------------------------------------------------------------------------------------

if [[ -z "$(node_mounts)" ]]; then
  for data in etcd containerd kubelet registry cni; do
    rm -rf --one-file-system "${RUN_DIR:?}/$data"
  done
fi

# --- what is still there ------------------------------------------------------------------------------------------

left=()
[[ -n "$(node_pids)" ]] && left+=("processes $(node_pids | tr '\n' ' ')")
[[ -n "$(pod_pids)" ]] && left+=("Pod processes $(pod_pids | tr '\n' ' ')")
[[ -n "$(node_mounts)" ]] && left+=("mounts $(node_mounts | tr '\n' ' ')")
ip link show "$BRIDGE" >/dev/null 2>&1 && left+=("the bridge $BRIDGE")
for h in $(cgroup_hierarchies); do [[ -d "$h/kubepods" ]] && left+=("the cgroup $h/kubepods"); done
if ((${#left[@]})); then
  log "NOT CLEAN after $SECONDS s: ${left[*]}"
  exit 1
fi
log "done in $SECONDS s"
