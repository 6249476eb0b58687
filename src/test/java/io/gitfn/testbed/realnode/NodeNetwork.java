package io.gitfn.testbed.realnode;

/**
 * The real node's addresses. Pods live on a bridge of their own, in a subnet that no network of this machine
 * uses (the machine's own is 192.0.2.0/24; Debian's containerd and Docker default to 10.88.0.0/16 and
 * 172.17.0.0/16, Kubernetes examples to 10.96.0.0/12 and 10.244.0.0/16). {@code host-record.sh} refuses to
 * start when a route for either range exists already.
 */
final class NodeNetwork {

  /** The Linux bridge Pods' veths are plugged into. */
  static final String BRIDGE = "gitfn-node0";
  /**
   * The bridge's own MAC address, locally administered. Set, not left to the kernel: a bridge whose address was
   * not set takes the lowest of its ports' addresses, so it changed each time a Pod's veth came or went, and a Pod
   * that had resolved its gateway before lost its packets to the host until its ARP entry expired (install Jobs'
   * pack containers timed out on the registry, now and then, when the Job before theirs ended).
   */
  static final String BRIDGE_MAC = "02:67:66:6e:00:01";
  /** The Pods' subnet; host-local hands out addresses from {@link #FIRST_POD_ADDRESS} up. */
  static final String POD_SUBNET = "10.199.0.0/24";
  /**
   * The host's address on the bridge: the Pods' gateway, the apiserver's, kubelet's, the registry's and the cluster
   * DNS's address.
   */
  static final String HOST_ADDRESS = "10.199.0.1";
  static final String FIRST_POD_ADDRESS = "10.199.0.10";
  /** ClusterIPs. Routed onto the bridge. */
  static final String SERVICE_RANGE = "10.199.1.0/24";
  /** The {@code kubernetes} Service's ClusterIP, the first of {@link #SERVICE_RANGE}. */
  static final String KUBERNETES_SERVICE_ADDRESS = "10.199.1.1";
  /** The domain of Services' names, {@code <service>.<namespace>.svc.cluster.local}, which {@link CoreDns} serves. */
  static final String CLUSTER_DOMAIN = "cluster.local";
  /** The CNI network's name, which libcni also uses for its cache files. */
  static final String CNI_NETWORK = "gitfn-realnode";
  /** The node's name in the API. */
  static final String NODE_NAME = "gitfn-realnode";

  private NodeNetwork() {}
}
