#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hfctl probe, the BPF "measure first" probe, on any traffic and without
# needing the module: between two namespaces, a known TCP transfer seen by
# "hfctl probe dev eth0 -j" agrees (within 5 %) with eth0's own counters
# read right before the probe attaches and right after it detaches, in
# skbs and bytes, both directions; its wire-packet estimate fits the MTU and
# its histograms add up; a UDP filter counts exactly the datagrams sent to
# its port, and the qdisc depth is reported under tbf; behind a slow tbf the
# qdisc:qdisc_enqueue side counts every enqueue and the time series has
# the configured length and shows the queue build and drain; the packet
# rate agrees with the interface's over the probe's own duration; a
# 5-tuple filter (IPv4 and IPv6 addresses, ports) picks one flow of three
# sent at once, exactly; hyperframe's own frames, by EtherType, agree with
# the counters too; without privilege, without BTF or for an unknown device
# it fails with a message that says so. The human output of the TCP,
# tbf and hyperframe runs is printed beside their JSON.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

HFCTL=${HFCTL:-${HF_BUILD:?set HFCTL or HF_BUILD}/userspace/hfctl/hfctl}
LOGS=$(mktemp -d)
defer rm -rf "$LOGS"

# counters NS: "tx_packets tx_bytes rx_packets rx_bytes" of eth0 in NS.
counters()
{
	ip -n "$1" -s -j link show dev eth0 | python3 -c '
import json, sys
s = json.load(sys.stdin)[0]["stats64"]
print(s["tx"]["packets"], s["tx"]["bytes"], s["rx"]["packets"], s["rx"]["bytes"])'
}

# field FILE EXPR: a value from the probe's JSON in FILE (EXPR in Python over j).
field()
{
	python3 -c "import json, sys; j = json.load(open(sys.argv[1])); print($2)" "$1"
}

# near GOT WANT MSG: GOT within 5 % of WANT (and both non-zero; numbers
# with decimals too).
near()
{
	if awk -v g="$1" -v w="$2" 'BEGIN { exit !(w > 0 && g >= w * 0.95 && g <= w * 1.05) }'; then
		echo "# $3: probe $1, interface $2"
	else
		check_err 1 "$3: probe $1, interface $2"
	fi
}

# probe_start NS OUT ARGS...: runs hfctl probe in NS in the background
# (pid in $probe_pid), JSON unless OUT ends in .txt, and returns once its
# programs are attached: the probe says "listening on" (under TCG, loading
# takes seconds, and its DURATION counts from there).
probe_start()
{
	local ns=$1 out=$2
	local -a json=(-j)

	shift 2
	[[ $out == *.txt ]] && json=()
	"$HFCTL" -n "$ns" "${json[@]}" probe dev eth0 "$@" >"$out" 2>"$out.err" &
	probe_pid=$!
	hf_said_wait "$probe_pid" "$out.err" "hfctl probe: listening on "
}

ktap_plan 10

hf_topo_create 2
n0=${HF_NODES[0]}
n1=${HF_NODES[1]}
# No IPv6 neighbour discovery in the middle of a count.
for ns in "$n0" "$n1"; do
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.eth0.disable_ipv6=1 2>/dev/null
done
addr0=$(hf_node_addr 0)
addr1=$(hf_node_addr 1)
# No ARP either: nothing but the test's own traffic crosses eth0.
ip -n "$n0" neigh replace "$addr1" lladdr "$(hf_node_mac 1)" dev eth0 nud permanent
ip -n "$n1" neigh replace "$addr0" lladdr "$(hf_node_mac 0)" dev eth0 nud permanent

# A TCP sink in n1 that reads until the sender closes.
ip netns exec "$n1" python3 -c '
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], 5201))
s.listen(1)
print("ready", flush=True)
c, _ = s.accept()
n = 0
while True:
	b = c.recv(1 << 20)
	if not b:
		break
	n += len(b)
print(n, flush=True)' "$addr1" >"$LOGS/sink" 2>&1 &
sink=$!
defer kill "$sink"
busywait 20000 grep -q ready "$LOGS/sink"
check_err $? "TCP sink did not start: $(cat "$LOGS/sink")"

