#!/bin/bash
# Runs inside the test guest, chrooted into the host root: loads the freshly
# built module, runs the requested command, unloads the module, asks kmemleak
# for a scan where the kernel has it, and returns the command's status (or
# 126 when the module would not load or unload). /run/hf is the run
# directory shared with the host: it holds "env" and "cmd" written by run.sh.
set -u

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LC_ALL=C.UTF-8
# shellcheck source=/dev/null
. /run/hf/env

hostname hf-guest 2>/dev/null
ip link set lo up
echo 1 > /proc/sys/kernel/panic_on_oops 2>/dev/null || true

marker() { echo "hf-vm: $*" | tee /dev/kmsg; }

loaded=0
if [[ -n ${HF_MODULE:-} ]]; then
	# shellcheck disable=SC2086
	if ! insmod "$HF_MODULE" ${HF_MODULE_PARAMS:-}; then
		marker "FAIL: insmod $HF_MODULE"
		exit 126
	fi
	loaded=1
	marker "module loaded: $(basename "$HF_MODULE")"
fi

cd "$HF_TREE" || exit 126
marker "command start"
set -o pipefail
bash /run/hf/cmd 2>&1 | tee /run/hf/output.log
rc=$?
set +o pipefail
marker "command exit $rc"

if ((loaded)) && grep -q '^hyperframe ' /proc/modules; then
	if ! rmmod hyperframe; then
		marker "FAIL: module did not unload"
		rc=126
	else
		marker "module unloaded"
	fi
fi

if [[ -w /sys/kernel/debug/kmemleak ]]; then
	echo scan > /sys/kernel/debug/kmemleak
	sleep 1
	echo scan > /sys/kernel/debug/kmemleak
	if [[ -s /sys/kernel/debug/kmemleak ]]; then
		cat /sys/kernel/debug/kmemleak
		marker "FAIL: kmemleak reported leaks"
		rc=126
	fi
fi
exit "$rc"
