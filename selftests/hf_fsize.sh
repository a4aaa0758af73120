#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The dynamic frame size, as a program sees it through HF_INFO: a new flow
# starts with a small hyperframe and doubles it while the path is clean;
# under netem loss and delay the sender first lowers its rate, then halves
# its frame. One transfer of 256 MiB (a 1-byte message first, so that the
# first sample shows the new flow's frame), HF_INFO read every 10 ms
# (hf_xfer's "info"); netem goes on 300 ms in (the ramp takes under 200),
# so the samples before are the clean path and those after the lossy one.
# The counters must agree. Whether the rate was cut before the frame
# halved is judged from the flow's back-off events (hfctl monitor), each
# with the rate and frame after it: samples are too coarse for that, as a
# cut, a halving and two clean rounds that restore the rate fit between
# two of them. netem sits on the switch port towards the
# receiver (3 nodes behind a bridge): there a frame's trains (64 KiB at
# most) pass one by one, where on the sender's own device a carrier, one
# skb of a whole 1 MiB frame, would be dropped or kept whole.
# Last, a flow whose ACKs are held back past the RTO (netem delay on the
# switch port towards the sender, for a moment): the timer fires with
# nothing lost, F-RTO finds it spurious, and the controller takes its cut
# back (the hf_frame_size tracepoint, reason 6 "undo", puts back what the
# timeout's cut took).
# And a flow whose segments the switch holds back for moments (netem
# reorder towards the receiver): the sender repairs segments only late,
# each arrives twice, and once all of an episode's repairs did, the
# repair's cut is taken back as well (tx_repair_undos).

source "$(dirname "$(readlink -f "$0")")/lib.sh"

XFER=$HF_DIR/hf_xfer
HFCTL=${HFCTL:-$HF_BUILD/userspace/hfctl/hfctl}
LOGS=$(mktemp -d)
defer rm -rf "$LOGS"
ROUNDS=256
MSGS=$((2 * ROUNDS))
CLEAN_MS=300
# Cases 4 and 5: MiB messages a flow under way sends while the switch
# stalls or reorders it for moments; the debug kernel (KSFT_MACHINE_SLOW)
# moves a few MB/s and its tc commands take a second or more, so it sends
# four times as many, or the flow could end before the moments did.
LONG=64
[[ $KSFT_MACHINE_SLOW != yes ]] || LONG=256
# A pacing cap far above what the guest moves: it paces nothing (veth has
# no EDT qdisc) but HF_INFO's pacing_rate shows the controller's cut.
CAP=500000000

ktap_plan 5

# undo_story FILE: the hf_frame_size events of one flow in FILE, in one
# line; fails when no undo is among them or one does not put back exactly
# what the loss reaction just before it took (an undo is never preceded
# by another change since that reaction).
undo_story()
{
	python3 - "$1" <<'EOF2'
import re, sys
ev = [dict(re.findall(r"(\w+)=(\S+)", l)) for l in open(sys.argv[1])]
undos, bad, last = 0, [], None
for e in ev:
    if e["reason"] == "6":
        undos += 1
        if (not last or last["reason"] != "2" or
                (e["new_segs"], e["new_rate"]) != (last["old_segs"], last["old_rate"])):
            bad.append((last, e))
    last = e
print("%d changes, %d loss reactions, %d undos%s" %
      (len(ev), sum(e["reason"] == "2" for e in ev), undos,
       "; wrong: %s" % bad[:2] if bad else ""))
sys.exit(1 if bad or not undos else 0)
EOF2
}

# flow_start PORT TAG MSGS: cases 4 and 5's flow: MSGS MiB messages from
# node 0 to a receiver on node 1 at PORT, hf_frame_size traced; returns
# once a MiB left. Logs $LOGS/sendTAG and recvTAG; sets spid, rpid and
# flow_msgs.
flow_start()
{
	local segs0

	flow_msgs=$3
	hf_trace_start 4096 "$ev"
	check_err $? "tracing $ev"
	ip netns exec "${HF_NODES[1]}" "$XFER" recv "$1" 1048576 "$3" >"$LOGS/recv$2" 2>&1 &
	rpid=$!
	busywait 10000 grep -q ready "$LOGS/recv$2"
	check_err $? "receiver did not start: $(cat "$LOGS/recv$2")"
	segs0=$(hf_stat 0 tx_segs)
	ip netns exec "${HF_NODES[0]}" timeout 300 "$XFER" send eth0 "$(hf_node_mac 1)" "$1" \
		1048576 "$3" >"$LOGS/send$2" 2>&1 &
	spid=$!
	busywait 30000 eval "((\$(hf_stat 0 tx_segs) - $segs0 > 720))"
	check_err $? "the transfer did not start: $(cat "$LOGS/send$2")"
}

