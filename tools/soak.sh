#!/bin/bash
# The engine behind "make soak": builds the module for one kernel line and
# the selftests (in their own install, HF_KSFT_DIR, default build/ksft-soak),
# boots a guest that runs selftests/hf_soak.sh for SECONDS of mixed traffic
# under netem loss and reordering, shows its progress (counter samples), and
# ends with the report: rounds, messages sent/received/failed, bytes,
# retransmits, drops, receive and slab memory before and after, and what the
# harness saw (kernel reports on the console, module unload, kmemleak).
# The counters of every node, sampled, land in OUT/samples.log; the guest's
# output in OUT/output.log, its console in OUT/console.log, where OUT is
# build/soak-LINE. Exits non-zero when the soak or the harness failed.
#
# The script runs directly rather than through run_kselftest.sh, whose
# per-test timeout (selftests/settings) a long soak would exceed.
#
# Usage: soak.sh [LINE] [SECONDS]   (default: 6.1, 600; LINE "debug" is the
#                                    sanitizer kernel, built unless cached)
set -uo pipefail

tree=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd -P)
cd "$tree" || exit 1
line=${1:-6.1}
secs=${2:-600}
[[ $secs =~ ^[0-9]+$ ]] || { echo "soak: SECONDS must be a number" >&2; exit 2; }
ksft=$(realpath -m "${HF_KSFT_DIR:-$tree/build/ksft-soak}")
out=$tree/build/soak-$line
timeout=$((secs + 600))

rm -rf "$out"
mkdir -p "$out"
if [[ $line == debug ]]; then
	echo "== debug kernel"
	tools/debug-kernel/build.sh >"$out/debug-kernel.log" 2>&1 ||
		{ tail -n 20 "$out/debug-kernel.log"; exit 1; }
	# KASAN and lockdep under TCG: ~65 s to boot, the rest several
	# times slower; a round can overrun the deadline by minutes.
	timeout=$((secs + 1200))
fi
echo "== module for $line"
tools/build-module.sh "$line" >"$out/module.log" 2>&1 ||
	{ tail -n 20 "$out/module.log"; exit 1; }
echo "== selftests into $ksft"
HF_KSFT_DIR=$ksft tools/build-selftests.sh >"$out/selftests.log" 2>&1 ||
	{ tail -n 20 "$out/selftests.log"; exit 1; }

echo "== soak: ${secs}s on $line (guest timeout ${timeout}s, logs in $out)"
t0=$SECONDS
tools/vm/run.sh --kernel "$line" --quiet --timeout "$timeout" --out "$out" \
	-- env HF_SOAK_SECONDS="$secs" HF_SOAK_LOG=/run/hf/samples.log \
	"$ksft/hyperframe/hf_soak.sh" >"$out/run.log" 2>&1 &
vpid=$!
# Progress: the guest's output as it comes (the run directory is shared).
until [[ -e $out/output.log ]] || ! kill -0 "$vpid" 2>/dev/null; do
	sleep 1
done
tail -n +1 -f --pid="$vpid" "$out/output.log" 2>/dev/null
wait "$vpid"
rc=$?
took=$((SECONDS - t0))

echo
echo "== soak report ($line, $(sed -n 's/^export HF_RELEASE=//p' "$out/env" 2>/dev/null))"
grep '^# soak report: ' "$out/output.log" 2>/dev/null | sed 's/^# soak report: /  /'
# The script prints KTAP at the top level: count its cases against its plan.
plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$out/output.log" 2>/dev/null | head -n 1)
pass=$(grep -c '^ok ' "$out/output.log" 2>/dev/null)
fail=$(grep -c '^not ok ' "$out/output.log" 2>/dev/null)
echo "  cases: ${pass:-0} passed, ${fail:-0} failed, ${plan:-no} planned"
grep '^not ok' "$out/output.log" 2>/dev/null | sed 's/^/  /'
reports=$(tools/vm/console-check.sh "$out/console.log" 2>/dev/null || true)
echo "  kernel reports on the console: ${reports:-none}"
case $rc in
0|1) echo "  harness: module unloaded cleanly$([[ $line != debug ]] || echo ", kmemleak found nothing")" ;;
124) echo "  harness: the guest hung and was killed after ${timeout}s" ;;
125) echo "  harness: the guest never ran the soak (boot or setup failure)" ;;
126) echo "  harness: the module did not unload, or kmemleak reported leaks ($out/kmemleak.log)" ;;
127) echo "  harness: kernel report on the console ($out/console.log)" ;;
*) echo "  harness: the soak exited $rc" ;;
esac
echo "  guest run: ${took}s, status $rc; samples in $out/samples.log"
tail -n 5 "$out/run.log" | grep '^run.sh:' | sed 's/^/  /'

if ((rc != 0 || ${fail:-0} != 0 || ${pass:-0} != ${plan:--1})); then
	echo "soak: FAILED"
	exit 1
fi
echo "soak: passed"
