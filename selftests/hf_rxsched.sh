#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The receiver's schedule of its link (rx_sched, docs/design.md "The
# receiver's schedule"): four nodes behind a bridge whose ports towards
# the nodes are links of rate R (tbf, a 256 KB FIFO, as a switch port);
# the nodes know R as link_rate (their hfq has no rate: the senders are
# paced by their receiver's grants alone). With rx_sched on:
#  1. rx_sched is off by default;
#  2. one sender gets at least 80 % of its receiver's link, and the
#     switch port drops nothing;
#  3. three senders to one receiver get at least 80 % of its link
#     together, shared fairly (Jain index at least 0.9), no drop there;
#  4. a sender puts at most about one bandwidth-delay product on the wire
#     before its first grant (tx_unsched_bytes; well under the 64 KiB
#     credit_initial).
# For comparison only (not checked), the three senders' figures with
# rx_sched off are printed: unpaced, they fill the FIFO and lose.
#
# R is 24 Mbit/s, or a third of what this guest carries unpaced if that
# is less (the debug line's guest carries a few MB/s), so that the links,
# not the CPU, set the pace. Rates are ratios of one run.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

HFCTL=${HFCTL:-${HF_BUILD:?set HFCTL or HF_BUILD}/userspace/hfctl/hfctl}
XFER=$HF_DIR/hf_xfer
PP=$HF_DIR/hf_pingpong
LOGS=$(mktemp -d)
defer rm -rf "$LOGS"

# on NODE CMD...: run CMD in node NODE's namespace.
on()
{
	local node=$1

	shift
	ip netns exec "${HF_NODES[node]}" "$@"
}

# bg NODE LOG CMD...: CMD in NODE's namespace in the background, its
# output in LOG; BG is its pid.
bg()
{
	local node=$1 log=$2

	shift 2
	ip netns exec "${HF_NODES[node]}" "$@" >"$log" 2>&1 &
	BG=$!
}

# stat NODE NAME: a counter from the node's /proc/net/hyperframe.
stat()
{
	on "$1" awk -v k="$2" '$1 == k {print $2}' /proc/net/hyperframe
}

# start_server NODE NAME ARGS...: hf_pingpong ARGS in NODE until the test
# ends; waits for it to listen.
start_server()
{
	local node=$1 name=$2

	shift 2
	bg "$node" "$LOGS/$name" "$PP" "$@"
	defer kill "$BG"
	busywait 10000 grep -q ready "$LOGS/$name"
}

# rx_sample NODE: "BYTES MICROSECONDS" of NODE's eth0.
rx_sample()
{
	on "$1" bash -c 'read -r b </sys/class/net/eth0/statistics/rx_bytes
		t=${EPOCHREALTIME/./}; echo "$b $t"'
}

# per_peer: "MAC RX_BYTES" for each peer of node 0, then "t NS".
per_peer()
{
	"$HFCTL" -n "${HF_NODES[0]}" -j peer show |
		python3 -c 'import json, sys
for p in json.load(sys.stdin):
	print(p["address"], p["rx_bytes"])'
	echo "t $(date +%s%N)"
}

# tbf_drops PORT: packets the switch's tbf on pPORT dropped so far.
tbf_drops()
{
	tc -n "$HF_SWITCH" -s -j qdisc show dev "p$1" |
		python3 -c 'import json, sys
print(sum(q.get("drops", 0) for q in json.load(sys.stdin) if q.get("kind") == "tbf"))'
}

# bits RATE: RATE bytes/s as tc and hfctl take it.
bits() { echo "$(($1 * 8))bit"; }