# netem_moments N PORT WAIT HOLD NETEM...: N times, WAIT s of a clean
# path, then NETEM on the switch's PORT (a netem qdisc there) for HOLD s.
netem_moments()
{
	local n=$1 port=$2 wait=$3 hold=$4 i

	shift 4
	for ((i = 0; i < n; i++)); do
		sleep "$wait"
		ip netns exec "$HF_SWITCH" tc qdisc change dev "$port" root netem "$@"
		sleep "$hold"
		ip netns exec "$HF_SWITCH" tc qdisc change dev "$port" root netem delay 0ms
	done
}

# flow_end TAG WHAT: the flow outlasted WHAT and ended well, every byte
# arrived; its frame-size changes (node 0 to node 1) in $LOGS/sizesTAG.
flow_end()
{
	kill -0 "$spid" 2>/dev/null
	check_err $? "the transfer ended before $2 did: $(tail -n 3 "$LOGS/send$1")"
	wait "$spid"
	check_err $? "sender: $(tail -n 3 "$LOGS/send$1")"
	wait "$rpid"
	check_err $? "receiver: $(cat "$LOGS/recv$1")"
	grep -q "received $flow_msgs messages, $((flow_msgs * 1048576)) bytes, 0 corrupt" "$LOGS/recv$1"
	check_err $? "receiver: $(cat "$LOGS/recv$1")"
	hf_trace_stop "$ev"
	grep -F "netns=$(stat -L -c %i "/run/netns/${HF_NODES[0]}") " /sys/kernel/tracing/trace |
		grep -F "addr=$(hf_node_mac 1) " >"$LOGS/sizes$1"
}

hf_module_load || exit "$KSFT_FAIL"
orig=$("$HFCTL" -j config show)
init_segs=$(json_field frame_segs <<<"$orig")
hf_config_set pacing_rate "$((CAP * 8))bit"
check_err $? "config set pacing_rate"
defer hf_config_set pacing_rate 0

hf_topo_create 3 1500
"$HFCTL" -n "${HF_NODES[0]}" -j monitor >"$LOGS/events" 2>"$LOGS/monitor.err" &
mpid=$!
defer kill "$mpid"
# Listening before the flow begins, so no back-off of it goes unseen. The
# probes' own timeouts cut their peers' rates: the counters are read after.
retry_limit=$(json_field retry_limit <<<"$orig")
hf_config_set retry_limit 2
hf_monitor_probe 0 1 "$LOGS/events"
check_err $? "the monitor of node 0 showed no event: $(cat "$LOGS/monitor.err")"
hf_config_set retry_limit "$retry_limit"
check_err $? "config set retry_limit $retry_limit"
cuts0=$(hf_stat 0 tx_rate_cuts)
shrinks0=$(hf_stat 0 tx_frame_shrinks)
ip netns exec "${HF_NODES[1]}" "$XFER" recv 7300 1,1048576 "$ROUNDS" >"$LOGS/recv" 2>&1 &
rpid=$!
busywait 10000 grep -q ready "$LOGS/recv"
check_err $? "receiver did not start"
ip netns exec "${HF_NODES[0]}" timeout 300 "$XFER" send eth0 "$(hf_node_mac 1)" 7300 \
	1,1048576 "$ROUNDS" info >"$LOGS/send" 2>&1 &
spid=$!
busywait 60000 awk -v ms="$CLEAN_MS" '$1 == "info" && $2 >= ms { f = 1 } END { exit !f }' \
	"$LOGS/send"
check_err $? "the sender never reached $CLEAN_MS ms: $(tail -n 3 "$LOGS/send")"
ip netns exec "$HF_SWITCH" tc qdisc replace dev p1 root netem loss 5% delay 2ms
check_err $? "netem on the switch port towards the receiver"
# The first sample taken once netem is in place.
lossy_from=$(grep -c '^info ' "$LOGS/send")
# Still sending: the lossy path has samples of its own.
kill -0 "$spid" 2>/dev/null
check_err $? "the transfer ended before netem went on, $CLEAN_MS ms in"
wait "$spid"
check_err $? "sender: $(tail -n 3 "$LOGS/send")"
timeout 300 tail --pid="$rpid" -f /dev/null
wait "$rpid"
check_err $? "receiver: $(cat "$LOGS/recv")"

# The samples, "N frame_segs rate" per line, clean ones first.
awk '/^info / { sub(/frame_segs=/, "", $3); sub(/pacing_rate=/, "", $5); print $2, $3, $5 }' \
	"$LOGS/send" >"$LOGS/samples"
echo "# initial frame $init_segs segments; $(wc -l <"$LOGS/samples") samples," \
	"netem from sample $lossy_from; frame_segs as they changed (ms:segs):" \
	"$(awk '$2 != prev { printf "%s%s:%s", (n++ ? " " : ""), $1, $2; prev = $2 }' "$LOGS/samples")"