read -ra before < <(counters "$n0")
probe_start "$n0" "$LOGS/tcp.json" duration 20s
check_err $? "probe did not attach: $(cat "$LOGS/tcp.json.err")"
json_pid=$probe_pid
# The same transfer in words, by a second probe attached beside the first.
probe_start "$n0" "$LOGS/tcp.txt" duration 15s proto tcp port 5201
check_err $? "probe did not attach: $(cat "$LOGS/tcp.txt.err")"
text_pid=$probe_pid
ip netns exec "$n0" timeout 60 python3 -c '
import socket, sys
c = socket.create_connection((sys.argv[1], 5201))
c.sendall(b"x" * (4 << 20))
c.shutdown(socket.SHUT_WR)
c.recv(1)
c.close()' "$addr1"
check_err $? "TCP transfer failed"
wait "$text_pid"
check_err $? "hfctl probe failed: $(cat "$LOGS/tcp.txt.err")"
wait "$json_pid"
check_err $? "hfctl probe failed: $(cat "$LOGS/tcp.json.err")"
read -ra after < <(counters "$n0")
wait "$sink"
check_eq "$(tail -n 1 "$LOGS/sink")" $((4 << 20)) "bytes the sink received"
if ((RET == 0)); then
	near "$(field "$LOGS/tcp.json" 'j["tx"]["skbs"]')" $((after[0] - before[0])) "tx skbs"
	near "$(field "$LOGS/tcp.json" 'j["tx"]["bytes"]')" $((after[1] - before[1])) "tx bytes"
	near "$(field "$LOGS/tcp.json" 'j["rx"]["skbs"]')" $((after[2] - before[2])) "rx skbs"
	near "$(field "$LOGS/tcp.json" 'j["rx"]["bytes"]')" $((after[3] - before[3])) "rx bytes"
fi
grep -q '^verdict: ' "$LOGS/tcp.txt"
check_err $? "no verdict in the text output"
sed 's/^/# /' "$LOGS/tcp.json"; echo
sed 's/^/# /' "$LOGS/tcp.txt"
log_test "probe: TCP skbs and bytes agree with eth0's counters"

# veth passes GSO skbs whole: the wire packets are their segments, which
# fit the 1500-byte MTU plus the Ethernet header.
j=$LOGS/tcp.json
check_eq "$(field "$j" 'j["tx"]["packets"] >= j["tx"]["skbs"] and j["tx"]["gso_skbs"] > 0')" \
	True "tx packets at least skbs, some GSO skbs"
check_eq "$(field "$j" '1000 < j["tx"]["avg_packet_bytes"] <= 1514')" True \
	"tx wire packet average $(field "$j" 'j["tx"]["avg_packet_bytes"]')"
check_eq "$(field "$j" 'j["tx"]["wire_bytes"] >= 4 << 20')" True "tx wire bytes cover the 4 MiB"
check_eq "$(field "$j" 'all(sum(b["count"] for b in j[d]["skb_bytes_hist"]) == j[d]["skbs"] and
	sum(b["count"] for b in j[d]["packet_bytes_hist"]) == j[d]["packets"] for d in ("tx", "rx"))')" \
	True "histograms add up to the counts"
check_eq "$(field "$j" 'j["qdisc"]["available"] and j["qdisc"]["dequeues"] == 0')" True \
	"no dequeues on a noqueue veth"
check_eq "$(field "$j" 'len(j["verdict"]) > 0')" True "a verdict"
log_test "probe: wire packets fit the MTU, histograms add up"

# UDP to one port, through a tbf qdisc slower than the sender: exactly
# the datagrams sent, and a queue (pfifo would be bypassed while empty,
# never dequeuing).
tc -n "$n0" qdisc add dev eth0 root tbf rate 2mbit burst 16k limit 1m
check_err $? "tc qdisc add tbf"
probe_start "$n0" "$LOGS/udp.json" duration 20s proto udp port 5202
check_err $? "probe did not attach: $(cat "$LOGS/udp.json.err")"
ip netns exec "$n0" python3 -c '
import socket, sys
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(300):
	u.sendto(b"y" * 1000, (sys.argv[1], 5202))
u.sendto(b"z" * 100, (sys.argv[1], 5203))' "$addr1"
check_err $? "UDP send failed"
wait "$probe_pid"
check_err $? "hfctl probe failed: $(cat "$LOGS/udp.json.err")"
j=$LOGS/udp.json
check_eq "$(field "$j" 'j["tx"]["skbs"], j["tx"]["packets"], j["tx"]["bytes"], j["rx"]["skbs"]')" \
	"300 300 $((300 * 1042)) 0" "UDP datagrams to port 5202 (skbs, packets, bytes, rx)"
