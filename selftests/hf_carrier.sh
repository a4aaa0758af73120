#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A hyperframe as one skb: the trains of a frame leave together as a
# carrier (hf_offload.c), which the qdisc takes once and the device
# boundary takes apart. At the default window (max_inflight=128 entries
# of the receiver's queue: veth carries a train whole, so the window is
# two frames, hf_tx_window() in hf_output.c; frames start at their largest),
# 64 MiB go through hfq at MTU 1500 and 9000: the skbs hfq takes per MiB
# (repairs, one segment each, aside) stay within 2x of MiB over the frame
# size, and the largest carries a whole
# 1 MiB hyperframe. With tx-gso-list off, carriers are cut into segments
# in software. Under a pacing cap, a carrier smaller than veth's
# gso_max_size leaves as its trains, never whole. Every transfer is
# verified byte for byte by hf_xfer.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

XFER=$HF_DIR/hf_xfer
HFCTL=${HFCTL:-${HF_BUILD:?set HFCTL or HF_BUILD}/userspace/hfctl/hfctl}
EVENTS=(hyperframe/hf_frame_xmit hyperframe/hfq_enqueue)
LOGS=$(mktemp -d)
MIB=$((1 << 20))

# transfer PORT SIZE: SIZE bytes from node 0 to node 1, traced (the
# tracing settings come back with the case's defer_run).
transfer()
{
	local port=$1 size=$2 rpid rc

	hf_trace_start 8192 "${EVENTS[@]}"
	check_err $? "tracing ${EVENTS[*]}"
	ip netns exec "${HF_NODES[1]}" "$XFER" recv "$port" "$size" 1 \
		>"$LOGS/recv" 2>&1 &
	rpid=$!
	busywait 10000 grep -q ready "$LOGS/recv"
	check_err $? "receiver did not start"
	ip netns exec "${HF_NODES[0]}" timeout 120 "$XFER" send eth0 \
		"$(hf_node_mac 1)" "$port" "$size" 1 >"$LOGS/send" 2>&1
	check_err $? "sender: $(cat "$LOGS/send")"
	wait "$rpid"
	rc=$?
	check_err $rc "receiver: $(cat "$LOGS/recv")"
	hf_trace_stop "${EVENTS[@]}"
	cat /sys/kernel/tracing/trace >"$LOGS/trace"
	hf_counters_settle "${HF_NODES[@]}"
}

# field EVENT KEY AWK: AWK over the values of KEY in EVENT's lines of
# node 0's namespace (v: the value), e.g. "max" or "count".
field()
{
	local ns
	ns=$(ip netns exec "${HF_NODES[0]}" stat -L -c %i /proc/self/ns/net)
	awk -v ev="$1:" -v key="$2" -v ns="$ns" -v what="$3" '
	{
		hit = 0; v = ""; n = ""
		for (i = 1; i <= NF; i++) {
			if ($i == ev)
				hit = 1
			split($i, kv, "=")
			if (kv[1] == key)
				v = kv[2]
			if (kv[1] == "netns")
				n = kv[2]
		}
		if (!hit || n != ns)
			next
		c++
		if (v + 0 > m)
			m = v + 0
	}
	END { print (what == "max" ? m + 0 : c + 0) }' "$LOGS/trace"
}

ktap_plan 4

busywait 30000 hf_module_unload
check_err $? "rmmod: $(rmmod hyperframe 2>&1)"
hf_module_load frame_segs=1024 ${HF_MODULE_PARAMS:-}
check_eq "$(cat /sys/module/hyperframe/parameters/max_inflight)" 128 "max_inflight at its default"

