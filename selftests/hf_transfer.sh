#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end message transfer between network namespaces: every size
# around the segment boundaries up to 64 MiB at MTU 1500 and 9000, an
# all-to-all among 4 nodes behind a bridge, delivery under netem loss,
# reordering, duplication and corruption (byte-exact, exactly once, in
# order; only lost segments retransmitted), three sockets sending to one
# peer at once (each stream in its order), and the errors a sender must
# learn: no socket at the port, and a peer that never answers. Trains
# that generic XDP linearized on the way in, and trains GRO builds again
# from segments a device cut.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

XFER=$HF_DIR/hf_xfer
LOGS=$(mktemp -d)

# xfer FROM TO PORT SIZES [REPEAT]: receiver on TO, sender on FROM; both
# must succeed. Leaves the receiver's summary in $LOGS/recv-PORT.
xfer()
{
	local from=$1 to=$2 port=$3 sizes=$4 repeat=${5:-1}
	local log=$LOGS/recv-$port rpid rc

	ip netns exec "${HF_NODES[to]}" "$XFER" recv "$port" "$sizes" \
		"$repeat" >"$log" 2>&1 &
	rpid=$!
	busywait 10000 grep -q ready "$log"
	check_err $? "receiver on node $to port $port did not start"
	ip netns exec "${HF_NODES[from]}" timeout 300 "$XFER" send eth0 \
		"$(hf_node_mac "$to")" "$port" "$sizes" "$repeat" \
		>"$LOGS/send-$port" 2>&1
	rc=$?
	check_err $rc "sender $from -> $to:$port failed: $(cat "$LOGS/send-$port")"
	timeout 300 tail --pid="$rpid" -f /dev/null
	wait "$rpid"
	rc=$?
	check_err $rc "receiver $to:$port: $(cat "$log")"
	return "$RET"
}

sizes_for()
{
	local mtu=$1 seg=$(($1 - 44))

	echo "0,1,$((mtu - 1)),$mtu,$((mtu + 1)),$((seg - 1)),$seg,$((seg + 1)),$((16 * seg)),65536,1048576,67108864"
}

ktap_plan 13