# incast PORT: nodes 1, 2 and 3 send 1 MiB messages to node 0's PORT for
# 7 s; over seconds 2 to 6, prints "TOTAL_BPS JAIN" and, on stderr, each
# sender's rate. Fails when a sender does.
incast()
{
	local port=$1 n pids=() ret=0

	start_server 0 "sink-$port" sink hf "$port"
	for n in 1 2 3; do
		bg "$n" "$LOGS/incast-$port-$n" "$PP" bulk hf eth0 "$(hf_node_mac 0)" \
			"$port" 1048576 7 0 $((4 << 20))
		pids+=("$BG")
	done
	sleep 2
	per_peer >"$LOGS/incast-$port-a"
	sleep 4
	per_peer >"$LOGS/incast-$port-b"
	for n in "${pids[@]}"; do
		wait "$n" || ret=1
	done
	((ret)) && { cat "$LOGS"/incast-"$port"-[123] >&2; return 1; }
	python3 -c '
import sys
a = dict(l.split() for l in open(sys.argv[1]))
b = dict(l.split() for l in open(sys.argv[2]))
secs = (int(b.pop("t")) - int(a.pop("t"))) / 1e9
x = [(int(b[m]) - int(a.get(m, 0))) / secs for m in b]
jain = sum(x) ** 2 / (len(x) * sum(v * v for v in x)) if len(x) == 3 and any(x) else 0
print("%d %.3f" % (sum(x), jain))
print("# senders: " + ", ".join("%.0f B/s" % v for v in x), file=sys.stderr)
' "$LOGS/incast-$port-a" "$LOGS/incast-$port-b"
}

# idle NODE: every message NODE sent has its outcome.
idle()
{
	(($(stat "$1" tx_msgs) == $(stat "$1" tx_msgs_delivered) + $(stat "$1" tx_msgs_failed)))
}

# wait_idle: every node's messages have their outcome (a closed sender's
# queued messages still go out), up to a minute each.
wait_idle()
{
	local n

	for n in 1 2 3; do
		busywait 60000 idle "$n"
		check_err $? "node $n still sending"
	done
}

ktap_plan 4

hf_topo_create 4 1500
for n in 0 1 2 3; do
	on "$n" sysctl -qw net.ipv6.conf.eth0.disable_ipv6=1
	# hfq honours the departure times the grants' rates set; no rate.
	on "$n" tc qdisc replace dev eth0 root hfq
done
M0=$(hf_node_mac 0)

# 1. Off by default, in the initial namespace and a node's.
def=$("$HFCTL" -j config show | python3 -c 'import json,sys; print(json.load(sys.stdin)["rx_sched"])')
check_eq "$def" 0 "rx_sched by default"
def=$("$HFCTL" -n "${HF_NODES[1]}" -j config show |
	python3 -c 'import json,sys; c = json.load(sys.stdin); print(c["rx_sched"], c["link_rate"], c["unsched_bytes"])')
check_eq "$def" "0 0 0" "a node's rx_sched link_rate unsched_bytes"
log_test "rx_sched off by default"

# What the guest carries unpaced, node 1 to node 0, over seconds 1 to 3.
start_server 0 sink-7000 sink hf 7000
bg 1 "$LOGS/cal" "$PP" bulk hf eth0 "$M0" 7000 1048576 4 0 $((4 << 20))
cal=$BG
sleep 1
read -r b0 t0 < <(rx_sample 0)
sleep 2
read -r b1 t1 < <(rx_sample 0)
wait "$cal"
carried=$(((b1 - b0) * 1000000 / (t1 - t0)))
R=3000000
((carried / 3 < R)) && R=$((carried / 3))
# hfq and tbf take 500 kbit/s and more.
((R < 62500)) && R=62500
echo "# unpaced, the guest carried $carried B/s: links of $R B/s"
wait_idle

for n in 0 1 2 3; do
	tc -n "$HF_SWITCH" qdisc replace dev "p$n" root tbf rate "$(bits "$R")" \
		burst 32k limit 256k
	check_err $? "tbf on p$n"
done

# Comparison, not checked: the incast with rx_sched off and no rate known.
drops=$(tbf_drops 0)
incast 7001 >"$LOGS/off"
check_err $? "incast senders, rx_sched off"
read -r total jain <"$LOGS/off"
echo "# rx_sched off: 3 to 1 at $total B/s of $R ($((total * 100 / R)) %)," \
	"Jain $jain, $(($(tbf_drops 0) - drops)) drops at the switch port"
wait_idle

# The nodes' settings only: the initial namespace's outlive this test.
for n in 0 1 2 3; do
	"$HFCTL" -n "${HF_NODES[n]}" config set rx_sched 1 link_rate "$(bits "$R")"
	check_err $? "node $n: hfctl config set rx_sched 1 link_rate"
done