check_eq "$(field "$j" 'j["filter"]')" "proto udp port 5202" "filter"
check_eq "$(field "$j" 'j["qdisc"]["dequeues"] > 0 and j["qdisc"]["max_backlog_bytes"] > 0')" \
	True "tbf dequeues and backlog seen"
sed 's/^/# /' "$j"; echo
tc -n "$n0" qdisc del dev eth0 root
log_test "probe: proto udp port counts exactly its datagrams, qdisc depth under tbf"

# The queue over time: 300 datagrams of 1000 bytes into tbf at 2 Mbit/s
# (about 1.3 s of sending) under a 5 s probe in 250 ms intervals: every
# enqueue counted (no ARP, no IPv6: the datagrams are all eth0 sends), the
# series exactly 20 long, the queue deep in at least two intervals, its
# deepest interval the deepest enqueue or dequeue, drained by the end.
# On a slow machine (KSFT_MACHINE_SLOW: the debug kernel, where starting
# the sender alone took over a second and 53 of the 300 came after a 5 s
# probe) both probes run four times as long, in intervals four times as
# long: still 20 of them.
iv=250
[[ $KSFT_MACHINE_SLOW != yes ]] || iv=1000
tc -n "$n0" qdisc add dev eth0 root tbf rate 2mbit burst 16k limit 1m
check_err $? "tc qdisc add tbf"
# The text, by a longer probe attached first (it outlasts the other's load).
probe_start "$n0" "$LOGS/tbf.txt" duration "$((iv * 40))ms" interval "$((iv * 2))ms" proto udp
check_err $? "probe did not attach: $(cat "$LOGS/tbf.txt.err")"
text_pid=$probe_pid
probe_start "$n0" "$LOGS/tbf.json" duration "$((iv * 20))ms" interval "${iv}ms"
check_err $? "probe did not attach: $(cat "$LOGS/tbf.json.err")"
json_pid=$probe_pid
ip netns exec "$n0" python3 -c '
import socket, sys
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(300):
	u.sendto(b"q" * 1000, (sys.argv[1], 5204))' "$addr1"
check_err $? "UDP send failed"
wait "$json_pid"
check_err $? "hfctl probe failed: $(cat "$LOGS/tbf.json.err")"
wait "$text_pid"
check_err $? "hfctl probe failed: $(cat "$LOGS/tbf.txt.err")"
tc -n "$n0" qdisc del dev eth0 root
j=$LOGS/tbf.json
check_eq "$(field "$j" 'j["qdisc"]["enqueue"]["available"], j["qdisc"]["enqueue"]["enqueues"]')" \
	"True 300" "enqueue side available, every datagram enqueued"
check_eq "$(field "$j" 'j["qdisc"]["interval_ms"], len(j["qdisc"]["series"]),
	j["qdisc"]["series"][-1]["t_ms"]')" "$iv 20 $((iv * 19))" "series: interval, length, last start"
check_eq "$(field "$j" 'sum(s["backlog_bytes_max"] > 0 for s in j["qdisc"]["series"]) >= 2')" \
	True "the queue is deep in at least two intervals"
check_eq "$(field "$j" 'max(s["backlog_bytes_max"] for s in j["qdisc"]["series"]) ==
	j["qdisc"]["peak_backlog_bytes"] == max(j["qdisc"]["enqueue"]["max_backlog_bytes"],
	j["qdisc"]["max_backlog_bytes"])')" True "the deepest interval is the peak"
check_eq "$(field "$j" 'j["qdisc"]["enqueue"]["max_backlog_bytes"] >= 10 * 1042')" True \
	"at least ten datagrams queued at once"
check_eq "$(field "$j" 'j["qdisc"]["enqueue"]["max_backlog_bytes"] >=
	j["qdisc"]["max_backlog_bytes"]')" True "enqueues see the queue at least as deep as dequeues"
check_eq "$(field "$j" 'j["qdisc"]["series"][-1]["backlog_bytes_max"]')" 0 "drained by the end"
grep -q "^qdisc depth per $(printf '%d.%02d' $((iv * 2 / 1000)) $((iv * 2 % 1000 / 10)))s (the deepest in each):\$" "$LOGS/tbf.txt"
check_err $? "no time series in the text output"
check_eq "$(grep -c '^ *[0-9.]*s  ' "$LOGS/tbf.txt")" 20 "intervals in the text output"
sed 's/^/# /' "$j"; echo
sed 's/^/# /' "$LOGS/tbf.txt"
log_test "probe: qdisc_enqueue and the queue's time series behind tbf"