for mtu in 1500 9000; do
	hf_topo_create 2 "$mtu"
	xfer 0 1 7000 "$(sizes_for "$mtu")"
	check_eq "$(hf_stat 1 rx_msgs)" 12 "messages delivered"
	check_eq "$(hf_stat 0 tx_msgs_delivered)" 12 "deliveries confirmed to the sender"
	# Nothing is lost on a clean link: the scoreboard must find no hole.
	# A guest stalled past the RTO (a few ms) may still time out: each
	# timeout resends the oldest segment, and 15 more only
	# when the acks say the flight was lost. A receiver slower than its
	# sender refuses segments for a full socket buffer (the zero window
	# then stops the sender): those are sent again, once each, and the
	# WINDOW ack resends a push's worth at once. A segment sent again
	# that had arrived already (rx_duplicates, counted per segment) was
	# not lost: in a guest of two CPUs veth may hand a flow's trains to
	# both CPUs' backlogs, and a repair the reordering window judged too
	# early comes back as a duplicate (seen on 6.1 once in about ten
	# runs: 44 segments sent again with no timeout, 11 trains taken apart).
	rexmit=$(hf_stat 0 tx_retransmits)
	rto=$(hf_stat 0 tx_rto)
	refused=$(hf_stat 1 drop_rcvbuf)
	room=$(hf_stat 0 tx_window_resends)
	dup=$(hf_stat 1 rx_duplicates)
	echo "# MTU $mtu: retransmits $rexmit after $rto timeouts" \
		"($(hf_stat 0 tx_rto_spurious) found early); $refused refused for a" \
		"full buffer, $room resent for room; $dup arrived twice" \
		"($(hf_stat 0 tx_spurious_retransmits) DUP acks), $(hf_stat 0 tx_reorder_waits)" \
		"repairs held back for reordering"
	((rexmit - dup <= 16 * rto + refused + room))
	check_err $? "$rexmit retransmits on a clean link, $dup of them duplicates, $rto timeouts"
	check_eq "$(hf_stat 0 tx_repairs_lost)" 0 "repairs found lost on a clean link"
	# Frames pass whole: a hyperframe leaves as trains that stay under
	# veth's gso_max_size (64 KiB: 43 segments at MTU 1500, 7 at 9000),
	# and the receiver gets the same trains. A push that could send only
	# a short part of a frame waits for more ACKs (hf_tx_train_defer()), so
	# nearly every train is full: at best a frame of F segments takes
	# ceil(F / per_train) skbs, at most frames + segs / per_train in all.
	# Deferral must do better than 1.25x (without it trains carried what
	# one ACK opened: 1.6x). The trains a push sends of a frame go to the
	# qdisc as one carrier (tx_frame_skbs; hf_carrier.sh widens the window
	# to a whole frame).
	per_train=$(((65536 - 1 - 14) / mtu))
	frames=$(hf_stat 0 tx_frames)
	skbs=$(hf_stat 0 tx_data_skbs)
	fskbs=$(hf_stat 0 tx_frame_skbs)
	segs=$(hf_stat 0 tx_segs)
	best=$((frames + (segs + per_train - 1) / per_train))
	echo "# MTU $mtu: $segs segments, $frames frames, $skbs DATA skbs sent" \
		"($((segs / skbs)) segments each, $((100 * skbs / best))% of" \
		"$best, the most full trains would take) in $fskbs carriers and" \
		"lone skbs, $(hf_stat 1 rx_data_skbs) received; frame size grew" \
		"$(hf_stat 0 tx_frame_grows), shrank $(hf_stat 0 tx_frame_shrinks)," \
		"rate cut $(hf_stat 0 tx_rate_cuts) times;" \
		"$(hf_stat 0 tx_push_deferrals) pushes deferred"
	((frames <= skbs && 4 * skbs <= 5 * best))
	check_err $? "$skbs DATA skbs for $frames frames of $segs segments (full trains: $best)"
	((frames <= fskbs && fskbs < skbs))
	check_err $? "$fskbs skbs to the qdisc for $skbs trains of $frames frames"
	(($(hf_stat 0 tx_push_deferrals) > 0))
	check_err $? "no push waited for room for a full train"
	(($(hf_stat 1 rx_data_skbs) <= skbs + rexmit))
	check_err $? "$(hf_stat 1 rx_data_skbs) DATA skbs arrived for $skbs sent"
	# One ACK per arriving train, not one per 16 segments (at MTU 1500 a
	# full train carries 43): a segment that more of its train follows
	# leaves the ACK it calls for to the train's last (before, 43
	# segments took 3). Refused segments and duplicates are answered at
	# once, one ACK each; credit the reader returns, one per quarter of
	# its share read, may add up to a quarter more. The bound bites at
	# MTU 1500: at 9000 a full train is 7 segments, under the 16 that
	# called for an ACK before.
	acks=$(hf_stat 1 tx_acks)
	rx_skbs=$(hf_stat 1 rx_data_skbs)
	echo "# MTU $mtu: the receiver sent $acks ACKs for $rx_skbs DATA skbs" \
		"of $(hf_stat 1 rx_segs) segments"
	((4 * acks <= 5 * rx_skbs + 4 * (refused + rexmit)))
	check_err $? "$acks ACKs for $rx_skbs DATA skbs: more than one per train"
	# A clean round trip doubles the frame: 64 MiB make many.
	(($(hf_stat 0 tx_frame_grows) > 0))
	check_err $? "the frame size never grew on a clean link"
	# 64 MiB against the send window (hf_tx_window()): the sender
	# waits for credit, and nothing paces it (no pacing_rate, no cap).
	echo "# MTU $mtu: $(hf_stat 0 tx_credit_stalls) credit stalls"
	(($(hf_stat 0 tx_credit_stalls) > 0))
	check_err $? "64 MiB through the send window never stalled"
	check_eq "$(hf_stat 0 tx_pacing_delays)" 0 "skbs held by pacing with nothing paced"
	# veth computes no checksum: every DATA skb arrives with it left to
	# a device (a chained train's segments each, a packed train once),
	# and the receiver takes it as a frame that crossed no wire.
	local_csum=$(hf_stat 1 rx_csum_local)
	rx_skbs=$(hf_stat 1 rx_data_skbs)
	echo "# MTU $mtu: $local_csum frames taken with the checksum unfilled," \
		"$rx_skbs DATA skbs arrived"
	((local_csum >= rx_skbs))
	check_err $? "$local_csum frames unfilled for $rx_skbs DATA skbs over veth"
	# Trains are packed (packed_trains=Y): one header and the payloads of
	# every segment. On a clean link each arrives whole and is held as
	# it came, one skb for all its segments; none is taken apart.
	packed=$(hf_stat 1 rx_packed_trains)
	echo "# MTU $mtu: $packed packed trains arrived, $(hf_stat 1 rx_packed_split)" \
		"taken apart"
	((packed > 0 && packed <= rx_skbs))
	check_err $? "$packed packed trains among $rx_skbs DATA skbs"
	# A train holding a segment that came before (a repair that overtook
	# it, above) is taken apart: never more of them than duplicates.
	(($(hf_stat 1 rx_packed_split) <= dup))
	check_err $? "$(hf_stat 1 rx_packed_split) packed trains taken apart on a clean link, $dup segments twice"
	check_eq "$(hf_stat 1 drop_csum)" 0 "checksum drops over veth"
	# Counters and peers are per namespace: each side saw only its part.
	check_eq "$(hf_stat 1 tx_msgs)" 0 "messages sent counted in the receiver's namespace"
	check_eq "$(hf_stat 0 rx_msgs)" 0 "messages received counted in the sender's namespace"
	check_eq "$(awk '$1 == "rx_segs" || $1 == "tx_segs" {n += $2} END {print n + 0}' \
		/proc/net/hyperframe)" 0 "segments counted in the initial namespace"
	log_test "transfer: sizes 0 .. 64 MiB at MTU $mtu, byte-exact, counted per namespace"
	defer_run
