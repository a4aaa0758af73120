#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The events of the generic netlink family (group "events"), as "hfctl
# monitor" prints them, against the real module: a silent peer is given up
# (retry limit, EHOSTUNREACH) and reclaimed when idle; the first message
# to a new peer creates its state on both sides and starts an epoch; a
# receiver that loses its state makes the sender reset the flow
# (ECONNRESET) and start a new epoch, and its own peer down comes before
# its new peer up; an interface deleted takes its peers down on both
# sides, failing a message in flight (ENETDOWN); a transfer under loss
# makes its sender back off (the sign, the rate kept and the frame size in
# each event, one per rate cut); a flow silent past flow_reset starts a
# new epoch even when the other direction kept its peer alive. Each event
# names the right interface and address, in order, in NDJSON (-j) and
# text. SIGINT
# and SIGTERM end a monitor with status 0, a monitor outlives the module's
# unload, and without the module monitor says to load it.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

HFCTL=${HFCTL:-${HF_BUILD:?set HFCTL or HF_BUILD}/userspace/hfctl/hfctl}
XFER=$HF_DIR/hf_xfer
LOGS=$(mktemp -d)
defer rm -rf "$LOGS"

# has FILE EVENT ADDR: the NDJSON of a monitor holds EVENT for ADDR (grep:
# it is polled, and python starts slowly in an emulated guest).
has()
{
	grep -q "\"event\":\"$2\",.*\"address\":\"$3\"" "$1"
}

# events_about FILE ADDR: how many events of a monitor's NDJSON name ADDR,
# back-offs left out (as story() does).
events_about()
{
	grep -v '"event":"backoff"' "$1" | grep -c "\"address\":\"$2\""
}

# story FILE ADDR: the events about ADDR in a monitor's NDJSON, in order,
# "|"-separated, each "event ifindex [reason] [epoch] [errno] [messages]"
# with the epochs named E1, E2... in order of appearance; back-offs (which
# loss on a loaded guest may make anywhere) are left out. Fails when a
# line is not one JSON object.
story()
{
	python3 - "$1" "$2" <<'EOF'
import json, sys
names, out = {}, []
for line in open(sys.argv[1]):
    e = json.loads(line)
    if not isinstance(e, dict):
        sys.exit("not an object: " + line)
    if e.get("address") != sys.argv[2] or e["event"] == "backoff":
        continue
    f = [e["event"], str(e["ifindex"])]
    if "reason" in e:
        f.append(e["reason"])
    if "epoch" in e:
        f.append(names.setdefault(e["epoch"], "E%d" % (len(names) + 1)))
    for k in ("errno", "messages"):
        if k in e:
            f.append(str(e[k]))
    out.append(" ".join(f))
print("|".join(out))
EOF
}

ktap_plan 9

hf_module_load
orig=$("$HFCTL" -j config show)
check_err $? "config show failed"
retry_limit=$(json_field retry_limit <<<"$orig")
defer hf_config_set retry_limit "$retry_limit" \
	peer_idle_ms "$(json_field peer_idle_ms <<<"$orig")" \
	flow_reset_ms "$(json_field flow_reset_ms <<<"$orig")"
# A silent peer is given up after 3 timeouts (about 150 ms), and an idle
# one reclaimed after a second.
hf_config_set retry_limit 2 peer_idle 1s
check_err $? "config set retry_limit 2 peer_idle 1s failed"

hf_topo_create 2
n0=${HF_NODES[0]}
n1=${HF_NODES[1]}
mac0=$(hf_node_mac 0)
mac1=$(hf_node_mac 1)
if0=$(ip netns exec "$n0" cat /sys/class/net/eth0/ifindex)
if1=$(ip netns exec "$n1" cat /sys/class/net/eth0/ifindex)

"$HFCTL" -n "$n0" -j monitor >"$LOGS/n0.json" 2>"$LOGS/n0.err" &
m0=$!
defer kill "$m0"
"$HFCTL" -n "$n1" -j monitor >"$LOGS/n1.json" 2>"$LOGS/n1.err" &
m1=$!
defer kill "$m1"
# A background job of a script ignores SIGINT; this one is to stop by it.
python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$HFCTL" -n "$n0" monitor >"$LOGS/n0.txt" 2>"$LOGS/n0t.err" &
mt=$!
defer kill "$mt"

