#!/usr/bin/env bash
# The real node's guard: the one process that owns the node's changes to this machine.
#
# The test JVM starts it under setsid with a pipe on its stdin and keeps that pipe open while the node lives.
# It takes the machine's real-node lock (one real node per machine: the bridge, the cgroups and the sysctls are
# machine-wide), refuses to start over another node's leftovers, records what the node will change
# (host-record.sh) and sets up the host side of the network (network-up.sh). Then it waits. When the pipe
# closes, because RealNode.close() closed it, the JVM exited or the JVM was killed with -9, it runs
# teardown.sh, which puts the machine back as it was; the lock is held until that has finished.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=/dev/null
source "$here/node.env"

# Stopping the JVM's process group must not skip the teardown.
trap '' TERM INT HUP

exec 9>>"$LOCK"
if ! flock -n 9; then
  echo "node-guard: another real node runs on this machine (it holds $LOCK); one real node per machine" >&2
  exit 3
fi

if ! bash "$here/host-record.sh" || ! bash "$here/network-up.sh"; then
  echo "node-guard: the host could not be prepared; tearing down what was set up" >&2
  bash "$here/teardown.sh"
  exit 4
fi
echo "node-guard: host ready"
touch "$RUN_DIR/guard.ready"

while read -r _; do :; done
echo "node-guard: the test JVM closed the pipe; tearing down"
bash "$here/teardown.sh"
