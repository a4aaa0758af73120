#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The hfq qdisc and pacing: hfq attaches with tc and hfctl and sorts
# frames into its bands (counted exactly against the transport's own
# counters); its settings round-trip through hfctl and bad ones are
# refused; tc with the q_hfq.so plugin sets the same settings in
# TCA_OPTIONS and shows them and hfq's counters; a device rate paces the link (at most 10 % above the rate, at
# most 25 % below it), and SO_MAX_PACING_RATE at 100 Mbit/s a socket under
# hfq and under fq (within 10 % either way); the module's pacing_rate
# paces too (as the device rate, a lower socket cap winning); a
# receiver's hfq rate reaches its sender as a rate hint (1/N of it for N
# senders) that caps its pacing; a small ping-pong beside bulk
# hyperframe to the same peer, and beside bulk TCP, sees a lower p99 over
# hyperframe with hfq than over TCP beside bulk TCP through a tbf FIFO of
# the same rate; other traffic keeps flowing;
# the module stays while hfq is attached, and a device deleted with data
# queued frees it (the harness checks for leaks); a sender's own hfq rate
# is its link share, split among its peers with data to send.
#
# The rates named are those of a stock kernel's guest. They scale down,
# all by the same factor, to what this guest carries: an unpaced bulk
# transfer is measured first, and every rate asked is kept at most a
# third of it, so that the qdisc and the pacer, not the CPU, set the
# pace (the debug line's guest, KASAN and lockdep under TCG, carries a
# few MB/s). The bounds checked stay the same.

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

# bg NODE LOG CMD...: run CMD in NODE's namespace in the background, its
# output in LOG; BG is its pid (the program itself: ip netns exec execs it).
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

# hfq NODE KEY: a field of "hfctl -j qdisc show dev eth0" in NODE; KEY is
# a setting (rate, limit, ...) or counters.NAME.
hfq()
{
	"$HFCTL" -n "${HF_NODES[$1]}" -j qdisc show dev eth0 |
		python3 -c '
import json, sys
v = json.load(sys.stdin)
if isinstance(v, list):
    v = v[0]
for k in sys.argv[1].split("."):
    v = v[k]
print(v)' "$2"
}

# rx_sample NODE: "BYTES MICROSECONDS", the bytes received on NODE's eth0
# and the time, read by one shell microseconds apart.
rx_sample()
{
	on "$1" bash -c 'read -r b </sys/class/net/eth0/statistics/rx_bytes
		t=${EPOCHREALTIME/./}; echo "$b $t"'
}

# rx_rate NODE FROM TO: bytes per second received on NODE's eth0 between
# FROM and TO seconds from now (sleeps until TO).
rx_rate()
{
	local node=$1 from=$2 to=$3 b0 b1 t0 t1

	sleep "$from"
	read -r b0 t0 < <(rx_sample "$node")
	sleep $((to - from))
	read -r b1 t1 < <(rx_sample "$node")
	echo $(((b1 - b0) * 1000000 / (t1 - t0)))
}

# within ACTUAL EXPECTED PCT: |ACTUAL - EXPECTED| <= PCT % of EXPECTED.
within()
{
	local d=$(($1 - $2))

	((d < 0)) && d=$((-d))
	((d * 100 <= $2 * $3))
}

# start_server NODE NAME ARGS...: hf_pingpong ARGS in NODE, in the
# background, until the test ends; waits for it to listen.
start_server()
{
	local node=$1 name=$2

	shift 2
	bg "$node" "$LOGS/$name" "$PP" "$@"
	defer kill "$BG"
	busywait 10000 grep -q ready "$LOGS/$name"
}

# paced_rate PORT RATE [SNDBUF]: bytes/s node 1 receives from a socket of
# node 0 sending 64 KiB messages, capped at RATE by SO_MAX_PACING_RATE (0:
# not), measured over seconds 1 to 4 of a 5 s run.
paced_rate()
{
	local port=$1 rate=$2 bulk got sndbuf=${3:-0}

	# A capped socket gets room for 64 messages, so that the program
	# never leaves it idle; the device rate is measured as it was set.
	((rate)) && sndbuf=$((4 << 20))
	bg 0 "$LOGS/bulk-$port" "$PP" bulk hf eth0 "$(hf_node_mac 1)" "$port" \
		65536 5 "$rate" "$sndbuf"
	bulk=$BG
	got=$(rx_rate 1 1 4)
	wait "$bulk" || return 1
	busywait 60000 drained || return 1
	echo "$got"
}

# hfq_sw NAME: counter NAME of hfq on the switch's port p0.
hfq_sw()
{
	"$HFCTL" -n "$HF_SWITCH" -j qdisc show dev p0 |
		python3 -c 'import json, sys
v = json.load(sys.stdin)
v = v[0] if isinstance(v, list) else v
print(v["counters"][sys.argv[1]])' "$1"
}