echo "# counters: $(hf_stat 0 tx_frame_grows) grows, $(($(hf_stat 0 tx_frame_shrinks) - shrinks0))" \
	"shrinks, $(($(hf_stat 0 tx_rate_cuts) - cuts0)) rate cuts, $(hf_stat 0 tx_retransmits)" \
	"retransmits (the probes' cuts left out)"

# 1. Ramp: small at first, doubled while clean. A fall or a cut rate on
# the clean path is printed, not failed: a guest stalled past the RTO
# rightly takes it for a loss.
read -r first clean_max ups downs cuts < <(awk -v n="$lossy_from" -v cap="$CAP" '
	NR < n { if (NR == 1) first = $2
		 if ($2 > max) max = $2
		 if (NR > 1 && $2 > prev) ups++
		 if (NR > 1 && $2 < prev) downs++
		 if ($3 != cap) cuts++
		 prev = $2 }
	END { print first + 0, max + 0, ups + 0, downs + 0, cuts + 0 }' "$LOGS/samples")
echo "# clean path: first $first, largest $clean_max segments; $ups rises, $downs falls, $cuts rates cut"
((first > 0 && first <= 2 * init_segs))
check_err $? "the first frame seen was $first segments: not near the initial $init_segs"
((clean_max >= 16 * first && ups >= 2))
check_err $? "the frame grew from $first to $clean_max segments only on a clean path"
grows=$(hf_stat 0 tx_frame_grows)
((grows >= 4))
check_err $? "tx_frame_grows $grows: fewer than the 4 doublings 16 times takes"
log_test "frame size: starts small and doubles on a clean path (HF_INFO)"

# 2. Back-off: the frame falls below the clean maximum and the rate is
# cut; the first reaction of the flow is a rate cut, and a frame halves
# only while the rate is cut, so every back-off event of the flow shows a
# cut rate (a halving at the full rate would show 1024). Smaller means a
# halving, below 3/4 of the maximum: a frame cut short by the credit left
# (712 of 716 segments, say) is no back-off.
read -r low first_cut first_small < <(awk -v n="$lossy_from" -v cap="$CAP" -v max="$clean_max" '
	NR >= n { if (low == "" || $2 < low) low = $2
		  if (!cut && $3 < cap) cut = NR
		  if (!small && 4 * $2 < 3 * max) small = NR }
	END { print low + 0, cut + 0, small + 0 }' "$LOGS/samples")
echo "# lossy path: smallest frame $low; rate first cut at sample $first_cut," \
	"frame first smaller at sample $first_small"
((first_cut > 0))
check_err $? "the rate was never cut under 5 % loss"
((first_small > 0 && low < clean_max))
check_err $? "the frame never fell below $clean_max segments under 5 % loss"
cuts=$(($(hf_stat 0 tx_rate_cuts) - cuts0))
shrinks=$(($(hf_stat 0 tx_frame_shrinks) - shrinks0))
((shrinks > 0 && cuts > 0))
check_err $? "tx_frame_shrinks $shrinks, tx_rate_cuts $cuts"
# Every back-off of the controller is one event, whether it cut the rate,
# halved the frame or both at once: at least as many events as the larger
# count, at most their sum. Wait for the monitor to print them.
mac1=$(hf_node_mac 1)
backoffs() { grep -c "\"event\":\"backoff\",.*\"address\":\"$mac1\"" "$LOGS/events"; }
most=$((cuts > shrinks ? cuts : shrinks))
busywait 10000 eval "((\$(backoffs) >= $most))"
check_err $? "$(backoffs) back-off events for $cuts rate cuts and $shrinks frame halvings: $(cat "$LOGS/monitor.err")"
(($(backoffs) <= cuts + shrinks))
check_err $? "$(backoffs) back-off events, more than $cuts rate cuts and $shrinks frame halvings"
story=$(python3 - "$LOGS/events" "$mac1" "$clean_max" <<'EOF'
import json, sys
offs = [e for e in map(json.loads, open(sys.argv[1]))
        if e["event"] == "backoff" and e["address"] == sys.argv[2]]
clean_max = int(sys.argv[3])
halved = [e for e in offs if 4 * e["frame_segs"] < 3 * clean_max]
first = (offs[0]["rate_scale"], offs[0]["frame_segs"]) if offs else (0, 0)
print("%d back-offs, %d with the frame below 3/4 of %d; first: rate %d/1024, frame %d" %
      ((len(offs), len(halved), clean_max) + first))
full = [e for e in offs if e["rate_scale"] >= 1024]
if full:
    print("; a back-off at the full rate: %s" % full[0])
if not halved or full:
    sys.exit(1)
EOF
)
check_err $? "back-off events: $story"
echo "# events: $story"
check_eq "$(hf_stat 0 events_dropped)" 0 "events_dropped"
check_eq "$(grep -c '"event":"lost"' "$LOGS/events")" 0 "events the monitor lost (overrun)"
log_test "frame size: under loss the rate is cut first, then the frame halves"

# 3. Every message arrived whole through all of it.
grep -q "received $MSGS messages, $((ROUNDS * 1048577)) bytes, 0 corrupt" "$LOGS/recv"
check_err $? "receiver: $(cat "$LOGS/recv")"
log_test "frame size: every message byte-exact across the change"

# 4. A spurious timeout's cut is taken back. Only hf_frame_size is traced
# (hf_trace_start).
ev=hyperframe/hf_frame_size
ip netns exec "$HF_SWITCH" tc qdisc del dev p1 root
ip netns exec "$HF_SWITCH" tc qdisc add dev p0 root netem delay 0ms
check_err $? "netem on the switch port towards the sender"
# Paced at 100 Mbit/s by hfq, well below what the receiver takes: the
# window stays open, and what stops the flow is the ACKs held back. 64
# MiB take over 5 s, longer than the stalls (LONG).
"$HFCTL" -n "${HF_NODES[0]}" qdisc attach dev eth0 &&
	"$HFCTL" -n "${HF_NODES[0]}" qdisc set dev eth0 rate 100mbit
check_err $? "hfq at 100 Mbit/s on the sender"
rto0=$(hf_stat 0 tx_rto)
spurious0=$(hf_stat 0 tx_rto_spurious)
# A stall fires the backed-off timer up to 8 times (the default retry
# limit) on a slow guest: room for more, so the peer is not given up.
hf_config_set retry_limit 32
check_err $? "config set retry_limit 32"
defer hf_config_set retry_limit "$retry_limit"
flow_start 7301 4 "$LONG"
# Three stalls of the ACKs: those sent in the next 100 ms arrive 500 ms
# late, behind the ones sent after, which find the sender's timer fired.
netem_moments 3 p0 0.3 0.1 delay 500ms
flow_end 4 "the stalls"
rto=$(($(hf_stat 0 tx_rto) - rto0))
spurious=$(($(hf_stat 0 tx_rto_spurious) - spurious0))
story=$(undo_story "$LOGS/sizes4")
ok=$?
echo "# three ACK stalls: $rto timeouts, $spurious found spurious; the flow's frame-size changes: $story"
((spurious > 0))
check_err $? "no timeout was found spurious ($rto timeouts): the stalls prove little"
check_err $ok "spurious timeouts, their cuts not taken back: $story"
((ok == 0)) || sed 's/^.*hf_frame_size: /# /' "$LOGS/sizes4"
log_test "frame size: a spurious timeout's cut is taken back (F-RTO)"

# 5. A repair's cut is taken back when every segment it sent again arrived
# twice: for moments the switch port towards the receiver holds half the
# segments back 4 ms (netem reorder), longer than the reorder window, so
# the sender repairs segments only late; each of those comes twice and
# the receiver answers the second with a DUP ACK.
ip netns exec "$HF_SWITCH" tc qdisc add dev p1 root netem delay 0ms
check_err $? "netem on the switch port towards the receiver"
rexmit0=$(hf_stat 0 tx_retransmits)
dups0=$(hf_stat 0 tx_spurious_retransmits)
undos0=$(hf_stat 0 tx_repair_undos)
spurious0=$(hf_stat 0 tx_rto_spurious)
# Six moments of 200 ms, each a tc call apart: twice the messages of
# case 4, so that the flow outlasts them (64 MiB once ended first).
flow_start 7302 5 $((2 * LONG))
netem_moments 6 p1 0.2 0.2 delay 4ms reorder 50%
flow_end 5 "the reordering"
rexmit=$(($(hf_stat 0 tx_retransmits) - rexmit0))
dups=$(($(hf_stat 0 tx_spurious_retransmits) - dups0))
undos=$(($(hf_stat 0 tx_repair_undos) - undos0))
spurious=$(($(hf_stat 0 tx_rto_spurious) - spurious0))
story=$(undo_story "$LOGS/sizes5")
ok=$?
echo "# reordering: $rexmit segments sent again, $dups answered as duplicates;" \
	"$undos repair cuts and $spurious timeouts taken back; the flow's frame-size changes: $story"
((dups > 0))
check_err $? "no segment arrived twice ($rexmit sent again): the reordering proves little"
((undos > 0))
check_err $? "repairs of segments only late, their cuts never taken back (tx_repair_undos 0)"
check_err $ok "loss reactions and undos: $story"
((ok == 0)) || sed 's/^.*hf_frame_size: /# /' "$LOGS/sizes5"
log_test "frame size: a repair's cut is taken back when all it resent arrived twice"
defer_run
exit "$(ktap_exit)"
