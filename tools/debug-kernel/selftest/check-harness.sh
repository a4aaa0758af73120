#!/bin/bash
# The test that can fail for the debug line: proves that a guest run on the
# debug kernel fails when the kernel reports a bug. Builds hf_debugtest.ko
# (bugs on demand) against the cached debug kernel, then boots four
# guests with it loaded in place of hyperframe.ko:
#   clean    no bug                            -> exit 0 (no false alarm)
#   leak     kmemleak finds 1 KiB blocks lost  -> exit 126, kmemleak.log
#   reports  lockdep AB-BA, might_sleep under
#            a spinlock, UBSAN shift, a use-
#            after-free (KASAN, or KFENCE when
#            it sampled the object)            -> exit 127, each report
#                                                 named by console-check
#   warn     WARN() and lockdep AB-BA, which
#            print at KERN_WARNING, below the
#            console's level, and do not stop
#            the kernel                        -> exit 127, both named (from
#                                                 the dmesg guest.sh prints)
# Prints KTAP; exits non-zero when the harness let a bug through.
# Usage: check-harness.sh   (build the debug kernel first: make debug-kernel)
set -uo pipefail

here=$(dirname "$(readlink -f "$0")")
tree=$(cd "$here/../../.." && pwd -P)
kdir=$("$tree/tools/kver.sh" --kdir debug) || exit 1
out=$tree/build/debug-harness
mod=$out/module
runs=$out/runs

# Kbuild writes objects beside the sources: build a symlinked copy.
rm -rf "$mod"
mkdir -p "$mod" "$runs"
cp -s "$here/hf_debugtest.c" "$here/Kbuild" "$mod/"
if ! make -C "$kdir" M="$mod" W=1 C=1 modules >"$out/build.log" 2>&1 ||
	grep -E '(warning|error):' "$out/build.log"; then
	tail -n 20 "$out/build.log"
	echo "check-harness: hf_debugtest.ko did not build cleanly ($out/build.log)" >&2
	exit 1
fi

echo "TAP version 13"
echo "1..4"
num=0
failed=0

# result NAME OK [DIAGNOSTIC...]
result()
{
	local name=$1 ok=$2

	shift 2
	num=$((num + 1))
	if ((ok)); then
		echo "ok $num $name"
	else
		echo "not ok $num $name"
		failed=$((failed + 1))
	fi
	local line
	for line in "$@"; do
		echo "# $line"
	done
}

# guest CASE WORDS: boot the debug guest with hf_debugtest loaded, write
# WORDS to its trigger; sets rc and dir.
guest()
{
	dir=$runs/$1
	rm -rf "$dir"
	local t0=$SECONDS
	"$tree/tools/vm/run.sh" --kernel debug --module "$mod/hf_debugtest.ko" \
		--out "$dir" --quiet -- \
		sh -c "echo $2 > /sys/kernel/debug/hf_debugtest/trigger" \
		>"$dir.log" 2>&1
	rc=$?
	secs=$((SECONDS - t0))
}

guest clean ""
result "clean run exits 0" $((rc == 0)) "exit $rc after ${secs}s ($dir)"

guest leak leak
n=$(grep -c '^unreferenced object' "$dir/kmemleak.log" 2>/dev/null)
ok=$((rc == 126 && ${n:-0} >= 1))
# The backtraces name the module: it was still loaded at the scan.
grep -q '\[hf_debugtest\]' "$dir/kmemleak.log" 2>/dev/null || ok=0
result "kmemleak: leak exits 126 with the leak in kmemleak.log" "$ok" \
	"exit $rc after ${secs}s, ${n:-0} leaks reported ($dir)"

guest reports "lockdep atomic ubsan uaf"
reports=$("$tree/tools/vm/console-check.sh" "$dir/console.log")
ok=$((rc == 127))
missing=()
for want in 'possible circular locking dependency' \
	'BUG: sleeping function called from invalid context' \
	'UBSAN: shift-out-of-bounds' \
	'BUG: (KASAN: (slab-)?|KFENCE: )use-after-free'; do
	grep -qE "$want" <<<"$reports" || { missing+=("$want"); ok=0; }
done
result "lockdep, atomic sleep, UBSAN, use-after-free (KASAN or KFENCE) each exit 127" "$ok" \
	"exit $rc after ${secs}s ($dir)" "${missing[@]/#/not caught: }"

guest warn "warn lockdep"
reports=$("$tree/tools/vm/console-check.sh" "$dir/console.log")
ok=$((rc == 127))
missing=()
for want in 'WARNING: .*hf_debugtest' 'possible circular locking dependency'; do
	grep -qE "$want" <<<"$reports" || { missing+=("$want"); ok=0; }
done
result "a warning and a lockdep report that do not stop the kernel exit 127" "$ok" \
	"exit $rc after ${secs}s ($dir)" "${missing[@]/#/not caught: }"

echo "# $((num - failed)) passed, $failed failed"
((failed == 0))