# The packet rate: 5000 UDP datagrams (one wire packet each: no GSO) to an
# echo in n1, no filter; packets_per_s against eth0's packets over the
# probe's own duration, both directions.
ip netns exec "$n1" python3 -c '
import socket, sys
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u.bind((sys.argv[1], 5205))
print("ready", flush=True)
while True:
	b, a = u.recvfrom(2048)
	u.sendto(b, a)' "$addr1" >"$LOGS/echo" 2>&1 &
echo_pid=$!
defer kill "$echo_pid"
busywait 20000 grep -q ready "$LOGS/echo"
check_err $? "UDP echo did not start: $(cat "$LOGS/echo")"
read -ra before < <(counters "$n0")
probe_start "$n0" "$LOGS/rate.json" duration 12s
check_err $? "probe did not attach: $(cat "$LOGS/rate.json.err")"
ip netns exec "$n0" timeout 60 python3 -c '
import socket, sys
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(5000):
	u.sendto(b"r" * 200, (sys.argv[1], 5205))' "$addr1"
check_err $? "UDP send failed"
wait "$probe_pid"
check_err $? "hfctl probe failed: $(cat "$LOGS/rate.json.err")"
read -ra after < <(counters "$n0")
kill "$echo_pid"
j=$LOGS/rate.json
if ((RET == 0)); then
	seconds=$(field "$j" 'j["duration_s"]')
	near "$(field "$j" 'round(j["tx"]["packets_per_s"], 1)')" \
		"$(awk -v n=$((after[0] - before[0])) -v s="$seconds" 'BEGIN { printf "%.1f", n / s }')" \
		"tx packets per second"
	near "$(field "$j" 'round(j["rx"]["packets_per_s"], 1)')" \
		"$(awk -v n=$((after[2] - before[2])) -v s="$seconds" 'BEGIN { printf "%.1f", n / s }')" \
		"rx packets per second"
fi
check_eq "$(field "$j" 'j["tx"]["packets"] >= 5000 and j["tx"]["packets"] == j["tx"]["skbs"]')" \
	True "every datagram one wire packet"
log_test "probe: packet rate agrees with eth0's over the probe's duration"

# hyperframe itself (EtherType 0x88b5, no ARP, IPv6 off): every skb eth0
# sends and receives during the probe is a hyperframe one.
ip netns exec "$n1" "$HF_DIR/hf_xfer" recv 7400 200000,1000 >"$LOGS/recv" 2>&1 &
rpid=$!
busywait 20000 grep -q ready "$LOGS/recv"
check_err $? "hyperframe receiver did not start: $(cat "$LOGS/recv")"
read -ra before < <(counters "$n0")
probe_start "$n0" "$LOGS/hf.json" duration 20s ethertype 0x88b5
check_err $? "probe did not attach: $(cat "$LOGS/hf.json.err")"
json_pid=$probe_pid
probe_start "$n0" "$LOGS/hf.txt" duration 15s ethertype 0x88b5
check_err $? "probe did not attach: $(cat "$LOGS/hf.txt.err")"
text_pid=$probe_pid
ip netns exec "$n0" timeout 60 "$HF_DIR/hf_xfer" send eth0 "$(hf_node_mac 1)" 7400 \
	200000,1000 >"$LOGS/send" 2>&1
check_err $? "hyperframe sender failed: $(cat "$LOGS/send")"
wait "$rpid"
check_err $? "hyperframe receiver failed: $(cat "$LOGS/recv")"
wait "$text_pid"
check_err $? "hfctl probe failed: $(cat "$LOGS/hf.txt.err")"
wait "$json_pid"
check_err $? "hfctl probe failed: $(cat "$LOGS/hf.json.err")"
read -ra after < <(counters "$n0")
if ((RET == 0)); then
	near "$(field "$LOGS/hf.json" 'j["tx"]["skbs"]')" $((after[0] - before[0])) "hyperframe tx skbs"
	near "$(field "$LOGS/hf.json" 'j["tx"]["bytes"]')" $((after[1] - before[1])) "hyperframe tx bytes"
	near "$(field "$LOGS/hf.json" 'j["rx"]["skbs"]')" $((after[2] - before[2])) "hyperframe rx skbs"
	near "$(field "$LOGS/hf.json" 'j["rx"]["bytes"]')" $((after[3] - before[3])) "hyperframe rx bytes"
