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
  echo "node-guard: another real node runs on this machine ($(cat "$LOCK.owner" 2>/dev/null) holds $LOCK);" \
    "one real node per machine" >&2
  exit 3
fi

# host-record.sh changes nothing; when it refuses, what it found is not this node's to tear down. One exception:
# the leftovers of the last real node, when that node died with its guard (every process on the machine killed:
# a cancelled CI job, a sandbox stopped), so that its teardown never ran. This guard holds the lock, so no guard
# of that node lives, and its run directory still holds the record of the machine before it: its own teardown.sh
# puts the machine back, and only then is the machine looked at again.
if ! bash "$here/host-record.sh"; then
  last=$(cat "$LOCK.owner" 2>/dev/null)
  if [[ -z "$last" || "$last" == "$RUN_DIR" || ! -f "$last/bin/teardown.sh" || ! -d "$last/host" ]]; then
    exit 4
  fi
  echo "node-guard: the machine has the leftovers of the last real node, $last, whose guard is gone;" \
    "running its teardown.sh" >&2
  bash "$last/bin/teardown.sh" >&2
  bash "$here/host-record.sh" || exit 4
fi
# From here on the machine's node state is this node's: teardown.sh of another run directory leaves it alone.
echo "$RUN_DIR" >"$LOCK.owner"
if ! bash "$here/network-up.sh"; then
  echo "node-guard: the host network could not be set up; tearing down what was" >&2
  bash "$here/teardown.sh"
  exit 5
fi
echo "node-guard: host ready"
touch "$RUN_DIR/guard.ready"

while read -r _; do :; done
echo "node-guard: the test JVM closed the pipe; tearing down"
bash "$here/teardown.sh"