done

# All-to-all: every node sends to every other, all at once.
for mtu in 1500 9000; do
hf_topo_create 4 "$mtu"
pids=()
for ((i = 0; i < 4; i++)); do
	for ((j = 0; j < 4; j++)); do
		((i == j)) && continue
		xfer "$i" "$j" $((7100 + 10 * i + j)) 1,4096,100000,1048576 3 &
		pids+=($!)
	done
done
for p in "${pids[@]}"; do
	wait "$p"
	check_err $? "an all-to-all pair failed"
done
total=0
for ((i = 0; i < 4; i++)); do
	total=$((total + $(hf_stat "$i" rx_msgs)))
done
check_eq "$total" $((12 * 4 * 3)) "messages delivered in the all-to-all"
log_test "transfer: all-to-all among 4 nodes behind a bridge, MTU $mtu"
defer_run
done

# Impairments on both directions between node 0 and node 1, on the
# switch's ports towards each (3 nodes behind a bridge), ROUNDS rounds of
# 5 messages (21 MiB each round). netem drops skbs: there a frame's
# trains (64 KiB at most) pass one by one, where on the sender's own
# device a carrier of a whole 1 MiB frame is one skb. At 1 % a round
# loses only a few trains, so the mild case runs more rounds for the
# loss that must cut the rate.
impaired()
{
	local name=$1 netem=$2 rounds=${3:-4}

	hf_topo_create 3 1500
	for n in 0 1; do
		ip netns exec "$HF_SWITCH" tc qdisc add dev "p$n" root netem $netem
	done
	xfer 0 1 7200 1,1456,100000,1048576,4194304 "$rounds"
	check_eq "$(hf_stat 1 rx_msgs)" $((5 * rounds)) "messages delivered"
	lost=$(ip netns exec "$HF_SWITCH" tc -s qdisc show dev p1 |
		sed -n 's/.*dropped \([0-9]*\).*/\1/p' | head -n 1)
	echo "# $name: sent $(hf_stat 0 tx_msgs), delivered $(hf_stat 1 rx_msgs)," \
		"data segments $(hf_stat 0 tx_segs), lost on the wire ${lost:-?}," \
		"retransmitted $(hf_stat 0 tx_retransmits) (repairs lost and sent" \
		"again $(hf_stat 0 tx_repairs_lost)), rto $(hf_stat 0 tx_rto)" \
		"($(hf_stat 0 tx_rto_spurious) found early), resent for room" \
		"$(hf_stat 0 tx_window_resends), duplicates $(hf_stat 1 rx_duplicates), checksum drops $(hf_stat 1 drop_csum)," \
		"epochs $(hf_stat 0 tx_epochs) sent / $(hf_stat 1 rx_epochs) adopted," \
		"stale $(hf_stat 1 drop_stale_epoch), resets $(hf_stat 0 tx_resets)"
	# Congestion is answered: the rate first, then the frame size.
	(($(hf_stat 0 tx_rate_cuts) > 0))
	check_err $? "no rate cut under $name"
	echo "# $name: frame size grew $(hf_stat 0 tx_frame_grows), shrank" \
		"$(hf_stat 0 tx_frame_shrinks), rate cut $(hf_stat 0 tx_rate_cuts) times"
	# Retransmits touch only lost segments: the receiver counts a
	# segment it already had as a duplicate. One in 20 may have arrived
	# after all; one in 5 at 10 %, where a window holds more holes than
	# an ACK's 16 SACK blocks describe, so that segments the receiver
	# holds but has not reported go again after a timeout.
	if [[ $netem != *duplicate* ]]; then
		local per=20

		[[ $netem == *"loss 10%"* ]] && per=5
		(($(hf_stat 1 rx_duplicates) * per <= $(hf_stat 0 tx_retransmits)))
		check_err $? "$(hf_stat 1 rx_duplicates) of $(hf_stat 0 tx_retransmits) retransmits were not lost"
	fi
	log_test "transfer: $name: every message once, intact, in order"
	defer_run
}