# 2. One sender.
drops=$(tbf_drops 0)
grants=$(stat 0 rx_sched_grants)
start_server 0 sink-7002 sink hf 7002
bg 1 "$LOGS/one" "$PP" bulk hf eth0 "$M0" 7002 1048576 6 0 $((4 << 20))
one=$BG
sleep 1
read -r b0 t0 < <(rx_sample 0)
sleep 4
read -r b1 t1 < <(rx_sample 0)
wait "$one"
check_err $? "sender: $(cat "$LOGS/one")"
got=$(((b1 - b0) * 1000000 / (t1 - t0)))
drops=$(($(tbf_drops 0) - drops))
grants=$(($(stat 0 rx_sched_grants) - grants))
echo "# one sender: $got B/s of $R ($((got * 100 / R)) %), $drops drops at the" \
	"switch port, $grants grants, $(stat 0 rx_sched_reclaims) reclaimed so far"
((got * 100 >= R * 80))
check_time $? "one sender: $got B/s, want at least 80 % of $R"
check_eq "$drops" 0 "drops at the switch port"
((grants > 0))
check_err $? "rx_sched_grants did not move"
log_test "one sender gets the receiver's link"
wait_idle

# 3. Three senders to one receiver.
drops=$(tbf_drops 0)
reclaims=$(stat 0 rx_sched_reclaims)
probes=$(($(stat 1 tx_credit_probes) + $(stat 2 tx_credit_probes) + $(stat 3 tx_credit_probes)))
incast 7003 >"$LOGS/on"
check_err $? "incast senders"
read -r total jain <"$LOGS/on"
drops=$(($(tbf_drops 0) - drops))
echo "# rx_sched on: 3 to 1 at $total B/s of $R ($((total * 100 / R)) %)," \
	"Jain $jain, $drops drops at the switch port," \
	"$(($(stat 0 rx_sched_reclaims) - reclaims)) grants reclaimed, $(($(stat 1 tx_credit_probes) +
	$(stat 2 tx_credit_probes) + $(stat 3 tx_credit_probes) - probes)) persist probes"
((total * 100 >= R * 80))
check_time $? "three senders: $total B/s together, want at least 80 % of $R"
# On the debug line (KSFT_MACHINE_SLOW) the three senders and the
# receiver share two emulated CPUs several times slower: one sender took
# 523 kB/s, two 50 and 56 (Jain 0.47) while their grants were reclaimed
# as idle 51 times (with rx_sched off: 49 % of the link, Jain 0.93).
# Whether a sender too slow to use its grant should lose it so is issue
# 35's to settle; on a machine that says it is slow the bound is XFAIL.
python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= 0.9 else 1)' "$jain"
check_time $? "Jain index $jain below 0.9"
check_eq "$drops" 0 "drops at the switch port"
log_test "three senders share the receiver's link"
wait_idle

# 4. Before its first grant a sender sends about one bandwidth-delay
# product: R times (1 ms, the round trip before a sample, + 1 ms, the
# longest ACK delay, + 2 ms, a paced frame); at least 4 segments. Node 2
# has not sent to node 1 yet: a new flow, one 1 MiB message.
bdp=$((R * 4 / 1000))
((bdp < 4 * 1456)) && bdp=$((4 * 1456))
unsched=$(stat 2 tx_unsched_bytes)
bg 1 "$LOGS/recv-7004" "$XFER" recv 7004 1048576 1
rcv=$BG
busywait 10000 grep -q ready "$LOGS/recv-7004"
on 2 timeout 60 "$XFER" send eth0 "$(hf_node_mac 1)" 7004 1048576 1 >"$LOGS/send-7004" 2>&1
check_err $? "sender: $(cat "$LOGS/send-7004")"
wait "$rcv"
check_err $? "receiver: $(cat "$LOGS/recv-7004")"
unsched=$(($(stat 2 tx_unsched_bytes) - unsched))
echo "# before its first grant a new flow sent $unsched bytes (one product: $bdp)"
((unsched > 0 && unsched <= 2 * bdp && unsched < 65536))
check_err $? "$unsched bytes before the first grant: want 1..$((2 * bdp)), below 64 KiB"
log_test "a sender stays within one bandwidth-delay product before its first grant"

defer_run
exit "$(ktap_exit)"
