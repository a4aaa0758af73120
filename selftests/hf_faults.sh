#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Allocation failures injected while hyperframe traffic runs (failslab and
# fail_page_alloc through debugfs, /proc/thread-self/fail-nth,
# make-it-fail): no crash, WARN or leak (the harness and, on the debug
# line, KASAN and kmemleak judge that), errors reach users only as
# ENOMEM, ENOBUFS or EAGAIN from the call, or as a documented outcome in
# the error queue, and every message sendmsg() accepted is delivered
# byte-exact or reported failed. Each case also proves faults were
# injected: one that injected nothing proves nothing.
#
# Aiming at the module: the stack-trace filter (require-start/-end over
# the module's .text) cannot be built on x86-64 before 6.3, so where it
# is missing the faults are aimed by context instead: fail-nth and the
# task filter hit the calls of the test's own processes (sendmsg,
# socket), and atomic-only failures hit the receive path, the timers and
# ACKs (in the guest nearly all atomic allocations are the transport's).
# Skips, with the missing options named, on a kernel without fault
# injection (the stock Debian kernels); the debug line has it.

source "$(dirname "$(readlink -f "$0")")/lib.sh"
source "$HF_DIR/ledger.sh"

ACCT=$HF_DIR/hf_account
XFER=$HF_DIR/hf_xfer
DBG=/sys/kernel/debug
LOGS=$(mktemp -d)
defer rm -rf "$LOGS"

# What the kernel lacks for this test, from its config and from debugfs.
missing_options()
{
	local config opt missing=()

	if [[ -r /proc/config.gz ]]; then
		config=$(zcat /proc/config.gz)
	elif [[ -r /boot/config-$(uname -r) ]]; then
		config=$(cat "/boot/config-$(uname -r)")
	fi
	for opt in FAULT_INJECTION FAILSLAB FAIL_PAGE_ALLOC FAULT_INJECTION_DEBUG_FS; do
		if [[ -n $config ]]; then
			grep -q "^CONFIG_$opt=y" <<<"$config" || missing+=("CONFIG_$opt")
		fi
	done
	[[ -e /proc/thread-self/fail-nth ]] || missing+=("/proc/thread-self/fail-nth")
	[[ -w $DBG/failslab/probability ]] || missing+=("$DBG/failslab")
	[[ -w $DBG/fail_page_alloc/probability ]] || missing+=("$DBG/fail_page_alloc")
	echo "${missing[*]}"
}

mountpoint -q $DBG || mount -t debugfs debugfs $DBG 2>/dev/null
lacking=$(missing_options)
if [[ -n $lacking ]]; then
	echo "TAP version 13"
	echo "1..0 # SKIP kernel $(uname -r) has no fault injection: lacks $lacking"
	exit "$KSFT_SKIP"
fi

has_filter=0
[[ -w $DBG/failslab/require-start ]] && has_filter=1

# Every knob this test turns, put back as found on exit.
KNOBS=(probability interval times space verbose task-filter ignore-gfp-wait)
for d in failslab fail_page_alloc; do
	for k in "${KNOBS[@]}" $( ((has_filter)) && echo require-start require-end stacktrace-depth); do
		defer "echo $(<"$DBG/$d/$k") > $DBG/$d/$k"
	done
done
defer "echo $(<$DBG/fail_page_alloc/min-order) > $DBG/fail_page_alloc/min-order"
defer "echo $(<$DBG/fail_page_alloc/ignore-gfp-highmem) > $DBG/fail_page_alloc/ignore-gfp-highmem"
# ...and the injection off first of all (deferred last: runs first).
defer "echo 0 > $DBG/failslab/probability; echo 0 > $DBG/fail_page_alloc/probability"

TIMES=1000000

