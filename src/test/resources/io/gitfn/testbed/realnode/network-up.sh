#!/usr/bin/env bash
# The host side of the real node's network: the bridge Pods live on, with the host's address on it, a route
# that keeps the Service range on the bridge, forwarding, and the rules that keep Pods inside this machine.
# teardown.sh removes all of it.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=/dev/null
source "$here/node.env"

# The CNI bridge plugin (isGateway) finds the bridge made and addressed as it would have done it itself; the
# apiserver and the registry listen on HOST_ADDRESS before the first Pod exists.
# Its MAC address is set: one the kernel picks is replaced by the lowest of the bridge's ports' as veths come and
# go, and a Pod that resolved its gateway before a change sends to an address nobody has until its ARP entry ages.
ip link add "$BRIDGE" address "$BRIDGE_MAC" type bridge
ip addr add "$HOST_ADDRESS/${POD_SUBNET#*/}" dev "$BRIDGE"
ip link set "$BRIDGE" up
# ClusterIPs are never routed anywhere: kube-proxy rewrites them to Pods. Until it has (a Service without
# endpoints, a ClusterIP nobody owns), the route keeps them on the bridge instead of the default route.
ip route add "$SERVICE_RANGE" dev "$BRIDGE" src "$HOST_ADDRESS"
sysctl -qw net.ipv4.ip_forward=1

# Isolation, in the mangle table: its chains run before the filter table's, where kube-proxy accepts marked
# Service traffic, so no rule of kube-proxy's can let a packet past these.
# FORWARD: Pods reach each other (bridged, or routed back onto the bridge through a Service) and nothing else;
# nothing else reaches them. Traffic between Pods and the host is INPUT/OUTPUT, not FORWARD, and stays allowed.
# INPUT: kubelet allows anonymous requests, so only the host may reach its port, not the Pods.
# POSTROUTING: the host's own connections to a ClusterIP go to Pods or to the host, never off the machine.
for cmd in iptables ip6tables; do
  "$cmd" -w 5 -t mangle -N GITFN-REALNODE-FORWARD
  "$cmd" -w 5 -t mangle -A GITFN-REALNODE-FORWARD -i "$BRIDGE" -o "$BRIDGE" -j RETURN
  "$cmd" -w 5 -t mangle -A GITFN-REALNODE-FORWARD -i "$BRIDGE" \
    -m comment --comment "gitfn real node: Pods reach only the host and each other" -j DROP
  "$cmd" -w 5 -t mangle -A GITFN-REALNODE-FORWARD -o "$BRIDGE" \
    -m comment --comment "gitfn real node: only the host reaches Pods" -j DROP
  "$cmd" -w 5 -t mangle -I FORWARD 1 -j GITFN-REALNODE-FORWARD
done
iptables -w 5 -t mangle -N GITFN-REALNODE-INPUT
iptables -w 5 -t mangle -A GITFN-REALNODE-INPUT -i "$BRIDGE" -p tcp --dport "$KUBELET_PORT" \
  -m comment --comment "gitfn real node: kubelet answers only the host" -j DROP
iptables -w 5 -t mangle -I INPUT 1 -j GITFN-REALNODE-INPUT
iptables -w 5 -t mangle -N GITFN-REALNODE-OUTPUT
iptables -w 5 -t mangle -A GITFN-REALNODE-OUTPUT -m conntrack --ctorigdst "$SERVICE_RANGE" \
  -m addrtype ! --dst-type LOCAL ! -d "$POD_SUBNET" \
  -m comment --comment "gitfn real node: Services lead to Pods or the host only" -j DROP
iptables -w 5 -t mangle -I POSTROUTING 1 -j GITFN-REALNODE-OUTPUT
echo "network-up: $BRIDGE $HOST_ADDRESS/${POD_SUBNET#*/}, Services $SERVICE_RANGE, isolation chains GITFN-REALNODE-*"
