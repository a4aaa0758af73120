#!/bin/bash
# "make demo": builds the module and tools, boots a QEMU guest on the
# chosen kernel line, loads hyperframe.ko, brings up a 4-node cluster of
# network namespaces behind a bridge and runs the same all-to-all over
# hyperframe and over TCP side by side (tools/demo/guest.sh), then draws
# the round times (tools/bench/report.py) and says where.
# Usage: demo.sh [LINE [GUEST-SCRIPT]] (default tools/demo/guest.sh;
# tools/demo/observe.sh is "make observe")
set -euo pipefail

tree=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd -P)
line=${1:-6.1}
guest=${2:-tools/demo/guest.sh}
cd "$tree"

echo "demo: building hyperframe.ko for $line, the userspace tools and the selftests"
tools/build-all.sh "$line" build/demo-build.log

tools/deps.sh --with python3-matplotlib
echo "demo: booting a guest (QEMU, TCG) on $line; this takes a few seconds"
out=build/demo
rm -rf "$out/vm"
rc=0
tools/vm/run.sh --kernel "$line" --quiet --timeout 300 --out "$out/vm" -- "$tree/$guest" || rc=$?
if [[ -d $out/vm/demo/raw ]]; then
	/usr/bin/python3 tools/bench/report.py "$out/vm/demo" "$out" --quiet --command "make demo" ||
		{ ((rc)) || rc=1; }
fi
exit "$rc"
