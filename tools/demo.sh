#!/bin/bash
# "make demo": builds the module and tools, boots a QEMU guest on the
# chosen kernel line, loads hyperframe.ko, brings up a 4-node cluster of
# network namespaces behind a bridge and opens an AF_HYPERFRAME socket on
# every node, then says what it did. Later stages turn this into the
# side-by-side all-to-all demo.
# Usage: demo.sh [LINE [GUEST-SCRIPT]] (default tools/demo/guest.sh;
# tools/demo/observe.sh is "make observe")
set -euo pipefail

tree=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd -P)
line=${1:-6.1}
guest=${2:-tools/demo/guest.sh}
cd "$tree"

echo "demo: building hyperframe.ko for $line, the userspace tools and the selftests"
log=build/demo-build.log
mkdir -p build
if ! { tools/build-module.sh "$line" &&
	cmake -S userspace -B build/userspace -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
	cmake --build build/userspace -j"$(nproc)" &&
	tools/build-selftests.sh; } >"$log" 2>&1; then
	tail -n 30 "$log"
	echo "demo: build failed (log: $log)" >&2
	exit 1
fi

echo "demo: booting a guest (QEMU, TCG) on $line; this takes a few seconds"
exec tools/vm/run.sh --kernel "$line" --quiet --timeout 300 -- "$guest"