# 1. A message to an address nobody has: its peer state, an epoch, and
# after retry_limit silent timeouts the message fails (EHOSTUNREACH).
hf_monitor_probe 0 1 "$LOGS/n0.json" "$LOGS/n0.txt"
check_err $? "the monitors of node 0 showed no event: $(cat "$LOGS/n0.err" "$LOGS/n0t.err")"
P=$HF_PROBE
grep -q 'No route to host' "$LOGS/probe-1-$((16#${P##*:}))"
check_err $? "the message to $P did not fail with EHOSTUNREACH"
busywait 20000 has "$LOGS/n0.json" retry_limit "$P"
check_err $? "no retry_limit event for $P"
# (It may be reclaimed already: case 2.)
check_eq "$(story "$LOGS/n0.json" "$P" | cut -d'|' -f1-3)" \
	"peer_up $if0|epoch $if0 E1|retry_limit $if0 E1 113 1" "events of $P"
log_test "events: a silent peer: peer up, epoch, retry limit (EHOSTUNREACH, 1 message)"

# 2. Nothing in flight any more: reclaimed after peer_idle.
busywait 20000 has "$LOGS/n0.json" peer_down "$P"
check_err $? "no peer_down event for $P"
check_eq "$(story "$LOGS/n0.json" "$P")" \
	"peer_up $if0|epoch $if0 E1|retry_limit $if0 E1 113 1|peer_down $if0 idle" \
	"events of $P"
log_test "events: an idle peer reclaimed: peer down, reason idle"

# 3. The first message between the nodes: state on both sides, an epoch
# on the sender's only (the receiver only acks).
hf_config_set peer_idle 600s
check_err $? "config set peer_idle 600s failed"
hf_monitor_probe 1 2 "$LOGS/n1.json"
check_err $? "the monitor of node 1 showed no event: $(cat "$LOGS/n1.err")"
ip netns exec "$n1" "$XFER" recv 7100 1000 >"$LOGS/recv" 2>&1 &
rpid=$!
busywait 10000 grep -q ready "$LOGS/recv"
check_err $? "receiver did not start: $(cat "$LOGS/recv")"
ip netns exec "$n0" timeout 60 "$XFER" send eth0 "$mac1" 7100 1000 >"$LOGS/send" 2>&1
check_err $? "sender failed: $(cat "$LOGS/send")"
wait "$rpid"
check_err $? "receiver failed: $(cat "$LOGS/recv")"
busywait 10000 has "$LOGS/n0.json" epoch "$mac1"
check_err $? "no epoch event on node 0"
busywait 10000 has "$LOGS/n1.json" peer_up "$mac0"
check_err $? "no peer_up event on node 1"
check_eq "$(story "$LOGS/n0.json" "$mac1")" "peer_up $if0|epoch $if0 E1" "node 0: events of node 1"
check_eq "$(story "$LOGS/n1.json" "$mac0")" "peer_up $if1" "node 1: events of node 0"
check_eq "$(story "$LOGS/n1.json" "$mac1")$(story "$LOGS/n0.json" "$mac0")" "" \
	"events about a node's own address"
log_test "events: first message to a new peer: peer up and epoch on the sender, peer up on the receiver"

# 4. The receiver's interface goes down and up: it forgets the flow. The
# sender's next message, in the same epoch (flow_reset is long: python is
# slow to start in an emulated guest), is taken mid-stream under a new
# receiver state: it fails with ECONNRESET and the flow restarts in a new
# epoch.
hf_config_set retry_limit "$retry_limit" flow_reset 86400s
check_err $? "config set flow_reset 86400s failed"
ip -n "$n1" link set eth0 down
busywait 10000 has "$LOGS/n1.json" peer_down "$mac0"
check_err $? "no peer_down event on node 1 for its interface going down"
ip -n "$n1" link set eth0 up
busywait 20000 sh -c "ip -n '$n0' link show eth0 | grep -q 'state UP'"
check_err $? "node 0's link did not come back"
ip netns exec "$n0" timeout 60 "$XFER" send eth0 "$mac1" 7101 1000 >"$LOGS/reset" 2>&1
check_eq $? 1 "exit status of the message the receiver lost"
grep -q 'Connection reset by peer' "$LOGS/reset"
check_err $? "no ECONNRESET: $(cat "$LOGS/reset")"
busywait 10000 has "$LOGS/n1.json" peer_up "$mac0"
busywait 10000 eval '(($(events_about "$LOGS/n0.json" "$mac1") >= 4))'
check_eq "$(story "$LOGS/n0.json" "$mac1")" \
	"peer_up $if0|epoch $if0 E1|flow_reset $if0 E1 104 1|epoch $if0 E2" \
	"node 0: events of node 1"