# faults_on PROBABILITY TASK_FILTER IGNORE_GFP_WAIT: both attributes,
# every allocation order but highmem (user pages), counting from TIMES.
faults_on()
{
	local d

	for d in failslab fail_page_alloc; do
		echo 0 > "$DBG/$d/probability"
		echo 1 > "$DBG/$d/interval"
		echo 0 > "$DBG/$d/space"
		echo 0 > "$DBG/$d/verbose"
		echo "$2" > "$DBG/$d/task-filter"
		echo "$3" > "$DBG/$d/ignore-gfp-wait"
		echo $TIMES > "$DBG/$d/times"
	done
	echo 0 > $DBG/fail_page_alloc/min-order
	echo Y > $DBG/fail_page_alloc/ignore-gfp-highmem
	for d in failslab fail_page_alloc; do
		echo "$1" > "$DBG/$d/probability"
	done
}

# faults_off: stop injecting; INJECTED is how many were, per attribute.
faults_off()
{
	local d

	echo 0 > $DBG/failslab/probability
	echo 0 > $DBG/fail_page_alloc/probability
	INJECTED=""
	INJECTED_TOTAL=0
	for d in failslab fail_page_alloc; do
		local n=$((TIMES - $(<"$DBG/$d/times")))

		INJECTED+="$d $n, "
		INJECTED_TOTAL=$((INJECTED_TOTAL + n))
	done
	INJECTED=${INJECTED%, }
}

# stat NODE NAME: a counter of the node, read through the process PIN[NODE]
# that holds a place in its namespace (no process to start each time).
stat()
{
	pid_stat "${PIN[$1]}" "$2"
	echo "$NSV"
}

refcnt_is_zero()
{
	[[ $(</sys/module/hyperframe/refcnt) -eq 0 ]]
}

rx_mem_free()
{
	pid_stat "${PIN[0]}" rx_mem_bytes
	((NSV == 0)) || return
	pid_stat "${PIN[1]}" rx_mem_bytes
	((NSV == 0))
}

# counted: what the transport counts when an allocation fails on it
# (drop_memory, tx_xmit_errors), both nodes.
counted()
{
	echo $(($(stat 0 drop_memory) + $(stat 1 drop_memory) +
		$(stat 0 tx_xmit_errors) + $(stat 1 tx_xmit_errors)))
}

# transfer NAME PORT SIZES COUNT OPTIONS...: an accounted transfer of
# COUNT messages from node 0 to node 1 while faults are on (OPTIONS go to
# both ends); checks both ends and the ledger, and prints the figures;
# COUNTED is how many allocation failures the transport counted.
transfer()
{
	local name=$1 port=$2 sizes=$3 n=$4 rpid rc sent got counted0

	shift 4
	counted0=$(counted)
	ip netns exec "${HF_NODES[1]}" "$ACCT" recv --idle 30000 "$@" \
		--log "$LOGS/r-$port" "$port" "$sizes" "$n" >"$LOGS/recv-$port" 2>&1 &
	rpid=$!
	wait_until 30000 has_line "$LOGS/recv-$port" ready
	check_err $? "receiver did not start"
	ip netns exec "${HF_NODES[0]}" timeout 80 "$ACCT" send "$@" \
		--retry ENOMEM,ENOBUFS,EAGAIN --time 20 --drain 30 \
		--log "$LOGS/s-$port" eth0 "$MAC1" "$port" "$sizes" "$n" \
		>"$LOGS/send-$port" 2>&1
	rc=$?
	faults_off
	sent=$(line_of "$LOGS/send-$port" account:)
	((rc)) && check_err $rc "sender ($rc): $(grep -v '^account:' "$LOGS/send-$port" | head -n 3 | tr '\n' ' ')"
	# Every outcome is known: what was delivered is queued at the receiver.
	kill -USR1 "$rpid" 2>/dev/null
	bounded_wait "$rpid" 30
	rc=$?
	got=$(line_of "$LOGS/recv-$port" account:)
	((rc)) && check_err $rc "receiver ($rc): $(grep -v -e '^account:' -e ready "$LOGS/recv-$port" | head -n 3 | tr '\n' ' ')"
	ledger_check "$LOGS/s-$port" "$LOGS/r-$port" "$(field "$sent" unnamed)"
	echo "# $name: faults injected: $INJECTED"
	echo "# $name: sendmsg errors seen: $(field "$sent" send_errors); accepted $(field "$sent" accepted) of $n;" \
		"delivered $DELIVERED byte-exact, reported failed $FAILED ($(field "$sent" async_errors))," \
		"failures without an error-queue entry $(field "$sent" unnamed); $(field "$sent" seconds) s"
	echo "# $name: receiver: ${got#account: }"
	COUNTED=$(($(counted) - counted0))
	echo "# $name: drops: memory $(stat 0 drop_memory)/$(stat 1 drop_memory), mem_limit $(stat 1 drop_mem_limit)," \
		"xmit errors $(stat 0 tx_xmit_errors)/$(stat 1 tx_xmit_errors), retransmits $(stat 0 tx_retransmits), rto $(stat 0 tx_rto);" \
		"drop_memory + tx_xmit_errors in this case: $COUNTED"
	((INJECTED_TOTAL > 0))
	check_err $? "no fault was injected: the case proves nothing"
	(($(field "$sent" accepted) > 0))
	check_err $? "no message got through"
}

