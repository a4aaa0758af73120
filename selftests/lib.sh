#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lib.sh - shared by the hyperframe shell selftests: KTAP reporting,
# deferred cleanup, polling, module helpers and the topology builder
# (N network namespaces joined by veth, through a bridge when N > 2).
#
# A test sources this file, declares its cases with ktap_plan, reports
# each with log_test, and ends with "exit $(ktap_exit)". Everything it
# creates is registered with defer and torn down in reverse on exit, even
# when the test fails half-way.

HF_DIR=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

ktap_count=0
ktap_failed=0
ktap_xfailed=0
RET=0
RET_MSG=
XFAIL_MSG=

ktap_plan()
{
	echo "TAP version 13"
	echo "1..$1"
}

# log_test NAME: report the case that just ran from RET/RET_MSG, and
# XFAIL_MSG: a case that failed only a timing bound on a slow machine
# (check_time) is "ok ... # XFAIL", which tools/ktap-count.awk counts
# apart, never as a pass.
log_test()
{
	ktap_count=$((ktap_count + 1))
	if ((RET != 0)); then
		# One line, as KTAP wants: a message's own lines joined by " | ".
		echo "not ok $ktap_count $1${RET_MSG:+ # ${RET_MSG//$'\n'/ | }}"
		ktap_failed=$((ktap_failed + 1))
	elif [[ -n $XFAIL_MSG ]]; then
		echo "ok $ktap_count $1 # XFAIL ${XFAIL_MSG//$'\n'/ | }"
		ktap_xfailed=$((ktap_xfailed + 1))
	else
		echo "ok $ktap_count $1"
	fi
	RET=0
	RET_MSG=
	XFAIL_MSG=
}

ktap_exit()
{
	if ((ktap_failed)); then
		echo "# $ktap_failed of $ktap_count failed" >&2
		echo $KSFT_FAIL
	else
		((ktap_xfailed == 0)) ||
			echo "# $ktap_xfailed of $ktap_count missed a timing bound (XFAIL)" >&2
		echo $KSFT_PASS
	fi
}

# check_err STATUS MSG: record a failure when STATUS is non-zero.
check_err()
{
	if (($1 != 0 && RET == 0)); then
		RET=1
		RET_MSG=$2
		echo "# FAIL: ${2//$'\n'/$'\n'# }"
	fi
}

# check_time STATUS MSG: as check_err, for a bound on time or rate that
# only a machine fast enough can meet. With KSFT_MACHINE_SLOW=yes (as
# kselftest's net tests take it; tools/vm/run.sh sets it for the debug
# kernel) its failure makes the case an expected failure (XFAIL) instead,
# unless the case failed otherwise; every other check stays a check.
check_time()
{
	if [[ $KSFT_MACHINE_SLOW != yes ]]; then
		check_err "$@"
	elif (($1 != 0)) && [[ -z $XFAIL_MSG ]]; then
		XFAIL_MSG=$2
		echo "# XFAIL (KSFT_MACHINE_SLOW): ${2//$'\n'/$'\n'# }"
	fi
}

# check_fail STATUS MSG: record a failure when STATUS is zero.
check_fail()
{
	if (($1 == 0 && RET == 0)); then
		RET=1
		RET_MSG=$2
		echo "# FAIL: ${2//$'\n'/$'\n'# }"
	fi
}

# check_eq GOT WANT MSG
check_eq()
{
	if [[ "$1" != "$2" ]]; then
		check_err 1 "$3: got '$1', want '$2'"
	fi
}

# Deferred cleanup: run in reverse order on exit, or earlier by calling
# defer_run (a test that builds several topologies tears each down).
declare -a __defer_stack=()

defer()
{
	__defer_stack+=("$*")
}