check_eq "$(story "$LOGS/n1.json" "$mac0")" \
	"peer_up $if1|peer_down $if1 device|peer_up $if1" "node 1: events of node 0"
log_test "events: receiver lost its state: flow reset (ECONNRESET) and a new epoch; its peer down before its new peer up"

# 5. A message in flight without limit to an address nobody has, then the
# interface is deleted: every peer of it goes down, the message fails.
hf_config_set retry_limit 255
check_err $? "config set retry_limit 255 failed"
Q=02:00:00:00:03:01
ip netns exec "$n0" timeout 120 "$XFER" send eth0 "$Q" 7000 100 >"$LOGS/q" 2>&1 &
qpid=$!
busywait 10000 has "$LOGS/n0.json" epoch "$Q"
check_err $? "no epoch event for $Q"
ip -n "$n0" link del eth0
wait "$qpid"
check_eq $? 1 "exit status of the message to $Q"
grep -q 'Network is down' "$LOGS/q"
check_err $? "no ENETDOWN: $(cat "$LOGS/q")"
busywait 10000 has "$LOGS/n0.json" peer_down "$Q"
busywait 10000 has "$LOGS/n1.json" peer_down "$mac0"
busywait 10000 eval '(($(events_about "$LOGS/n0.json" "$mac1") >= 5))'
check_eq "$(story "$LOGS/n0.json" "$Q")" \
	"peer_up $if0|epoch $if0 E1|peer_down $if0 device 100 1" "node 0: events of $Q"
check_eq "$(story "$LOGS/n0.json" "$mac1")" \
	"peer_up $if0|epoch $if0 E1|flow_reset $if0 E1 104 1|epoch $if0 E2|peer_down $if0 device" \
	"node 0: events of node 1"
check_eq "$(story "$LOGS/n1.json" "$mac0")" \
	"peer_up $if1|peer_down $if1 device|peer_up $if1|peer_down $if1 device" \
	"node 1: events of node 0"
log_test "events: interface deleted: peer down, reason device, on both sides; the message in flight fails (ENETDOWN)"

# 6. The same events as text, one line each; every -j line one object.
busywait 10000 grep -q "addr $Q reason device" "$LOGS/n0.txt"
text=$(cat "$LOGS/n0.txt")
h4='0x[0-9a-f]{8}'
for re in "^peer up dev eth0 addr $P\$" \
	"^epoch dev eth0 addr $P $h4\$" \
	"^retry-limit dev eth0 addr $P epoch $h4 failed 1 message\$" \
	"^peer down dev eth0 addr $P reason idle\$" \
	"^flow-reset dev eth0 addr $mac1 epoch $h4 failed 1 message\$" \
	"^peer down dev (eth0|if$if0) addr $Q reason device failed 1 message\$"; do
	grep -qE "$re" <<<"$text"
	check_err $? "text output lacks /$re/: $text"
done
for f in n0.json n1.json; do
	story "$LOGS/$f" none >/dev/null
	check_err $? "$f is not one JSON object per line"
done
check_eq "$(ip netns exec "$n0" awk '$1 == "events_dropped" {print $2}' /proc/net/hyperframe)" \
	0 "events_dropped"
log_test "events: text output as ip monitor; NDJSON; nothing dropped"

# 7. Stopping, and the module going away under a monitor.
kill -TERM "$m0"
wait "$m0"
check_eq $? 0 "exit status of monitor -j after SIGTERM"
kill -INT "$mt"
wait "$mt"
check_eq $? 0 "exit status of monitor after SIGINT"
kill -TERM "$m1"
wait "$m1"
check_eq $? 0 "exit status of the other monitor after SIGTERM"
check_eq "$(cat "$LOGS/n0.err" "$LOGS/n0t.err" "$LOGS/n1.err")" "" "monitors' errors"
defer_run
mkdir -p "$LOGS"
defer rm -rf "$LOGS"