# Reordering alone loses nothing: the reordering window keeps the sender
# from repairing segments that are only late. netem reorders on the
# switch's ports, as the impaired cases below (there it reorders trains;
# on the sender's device it would reorder whole frames: one CI run saw
# 2,455 retransmits and 46 timeouts for 14,652 segments there). A repair the receiver
# already had comes back as a DUP ack and widens the window; what is left
# must be a small fraction of the segments sent (half of them were sent
# again before the window existed; now none in most runs, 6% in the worst
# of 70; 10% allowed for a loaded machine). The reader's buffer holds more than the credit lets the
# sender have unread (32 MiB forced, doubled, against credit_budget's
# 16 MiB), so no refusal of a full buffer (a slow reader's resends, up to
# two frames in flight each time) mixes into what reordering costs.
reordered()
{
	local segs rexmit spurious

	hf_topo_create 3 1500
	for n in 0 1; do
		ip netns exec "$HF_SWITCH" tc qdisc add dev "p$n" root netem \
			delay 1ms reorder 10%
	done
	HF_XFER_RCVBUF=$((32 << 20)) xfer 0 1 7300 1,1456,100000,1048576,4194304 4
	check_eq "$(hf_stat 1 rx_msgs)" 20 "messages delivered"
	check_eq "$(hf_stat 1 drop_rcvbuf)" 0 "segments refused for a full buffer"
	segs=$(hf_stat 0 tx_segs)
	rexmit=$(hf_stat 0 tx_retransmits)
	spurious=$(hf_stat 0 tx_spurious_retransmits)
	echo "# reorder 10% / delay 1ms: data segments $segs, retransmitted" \
		"$rexmit (receiver had $spurious already), reorder waits" \
		"$(hf_stat 0 tx_reorder_waits), rto $(hf_stat 0 tx_rto)," \
		"duplicates at the receiver $(hf_stat 1 rx_duplicates)"
	((rexmit * 10 <= segs))
	check_err $? "$rexmit retransmits for $segs segments on a path that loses nothing"
	log_test "transfer: reordering alone costs under 10% retransmits"
	defer_run
}
reordered