# peers_during_bulk NAME SECONDS: node 0's "hfctl -j peer show", taken one
# second into a bulk transfer of SECONDS to node 1's port 7001, in PEERS;
# the sender (its output in LOGS/bulk-NAME) must succeed. Not in a
# command substitution: check_err's verdict must reach the test.
peers_during_bulk()
{
	local bulk

	bg 0 "$LOGS/bulk-$1" "$PP" bulk hf eth0 "$M1" 7001 65536 "$2" 0 $((4 << 20))
	bulk=$BG
	sleep 1
	PEERS=$("$HFCTL" -n "${HF_NODES[0]}" -j peer show)
	wait "$bulk"
	check_err $? "bulk sender ($1): $(cat "$LOGS/bulk-$1")"
}

# drained: every message node 0 sent has its outcome (closed senders'
# messages still go out after they exit).
drained()
{
	(($(stat 0 tx_msgs) == $(stat 0 tx_msgs_delivered) + $(stat 0 tx_msgs_failed)))
}

# drain: wait for drained, up to a minute.
drain()
{
	busywait 60000 drained
	check_err $? "node 0 still sending: $(stat 0 tx_msgs) messages," \
		"$(stat 0 tx_msgs_delivered) delivered, $(stat 0 tx_msgs_failed) failed"
}

# drops: where a segment may have been lost in a rate case: node 1's
# drop_* counters that are not 0, node 0's hfq drops, both ends of the
# veth pair, and the guest's backlog (softnet_stat's second column, hex);
# and the segments node 1 received twice, which were never lost.
drops()
{
	local d

	d=$(on 1 awk '$1 ~ /^drop_/ && $2 != 0 {printf "%s=%s ", $1, $2}' \
		/proc/net/hyperframe)
	echo "node 1 ${d:-no drop_* counted}; node 0 hfq" \
		"$(on 0 tc -s qdisc show dev eth0 | awk '/dropped/ {sub(",", "", $7); print $7; exit}')" \
		"dropped, eth0 tx_dropped $(on 0 cat /sys/class/net/eth0/statistics/tx_dropped);" \
		"node 1 eth0 rx_dropped $(on 1 cat /sys/class/net/eth0/statistics/rx_dropped);" \
		"backlog dropped $(softnet_dropped); node 1 took" \
		"$(stat 1 rx_duplicates) duplicates (repairs of what was not lost)"
}