hf_topo_create 2
"$HFCTL" -n "${HF_NODES[0]}" monitor >"$LOGS/last.txt" 2>&1 &
ml=$!
defer kill "$ml"
hf_monitor_probe 0 4 "$LOGS/last.txt"
check_err $? "the last monitor showed no event"
# Peers exist in both namespaces while the module goes.
ip netns exec "${HF_NODES[1]}" "$XFER" recv 7100 1000 >"$LOGS/recv" 2>&1 &
rpid=$!
busywait 10000 grep -q ready "$LOGS/recv"
ip netns exec "${HF_NODES[0]}" timeout 60 "$XFER" send eth0 "$(hf_node_mac 1)" 7100 1000 \
	>"$LOGS/send" 2>&1
check_err $? "sender failed: $(cat "$LOGS/send")"
wait "$rpid"
rmmod hyperframe
check_err $? "rmmod with a monitor running and peers left"
sleep 0.5
kill -0 "$ml"
check_err $? "the monitor died with the module: $(cat "$LOGS/last.txt")"
kill -TERM "$ml"
wait "$ml"
check_eq $? 0 "exit status of the monitor after the module went"
err=$("$HFCTL" monitor 2>&1)
check_eq $? 1 "exit status of monitor without the module"
grep -q 'load hyperframe.ko first' <<<"$err"
check_err $? "no hint to load the module: $err"
hf_module_load
defer_run
log_test "events: SIGINT/SIGTERM end a monitor with status 0; it outlives the module; without it, load hyperframe.ko first"

# 8. Congestion: 3 x 4 MiB under 5 % loss. The sender cuts its rate
# before it halves its frames; each cut or halving is a back-off event of
# the flow, on loss, with the state after it. netem drops a train (43
# segments at MTU 1500) at a time: one 4 MiB message is about 67 trains,
# which all pass 3 % of the time (a suite run saw 0 rate cuts); for three
# the chance is 0.003 %.
mkdir -p "$LOGS"
defer rm -rf "$LOGS"
# Three nodes behind a bridge, netem on the switch's port towards node 1:
# there a frame's trains pass one by one, where on node 0's own device a
# carrier of a whole frame is one skb.
hf_topo_create 3
n0=${HF_NODES[0]}
n1=${HF_NODES[1]}
mac1=$(hf_node_mac 1)
"$HFCTL" -n "$n0" -j monitor >"$LOGS/cong.json" 2>"$LOGS/cong.err" &
mc=$!
defer kill "$mc"
hf_config_set retry_limit 2
check_err $? "config set retry_limit 2 failed"
hf_monitor_probe 0 5 "$LOGS/cong.json"
check_err $? "the monitor of node 0 showed no event: $(cat "$LOGS/cong.err")"
hf_config_set retry_limit "$retry_limit"
# (the probes' timeouts may have cut their own peers' rates)
# ns_counter NS KEY: counter KEY of namespace NS.
ns_counter() { ip netns exec "$1" awk -v k="$2" '$1 == k {print $2}' /proc/net/hyperframe; }
cuts0=$(ns_counter "$n0" tx_rate_cuts)
shrinks0=$(ns_counter "$n0" tx_frame_shrinks)
ip netns exec "$HF_SWITCH" tc qdisc add dev p1 root netem loss 5%
check_err $? "netem loss 5% towards node 1"
ip netns exec "$n1" "$XFER" recv 7300 4194304 3 >"$LOGS/recv-cong" 2>&1 &
rpid=$!
busywait 10000 grep -q ready "$LOGS/recv-cong"
ip netns exec "$n0" timeout 120 "$XFER" send eth0 "$mac1" 7300 4194304 3 >"$LOGS/send-cong" 2>&1
check_err $? "sender under loss failed: $(cat "$LOGS/send-cong")"
wait "$rpid"
check_err $? "receiver under loss failed: $(cat "$LOGS/recv-cong")"
cuts=$(($(ns_counter "$n0" tx_rate_cuts) - cuts0))
shrinks=$(($(ns_counter "$n0" tx_frame_shrinks) - shrinks0))
echo "# 3 x 4 MiB under 5 % loss ($(ip netns exec "$HF_SWITCH" tc -s qdisc show dev p1 |
	grep -o -m 1 'dropped [0-9]*') by netem): $cuts rate cuts, $shrinks frame shrinks; first back-off:" \
	"$(grep -m 1 '"event":"backoff"' "$LOGS/cong.json")"