# 1, 2. One skb through the qdisc per hyperframe, within 2x.
for mtu in 1500 9000; do
	hf_topo_create 2 "$mtu"
	tc -n "${HF_NODES[0]}" qdisc replace dev eth0 root hfq
	check_err $? "tc qdisc replace dev eth0 root hfq"
	transfer 7100 $((64 * MIB))
	frames=$(hf_stat 0 tx_frames)
	bytes=$(hf_stat 0 tx_bytes)
	# hfq_enqueue's band 1 is hyperframe data: the skbs the qdisc took.
	qskbs=$(field hfq_enqueue band count)
	qdata=$(awk -v ev="hfq_enqueue:" '{for (i = 1; i <= NF; i++) if ($i == ev) hit = 1}
		hit && / band=1 / {c++} {hit = 0} END {print c + 0}' "$LOGS/trace")
	largest=$(field hf_frame_xmit bytes max)
	echo "# MTU $mtu: $frames frames, $bytes bytes ($((bytes / frames)) per frame);" \
		"hfq took $qdata data skbs ($qskbs in all), $(hf_stat 0 tx_frame_skbs)" \
		"carriers and lone skbs of $(hf_stat 0 tx_data_skbs) trains;" \
		"$(hf_stat 0 tx_carriers_split) carriers taken apart for veth;" \
		"largest $largest bytes"
	retx=$(hf_stat 0 tx_retransmits)
	why="$retx segments sent again ($(hf_stat 0 tx_rto) timeouts,"
	why+=" $(hf_stat 0 tx_window_resends) resends of refused ones, $(hf_stat 1 drop_rcvbuf)"
	why+=" refused for a full buffer); $(hf_stat 0 tx_credit_stalls) credit stalls;"
	why+=" $(hf_stat 0 tx_xmit_errors) refused by the device"
	echo "# MTU $mtu: $why"
	echo "# MTU $mtu: per MiB, hfq took $((qdata * MIB * 100 / bytes / 100)).$((qdata * MIB * 100 / bytes % 100))" \
		"data skbs against $((frames * MIB * 100 / bytes / 100)).$((frames * MIB * 100 / bytes % 100)) frames"
	# Repairs go through the data band too, one segment each: what is
	# left are the skbs of first transmissions, the frames'. (A host that
	# starves the guest fires the retransmission timer now and then.)
	check_eq "$qdata" $(($(hf_stat 0 tx_frame_skbs) + retx)) \
		"data skbs hfq took against tx_frame_skbs and tx_retransmits"
	first=$((qdata - retx))
	((first > 0 && first <= 2 * frames))
	check_err $? "hfq took $first skbs of first transmissions for $frames frames: more than 2x; $why"
	((largest >= MIB))
	check_err $? "the largest skb sent held $largest bytes, below 1 MiB"
	(($(hf_stat 0 tx_carriers_split) > 0))
	check_err $? "no carrier was taken apart for veth's 64 KiB gso_max_size"
	check_eq "$(hf_stat 1 drop_malformed)" 0 "malformed frames at the receiver"
	check_eq "$(hf_stat 1 rx_packed_split)" 0 "packed trains taken apart on a clean link"
	log_test "carrier: one skb per hyperframe through hfq, up to 1 MiB whole, MTU $mtu"
	defer_run
done

# 3. A device without tx-gso-list gets every carrier cut into segments.
hf_topo_create 2 1500
ip netns exec "${HF_NODES[0]}" ethtool -K eth0 tx-gso-list off >/dev/null
check_err $? "ethtool -K eth0 tx-gso-list off"
transfer 7200 $((16 * MIB))
segs=$(hf_stat 0 tx_segs)
echo "# no tx-gso-list: $segs segments in $(hf_stat 0 tx_frame_skbs) carriers and lone skbs;" \
	"$(hf_stat 0 tx_sw_segmented) trains cut in software; $(hf_stat 1 rx_data_skbs)" \
	"skbs arrived ($(hf_stat 1 rx_gro_trains) GRO trains), $(hf_stat 0 tx_retransmits)" \
	"segments sent again"
(($(hf_stat 0 tx_carriers_split) > 0 && $(hf_stat 0 tx_sw_segmented) > 0))
check_err $? "carriers were not cut in software"
(($(hf_stat 0 tx_frame_skbs) < segs))
check_err $? "$(hf_stat 0 tx_frame_skbs) skbs for $segs segments: no carrier formed"
check_eq "$(hf_stat 1 rx_packed_trains)" 0 "packed trains that crossed a device without tx-gso-list"
check_eq "$(hf_stat 1 drop_malformed)" 0 "malformed frames at the receiver"
log_test "carrier: cut into segments in software for a device without tx-gso-list, byte-exact"
defer_run

# 4. Under a pacing cap a train holds 1 ms of the rate and a frame 2:
# a carrier veth would carry whole leaves as its trains, so that none
# crosses the link as one skb (XDP there would flatten it).
hf_topo_create 2 1500
hf_config_set pacing_rate 200mbit
check_err $? "config set pacing_rate 200mbit"
transfer 7300 $((8 * MIB))
hf_config_set pacing_rate 0
echo "# paced: $(hf_stat 0 tx_frame_skbs) skbs to the qdisc of" \
	"$(hf_stat 0 tx_data_skbs) trains for $(hf_stat 0 tx_frames) frames;" \
	"$(hf_stat 1 rx_carriers) arrived whole, $(hf_stat 0 tx_carriers_split) taken apart on the way"
(($(hf_stat 0 tx_frames) < $(hf_stat 0 tx_data_skbs)))
check_err $? "no paced frame took more than one train: the case proves nothing"
check_eq "$(hf_stat 0 tx_frame_skbs)" "$(hf_stat 0 tx_data_skbs)" \
	"skbs to the qdisc against trains, each below gso_max_size"
check_eq "$(hf_stat 1 rx_carriers)" 0 "carriers that crossed veth whole"
check_eq "$(hf_stat 1 drop_malformed)" 0 "malformed frames at the receiver"
log_test "carrier: one below gso_max_size leaves as its trains, never whole"
defer_run

busywait 30000 hf_module_unload
hf_module_load ${HF_MODULE_PARAMS:-}
rm -rf "$LOGS"
exit "$(ktap_exit)"