fi
sed 's/^/# /' "$LOGS/hf.json"; echo
sed 's/^/# /' "$LOGS/hf.txt"
log_test "probe: ethertype 0x88b5 sees hyperframe's skbs as eth0 counts them"

# The 5-tuple, over three UDP flows sent at once, interleaved: A, IPv4
# 6001 -> 6101 (400 datagrams); B, IPv6 6002 -> 6101 (250); C, IPv4 with
# A's addresses, 6003 -> 6102 (150). Addresses pick B out; addresses and
# ports pick A, not C. Last: IPv6 brings its own chatter (ICMPv6).
for ns in "$n0" "$n1"; do
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.eth0.disable_ipv6=0
done
ip -n "$n0" addr add 2001:db8::1/64 dev eth0 nodad
ip -n "$n1" addr add 2001:db8::2/64 dev eth0 nodad
ip -n "$n0" neigh replace 2001:db8::2 lladdr "$(hf_node_mac 1)" dev eth0 nud permanent
flows()
{
	ip netns exec "$n0" python3 -c '
import socket, sys
a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
a.bind((sys.argv[1], 6001))
b = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
b.bind(("2001:db8::1", 6002))
c = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
c.bind((sys.argv[1], 6003))
for i in range(400):
	a.sendto(b"a" * 300, (sys.argv[2], 6101))
	if i < 250:
		b.sendto(b"b" * 300, ("2001:db8::2", 6101))
	if i < 150:
		c.sendto(b"c" * 300, (sys.argv[2], 6102))' "$addr0" "$addr1"
}
probe_start "$n0" "$LOGS/b.json" duration 8s proto udp src 2001:db8::1 dst 2001:db8::2
check_err $? "probe did not attach: $(cat "$LOGS/b.json.err")"
flows
check_err $? "UDP flows failed"
wait "$probe_pid"
check_err $? "hfctl probe failed: $(cat "$LOGS/b.json.err")"
check_eq "$(field "$LOGS/b.json" 'j["tx"]["skbs"], j["tx"]["bytes"], j["rx"]["skbs"]')" \
	"250 $((250 * (14 + 40 + 8 + 300))) 0" "IPv6 addresses: flow B (skbs, bytes, rx)"
check_eq "$(field "$LOGS/b.json" 'j["filter"]')" "proto udp src 2001:db8::1 dst 2001:db8::2" \
	"filter"
probe_start "$n0" "$LOGS/a.json" duration 8s proto udp src "$addr0" dst "$addr1" \
	sport 6001 dport 6101
check_err $? "probe did not attach: $(cat "$LOGS/a.json.err")"
flows
check_err $? "UDP flows failed"
wait "$probe_pid"
check_err $? "hfctl probe failed: $(cat "$LOGS/a.json.err")"
check_eq "$(field "$LOGS/a.json" 'j["tx"]["skbs"], j["tx"]["bytes"], j["rx"]["skbs"]')" \
	"400 $((400 * (14 + 20 + 8 + 300))) 0" "IPv4 addresses and ports: flow A (skbs, bytes, rx)"
sed 's/^/# /' "$LOGS/a.json"; echo
log_test "probe: a 5-tuple filter picks one of three concurrent flows exactly"

out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$HFCTL" probe dev lo duration 1s 2>&1)
check_fail $? "hfctl probe succeeded without privilege"
[[ $out == *"hfctl probe needs root or CAP_BPF and CAP_PERFMON"* ]]
check_err $? "unprivileged: $out"
log_test "probe: without privilege, says what it needs"

out=$(unshare -m sh -c 'mount -t tmpfs none /sys/kernel/btf && exec "$0" probe dev lo duration 1s' \
	"$HFCTL" 2>&1)
check_fail $? "hfctl probe succeeded without BTF"
[[ $out == *"/sys/kernel/btf/vmlinux is missing"* ]]
check_err $? "without BTF: $out"
log_test "probe: without kernel BTF, says so"

out=$("$HFCTL" -n "$n0" probe dev nosuch0 duration 1s 2>&1)
check_fail $? "hfctl probe succeeded on a missing device"
[[ $out == *'cannot find device "nosuch0"'* ]]
check_err $? "missing device: $out"
log_test "probe: unknown device"

exit "$(ktap_exit)"
