#!/bin/bash
# "make bench": builds the module and tools, installs what the benchmark
# alone needs (matplotlib for the plots, perftest and rdma-core for
# the soft-RoCE row, perf for the profiles), runs tools/bench/guest.sh in
# a QEMU guest on the chosen kernel line and turns its results into
# build/bench/LINE/: results.json, results.md and the plots
# (tools/bench/report.py).
# Usage: bench.sh [LINE] [--quick] [--link-rate=RATE] [--no-incast7]
# (the options go to guest.sh: make bench BENCH="--quick --link-rate=20mbit")
set -euo pipefail

tree=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd -P)
line=6.1
quick=
guest_args=()
for arg; do
	case $arg in
	--quick)
		quick=--quick
		guest_args+=("$arg")
		;;
	--link-rate=* | --no-incast7) guest_args+=("$arg") ;;
	-*) echo "bench.sh: unknown option $arg" >&2; exit 2 ;;
	*) line=$arg ;;
	esac
done
cd "$tree"

tools/deps.sh --with python3-matplotlib perftest rdma-core ibverbs-providers linux-perf

dest=build/bench/$line
mkdir -p "$dest"
echo "bench: building hyperframe.ko for $line, the userspace tools and the selftests"
tools/build-all.sh "$line" "$dest/build.log"

rm -rf "$dest/vm"
echo "bench: running in a guest on $line (about $([[ -n $quick ]] && echo 5 || echo 15) minutes under TCG)"
start=$SECONDS
rc=0
tools/vm/run.sh --kernel "$line" --timeout 3000 --out "$dest/vm" -- \
	"$tree/tools/bench/guest.sh" "${guest_args[@]}" >"$dest/guest.log" 2>&1 || rc=$?
grep '^bench:' "$dest/guest.log" || true
echo "bench: the guest ran $((SECONDS - start)) s (status $rc; log $dest/guest.log)"
# Debian's python3, which has the matplotlib deps.sh installed (a python3
# earlier in PATH, pyenv's say, may not).
/usr/bin/python3 tools/bench/report.py "$dest/vm/bench" "$dest" \
	--commit "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
	--command "make bench KERNEL=$line${guest_args[*]:+ BENCH=\"${guest_args[*]}\"}" || { ((rc)) || rc=1; }
exit "$rc"