# Three sockets of one node send to one peer at once, sizes mixed, under
# loss and reordering: the sender cuts their frames in turns and the
# receiver delivers per pair of ports, so each stream must still arrive
# whole, exactly once and in its own order.
interleaved()
{
	local pids=() p i

	hf_topo_create 3 1500
	for n in 0 1; do
		ip netns exec "$HF_SWITCH" tc qdisc add dev "p$n" root netem \
			loss 2% delay 1ms reorder 10%
	done
	for i in 0 1 2; do
		xfer 0 1 $((7400 + i)) 4194304,1,100000,1456,1048576 3 &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		wait "$p"
		check_err $? "an interleaved stream failed"
	done
	check_eq "$(hf_stat 1 rx_msgs)" 45 "messages delivered"
	check_eq "$(hf_stat 0 tx_msgs_delivered)" 45 "deliveries confirmed"
	echo "# three streams to one peer: frames $(hf_stat 0 tx_frames)," \
		"retransmitted $(hf_stat 0 tx_retransmits), rto $(hf_stat 0 tx_rto)"
	log_test "transfer: three sockets to one peer under loss, each stream in order"
	defer_run
}
interleaved

impaired "loss 1% / reorder / duplicate 1% / corrupt 0.5%" \
	"loss 1% delay 1ms reorder 10% duplicate 1% corrupt 0.5%" 12
impaired "loss 10%" "loss 10%"

# Failures the sender must learn about.
hf_topo_create 2 1500
ip netns exec "${HF_NODES[0]}" timeout 60 "$XFER" send eth0 \
	"$(hf_node_mac 1)" 7999 1000 >"$LOGS/noport" 2>&1
check_eq $? 1 "send to a closed port must fail"
grep -q 'Connection refused' "$LOGS/noport"
check_err $? "no ECONNREFUSED for a closed port: $(cat "$LOGS/noport")"
check_eq "$(hf_stat 1 rx_msgs_no_port)" 1 "receiver counted the closed port"

ip netns exec "${HF_NODES[0]}" timeout 90 "$XFER" send eth0 \
	02:00:00:00:00:99 7000 5000 >"$LOGS/unreach" 2>&1
check_eq $? 1 "send to a missing peer must fail"
grep -q 'No route to host' "$LOGS/unreach"
check_err $? "no EHOSTUNREACH for a missing peer: $(cat "$LOGS/unreach")"
log_test "transfer: closed port and unreachable peer reach the sender"
defer_run

# Generic XDP on the receiving device copies each train out of its
# frag_list into one buffer (netif_receive_generic_xdp() linearizes): the
# receiver must cut the segments out of it, each checked as any frame.
# Chained trains (packed_trains=N) take that path; packed ones are one
# buffer already (case 13).
packed_param=/sys/module/hyperframe/parameters/packed_trains
echo N >"$packed_param"
check_err $? "packed_trains=N"
defer "echo Y >$packed_param"
hf_topo_create 2 1500
cat >"$LOGS/xdp_pass.c" <<'XDPEOF'
#define SEC(name) __attribute__((section(name), used))
SEC("xdp") int xdp_pass(void *ctx) { return 2; /* XDP_PASS */ }
char _license[] SEC("license") = "GPL";
XDPEOF
"$(command -v clang-14 || command -v clang)" -O2 -target bpf -c "$LOGS/xdp_pass.c" \
	-o "$LOGS/xdp_pass.o" 2>"$LOGS/clang.err"
check_err $? "clang -target bpf: $(head -n 3 "$LOGS/clang.err")"
ip -n "${HF_NODES[1]}" link set dev eth0 xdpgeneric obj "$LOGS/xdp_pass.o" sec xdp \
	2>"$LOGS/xdp.err"
check_err $? "attaching generic XDP: $(head -n 3 "$LOGS/xdp.err")"
xfer 0 1 7100 "1,100000,1048576,4194304" 2
check_eq "$(hf_stat 1 rx_msgs)" 8 "messages delivered through generic XDP"
xdp_drops=$(ip -n "${HF_NODES[1]}" -s -j link show dev eth0 |
	python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["stats64"]["rx"]["dropped"])')