((cuts > 0))
check_err $? "no rate cut under 5 % loss"
# At least one per rate cut (halvings too, but idle ones make none).
backoffs() { grep -c "\"event\":\"backoff\",.*\"address\":\"$mac1\"" "$LOGS/cong.json"; }
busywait 10000 eval '(($(backoffs) >= cuts))'
check_err $? "$(backoffs) back-off events for $cuts rate cuts"
python3 - "$LOGS/cong.json" "$mac1" "$((cuts + shrinks))" <<'EOF2'
import json, sys
offs = [e for e in map(json.loads, open(sys.argv[1]))
        if e["event"] == "backoff" and e["address"] == sys.argv[2]]
bad = [e for e in offs if e["sign"] != "loss" or not 0 < e["rate_scale"] <= 1024 or
       e["frame_segs"] < 1 or "epoch" not in e]
if bad or len(offs) > int(sys.argv[3]):
    sys.exit("%d back-offs for at most %s changes; wrong: %s" % (len(offs), sys.argv[3], bad[:3]))
EOF2
check_err $? "back-off events do not match the rate cuts and frame halvings"
check_eq "$(ip netns exec "$n0" awk '$1 == "events_dropped" {print $2}' /proc/net/hyperframe)" \
	0 "events_dropped"
log_test "events: a transfer under loss backs off: one event per rate cut or frame halving, on loss"
defer_run

# 9. Node 1 forgets node 0 (its interface goes down and up), then sends
# to node 0: a new flow of its own, whose segments keep node 0's peer
# alive. Node 0's next message, after more than flow_reset of its own
# flow's silence, must start a new epoch, not resume the one node 1
# forgot (which would fail as a lost receiver state, ECONNRESET).
mkdir -p "$LOGS"
defer rm -rf "$LOGS"
hf_topo_create 2
n0=${HF_NODES[0]}
n1=${HF_NODES[1]}
defer hf_config_set flow_reset_ms "$(json_field flow_reset_ms <<<"$orig")"
hf_config_set flow_reset 3s
check_err $? "config set flow_reset 3s failed"
# recv_start TO PORT: a receiver of one 1000-byte message, ready; its
# pid in RPID[PORT].
declare -A RPID=()
recv_start()
{
	ip netns exec "${HF_NODES[$1]}" "$XFER" recv "$2" 1000 >"$LOGS/recv-$2" 2>&1 &
	RPID[$2]=$!
	busywait 10000 grep -q ready "$LOGS/recv-$2"
}
# xfer_one FROM TO PORT: one 1000-byte message to a receiver started
# before (recv_start), checked by it.
xfer_one()
{
	local rpid=${RPID[$3]} rc

	ip netns exec "${HF_NODES[$1]}" timeout 60 "$XFER" send eth0 \
		"$(hf_node_mac "$2")" "$3" 1000 >"$LOGS/send-$3" 2>&1
	rc=$?
	((rc)) && kill "$rpid" 2>/dev/null
	wait "$rpid" || rc=1
	return "$rc"
}
recv_start 1 7400
xfer_one 0 1 7400
check_err $? "first message 0 -> 1: $(cat "$LOGS"/send-7400 "$LOGS"/recv-7400)"
t0=$(date +%s%N)
ip -n "$n1" link set eth0 down
ip -n "$n1" link set eth0 up
busywait 20000 sh -c "ip -n '$n0' link show eth0 | grep -q 'state UP'"
check_err $? "node 0's link did not come back"
# Node 0's flow has been silent for more than flow_reset (3 s) once
# node 1's message arrives; node 0 sends right after it (in well under
# 3 s, so a peer-wide clock would still call the flow alive).
recv_start 0 7401
recv_start 1 7402
busywait 10000 eval '(($(date +%s%N) - t0 > 3500000000))'
epochs0=$(ns_counter "$n0" tx_epochs)
resets0=$(ns_counter "$n0" tx_resets)
xfer_one 1 0 7401
check_err $? "message 1 -> 0: $(cat "$LOGS"/send-7401 "$LOGS"/recv-7401)"
xfer_one 0 1 7402
check_err $? "message 0 -> 1 after node 1 forgot node 0: $(cat "$LOGS"/send-7402 "$LOGS"/recv-7402)"
check_eq "$(($(ns_counter "$n0" tx_epochs) - epochs0))" 1 "new epochs of node 0"
check_eq "$(($(ns_counter "$n0" tx_resets) - resets0))" 0 "flow resets of node 0"
log_test "events: a flow silent past flow_reset starts a new epoch though the other direction kept its peer alive"
defer_run

exit "$(ktap_exit)"
