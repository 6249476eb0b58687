#!/usr/bin/env bash
# What the real node may change on this machine, read the same way by host-record.sh (before the node starts)
# and teardown.sh (to put it back). Sourced, not run.

# Sysctls the node sets: kubelet's kernel tunables (pkg/kubelet/cm setupKernelTunables), the CNI bridge plugin's
# and network-up.sh's forwarding, kube-proxy's route_localnet and conntrack settings (turned off in its
# configuration, recorded all the same), and br_netfilter's switches that Services on a bridge depend on.
NODE_SYSCTLS=(
  vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops
  kernel.keys.root_maxkeys kernel.keys.root_maxbytes
  net.ipv4.ip_forward net.ipv4.conf.all.forwarding net.ipv4.conf.default.forwarding net.ipv6.conf.all.forwarding
  net.ipv4.conf.all.route_localnet
  net.bridge.bridge-nf-call-iptables net.bridge.bridge-nf-call-ip6tables
  net.netfilter.nf_conntrack_max net.netfilter.nf_conntrack_tcp_timeout_established
  net.netfilter.nf_conntrack_tcp_timeout_close_wait net.netfilter.nf_conntrack_tcp_be_liberal
  net.netfilter.nf_conntrack_udp_timeout net.netfilter.nf_conntrack_udp_timeout_stream
)

# System folders that containerd, kubelet and the CNI plugins create when they are missing, even though every
# folder the node can choose is under $RUN_DIR: the shims' sockets (/run/containerd/s), libcni's result cache,
# kubelet's links to container logs and its device-plugin socket. A folder comes after the one it is in.
NODE_PATHS=(
  /run/containerd /run/containerd/s /var/lib/cni /var/lib/cni/results /var/lib/cni/networks
  /var/log/containers /var/log/pods /run/netns /opt/containerd /etc/cni
  /var/lib/kubelet /var/lib/kubelet/device-plugins /usr/libexec/kubernetes /etc/kubernetes
)

# One "/proc/sys/<path>=<value>" line each, in the order teardown.sh writes them back. Setting ip_forward also
# sets every interface's forwarding and accept_redirects, so those of the interfaces there before come after it.
# (Paths, not dotted names: an interface name may have a dot in it.)
record_sysctls() {
  local name file conf
  for name in "${NODE_SYSCTLS[@]}"; do
    file="/proc/sys/${name//.//}"
    [[ -r "$file" ]] && printf '%s=%s\n' "$file" "$(<"$file")"
  done
  for conf in /proc/sys/net/ipv4/conf/*; do
    for file in "$conf/forwarding" "$conf/accept_redirects"; do
      [[ -r "$file" ]] && printf '%s=%s\n' "$file" "$(<"$file")"
    done
  done
}

# "family name" of every nftables table (iptables-nft keeps its tables there too).
nft_tables() {
  nft list tables 2>/dev/null | awk '$1 == "table" { print $2, $3 }' | sort
}

existing_paths() {
  local path
  for path in "${NODE_PATHS[@]}"; do
    [[ -e "$path" ]] && echo "$path"
  done
}

netns_entries() {
  [[ -d /run/netns ]] && ls -1 /run/netns
  return 0
}

# The cgroup v1 hierarchies and the v2 one, wherever they are mounted.
cgroup_hierarchies() {
  awk '$3 == "cgroup" || $3 == "cgroup2" { print $2 }' /proc/self/mounts | sort -u
}

top_cgroups() {
  local h
  for h in $(cgroup_hierarchies); do
    find "$h" -mindepth 1 -maxdepth 1 -type d
  done | sort
}