echo "# generic XDP at the receiver: $(hf_stat 0 tx_segs) segments in" \
	"$(hf_stat 0 tx_data_skbs) skbs sent, $(hf_stat 1 rx_data_skbs) received," \
	"$(hf_stat 0 tx_retransmits) retransmitted, $(hf_stat 1 rx_linearized_trains) trains" \
	"arrived linearized; dropped before the module: $xdp_drops"
# What the module cut out of a linearized train it took in; what the
# generic XDP layer itself dropped (it cannot always linearize a 64 KiB
# train in softirq) is repaired as any loss.
(($(hf_stat 1 rx_linearized_trains) > 0))
check_err $? "no train arrived linearized: the path was not taken"
check_eq "$(hf_stat 1 drop_malformed)" 0 "segments cut out of linearized trains found malformed"
check_eq "$(hf_stat 1 drop_memory)" 0 "segments the receiver could not cut out for memory"
check_eq "$(hf_stat 1 rx_packed_trains)" 0 "packed trains arrived with packed_trains=N"
log_test "transfer: trains linearized by generic XDP at the receiver, byte-exact"
defer_run
# GRO at the receiver: the sender's device cannot carry trains (no
# tx-gso-list), so the stack cuts them into segments; the receiving veth
# has GRO on (it then polls with NAPI, and takes segments to GRO when the
# sending side has TSO off). GRO must put the segments of each hyperframe
# back into trains, within gro_max_size (64 KiB: 43 segments at MTU
# 1500), so that far fewer skbs reach the packet handler than segments
# arrive; every message byte-exact.
hf_topo_create 2 1500
ip netns exec "${HF_NODES[0]}" ethtool -K eth0 tx-gso-list off tso off >/dev/null
check_err $? "ethtool -K eth0 tx-gso-list off tso off (sender)"
ip netns exec "${HF_NODES[1]}" ethtool -K eth0 gro on >/dev/null
check_err $? "ethtool -K eth0 gro on (receiver)"
xfer 0 1 7200 "1,100000,1048576,4194304" 2
check_eq "$(hf_stat 1 rx_msgs)" 8 "messages delivered through GRO"
gro_trains=$(hf_stat 1 rx_gro_trains)
gro_segs=$(hf_stat 1 rx_gro_segs)
rx_segs=$(hf_stat 1 rx_segs)
rx_skbs=$(hf_stat 1 rx_data_skbs)
echo "# GRO at the receiver: $(hf_stat 0 tx_sw_segmented) trains cut in software" \
	"of $(hf_stat 0 tx_data_skbs) sent; $gro_segs segments arrived in $gro_trains" \
	"GRO trains ($((gro_trains ? gro_segs / gro_trains : 0)) on average);" \
	"$rx_segs segments accepted in $rx_skbs skbs"
(($(hf_stat 0 tx_sw_segmented) > 0))
check_err $? "no train was cut in software: the segments came whole"
((gro_trains > 0 && gro_segs >= 8 * gro_trains))
check_err $? "GRO built $gro_trains trains of $gro_segs segments: under 8 on average"
((rx_skbs * 4 <= rx_segs))
check_err $? "$rx_skbs skbs reached the handler for $rx_segs segments: GRO merged too few"
check_eq "$(hf_stat 1 drop_malformed)" 0 "segments of GRO trains found malformed"
check_eq "$(hf_stat 1 drop_csum)" 0 "segments of GRO trains failing their checksum"
# The same without GRO: every segment comes alone, none merged.
ip netns exec "${HF_NODES[1]}" ethtool -K eth0 gro off >/dev/null
check_err $? "ethtool -K eth0 gro off (receiver)"
skbs_before=$(hf_stat 1 rx_data_skbs)
segs_before=$(hf_stat 1 rx_segs)
xfer 0 1 7201 "1048576" 2
check_eq "$(hf_stat 1 rx_gro_trains)" "$gro_trains" "GRO trains built with GRO off"
skbs=$(($(hf_stat 1 rx_data_skbs) - skbs_before))
segs=$(($(hf_stat 1 rx_segs) - segs_before))
((skbs >= segs))
check_err $? "$skbs skbs carried $segs segments with GRO off"
log_test "transfer: GRO at the receiver puts segments cut in software back into trains"
defer_run

