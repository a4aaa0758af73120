#!/bin/bash
# The engine behind "make check": builds everything, runs the userspace unit
# tests, then the whole selftest suite in a QEMU guest on each kernel line.
# Prints a table of stages with their times and ends with the line
# "check: N passed, N failed" (", N XFAIL" when a slow line missed timing
# bounds: selftests/lib.sh check_time); exits non-zero on any failure or
# skip, never on an XFAIL.
# The line "debug" (the sanitizer kernel, "make check-debug") first builds
# that kernel unless it is cached, and proves the harness fails on a KASAN,
# UBSAN, lockdep and kmemleak report before running the suite on it.
# --suite-only skips the unit tests, lint, fuzzer, dissector, YNL spec,
# benchmark report and selftest reporting stages.
# HF_KSFT_DIR picks the selftest install (default build/ksft), HF_CHECK_LOGS
# the log directory (default build/check).
# Usage: check.sh [--suite-only] [LINE...]   (default: 6.1 6.12)
set -uo pipefail

tree=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd -P)
cd "$tree" || exit 1
suite_only=0
if [[ ${1:-} == --suite-only ]]; then
	suite_only=1
	shift
fi
lines=("$@")
((${#lines[@]})) || lines=(6.1 6.12)
ksft=$(realpath -m "${HF_KSFT_DIR:-$tree/build/ksft}")
jobs=$(nproc)
logs=${HF_CHECK_LOGS:-$tree/build/check}
mkdir -p "$logs"

total_pass=0
total_fail=0
total_xfail=0
declare -a rows=()
# What failed, repeated after the summary: CI keeps only the output's tail.
declare -a why=()

# failed TEXT...: one line for the closing list of failures.
note_failure()
{
	why+=("$*")
}

# stage NAME PASSED FAILED SECONDS
stage()
{
	rows+=("$(printf '%-34s %6s passed %4s failed %5ss' "$1" "$2" "$3" "$4")")
	total_pass=$((total_pass + $2))
	total_fail=$((total_fail + $3))
}

# build NAME LOG CMD...: a build step counts as one check.
build()
{
	local name=$1 log=$2 t0=$SECONDS

	shift 2
	echo "== $name"
	if "$@" >"$log" 2>&1; then
		stage "$name" 1 0 $((SECONDS - t0))
		return 0
	fi
	tail -n 40 "$log"
	echo "check: $name FAILED (log: $log)"
	note_failure "$name: $(grep -m1 -iE 'error|fail' "$log" | cut -c1-200)"
	stage "$name" 0 1 $((SECONDS - t0))
	return 1
}

for line in "${lines[@]}"; do
	if [[ $line == debug ]]; then
		tools/debug-kernel/build.sh --check && cached=cached || cached="not cached: ~25 min"
		build "debug kernel ($cached)" "$logs/debug-kernel.log" \
			tools/debug-kernel/build.sh
	fi
	build "module build $line (W=1, sparse)" "$logs/module-$line.log" \
		tools/build-module.sh "$line"
	if [[ $line == debug ]]; then
		build "debug harness fails on reports" "$logs/debug-harness.log" \
			tools/debug-kernel/selftest/check-harness.sh
	fi
done

build "kernel style (checkpatch --strict)" "$logs/checkpatch.log" \
	tools/checkpatch.sh
build "kernel-doc (-Wall)" "$logs/kernel-doc.log" \
	tools/kernel-doc.sh

build "userspace build" "$logs/userspace.log" \
	bash -c "cmake -S userspace -B build/userspace -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
		 cmake --build build/userspace -j$jobs"
if ((!suite_only)) && [[ -x build/userspace/hfctl/hfctl || -d build/userspace ]]; then
	echo "== userspace unit tests"
	t0=$SECONDS
	ctest --test-dir build/userspace --output-on-failure -j"$jobs" \
		>"$logs/unit.log" 2>&1
	summary=$(grep -E 'tests passed, [0-9]+ tests failed out of' "$logs/unit.log")
	if [[ $summary =~ ([0-9]+)\ tests\ failed\ out\ of\ ([0-9]+) ]]; then
		failed=${BASH_REMATCH[1]}
		# A test skipped for a reason it states (GTEST_SKIP) is shown
		# with it, and not counted as passed.
		skipped=$(grep -c '\*\*\*Skipped' "$logs/unit.log" || true)
		((skipped == 0)) || grep -B1 -A2 -E '\*\*\*Skipped|\[  SKIPPED \]' "$logs/unit.log" | head -n 20
		stage "userspace unit tests (ctest), $skipped skipped" \
			$((BASH_REMATCH[2] - failed - skipped)) "$failed" $((SECONDS - t0))
		((failed == 0)) || grep -A3 -E 'Failed|\*\*\*' "$logs/unit.log" | head -n 40
		((failed == 0)) || note_failure "unit tests: $(grep -E '^\s+[0-9]+ - ' "$logs/unit.log" | head -n 5 | tr -s ' \n' ' ')"
	else
		tail -n 20 "$logs/unit.log"
		note_failure "unit tests: no ctest summary ($logs/unit.log)"
		stage "userspace unit tests (ctest)" 0 1 $((SECONDS - t0))
	fi
fi

if ((!suite_only)); then
	build "userspace format and lint" "$logs/lint.log" \
		cmake --build build/userspace -j "$jobs" --target format-check tidy

	build "fuzz: frame parser and reassembly, ${HF_FUZZ_SECONDS:-30}s" "$logs/fuzz.log" \
		tools/fuzz.sh "${HF_FUZZ_SECONDS:-30}"
	grep -E 'stat::number_of_executed_units|cov:' "$logs/fuzz.log" | tail -n 2

	build "wireshark dissector, synthetic frames" "$logs/dissector.log" \
		tools/wireshark/test-dissector.sh

	# The family's YNL spec: valid against its schema, and the uapi
	# enums ynl-gen-c.py makes from it are those of the header. Debian's
	# python3, which has the packages deps.sh installs (yaml, jsonschema).
	build "YNL spec: schema, uapi enums" "$logs/ynl.log" \
		/usr/bin/python3 tools/ynl-check.py --self-test
	grep -h "gives the header" "$logs/ynl.log"

	build "benchmark report, synthetic runs" "$logs/bench-report.log" \
		python3 tools/bench/test_report.py

	build "selftest reporting: XFAIL, counts" "$logs/ktap.log" \
		tools/test-ktap.sh
fi

build "selftests build" "$logs/selftests.log" tools/build-selftests.sh

for line in "${lines[@]}"; do
	echo "== selftests in a guest, kernel $line"
	t0=$SECONDS
	out=$tree/build/vm/check-$line
	rm -rf "$out"
	# KASAN, lockdep and kmemleak under TCG: boot ~65 s, the suite far slower.
	# 6.12's guest reads the host root uncached: 1500 to 2200 s (run.sh).
	vm_timeout=3600
	if [[ $line == debug ]]; then
		# Each test several times slower: hf_hfctl.sh alone passed the
		# stock 900 s per-test limit (settings) there.
		vm_timeout=14400
		sed -i 's/^timeout=.*/timeout=3600/' "$ksft/hyperframe/settings"
	fi
	# hf_faults.sh needs fault injection, which only the debug line has:
	# on the stock lines it would skip, and a skip counts as a failure.
	tests=()
	if [[ $line != debug ]]; then
		while read -r t; do
			[[ $t == hyperframe:hf_faults.sh ]] || tests+=(-t "$t")
		done < <("$ksft/run_kselftest.sh" -l)
	fi
	tools/vm/run.sh --kernel "$line" --out "$out" --quiet --timeout "$vm_timeout" \
		-- "$ksft/run_kselftest.sh" "${tests[@]}" >"$logs/vm-$line.log" 2>&1
	rc=$?
	read -r pass fail xfail < <(awk -f tools/ktap-count.awk "$out/output.log" 2>"$logs/vm-$line.failures")
	if ((rc != 0)); then
		# Harness-level failure: kernel report, hang, module would not unload.
		echo "check: guest run on $line failed with status $rc:"
		tail -n 30 "$logs/vm-$line.log"
		fail=$((fail + 1))
		while IFS= read -r l; do
			note_failure "selftests $line: guest run status $rc: $l"
		done < <(sed -n '/^run.sh:/,$p' "$logs/vm-$line.log" | head -n 10)
		note_failure "selftests $line: last program started: $(grep -E '^# selftests: ' "$out/output.log" 2>/dev/null | tail -n1)"
	fi
	cat "$logs/vm-$line.failures"
	while IFS= read -r l; do
		note_failure "selftests $line: $l"
	done < <(grep -v '^XFAIL: ' "$logs/vm-$line.failures" | head -n 12)
	# Timing bounds a slow line missed (selftests/lib.sh check_time):
	# neither passes nor failures, shown in the stage and the summary.
	xfail=${xfail:-0}
	total_xfail=$((total_xfail + xfail))
	# An emulator fault run.sh booted again for passes, but never silently.
	grep 'booting once more' "$logs/vm-$line.log"
	# Where the guest's time went, slowest program first.
	[[ -s $out/times.log ]] && sort -rn "$out/times.log" |
		awk '{ printf "%s%s %ss", (NR > 1 ? ", " : "time per program: "), $2, $1 } END { print "" }'
	label="selftests, kernel $line ($(sed -n "s/^export HF_RELEASE=//p" "$tree/build/vm/check-$line/env"))"
	((xfail == 0)) || label+=", $xfail XFAIL"
	stage "$label" "${pass:-0}" "${fail:-1}" $((SECONDS - t0))
done

# A real NIC driver between two kernels: two guests over virtio-net.
for line in "${lines[@]}"; do
	[[ $line != debug ]] || continue
	echo "== two guests over virtio-net, kernel $line"
	t0=$SECONDS
	out=$tree/build/vm/nic-$line
	rm -rf "$out"
	tools/vm/nic-pair.sh --kernel "$line" --out "$out" >"$logs/nic-$line.log" 2>&1
	rc=$?
	read -r pass fail _ < <(awk -f tools/ktap-count.awk "$logs/nic-$line.log" 2>"$logs/nic-$line.failures")
	if ((rc != 0)); then
		echo "check: the guest pair on $line failed with status $rc:"
		tail -n 30 "$logs/nic-$line.log"
		fail=$((fail + 1))
		note_failure "virtio-net pair $line: status $rc"
	fi
	cat "$logs/nic-$line.failures"
	while IFS= read -r l; do
		note_failure "virtio-net pair $line: $l"
	done < <(head -n 6 "$logs/nic-$line.failures")
	sed -n 's/^# # MTU/MTU/p' "$logs/nic-$line.log"
	stage "virtio-net pair, kernel $line" "${pass:-0}" "${fail:-1}" $((SECONDS - t0))
done

echo
echo "== summary"
printf '%s\n' "${rows[@]}"
echo
if ((${#why[@]})); then
	echo
	echo "== what failed (details above and in $logs)"
	printf '%s\n' "${why[@]}" | cut -c1-400
fi
echo
if ((total_xfail)); then
	echo "check: $total_pass passed, $total_fail failed, $total_xfail XFAIL (timing bounds missed on a slow line)"
else
	echo "check: $total_pass passed, $total_fail failed"
fi
((total_fail == 0))
