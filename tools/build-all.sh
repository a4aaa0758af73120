#!/bin/bash
# Builds what a guest run needs, quietly: hyperframe.ko for one kernel line,
# the userspace tools (RelWithDebInfo) and the selftests. The output goes
# to LOG; on failure its tail is printed and the status is non-zero.
# Used by the demo and the benchmark (make check builds stage by stage).
# Usage: build-all.sh LINE LOG
set -euo pipefail

tree=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd -P)
line=$1
log=$2
cd "$tree"
mkdir -p "$(dirname "$log")"
if ! { tools/build-module.sh "$line" &&
	cmake -S userspace -B build/userspace -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
	cmake --build build/userspace -j"$(nproc)" &&
	tools/build-selftests.sh; } >"$log" 2>&1; then
	tail -n 30 "$log"
	echo "build failed (log: $log)" >&2
	exit 1
fi