softnet_dropped()
{
	local n=0 processed dropped rest

	while read -r processed dropped rest; do
		n=$((n + 16#$dropped))
	done </proc/net/softnet_stat
	echo "$n"
}

# check_rate WHAT WANT CAP [SNDBUF [BELOW]]: node 1 receives at most 10 %
# above WANT bytes/s and at most BELOW % (default 25) under it, from a
# bulk sender of node 0 capped at CAP bytes/s (0: uncapped; SNDBUF: its
# send buffer, when not capped). More than 10 % above fails at once: the
# cap or the rate leaks. Below is measured up to three times, and allowed
# more: a TCG guest stalls for milliseconds even on an idle host (CI saw
# 12 % short, no rate cut), a stalled sender falls behind a strict cap for
# good, and a timeout may rightly make the frame-size controller cut the
# paced rate; one measurement within bounds passes. Three below is a
# timing bound (check_time: XFAIL on a slow machine); above never is.
check_rate()
{
	local what=$1 want=$2 below=${5:-25} got try

	for try in 1 2 3; do
		got=$(paced_rate 7001 "$3" "${4:-0}")
		check_err $? "bulk sender ($what): $(cat "$LOGS/bulk-7001")"
		echo "# $what, try $try: $want B/s wanted, $got B/s received" \
			"(node 0 so far: $(stat 0 tx_segs) segments," \
			"$(stat 0 tx_retransmits) sent again, $(stat 0 tx_rto) timeouts" \
			"($(stat 0 tx_rto_spurious) spurious), $(stat 0 tx_rate_cuts) rate cuts)"
		echo "# $what, try $try: drops so far: $(drops)"
		((got * 100 <= want * 110))
		check_err $? "$what: $want B/s wanted, $got B/s received: above the cap"
		((got * 100 >= want * (100 - below))) && return
	done
	check_time 1 "$what: $want B/s wanted, $got B/s received: 3 times below"
}

# rate NOMINAL: NOMINAL bytes/s scaled by RATE_PCT (set before case 4).
rate() { echo $(($1 * RATE_PCT / 100)); }
# bits RATE: RATE bytes/s as tc and hfctl take it.
bits() { echo "$(($1 * 8))bit"; }

ktap_plan 15

hf_topo_create 2 1500
M1=$(hf_node_mac 1)

# 1. Bands, counted exactly. IPv6 is off: MLD reports go at TC_PRIO_CONTROL.
for n in 0 1; do
	on "$n" sysctl -qw net.ipv6.conf.eth0.disable_ipv6=1
done
for n in 0 1; do
	on "$n" tc qdisc replace dev eth0 root hfq
	check_err $? "tc qdisc replace ... root hfq on node $n"
done
kind=$(on 0 tc qdisc show dev eth0 | awk '{print $2; exit}')
check_eq "$kind" hfq "root qdisc kind"
bg 1 "$LOGS/recv" "$XFER" recv 7000 1000,100000,1048576 3
rpid=$BG
busywait 10000 grep -q ready "$LOGS/recv"
on 0 "$XFER" send eth0 "$M1" 7000 1000,100000,1048576 3 >"$LOGS/send" 2>&1
check_err $? "transfer through hfq: $(cat "$LOGS/send")"
wait "$rpid"
check_err $? "receiver: $(cat "$LOGS/recv")"
on 0 ping -q -c 5 -i 0.1 "$(hf_node_addr 1)" >/dev/null
check_err $? "IP through hfq"
sent=$(($(stat 0 tx_segs) + $(stat 0 tx_retransmits)))
check_eq "$(hfq 0 counters.packets_data)" "$sent" \
	"node 0 data band: data segments sent (first and again)"
check_eq "$(hfq 1 counters.packets_control)" "$(stat 1 tx_acks)" \
	"node 1 control band: ACKs sent"
check_eq "$(hfq 1 counters.packets_data)" 0 "node 1 sent no data"
other=$(hfq 0 counters.packets_other)
((other >= 5))
check_err $? "node 0 other band: $other packets, at least the 5 pings"
# tc's count between two sums of the bands: equal to both unless a packet
# (an ARP probe of the neighbour the pings made) left between the reads.
bands()
{
	echo $(($(hfq 0 counters.packets_data) + $(hfq 0 counters.packets_control) +
		$(hfq 0 counters.packets_other)))
}
before=$(bands)
tc_sent=$(on 0 tc -s qdisc show dev eth0 | awk '/Sent/ {print $4; exit}')
after=$(bands)
((before <= tc_sent && tc_sent <= after))
check_err $? "tc's sent packets $tc_sent: want the sum of the bands, $before before, $after after"
((after - before <= 2))
check_err $? "the bands moved by $((after - before)) packets while tc was read"
log_test "hfq carries hyperframe data, control and other traffic in their bands"

# 2. Settings.
"$HFCTL" -n "${HF_NODES[0]}" qdisc set dev eth0 rate 20mbit limit 5000 \
	flow_limit 500 control_limit 100 quantum 6000 other_share 20 horizon 5s
check_err $? "qdisc set"
for kv in rate=2500000 limit=5000 flow_limit=500 control_limit=100 \
	  quantum=6000 other_share=20 horizon_ms=5000; do
	check_eq "$(hfq 0 "${kv%%=*}")" "${kv#*=}" "${kv%%=*} after set"
done
out=$("$HFCTL" -n "${HF_NODES[0]}" qdisc set dev eth0 other_share 100 2>&1)
check_fail $? "other_share 100 accepted"
check_eq "$(hfq 0 other_share)" 20 "other_share after a refused set"
grep -q "99" <<<"$out"
check_err $? "the refusal names the range: $out"
out=$("$HFCTL" -n "${HF_NODES[0]}" qdisc set dev lo rate 1mbit 2>&1)
check_fail $? "set on a device without hfq accepted"
grep -qi "no hfq" <<<"$out"
check_err $? "error for a device without hfq: $out"
out=$(on 0 setpriv --reuid=65534 --regid=65534 --clear-groups \
	--inh-caps=-all "$HFCTL" qdisc set dev eth0 limit 10 2>&1)
check_fail $? "set by an unprivileged user accepted"
grep -qi "permission\|not permitted" <<<"$out"
check_err $? "error for an unprivileged user: $out"
check_eq "$(hfq 0 limit)" 5000 "limit after the unprivileged set"
"$HFCTL" -n "${HF_NODES[0]}" qdisc set dev eth0 rate 0 limit 10000 \
	flow_limit 1000 control_limit 1000 quantum 3028 other_share 10 \
	horizon 10s
check_err $? "restoring the defaults"
log_test "settings round-trip through hfctl; bad values and callers refused"

# 3. Attach and detach with hfctl.
"$HFCTL" -n "${HF_NODES[1]}" qdisc detach dev eth0
check_err $? "qdisc detach"
kind=$(on 1 tc qdisc show dev eth0 | awk '{print $2; exit}')
check_eq "$kind" noqueue "root qdisc after detach"
out=$("$HFCTL" -n "${HF_NODES[1]}" qdisc detach dev eth0 2>&1)
check_fail $? "detach without hfq succeeded"
"$HFCTL" -n "${HF_NODES[1]}" qdisc attach dev eth0 rate 1gbit
check_err $? "qdisc attach with a rate"
check_eq "$(hfq 1 rate)" 125000000 "rate given to attach"
count=$("$HFCTL" -n "${HF_NODES[1]}" -j qdisc show |
	python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
check_eq "$count" 1 "hfq qdiscs listed in node 1"
log_test "hfctl qdisc attach and detach"

# 3b. Stock tc with the q_hfq.so plugin: the options go in TCA_OPTIONS, a
# dump gives them back, and hfctl sees and changes the same settings. On
# a dummy device of node 0's own, so the topology keeps its qdiscs.
TCLIB=${TCLIB:-$HF_BUILD/userspace/tc}
tcp() { on 0 env TC_LIB_DIR="$TCLIB" tc "$@"; }
# hfqd KEY: a setting of hfq on hftc0, as hfctl reads it.
hfqd()
{
	"$HFCTL" -n "${HF_NODES[0]}" -j qdisc show dev hftc0 |
		python3 -c 'import json, sys; v = json.load(sys.stdin); v = v[0] if isinstance(v, list) else v; print(v[sys.argv[1]])' "$1"
}
on 0 ip link add hftc0 type dummy
defer ip netns exec "${HF_NODES[0]}" ip link del hftc0
[[ -r $TCLIB/q_hfq.so ]]
check_err $? "the tc plugin $TCLIB/q_hfq.so is not built"
out=$(tcp qdisc replace dev hftc0 root hfq rate 10gbit limit 20000 2>&1)
check_err $? "tc qdisc replace ... hfq rate 10gbit limit 20000: $out"
check_eq "$(hfqd rate)" 1250000000 "rate set by tc, read by hfctl"
check_eq "$(hfqd limit)" 20000 "limit set by tc, read by hfctl"
check_eq "$(hfqd other_share)" 10 "other_share tc did not give"
show=$(tcp -d qdisc show dev hftc0)
for w in "rate 10Gbit" "limit 20000p" "flow_limit 1000p" "quantum 3028b" \
	 "other_share 10%" "horizon 10000ms" "memory_limit 33554432b"; do
	grep -qF "$w" <<<"$show"
	check_err $? "tc -d qdisc show lacks '$w': $show"
done
tcp -s qdisc show dev hftc0 | grep -q "packets_control 0 .*drop_limit 0"
check_err $? "tc -s shows no hfq counters: $(tcp -s qdisc show dev hftc0)"
"$HFCTL" -n "${HF_NODES[0]}" qdisc set dev hftc0 quantum 6000
tcp -d qdisc show dev hftc0 | grep -qF "quantum 6000b"
check_err $? "tc does not show hfctl's quantum: $(tcp -d qdisc show dev hftc0)"
out=$(tcp qdisc change dev hftc0 root hfq flow_limit 50 horizon 2s 2>&1)
check_err $? "tc qdisc change flow_limit 50 horizon 2s: $out"
check_eq "$(hfqd flow_limit)" 50 "flow_limit after tc change"
check_eq "$(hfqd horizon_ms)" 2000 "horizon after tc change"
check_eq "$(hfqd limit):$(hfqd quantum)" 20000:6000 "settings tc change did not give"
out=$(tcp qdisc change dev hftc0 root hfq other_share 100 limit 7 2>&1)
check_fail $? "tc accepted other_share 100"
grep -qi "out of range" <<<"$out"
check_err $? "tc's refusal says no range: $out"
out=$(tcp qdisc change dev hftc0 root hfq rate 1kbit 2>&1)
check_fail $? "tc accepted a rate of 1kbit"
check_eq "$(hfqd other_share):$(hfqd limit):$(hfqd rate)" 10:20000:1250000000 \
	"settings after refused changes"
tcp -j qdisc show dev hftc0 | python3 -c '
import json, sys
q = [q for q in json.load(sys.stdin) if q["kind"] == "hfq"][0]
assert q["options"]["limit"] == 20000 and q["options"]["flow_limit"] == 50, q
'
check_err $? "tc -j qdisc show: $(tcp -j qdisc show dev hftc0)"
out=$(tcp qdisc replace dev hftc0 root hfq rate unlimited 2>&1)
check_err $? "rate unlimited: $out"
check_eq "$(hfqd rate)" 0 "rate after rate unlimited"
# Without the plugin stock tc still attaches hfq (no options), and
# refuses options itself.
empty=$(mktemp -d)
on 0 env TC_LIB_DIR="$empty" tc qdisc replace dev hftc0 root hfq
check_err $? "tc without the plugin: replace ... root hfq"
on 0 env TC_LIB_DIR="$empty" tc qdisc replace dev hftc0 root hfq limit 5 2>/dev/null
check_fail $? "tc without the plugin sent options"
rmdir "$empty"
on 0 ip link del hftc0
log_test "stock tc with q_hfq.so: options in TCA_OPTIONS, dumped back, shared with hfctl"

# 4. The device rate. First what the guest carries unpaced, which sets
# RATE_PCT: rates at most a third of it, 100 % of the nominal at most.
start_server 1 sink-7001 sink hf 7001
carried=$(paced_rate 7001 0 $((4 << 20)))
check_err $? "unpaced bulk sender: $(cat "$LOGS/bulk-7001")"
RATE_PCT=$((carried * 100 / (3 * 12500000)))
((RATE_PCT > 100)) && RATE_PCT=100
# hfq refuses rates below 500 kbit/s; R_DEV, the lowest, is 600 kbit/s at 3 %.
((RATE_PCT < 3)) && RATE_PCT=3
echo "# unpaced, the guest carried ${carried:-0} B/s: rates at $RATE_PCT % of nominal"
R_DEV=$(rate 2500000)
R_CAP=$(rate 12500000)
R_HINT=$(rate 5000000)
R_INCAST=$(rate 3000000)
R_SHARE=$(rate 5000000)
"$HFCTL" -n "${HF_NODES[0]}" qdisc set dev eth0 rate "$(bits "$R_DEV")"
delayed=$(hfq 0 counters.rate_delayed)
check_rate "device rate" "$R_DEV" 0
(($(hfq 0 counters.rate_delayed) > delayed))
check_err $? "rate_delayed did not move"
log_test "a device rate paces the link: at most 10 % above, 75 % of it at least"

# 5. Other traffic under a saturating hyperframe flow at that rate.
bg 0 "$LOGS/bulk-other" "$PP" bulk hf eth0 "$M1" 7001 1048576 4
bulk=$BG
sleep 1
before=$(hfq 0 counters.packets_other)
loss=$(on 0 ping -q -c 20 -i 0.1 "$(hf_node_addr 1)" |
	awk -F', ' '/packet loss/ {print $3}')
wait "$bulk"
check_err $? "bulk: $(cat "$LOGS/bulk-other")"
check_eq "$loss" "0% packet loss" "pings beside saturating hyperframe data"
(($(hfq 0 counters.packets_other) >= before + 20))
check_err $? "the pings did not go through the other band"
log_test "other traffic keeps flowing beside saturating hyperframe data"

# 6. Overtaking: 64-byte hyperframe round trips beside bulk hyperframe to
# the same peer, and beside bulk TCP, both queued in hfq at R_DEV,
# against TCP round trips beside the same bulk TCP through a tbf FIFO of
# the same rate; both p99s must be below TCP's. Beside hyperframe bulk to
# the same peer the small message waits at most for the bulk's frame (2
# ms of the rate) and what the path's pacing keeps queued (2 ms), and is
# delivered past the bulk messages still on the way (the DATA header's
# pred). Bulk goes in 64 KiB messages: at most 32 messages to a peer may
# start past the oldest unresolved one (docs/design.md, "Known limits"),
# so what test 5's 1 MiB messages left queued drains first.

# pingpong_under_bulk NAME BULK_ARGS -- PING_ARGS: round trips measured
# while a bulk sender saturates the link from start to end, into
# $LOGS/rtt-NAME; fails when either fails or the bulk ended early.
pingpong_under_bulk()
{
	local name=$1 bulk_args=() bulk rc

	shift
	while [[ $1 != -- ]]; do
		bulk_args+=("$1")
		shift
	done
	shift
	bg 0 "$LOGS/bulk-$name" "$PP" bulk "${bulk_args[@]}" 65536 600
	bulk=$BG
	sleep 1
	on 0 "$PP" ping "$@" >"$LOGS/rtt-$name" 2>&1
	rc=$?
	kill -0 "$bulk" 2>/dev/null || rc=1
	kill "$bulk"
	wait "$bulk" 2>/dev/null
	# What the closed socket had queued still goes: let it drain.
	busywait 60000 drained || rc=1
	return "$rc"
}

drain
start_server 1 echo-7002 echo hf 7002
start_server 1 tcp-sink sink tcp 7101
start_server 1 tcp-echo echo tcp 7102
pingpong_under_bulk hf hf eth0 "$M1" 7001 -- hf eth0 "$M1" 7002 64 200 5000
check_err $? "hyperframe ping-pong beside hyperframe bulk: $(cat "$LOGS/rtt-hf" "$LOGS/bulk-hf")"
hf_rtt=$(cat "$LOGS/rtt-hf")
other=$(hfq 0 counters.packets_other)
pingpong_under_bulk hftcp tcp "$(hf_node_addr 1)" 7101 -- \
	hf eth0 "$M1" 7002 64 200 5000
check_err $? "hyperframe ping-pong beside TCP bulk: $(cat "$LOGS/rtt-hftcp" "$LOGS/bulk-hftcp")"
hftcp_rtt=$(cat "$LOGS/rtt-hftcp")
other=$(($(hfq 0 counters.packets_other) - other))
((other >= 100))
check_err $? "the bulk TCP went through hfq's other band: $other skbs"
on 0 tc qdisc replace dev eth0 root tbf rate "$(bits "$R_DEV")" burst 32kb limit 256kb
check_err $? "tbf"
pingpong_under_bulk tcp tcp "$(hf_node_addr 1)" 7101 -- \
	tcp "$(hf_node_addr 1)" 7102 64 200 5000
check_err $? "TCP ping-pong beside bulk: $(cat "$LOGS/rtt-tcp" "$LOGS/bulk-tcp")"
tcp_rtt=$(cat "$LOGS/rtt-tcp")
p99()
{
	sed -n 's/.*p99_us=\([0-9]*\).*/\1/p' <<<"$1"
}
hf_p99=$(p99 "$hf_rtt")
hftcp_p99=$(p99 "$hftcp_rtt")
tcp_p99=$(p99 "$tcp_rtt")
echo "# 64-byte round trips beside a bulk flow at $R_DEV B/s"
echo "# hyperframe beside hyperframe bulk, hfq: $hf_rtt"
echo "# hyperframe beside TCP bulk, hfq:        $hftcp_rtt"
echo "# TCP beside TCP bulk, tbf FIFO:          $tcp_rtt"
if [[ -n $hf_p99 && -n $hftcp_p99 && -n $tcp_p99 ]] && ((tcp_p99 > 0)); then
	echo "# p99 ratios to TCP: $(awk -v a="$hf_p99" -v b="$hftcp_p99" \
		-v c="$tcp_p99" 'BEGIN {printf "%.3f and %.3f", a / c, b / c}')"
fi
# A p99 is the machine's tail as much as the transport's: a timing bound.
((${hf_p99:-1} < ${tcp_p99:-0}))
check_time $? "p99 beside hyperframe bulk ${hf_p99}us is not below TCP's ${tcp_p99}us"
((${hftcp_p99:-1} < ${tcp_p99:-0}))
check_time $? "p99 beside TCP bulk ${hftcp_p99}us is not below TCP's ${tcp_p99}us"
on 0 tc qdisc replace dev eth0 root hfq
log_test "small hyperframe messages overtake bulk in hfq; TCP's wait in a FIFO"

# 7. SO_MAX_PACING_RATE under hfq: within 10 % of the cap either way (the
# sender's schedule keeps up to half a train of lateness, so a guest
# that stalls for a moment does not fall behind for good).
throttled=$(hfq 0 counters.throttled)
check_rate "socket cap under hfq" "$R_CAP" "$R_CAP" 0 10
(($(hfq 0 counters.throttled) > throttled))
check_err $? "no data flow was held for its departure time"
log_test "SO_MAX_PACING_RATE paces a socket under hfq within 10 %"

# 8. The module's pacing_rate paces a socket that sets no cap (it gets the
# same send buffer as a capped one), and a socket's lower cap wins. Never
# above the cap; below it by up to 25 %: on an idle host this measured
# 10.0-11.4 MB/s of 12.5 with no rate cut, where case 7's socket cap
# reached 11.4-12.0 (the gap is not understood yet).
delays=$(stat 0 tx_pacing_delays)
hf_config_set pacing_rate "$(bits "$R_CAP")"
check_err $? "config set pacing_rate $(bits "$R_CAP")"
defer hf_config_set pacing_rate 0
check_rate "module pacing_rate under hfq" "$R_CAP" 0 $((4 << 20)) 25
(($(stat 0 tx_pacing_delays) > delays))
check_err $? "tx_pacing_delays did not move under a pacing rate"
# The peer dump shows the rate pacing_rate comes to (at most R_CAP).
peers_during_bulk peer 3
peers=$PEERS
python3 -c '
import json, sys
p = json.loads(sys.argv[1])
sys.exit(0 if len(p) == 1 and 0 < p[0]["pacing_rate"] <= int(sys.argv[2]) else 1)' "$peers" "$R_CAP"
check_err $? "peer show during a paced transfer: want pacing_rate 1..$R_CAP: $peers"
drain
check_rate "socket cap below pacing_rate" $((R_CAP / 2)) $((R_CAP / 2)) 0 25
hf_config_set pacing_rate 0
check_err $? "config set pacing_rate 0"
log_test "the module's pacing_rate paces sockets; a lower socket cap wins"

# 9. SO_MAX_PACING_RATE under fq.
on 0 tc qdisc replace dev eth0 root fq flow_limit 1000
check_err $? "fq"
check_rate "socket cap under fq" "$R_CAP" "$R_CAP" 0 10
on 0 tc qdisc replace dev eth0 root hfq
log_test "SO_MAX_PACING_RATE paces a socket under fq within 10 %"

# 10. The receiver's rate hint: node 1's hfq rate, taken as its link's
# both ways, split among the peers sending to it (node 0 alone), caps the
# pacing of node 0, which has no rate of its own; without a rate node 1
# hints nothing.
"$HFCTL" -n "${HF_NODES[1]}" qdisc set dev eth0 rate "$(bits "$R_HINT")"
check_err $? "qdisc set rate $(bits "$R_HINT") on node 1"
hints=$(stat 0 tx_rate_hints)
check_rate "rate hint of node 1" "$R_HINT" 0
(($(stat 0 tx_rate_hints) > hints))
check_err $? "tx_rate_hints did not move"
# peer_hint: node 0's peer's "RATE_HINT PACING_RATE" in PEERS.
peer_hint()
{
	python3 -c '
import json, sys
p = json.loads(sys.argv[1])[0]
print(p["rate_hint"], p["pacing_rate"])' "$PEERS"
}
peers_during_bulk hint 2
read -r hint paced <<<"$(peer_hint)"
check_eq "$hint" "$R_HINT" "rate_hint in peer show (node 1's rate, one sender)"
((paced > 0 && paced <= R_HINT))
check_err $? "pacing_rate $paced: want 1..$R_HINT under the hint"
drain
"$HFCTL" -n "${HF_NODES[1]}" qdisc set dev eth0 rate 0
check_err $? "qdisc set rate 0 on node 1"
peers_during_bulk no-hint 2
read -r hint paced <<<"$(peer_hint)"
check_eq "$hint" 0 "rate_hint in peer show once node 1 has no rate"
check_eq "$paced" 0 "pacing_rate with neither a hint nor a cap"
drain
log_test "a receiver's hfq rate reaches its sender as a rate hint that paces it"

# 11. The module is pinned while hfq is attached.
rmmod hyperframe 2>/dev/null
check_fail $? "rmmod succeeded with hfq attached"
hf_module_loaded
check_err $? "module gone with hfq attached"
log_test "the module stays while an hfq qdisc exists"

# 12. A device deleted with data held in hfq. The sender keeps what
# stands in hfq to about 2 ms of its rate (hf_tx_pick()): at 1 Mbit/s a
# segment takes 12 ms and the data band is empty most of the time (33
# and 37 of 40 samples on 6.1; a suite once saw it empty for all of 10
# s), at 20 Mbit/s it holds a few segments (10 of 40 samples empty);
# here at R_DEV, but never below 4 Mbit/s: no rate is measured, the
# queue is what counts.
drain
r=$R_DEV
((r < 500000)) && r=500000
"$HFCTL" -n "${HF_NODES[0]}" qdisc set dev eth0 rate "$(bits "$r")"
bg 0 "$LOGS/bulk-del" "$PP" bulk hf eth0 "$M1" 7001 1048576 30
bulk=$BG
# (a function: busywait must read the queue length again on every try)
data_queued() { (($(hfq 0 qlen_data 2>/dev/null || echo 0) > 0)); }
busywait 10000 data_queued
check_err $? "no data queued in hfq at $r B/s"
on 0 ip link del eth0
check_err $? "deleting the device"
timeout 60 tail --pid="$bulk" -f /dev/null
check_err $? "the sender did not stop after its device went away"
wait "$bulk"
log_test "a device deleted with data queued in hfq"

# 13. Incast, 3 to 1 behind a switch: node 0's port is the bottleneck (hfq
# at R_INCAST (24 Mbit/s) on the switch's side, no more room than its
# limit), and node 0's own hfq says the same rate, which its ACKs hint to
# the three senders, a third each. Each sender's bytes received over
# seconds 1 to 5, the Jain index of the three (1: equal; want at least
# 0.9), and no drop at the bottleneck. Senders keep 4 MiB queued (4 s of
# their share at the nominal rate), so they end soon after their 7 s.
# The index is measured up to three times, as the rates of check_rate():
# where a slow guest (the debug line's) answers late, timeouts cut one
# sender's rate and it falls behind for the rest of the run; every try
# is printed, and the hints and the drops are checked in each.
hf_topo_create 4 1500
M0=$(hf_node_mac 0)
"$HFCTL" -n "$HF_SWITCH" qdisc attach dev p0 rate "$(bits "$R_INCAST")"
check_err $? "hfq at the bottleneck port"
for n in 0 1 2 3; do
	on "$n" sysctl -qw net.ipv6.conf.eth0.disable_ipv6=1
	on "$n" tc qdisc replace dev eth0 root hfq
done
"$HFCTL" -n "${HF_NODES[0]}" qdisc set dev eth0 rate "$(bits "$R_INCAST")"
check_err $? "node 0's rate"
start_server 0 sink-incast sink hf 7002
# per_peer: "MAC RX_BYTES" for each peer of node 0.
per_peer()
{
	"$HFCTL" -n "${HF_NODES[0]}" -j peer show |
		python3 -c 'import json, sys
for p in json.load(sys.stdin):
	print(p["address"], p["rx_bytes"])'
}
# hint_of NODE: the rate hint NODE has from node 0.
hint_of()
{
	"$HFCTL" -n "${HF_NODES[$1]}" -j peer show |
		python3 -c 'import json, sys
print(sum(p["rate_hint"] for p in json.load(sys.stdin) if p["address"] == sys.argv[1]))' "$M0"
}
for try in 1 2 3; do
	pids=()
	for n in 1 2 3; do
		bg "$n" "$LOGS/incast-$n" "$PP" bulk hf eth0 "$M0" 7002 1048576 7 0 $((4 << 20))
		pids+=("$BG")
	done
	sleep 1
	per_peer >"$LOGS/incast-a"
	t0=$(date +%s%N)
	sleep 4
	per_peer >"$LOGS/incast-b"
	t1=$(date +%s%N)
	hints=$(for n in 1 2 3; do hint_of "$n"; done | paste -sd,)
	for pid in "${pids[@]}"; do
		wait "$pid"
		check_err $? "incast sender: $(cat "$LOGS"/incast-*)"
	done
	read -r jain total < <(python3 -c '
import sys
a = {l.split()[0]: int(l.split()[1]) for l in open(sys.argv[1])}
b = {l.split()[0]: int(l.split()[1]) for l in open(sys.argv[2])}
secs = (int(sys.argv[4]) - int(sys.argv[3])) / 1e9
x = [(b[m] - a.get(m, 0)) / secs for m in b]
jain = sum(x) ** 2 / (len(x) * sum(v * v for v in x)) if len(x) == 3 and any(x) else 0
print("%.3f %d" % (jain, sum(x)))
print("# incast: " + ", ".join("%.0f B/s" % v for v in x), file=sys.stderr)
' "$LOGS/incast-a" "$LOGS/incast-b" "$t0" "$t1")
	echo "# incast 3 to 1 at $R_INCAST B/s, try $try: $total B/s in all," \
		"Jain index $jain, hints $hints B/s," \
		"bottleneck drops $(hfq_sw drop_limit) limit, $(hfq_sw drop_flow_limit) flow limit;" \
		"senders' timeouts so far $(for n in 1 2 3; do stat "$n" tx_rto; done | paste -sd,)," \
		"rate cuts so far $(for n in 1 2 3; do stat "$n" tx_rate_cuts; done | paste -sd,)"
	# Each sender was told its part: a third (a half while another had
	# nothing unread at the moment of an ACK), never the whole link.
	for h in ${hints//,/ }; do
		((h > 0 && h <= R_INCAST / 2))
		check_err $? "rate hints $hints B/s: want each 1..$((R_INCAST / 2)) ($R_INCAST / N, N >= 2)"
	done
	check_eq "$(hfq_sw drop_limit)" 0 "drops at the bottleneck (limit)"
	check_eq "$(hfq_sw drop_flow_limit)" 0 "drops at the bottleneck (flow limit)"
	python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= 0.9 else 1)' "$jain" && break
done
python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= 0.9 else 1)' "$jain"
check_err $? "Jain index below 0.9 three times, $jain the last"
log_test "incast 3 to 1: rate hints share the bottleneck fairly, no drop there"

# 14. The sending side's link share: node 0's hfq rate (R_SHARE) is
# split among its peers with data to send, and caps each one's pacing:
# a half each while it sends to nodes 1 and 2, the whole for one alone
# (nodes 1 and 2 have no rate, so no hint). Each receiver's rate over
# seconds 1 to 4 is printed, with their Jain index.
"$HFCTL" -n "${HF_NODES[0]}" qdisc set dev eth0 rate "$(bits "$R_SHARE")"
check_err $? "node 0's rate"
M1=$(hf_node_mac 1)
M2=$(hf_node_mac 2)
start_server 1 sink-share-1 sink hf 7003
start_server 2 sink-share-2 sink hf 7003
# shares: "LINK_SHARE PACING_RATE" of each of node 0's peers with data
# to send, one line each.
shares()
{
	"$HFCTL" -n "${HF_NODES[0]}" -j peer show |
		python3 -c 'import json, sys
for p in json.load(sys.stdin):
	if p["tx_queued_msgs"]:
		print(p["link_share"], p["pacing_rate"])'
}
# shares_are N SHARE: N peers with data, each with link share SHARE and a
# pacing rate in 1..SHARE; the last reading in LOGS/shares.
shares_are()
{
	shares >"$LOGS/shares"
	(($(wc -l <"$LOGS/shares") == $1)) || return 1
	while read -r share paced; do
		((share == $2 && paced > 0 && paced <= $2)) || return 1
	done <"$LOGS/shares"
}
bg 0 "$LOGS/share-1" "$PP" bulk hf eth0 "$M1" 7003 65536 5 0 $((4 << 20))
b1=$BG
bg 0 "$LOGS/share-2" "$PP" bulk hf eth0 "$M2" 7003 65536 5 0 $((4 << 20))
b2=$BG
busywait 3000 shares_are 2 $((R_SHARE / 2))
check_err $? "two senders on a $R_SHARE B/s link: want a share of $((R_SHARE / 2)) B/s each," \
	"have (share pacing_rate): $(paste -sd, "$LOGS/shares")"
sleep 1
read -r a1 t0 < <(rx_sample 1)
read -r a2 _ < <(rx_sample 2)
sleep 3
read -r c1 t1 < <(rx_sample 1)
read -r c2 _ < <(rx_sample 2)
wait "$b1"
check_err $? "bulk to node 1: $(cat "$LOGS/share-1")"
wait "$b2"
check_err $? "bulk to node 2: $(cat "$LOGS/share-2")"
r1=$(((c1 - a1) * 1000000 / (t1 - t0)))
r2=$(((c2 - a2) * 1000000 / (t1 - t0)))
echo "# link share $R_SHARE B/s among two peers: node 1 $r1 B/s," \
	"node 2 $r2 B/s, Jain index" \
	"$(python3 -c 'import sys; a, b = map(int, sys.argv[1:]); print("%.3f" % ((a + b) ** 2 / (2 * (a * a + b * b)) if a or b else 0))' "$r1" "$r2")"
drain
bg 0 "$LOGS/share-alone" "$PP" bulk hf eth0 "$M1" 7003 65536 3 0 $((4 << 20))
b1=$BG
busywait 3000 shares_are 1 "$R_SHARE"
check_err $? "one sender on a $R_SHARE B/s link: want all of it," \
	"have (share pacing_rate): $(paste -sd, "$LOGS/shares")"
wait "$b1"
check_err $? "bulk to node 1 alone: $(cat "$LOGS/share-alone")"
drain
log_test "the device's hfq rate is shared among its sending peers, capping their pacing"

defer_run
exit "$(ktap_exit)"
