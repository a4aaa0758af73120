#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hfctl probe, the BPF "measure first" probe, on any traffic and without
# needing the module: between two namespaces, a known TCP transfer seen by
# "hfctl probe dev eth0 -j" agrees (within 5 %) with eth0's own counters
# read right before the probe attaches and right after it detaches, in
# skbs and bytes, both directions; its wire-packet estimate fits the MTU and
# its histograms add up; a UDP filter counts exactly the datagrams sent to
# its port, and the qdisc depth is reported under tbf; hyperframe's own
# frames, by EtherType, agree with the counters too; without privilege,
# without BTF or for an unknown device it fails with a message that says so.

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

# near GOT WANT MSG: GOT within 5 % of WANT (and both non-zero).
near()
{
	local got=$1 want=$2

	if ((want == 0 || got * 100 < want * 95 || got * 100 > want * 105)); then
		check_err 1 "$3: probe $got, interface $want"
	else
		echo "# $3: probe $got, interface $want"
	fi
}

# probe_attached PID: the probe's programs are attached (each has a link;
# under TCG loading takes seconds), or PID has exited.
probe_attached()
{
	! kill -0 "$1" 2>/dev/null && return 0
	python3 -c '
import json, subprocess, sys
def bpftool(*args):
	return json.loads(subprocess.run(["bpftool", "-j", *args], capture_output=True,
					 text=True).stdout or "[]")
names = {"hf_probe_tx", "hf_probe_rx", "hf_probe_qdisc"}
progs = {p["id"] for p in bpftool("prog", "show") if p.get("name") in names}
linked = {l.get("prog_id") for l in bpftool("link", "show")}
sys.exit(0 if len(progs) == 3 and progs <= linked else 1)' 2>/dev/null
}

# probe_start NS OUT ARGS...: runs hfctl probe in NS in the background
# (pid in $probe_pid), and returns once its programs are attached.
probe_start()
{
	local ns=$1 out=$2

	shift 2
	"$HFCTL" -n "$ns" -j probe dev eth0 "$@" >"$out" 2>"$out.err" &
	probe_pid=$!
	busywait 120000 probe_attached "$probe_pid" || return 1
	kill -0 "$probe_pid" 2>/dev/null
}

ktap_plan 7

hf_topo_create 2
n0=${HF_NODES[0]}
n1=${HF_NODES[1]}
# No IPv6 neighbour discovery in the middle of a count.
for ns in "$n0" "$n1"; do
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.eth0.disable_ipv6=1 2>/dev/null
done
addr1=$(hf_node_addr 1)

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

before=($(counters "$n0"))
probe_start "$n0" "$LOGS/tcp.json" duration 20s
check_err $? "probe did not attach: $(cat "$LOGS/tcp.json.err")"
ip netns exec "$n0" timeout 60 python3 -c '
import socket, sys
c = socket.create_connection((sys.argv[1], 5201))
c.sendall(b"x" * (4 << 20))
c.shutdown(socket.SHUT_WR)
c.recv(1)
c.close()' "$addr1"
check_err $? "TCP transfer failed"
wait "$probe_pid"
check_err $? "hfctl probe failed: $(cat "$LOGS/tcp.json.err")"
after=($(counters "$n0"))
wait "$sink"
check_eq "$(tail -n 1 "$LOGS/sink")" $((4 << 20)) "bytes the sink received"
if ((RET == 0)); then
	near "$(field "$LOGS/tcp.json" 'j["tx"]["skbs"]')" $((after[0] - before[0])) "tx skbs"
	near "$(field "$LOGS/tcp.json" 'j["tx"]["bytes"]')" $((after[1] - before[1])) "tx bytes"
	near "$(field "$LOGS/tcp.json" 'j["rx"]["skbs"]')" $((after[2] - before[2])) "rx skbs"
	near "$(field "$LOGS/tcp.json" 'j["rx"]["bytes"]')" $((after[3] - before[3])) "rx bytes"
fi
sed 's/^/# /' "$LOGS/tcp.json"; echo
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

# hyperframe itself (EtherType 0x88b5, no ARP, IPv6 off): every skb eth0
# sends and receives during the probe is a hyperframe one.
ip netns exec "$n1" "$HF_DIR/hf_xfer" recv 7400 200000,1000 >"$LOGS/recv" 2>&1 &
rpid=$!
busywait 20000 grep -q ready "$LOGS/recv"
check_err $? "hyperframe receiver did not start: $(cat "$LOGS/recv")"
before=($(counters "$n0"))
probe_start "$n0" "$LOGS/hf.json" duration 20s ethertype 0x88b5
check_err $? "probe did not attach: $(cat "$LOGS/hf.json.err")"
ip netns exec "$n0" timeout 60 "$HF_DIR/hf_xfer" send eth0 "$(hf_node_mac 1)" 7400 \
	200000,1000 >"$LOGS/send" 2>&1
check_err $? "hyperframe sender failed: $(cat "$LOGS/send")"
wait "$rpid"
check_err $? "hyperframe receiver failed: $(cat "$LOGS/recv")"
wait "$probe_pid"
check_err $? "hfctl probe failed: $(cat "$LOGS/hf.json.err")"
after=($(counters "$n0"))
if ((RET == 0)); then
	near "$(field "$LOGS/hf.json" 'j["tx"]["skbs"]')" $((after[0] - before[0])) "hyperframe tx skbs"
	near "$(field "$LOGS/hf.json" 'j["tx"]["bytes"]')" $((after[1] - before[1])) "hyperframe tx bytes"
	near "$(field "$LOGS/hf.json" 'j["rx"]["skbs"]')" $((after[2] - before[2])) "hyperframe rx skbs"
	near "$(field "$LOGS/hf.json" 'j["rx"]["bytes"]')" $((after[3] - before[3])) "hyperframe rx bytes"
fi
sed 's/^/# /' "$LOGS/hf.json"; echo
log_test "probe: ethertype 0x88b5 sees hyperframe's skbs as eth0 counts them"

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

exit $(ktap_exit)