# A sending device that cannot checksum (tx-checksumming off) gets no
# trains (the stack takes GSO away from it) and every checksum filled in
# software: the segments cut from trains by the module's gso_segment, a
# lone segment by the stack. The receiver verifies each, finds none bad,
# and takes none unverified.
hf_topo_create 2 1500
ip netns exec "${HF_NODES[0]}" ethtool -K eth0 tx off >/dev/null
check_err $? "ethtool -K eth0 tx off (sender)"
xfer 0 1 7300 "1,5000,1048576,4194304" 2
check_eq "$(hf_stat 1 rx_msgs)" 8 "messages delivered with checksums computed in software"
cut=$(hf_stat 0 tx_sw_segmented)
local_csum=$(hf_stat 1 rx_csum_local)
bad=$(hf_stat 1 drop_csum)
echo "# software checksums: $cut trains cut of $(hf_stat 0 tx_data_skbs) sent;" \
	"$(hf_stat 1 rx_segs) segments verified, $local_csum unverified, $bad bad"
((cut > 0))
check_err $? "no train was cut in software for a device without checksum offload"
check_eq "$local_csum" 0 "frames taken unverified from a device that checksums"
check_eq "$bad" 0 "segments failing a checksum computed in software"
log_test "transfer: a device without checksum offload gets every checksum computed, byte-exact"
defer_run

# Packed trains through the paths a chained train takes: copied into a
# new buffer by generic XDP at the receiver (still one header and its
# payloads), then cut in software (tx-gso-list off) into the segments it
# stands for, whose headers the cut writes. Byte-exact both ways; the
# copy arrives whole, the cut as segments.
hf_topo_create 2 1500
ip -n "${HF_NODES[1]}" link set dev eth0 xdpgeneric obj "$LOGS/xdp_pass.o" sec xdp \
	2>"$LOGS/xdp.err"
check_err $? "attaching generic XDP: $(head -n 3 "$LOGS/xdp.err")"
xfer 0 1 7400 "1,100000,1048576,4194304" 2
check_eq "$(hf_stat 1 rx_msgs)" 8 "messages delivered as packed trains through generic XDP"
packed=$(hf_stat 1 rx_packed_trains)
echo "# packed trains through generic XDP: $(hf_stat 0 tx_data_skbs) skbs sent," \
	"$packed packed trains arrived, $(hf_stat 1 rx_packed_split) taken apart," \
	"$(hf_stat 0 tx_retransmits) retransmitted"
((packed > 0))
check_err $? "no packed train arrived through generic XDP"
check_eq "$(hf_stat 1 rx_linearized_trains)" 0 "packed trains taken for linearized chained ones"
check_eq "$(hf_stat 1 drop_malformed)" 0 "packed trains found malformed after the copy"
ip -n "${HF_NODES[1]}" link set dev eth0 xdpgeneric off
ip netns exec "${HF_NODES[0]}" ethtool -K eth0 tx-gso-list off >/dev/null
check_err $? "ethtool -K eth0 tx-gso-list off (sender)"
packed_before=$packed
xfer 0 1 7401 "1048576,4194304" 2
check_eq "$(hf_stat 1 rx_msgs)" 12 "messages delivered from packed trains cut in software"
echo "# packed trains cut in software: $(hf_stat 0 tx_sw_segmented) cut," \
	"$(($(hf_stat 1 rx_packed_trains) - packed_before)) arrived packed"
(($(hf_stat 0 tx_sw_segmented) > 0))
check_err $? "no packed train was cut in software"
check_eq "$(hf_stat 1 rx_packed_trains)" "$packed_before" "packed trains arrived whole from a device that cuts them"
check_eq "$(hf_stat 1 drop_malformed)" 0 "segments cut from packed trains found malformed"
log_test "transfer: packed trains copied by generic XDP and cut in software, byte-exact"
defer_run
rm -rf "$LOGS"

exit "$(ktap_exit)"