ktap_plan $((5 + has_filter))
if ((!has_filter)); then
	echo "# no stack-trace filter ($DBG/failslab/require-start): aiming by context (fail-nth, task filter, atomic-only)"
fi
echo "# fail_function: $(if [[ -r $DBG/fail_function/injectable ]]; then
	grep -c . $DBG/fail_function/injectable; else echo no; fi) injectable functions;" \
	"the module's allocations are reachable only through should_failslab and" \
	"should_fail_alloc_page, which failslab and fail_page_alloc drive; it marks none of its own"

wait_until 60000 refcnt_is_zero
check_err $? "module still referenced before the test: $(</sys/module/hyperframe/refcnt)"
T0=$SECONDS
hf_topo_create 2 1500
for i in 0 1; do
	ip netns exec "${HF_NODES[i]}" sleep 3600 &
	PIN[i]=$!
done
defer kill "${PIN[@]}"
MAC1=$(hf_node_mac 1)

# 1. Every allocation of one sendmsg() in turn, GFP_KERNEL ones included.
faults_on 0 N N
ip netns exec "${HF_NODES[1]}" "$ACCT" recv --idle 30000 --log "$LOGS/r-nth" \
	7600 6000 400 >"$LOGS/recv-nth" 2>&1 &
rpid=$!
wait_until 30000 has_line "$LOGS/recv-nth" ready
out=$(ip netns exec "${HF_NODES[0]}" timeout 80 "$ACCT" nth --log "$LOGS/s-nth" \
	eth0 "$MAC1" 7600 6000 2>&1)
((rc = $?)) && check_err $rc "nth: $(grep -v -e '^nth:' -e '^account:' <<<"$out" | head -n 3 | tr '\n' ' ')"
faults_off
kill -USR1 "$rpid" 2>/dev/null
bounded_wait "$rpid" 30
((rc = $?)) && check_err $rc "receiver: $(grep -v -e ready -e '^account:' "$LOGS/recv-nth" | head -n 3)"
acct=$(grep '^account:' <<<"$out")
nth=$(grep '^nth:' <<<"$out")
ledger_check "$LOGS/s-nth" "$LOGS/r-nth" "$(field "$acct" unnamed)"
echo "# sendmsg of 6000 bytes: $(field "$nth" allocations) allocation points, $(field "$nth" injected) failed in turn ($INJECTED)"
echo "# results by failing allocation: $(field "$nth" calls)"
echo "# ${acct#account: }"
(($(field "$nth" injected) > 0))
check_err $? "fail-nth injected nothing"
log_test "faults: each allocation of a sendmsg() fails in turn: ENOMEM or a delivered message"
echo "# $((SECONDS - T0)) s so far"

