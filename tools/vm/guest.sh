#!/bin/bash
# Runs inside the test guest, with the host root as its root: loads the freshly
# built module, runs the requested command, unloads the module, and returns
# the command's status (or 126 when the module would not load or unload,
# kmemleak found a leak, the kernel was tainted by a warning or an error,
# lockdep turned itself off, or no socket could hold receive timestamps).
# Where the kernel has kmemleak (the debug line), it
# takes a baseline before the module loads (what boot left behind is
# cleared, not blamed), then scans after the command, with the module still
# loaded so its symbols show in the backtraces, and again after the unload,
# which catches what only the module's own data still pointed at. Reports go
# to /run/hf/kmemleak.log. /run/hf is the run directory shared with the
# host: it holds "env" and "cmd" written by run.sh.
set -u

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LC_ALL=C.UTF-8
# shellcheck source=/dev/null
. /run/hf/env

hostname hf-guest 2>/dev/null
ip link set lo up
echo 1 > /proc/sys/kernel/panic_on_oops 2>/dev/null || true

marker() { echo "hf-vm: $*" | tee /dev/kmsg; }
marker "guest up: $(uname -r), $(cut -d ' ' -f 1 /proc/uptime)s after boot"

# What the run must leave as it found it, checked at its end (and at an
# early failure): no taint flag that a kernel warning (W), a bad page (B)
# or an oops (D) sets, and lockdep still on where the kernel has it (it
# turns itself off after its first report, or when its tables fill). The
# console prints only errors (loglevel=4), and WARN() writes at
# KERN_WARNING: without this, a warning would pass unseen.
taint_bad=$(((1 << 9) | (1 << 7) | (1 << 5)))
taint0=$(< /proc/sys/kernel/tainted)
lockdep_on() { awk '$1 == "debug_locks:" { print $2 }' /proc/lockdep_stats 2> /dev/null; }
lockdep0=$(lockdep_on)
if ((taint0 & taint_bad)); then
	marker "the kernel was tainted before the run ($taint0): its warnings go unchecked"
fi

# kernel_reports: 0 when the run left the kernel as it found it; else
# prints what it found on the console, from the first report on, where
# the host's console-check.sh names it, and returns 1.
kernel_reports()
{
	local taint first reported=0

	taint=$(< /proc/sys/kernel/tainted)
	if ((taint & ~taint0 & taint_bad)); then
		marker "FAIL: the kernel was tainted by a warning or an error (taint $taint0 -> $taint)"
		reported=1
	fi
	if [[ $lockdep0 == 1 && $(lockdep_on) != 1 ]]; then
		marker "FAIL: lockdep turned itself off"
		# Why, when it was no report: printed at KERN_DEBUG.
		dmesg | grep -E 'too low!|turning off the locking correctness validator|Disabling lock debugging'
		reported=1
	fi
	((reported)) || return 0
	# From the first report on, every level (a warning's backtrace is
	# printed below KERN_WARNING); else the last warnings and errors.
	echo "hf-vm: the kernel's log from its first report on, from dmesg:"
	first=$(dmesg | sed -n '/WARNING:\|BUG:\|Oops\|locking\|lock state\|RCU usage/,$p')
	[[ -n $first ]] || first=$(dmesg --level=emerg,alert,crit,err,warn | tail -n 100)
	head -n 400 <<< "$first"
	return 1
}

kmemleak=/sys/kernel/debug/kmemleak
[[ -w $kmemleak ]] || kmemleak=

# kmemleak_check WHEN: scan for leaks; on a report, append it to
# /run/hf/kmemleak.log, mark all reported objects as seen, and fail. An
# object is reported once it is at least 5 s old and unreferenced in two
# scans in a row with unchanged contents: wait, then scan twice.
kmemleak_check()
{
	local n t=$SECONDS

	sleep 5
	# A kmemleak that disabled itself (out of metadata) refuses scans.
	if ! { echo scan > "$kmemleak" && echo scan > "$kmemleak"; } 2>/dev/null; then
		marker "FAIL: kmemleak refused to scan $1 (disabled itself?)"
		return 1
	fi
	n=$(grep -c '^unreferenced object' "$kmemleak")
	marker "kmemleak scan $1: $n new suspected leaks ($((SECONDS - t))s)"
	if ((n == 0)); then
		echo clear > "$kmemleak"
		return 0
	fi
	{
		echo "== kmemleak, $1: $n suspected leaks"
		cat "$kmemleak"
	} >> /run/hf/kmemleak.log
	echo clear > "$kmemleak"
	marker "FAIL: kmemleak reported $n leaks $1 (kmemleak.log)"
	return 1
}

if [[ -n $kmemleak ]]; then
	# Baseline: report and clear whatever boot leaked, so it is not blamed
	# on the module or the command.
	echo scan > "$kmemleak"
	echo scan > "$kmemleak"
	marker "kmemleak baseline: $(grep -c '^unreferenced object' "$kmemleak") boot objects cleared"
	echo clear > "$kmemleak"
fi

loaded=0
# The module's name as /proc/modules spells it.
modname=$(basename "${HF_MODULE:-none}" .ko | tr - _)
if [[ -n ${HF_MODULE:-} ]]; then
	# shellcheck disable=SC2086
	if ! insmod "$HF_MODULE" ${HF_MODULE_PARAMS:-}; then
		marker "FAIL: insmod $HF_MODULE"
		kernel_reports
		exit 126
	fi
	loaded=1
	marker "module loaded: $(basename "$HF_MODULE")"
fi

# Receive timestamps stay wanted for the whole run. A socket that asks for
# them (ping does) switches a static key in the receive path on, and its
# close switches it off; the kernel patches that code with an int3 while
# the other CPU runs it, and TCG has been seen to run a stale translation
# of it and trap on an int3 memory no longer held (docs/testing.md). With
# one socket holding SO_TIMESTAMP from before the command until the guest
# powers off, the key is switched once (by a work item, as the command
# starts) and never back.
exec {tsfd}< <(exec python3 -c '
import signal, socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, 29, 1)  # SO_TIMESTAMP, not in python
print("held", flush=True)
signal.pause()
')
if ! read -r -t 60 -u "$tsfd" _; then
	marker "FAIL: no socket holds receive timestamps"
	exit 126
fi

cd "$HF_TREE" || exit 126
marker "command start"
set -o pipefail
# times.log: the seconds each kselftest program took, one "SECONDS NAME"
# line per result, for the host to report where the suite's time goes.
# The output also goes on to the console, as it comes.
bash /run/hf/cmd {tsfd}<&- 2>&1 | tee /run/hf/output.log | {
	t0=$SECONDS
	while IFS= read -r l || [[ -n $l ]]; do
		printf '%s\n' "$l"
		[[ $l =~ ^(not\ )?ok\ [0-9]+\ selftests:\ [^:]+:\ ([^ ]+) ]] || continue
		echo "$((SECONDS - t0)) ${BASH_REMATCH[2]}" >&3
		t0=$SECONDS
	done 3> /run/hf/times.log
}
rc=$?
set +o pipefail
marker "command exit $rc"

if [[ -n $kmemleak ]] && ! kmemleak_check "after the command"; then
	rc=126
fi

if ((loaded)) && grep -q "^$modname " /proc/modules; then
	if ! rmmod "$modname"; then
		marker "FAIL: module did not unload"
		rc=126
	else
		marker "module unloaded"
	fi
fi

if [[ -n $kmemleak ]] && ((loaded)) && ! kmemleak_check "after the module unload"; then
	rc=126
fi

kernel_reports || rc=126
exit "$rc"