defer_run()
{
	local i

	for ((i = ${#__defer_stack[@]} - 1; i >= 0; i--)); do
		eval "${__defer_stack[i]}" >/dev/null 2>&1
	done
	__defer_stack=()
}
trap defer_run EXIT

# busywait TIMEOUT_MS CMD...: retry CMD until it succeeds or time runs out.
busywait()
{
	local timeout_ms=$1
	local start

	shift
	start=$(date +%s%N)
	until "$@"; do
		if (( ($(date +%s%N) - start) / 1000000 > timeout_ms )); then
			return 1
		fi
		sleep 0.05
	done
}

# hf_said PID FILE TEXT: PID has exited, or FILE has a line beginning
# with TEXT ("hfctl probe: listening on " and "hfctl trace: tracing " say
# on standard error that their programs are attached).
hf_said()
{
	! kill -0 "$1" 2>/dev/null || grep -qs "^$3" "$2"
}

# hf_said_wait PID FILE TEXT: waits (two minutes at most: loading BPF
# programs takes seconds under TCG) until PID said TEXT in FILE; fails if
# it exited first or never said it.
hf_said_wait()
{
	busywait 120000 hf_said "$@" && grep -qs "^$3" "$2"
}

# hf_trace_buffer_kb: the size of the trace buffer per CPU, in KiB, as
# buffer_size_kb takes it back: before the buffer is first used it reads
# "7 (expanded: 1408)", and the size it expands to is the one to keep.
hf_trace_buffer_kb()
{
	sed -n 's/.*expanded: \([0-9]*\).*/\1/p; t; s/^\([0-9]*\).*/\1/p' \
		/sys/kernel/tracing/buffer_size_kb
}

# hf_trace_start KB EVENT...: trace EVENTs (paths under events/, such as
# hyperframe or hyperframe/hf_frame_size) into an emptied buffer of KB KiB
# per CPU. All it changes comes back at exit, the events going off first:
# the buffer's size, tracing_on, and the record-cmd and record-tgid
# options, which it turns off (recording them hooks sched_switch when
# events go on and off, patching __schedule, where TCG was seen to run a
# stale int3: docs/testing.md; the records need neither).
hf_trace_start()
{
	local t=/sys/kernel/tracing kb=$1 opt ev

	shift
	defer "echo $(hf_trace_buffer_kb) >$t/buffer_size_kb; : >$t/trace;" \
		"echo $(cat "$t/tracing_on") >$t/tracing_on"
	for opt in record-cmd record-tgid; do
		defer "echo $(cat "$t/options/$opt") >$t/options/$opt"
		echo 0 >"$t/options/$opt"
	done
	for ev; do
		defer "echo 0 >$t/events/$ev/enable"
	done
	echo 0 >"$t/tracing_on"
	echo "$kb" >"$t/buffer_size_kb"
	: >"$t/trace"
	for ev; do
		echo 1 >"$t/events/$ev/enable" || return 1
	done
	echo 1 >"$t/tracing_on"
}

# hf_trace_stop EVENT...: stops tracing and turns EVENTs off; the buffer
# keeps what was recorded.
hf_trace_stop()
{
	local t=/sys/kernel/tracing ev

	echo 0 >"$t/tracing_on"
	for ev; do
		echo 0 >"$t/events/$ev/enable"
	done
}

# Module helpers. HF_MODULE is the freshly built .ko (set by the VM harness).
hf_module_loaded()
{
	grep -q '^hyperframe ' /proc/modules
}

hf_module_load()
{
	hf_module_loaded || insmod "${HF_MODULE:?HF_MODULE is not set}" "$@"
}

hf_module_unload()
{
	! hf_module_loaded || rmmod hyperframe
}

# hf_stat NODE NAME: counter NAME of node NODE's namespace, as
# /proc/net/hyperframe shows it.
hf_stat()
{
	ip netns exec "${HF_NODES[$1]}" awk -v k="$2" '$1 == k {print $2}' \
		/proc/net/hyperframe
}

# json_field KEY: field KEY of the JSON object on stdin (hfctl -j ... show).
json_field()
{
	python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"
}

# hf_monitor_seen ADDR FILE...: every FILE, an hfctl monitor's NDJSON or
# text, shows the peer up of ADDR.
hf_monitor_seen()
{
	local addr=$1 f

	shift
	for f in "$@"; do
		grep -Eq "\"event\":\"peer_up\",.*\"address\":\"$addr\"|^peer up .* addr $addr\$" \
			"$f" || return 1
	done
}

# hf_monitor_probe NODE TAG FILE...: make events in node NODE until every
# FILE (monitors of that node) shows the same peer up. A monitor prints
# nothing until then, so this is how a test knows it listens. Each try
# sends a message to a new address nobody has (02:00:00:00:TAG:NN), whose
# peer state is created at once; its sender's output goes to probe-TAG-NN
# beside the first FILE. Sets HF_PROBE to the address all monitors saw.
# The senders fail with EHOSTUNREACH at the retry limit (a low one keeps
# this short) and are waited for.
HF_PROBE=
hf_monitor_probe()
{
	local node=$1 tag=$2 dir i pids=() rc=1

	shift 2
	dir=$(dirname "$1")
	for ((i = 1; i <= 30; i++)); do
		HF_PROBE=$(printf '02:00:00:00:%02x:%02x' "$tag" "$i")
		ip netns exec "${HF_NODES[node]}" timeout 60 "$HF_DIR/hf_xfer" send eth0 \
			"$HF_PROBE" 7000 100 >"$dir/probe-$tag-$i" 2>&1 &
		pids+=($!)
		if busywait 3000 hf_monitor_seen "$HF_PROBE" "$@"; then
			rc=0
			break
		fi
	done
	for i in "${pids[@]}"; do
		wait "$i"
	done
	return "$rc"
}

# Topology: hf_topo_create N [MTU] creates namespaces ${HF_NODES[0..N-1]},
# each with one interface eth0 addressed 198.18.0.(i+1)/24 (the RFC 2544
# benchmarking range; nothing here leaves the guest). Two nodes are joined
# by one veth pair; more go through a bridge (a software switch) living in
# namespace $HF_SWITCH. Every link gets the same MTU (default 1500).
declare -a HF_NODES=()
HF_SWITCH=

hf_node_addr()
{
	echo "198.18.0.$(($1 + 1))"
}

hf_topo_create()
{
	local n=$1 mtu=${2:-1500}
	local tag i

	tag=$(printf '%04x' $((RANDOM)))
	HF_NODES=()
	for ((i = 0; i < n; i++)); do
		HF_NODES+=("hf$tag-n$i")
		ip netns add "${HF_NODES[i]}" || return 1
		defer ip netns del "${HF_NODES[i]}"
		ip -n "${HF_NODES[i]}" link set lo up
	done

	if ((n == 2)); then
		ip link add eth0 netns "${HF_NODES[0]}" mtu "$mtu" type veth \
			peer name eth0 netns "${HF_NODES[1]}" mtu "$mtu" || return 1
	else
		HF_SWITCH=hf$tag-sw
		ip netns add "$HF_SWITCH" || return 1
		defer ip netns del "$HF_SWITCH"
		ip -n "$HF_SWITCH" link add br0 mtu "$mtu" type bridge \
			stp_state 0 || return 1
		ip -n "$HF_SWITCH" link set br0 up
		for ((i = 0; i < n; i++)); do
			ip link add eth0 netns "${HF_NODES[i]}" mtu "$mtu" \
				type veth peer name "p$i" netns "$HF_SWITCH" \
				mtu "$mtu" || return 1
			ip -n "$HF_SWITCH" link set "p$i" master br0 up
		done
	fi

	for ((i = 0; i < n; i++)); do
		ip -n "${HF_NODES[i]}" addr add "$(hf_node_addr "$i")/24" dev eth0
		ip -n "${HF_NODES[i]}" link set eth0 up
	done
}

# hf_config_set KEY VALUE...: hfctl config set in the initial namespace
# and in every node's that still exists. Each namespace has its own
# settings, copied from the initial one's when it is created, so a
# change made after hf_topo_create must reach the nodes themselves.
hf_config_set()
{
	local ns ret=0

	"${HFCTL:?HFCTL is not set}" config set "$@" || ret=1
	for ns in "${HF_NODES[@]}"; do
		[[ -e /run/netns/$ns ]] || continue
		"$HFCTL" -n "$ns" config set "$@" || ret=1
	done
	return $ret
}

# hf_node_mac I: Ethernet address of node I's eth0.
hf_node_mac()
{
	ip -n "${HF_NODES[$1]}" -br link show dev eth0 | awk '{print $3}'
}

# hf_exchange DIR PORT: messages both ways between nodes 0 and 1, as the
# tracing tests count them: node 0 sends 2000000, 1000 and 300000 bytes to
# node 1's PORT, node 1 500000 and 64 bytes to node 0's PORT+1, three
# rounds each, at once. Logs in DIR/{send,recv}{0,1}; returns 1, saying
# which end failed, unless all four succeed.
hf_exchange()
{
	local dir=$1 port=$2
	local r0 r1 s0 ret=0

	ip netns exec "${HF_NODES[1]}" "$HF_DIR/hf_xfer" recv "$port" 2000000,1000,300000 3 \
		>"$dir/recv1" 2>&1 &
	r1=$!
	ip netns exec "${HF_NODES[0]}" "$HF_DIR/hf_xfer" recv $((port + 1)) 500000,64 3 \
		>"$dir/recv0" 2>&1 &
	r0=$!
	busywait 10000 grep -q ready "$dir/recv1"
	busywait 10000 grep -q ready "$dir/recv0"
	ip netns exec "${HF_NODES[0]}" timeout 120 "$HF_DIR/hf_xfer" send eth0 "$(hf_node_mac 1)" \
		"$port" 2000000,1000,300000 3 >"$dir/send0" 2>&1 &
	s0=$!
	if ! ip netns exec "${HF_NODES[1]}" timeout 120 "$HF_DIR/hf_xfer" send eth0 \
		"$(hf_node_mac 0)" $((port + 1)) 500000,64 3 >"$dir/send1" 2>&1; then
		echo "# node 1's sender: $(cat "$dir/send1")"
		ret=1
	fi
	wait "$s0" || { echo "# node 0's sender: $(cat "$dir/send0")"; ret=1; }
	wait "$r1" || { echo "# node 1's receiver: $(cat "$dir/recv1")"; ret=1; }
	wait "$r0" || { echo "# node 0's receiver: $(cat "$dir/recv0")"; ret=1; }
	return $ret
}

# hf_counters_settle NS...: waits (up to 10 s) until the counters of every
# NS stand still for half a second: the last ACKs leave after the last
# message's outcome.
hf_counters_settle()
{
	local i before after ns

	for ((i = 0; i < 20; i++)); do
		before=$(for ns in "$@"; do ip netns exec "$ns" cat /proc/net/hyperframe; done)
		sleep 0.5
		after=$(for ns in "$@"; do ip netns exec "$ns" cat /proc/net/hyperframe; done)
		[[ $before == "$after" ]] && return 0
	done
	return 1
}

# hf_churn_start A B SECS MAX PORT PREFIX: hf_churn on nodes A and B, each
# sending to the other at PORT for SECS seconds (messages of 1..MAX bytes,
# two sockets a side), started together once both are bound. Their result
# lines go to PREFIX-A and PREFIX-B; hf_churn_wait collects them.
hf_churn_start()
{
	local a=$1 b=$2 secs=$3 max=$4 port=$5 prefix=$6 i peer

	HF_CHURN_PIDS=()
	rm -f "$prefix.go"
	for i in "$a" "$b"; do
		peer=$((i == a ? b : a))
		HF_CHURN_GO=$prefix.go ip netns exec "${HF_NODES[i]}" \
			timeout $((secs + 300)) "$HF_DIR/hf_churn" eth0 \
			"$(hf_node_mac "$peer")" "$port" "$secs" "$max" 2 \
			$((i + 1)) >"$prefix-$i" 2>&1 &
		HF_CHURN_PIDS+=($!)
	done
	busywait 60000 __hf_churn_ready "$prefix-$a" "$prefix-$b"
	touch "$prefix.go"
}

# shellcheck disable=SC2317
__hf_churn_ready()
{
	grep -q '^ready' "$1" && grep -q '^ready' "$2"
}

# hf_churn_wait: wait for the hf_churn_start pair; non-zero when either
# failed.
hf_churn_wait()
{
	local pid rc=0

	for pid in "${HF_CHURN_PIDS[@]}"; do
		wait "$pid" || rc=1
	done
	return $rc
}

# hf_churn_field NAME FILE...: the largest NAME= among hf_churn result
# lines in FILE...
hf_churn_field()
{
	local name=$1

	shift
	cat "$@" | sed -n "s/^churn .*\<$name=\([0-9.]*\).*/\1/p" |
		sort -g | tail -n 1
}