# 2. Every allocation of socket() and bind() in turn.
faults_on 0 N N
out=$(ip netns exec "${HF_NODES[0]}" timeout 60 "$ACCT" nth-socket 2>&1)
((rc = $?)) && check_err $rc "nth-socket: $(tr '\n' ' ' <<<"$out")"
faults_off
comment "$out"
wait_until 10000 refcnt_is_zero
((rc = $?)) && check_err $rc "a failed socket() left the module referenced: $(</sys/module/hyperframe/refcnt)"
log_test "faults: each allocation of socket() fails in turn: ENOMEM/ENFILE, no reference left"

# 3. Random failures of every allocation the two processes make
# (GFP_KERNEL included): sendmsg copies, peer creation, segments built in
# the sender's context, ACKs sent from recvmsg.
faults_on 2 Y N
transfer "task filter" 7601 1000,20000,300000 45 --fail-self
log_test "faults: random failures in the sending and receiving processes (task filter)"
echo "# $((SECONDS - T0)) s so far"

# 4. Random failures of atomic allocations, whoever makes them: the
# receive path (reassembly, segment tables, peers), ACKs, retransmissions
# from the timers, error-queue entries.
faults_on 3 N Y
transfer "atomic" 7602 1000,20000,300000 30 --expect EHOSTUNREACH,ECONNRESET
# Hundreds of atomic allocations fail, most of them the transport's: it
# must have counted some (drop_memory, tx_xmit_errors), not hidden them.
((COUNTED > 0))
check_err $? "$INJECTED atomic faults injected and the transport counted none"
log_test "faults: random atomic-allocation failures (receive path, timers, ACKs)"
echo "# $((SECONDS - T0)) s so far"

# 5. Aimed at the module's .text by the stack-trace filter, where it exists.
if ((has_filter)); then
	start=$(</sys/module/hyperframe/sections/.text)
	size=$(readelf -SW "$HF_MODULE" | awk '$2 == ".text" { print $6 }')
	for d in failslab fail_page_alloc; do
		echo "$start" > "$DBG/$d/require-start"
		printf '0x%x\n' $((start + 0x$size)) > "$DBG/$d/require-end"
		echo 32 > "$DBG/$d/stacktrace-depth"
	done
	echo "# module .text $start + 0x$size"
	faults_on 3 N N
	transfer "module .text" 7603 1000,20000,300000 30 --expect EHOSTUNREACH,ECONNRESET
	for d in failslab fail_page_alloc; do
		echo 0 > "$DBG/$d/require-start"
		echo 0xffffffffffffffff > "$DBG/$d/require-end"
	done
	log_test "faults: random failures aimed at the module's .text (stack-trace filter)"
fi

# Afterwards: nothing held, and a clean transfer still works.
wait_until 20000 rx_mem_free
((rc = $?)) && check_err $rc "reassembly memory still held: $(stat 0 rx_mem_bytes) / $(stat 1 rx_mem_bytes)"
ip netns exec "${HF_NODES[1]}" timeout 60 "$XFER" recv 7700 1,65536,1048576 >"$LOGS/x" 2>&1 &
rpid=$!
wait_until 30000 has_line "$LOGS/x" ready
ip netns exec "${HF_NODES[0]}" timeout 60 "$XFER" send eth0 "$MAC1" \
	7700 1,65536,1048576 >"$LOGS/xs" 2>&1
((rc = $?)) && check_err $rc "clean transfer after the faults: $(cat "$LOGS/xs")"
wait "$rpid"
((rc = $?)) && check_err $rc "clean transfer after the faults: $(cat "$LOGS/x")"
defer_run
wait_until 20000 refcnt_is_zero
((rc = $?)) && check_err $rc "sockets left behind: module refcnt $(</sys/module/hyperframe/refcnt)"
log_test "faults: afterwards nothing is held and a clean transfer works"
echo "# $((SECONDS - T0)) s in all"

exit "$(ktap_exit)"
