#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# GRO of hyperframe segments from a hostile or merely unusual device: a tap
# opened with IFF_NAPI and a virtio-net header (hf_gro_tap), so that every
# frame written goes through NAPI and GRO as a NIC's would, with the tap's
# gro_flush_timeout set so that GRO holds a segment until the next one
# comes. Each case sends one flow of messages (hf_xfer's pattern, checked
# byte for byte by hf_xfer recv) in hyperframes of 8 segments (of 8000
# bytes where they go to page frags, 1400 elsewhere):
#   vlan_frags	802.1Q-tagged segments whose bytes past the Ethernet header
#		are all in page frags: GRO's offset is past the tag, which
#		is not in the linear area; merging must pull what it takes
#		(the module once hit BUG() in skb_pull there)
#   untagged	the same without a tag
#   csum	every third segment with a checksum that does not verify
#		(and sent again, correct, as a repair): GRO may mark a train
#		verified (CHECKSUM_UNNECESSARY) only when it verified every
#		segment in it, and must not merge one that fails; an
#		AF_PACKET observer on the tap reads the mark and checks
#		every segment of every skb delivered
#   partial	segments that ask for their checksum to be filled in
#		(a local sender's), under two tags (6.12's tun takes no
#		csum_start below 20, an IPv4 header's end): merged, and
#		left so (CHECKSUM_PARTIAL);
#		the observer's socket holds a clone of each train while the
#		module takes the train apart, and must still read it whole
#   bridge	tagged trains GRO built on the tap, forwarded by a bridge
#		to a veth that cannot carry them whole: the module's
#		gso_segment cuts them again, and each segment must be the
#		one that arrived (its headers at the right offset)
#   vxlan	segments inside VXLAN, GRO on the underlay: merged only by
#		the VXLAN device's GRO, after decapsulation (a train built
#		around the outer headers lost the tunnel's GSO type, and the
#		receiver's UDP dropped it)
#   tunnel_room	trains GRO built on a tap from segments in page frags,
#		bridged into VXLAN over IPv6 and cut inside the tunnel:
#		each segment needs room for 84 bytes of headers in front of
#		its hyperframe header, such an skb has 78 (one the tap
#		copies whole has 98); a packet socket on the underlay reads
#		each from its Ethernet header (the cut wrote the headers
#		before the head of the skb, unchecked, and the packet
#		socket's skb_push() found them there: skb_under_panic())
# HF_GRO_CASES (space-separated names) runs a subset.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

XFER=$HF_DIR/hf_xfer
TAP=$HF_DIR/hf_gro_tap
CASES=${HF_GRO_CASES:-vlan_frags untagged csum partial bridge vxlan tunnel_room}
# Messages of 0 to 12 segments, odd sizes among them.
SIZES=0,1,1399,1400,11200,11201,40000,89600
# The stride of segments a tap puts in page frags: tun copies a frame
# under a page into the linear area whatever the header says.
BIG=8000
REPEAT=3
NMSGS=$((8 * REPEAT))
# GRO holds a segment up to this long for the next one (ns).
FLUSH_NS=50000000
LOGS=

modprobe tun 2>/dev/null
[[ -c /dev/net/tun ]] || { echo "Bail out! no /dev/net/tun"; exit "$KSFT_FAIL"; }

# stat NS NAME: counter NAME of namespace NS.
stat()
{
	ip netns exec "$1" awk -v k="$2" '$1 == k {print $2}' /proc/net/hyperframe
}

# out NAME: value NAME that hf_gro_tap printed, "none" if it printed none.
out()
{
	awk -v k="$1" '$1 == k {v = $2} END {print v == "" ? "none" : v}' \
		"$LOGS/tap.out"
}

# num NAME: the same as a number for arithmetic, -1 if none.
num()
{
	local v

	v=$(out "$1")
	[[ $v == none ]] && v=-1
	echo "$v"
}

# case_begin: a log directory for the case, removed at its end.
case_begin()
{
	LOGS=$(mktemp -d)
	defer rm -rf "$LOGS"
}

# netns_new VAR: a fresh namespace, named in VAR, removed at the end of
# the case.
netns_new()
{
	local _ns=hfgro$RANDOM

	ip netns add "$_ns" || return 1
	defer ip netns del "$_ns"
	ip -n "$_ns" link set lo up
	printf -v "$1" %s "$_ns"
}

# tap_start NS ARGS...: hf_gro_tap in NS with ARGS, its tap created and
# named in $TAPDEV; it sends once tap_go is called.
tap_start()
{
	local ns=$1

	shift
	rm -f "$LOGS/ctl" "$LOGS/tap.out"
	mkfifo "$LOGS/ctl"
	ip netns exec "$ns" "$TAP" --ifname hfgro0 "$@" <"$LOGS/ctl" \
		>"$LOGS/tap.out" 2>&1 &
	TAP_PID=$!
	exec {TAP_CTL}>"$LOGS/ctl"
	busywait 10000 grep -q '^ready' "$LOGS/tap.out" ||
		{ check_err 1 "hf_gro_tap did not start: $(cat "$LOGS/tap.out")"; return 1; }
	TAPDEV=$(awk '$1 == "ready" {print $2}' "$LOGS/tap.out")
	ip -n "$ns" link set "$TAPDEV" mtu 9000 up &&
		ip netns exec "$ns" sh -c "echo $FLUSH_NS > /sys/class/net/$TAPDEV/gro_flush_timeout"
	check_err $? "bringing $TAPDEV up (MTU 9000) with gro_flush_timeout $FLUSH_NS"
}

# tap_done: hf_gro_tap finished sending, or died.
tap_done()
{
	grep -q '^done' "$LOGS/tap.out" || ! kill -0 "$TAP_PID" 2>/dev/null
}

# tap_go: hf_gro_tap sends; on failure the receiver is not waited for.
tap_go()
{
	echo go >&"$TAP_CTL"
	busywait 300000 tap_done
	if ! grep -q '^done' "$LOGS/tap.out"; then
		check_err 1 "hf_gro_tap did not finish: $(cat "$LOGS/tap.out")"
		kill "$RECV_PID" 2>/dev/null
		return 1
	fi
}

tap_stop()
{
	exec {TAP_CTL}>&-
	wait "$TAP_PID"
	check_err $? "hf_gro_tap: $(cat "$LOGS/tap.out")"
}

# recv_start NS PORT: hf_xfer recv for the messages of a case, with a
# buffer that holds them all: hf_gro_tap sends within the credit the
# receiver grants, but repairs nothing the receiver refuses.
recv_start()
{
	HF_XFER_RCVBUF=$((8 << 20)) ip netns exec "$1" timeout 120 "$XFER" \
		recv "$2" "$SIZES" "$REPEAT" >"$LOGS/recv" 2>&1 &
	RECV_PID=$!
	busywait 10000 grep -q ready "$LOGS/recv"
	check_err $? "receiver on port $2 did not start"
}

recv_wait()
{
	wait "$RECV_PID"
	check_err $? "receiver: $(cat "$LOGS/recv")"
}

# drops NS: the drop counters of NS that are not 0.
drops()
{
	ip netns exec "$1" awk '$1 ~ /^drop_/ && $2 != 0 {printf "%s %s ", $1, $2}' \
		/proc/net/hyperframe
}

# gro_report NS: what GRO did, as a TAP comment.
gro_report()
{
	echo "# $(out segs) segments sent in $(out frames) frames ($(out bad_sent)" \
		"bad, $(out resent) resent; $(out acks) ACKs, $(out credit_waits) waits" \
		"for credit); GRO built $(stat "$1" rx_gro_trains) trains of" \
		"$(stat "$1" rx_gro_segs) segments; $(stat "$1" rx_msgs) messages" \
		"delivered; drops: $(drops "$1")"
}

# check_merged NS: GRO built trains, of 2 segments or more on average.
check_merged()
{
	local trains segs

	trains=$(stat "$1" rx_gro_trains)
	segs=$(stat "$1" rx_gro_segs)
	((trains > 0 && segs >= 2 * trains))
	check_err $? "GRO merged nothing: $trains trains of $segs segments"
}

# One tap, the module in its namespace the receiver; ARGS for hf_gro_tap.
case_local()
{
	local ns port=$1

	shift
	case_begin
	netns_new ns || { check_err 1 "ip netns add"; return; }
	tap_start "$ns" --port "$port" --sizes "$SIZES" --repeat "$REPEAT" "$@" ||
		return
	recv_start "$ns" "$port"
	tap_go
	recv_wait
	tap_stop
	CASE_NS=$ns
	gro_report "$ns"
	check_eq "$(stat "$ns" rx_msgs)" "$NMSGS" "messages delivered"
	check_eq "$(stat "$ns" drop_malformed)" 0 "segments found malformed"
	check_merged "$ns"
}

case_vlan_frags()
{
	case_local 7400 --vlan 0 --frags --seg "$BIG"
	check_eq "$(stat "$CASE_NS" drop_csum)" 0 "segments failing their checksum"
	log_test "gro: tagged segments in page frags merge (pulled, not assumed linear)"
	defer_run
}

case_untagged()
{
	case_local 7410 --frags --seg "$BIG"
	check_eq "$(stat "$CASE_NS" drop_csum)" 0 "segments failing their checksum"
	log_test "gro: untagged segments in page frags merge"
	defer_run
}

case_csum()
{
	local bad

	case_local 7420 --frags --seg "$BIG" --bad 3 --observe
	bad=$(num bad_sent)
	echo "# observer: $(out obs_skbs) skbs of $(out obs_segs) segments," \
		"$(out obs_trains) trains of $(out obs_train_segs) (longest" \
		"$(out obs_max_train)), $(out obs_valid_trains) marked verified," \
		"$(out obs_short) shorter than their length;" \
		"$(out obs_bad_segs) bad segments seen, $(out obs_bad_in_trains) in trains," \
		"$(out obs_bad_in_valid) in skbs marked verified"
	((bad > 0))
	check_err $? "no segment was sent bad"
	check_eq "$(stat "$CASE_NS" drop_csum)" "$bad" "bad segments dropped (drop_csum)"
	check_eq "$(out obs_unparsed)" 0 "skbs the observer could not walk"
	check_eq "$(out obs_truncated)" 0 "skbs the observer got truncated"
	check_eq "$(out obs_short)" 0 "skbs holding less than their length"
	check_eq "$(out obs_segs)" "$(($(num segs) + $(num resent)))" \
		"segments the observer saw"
	check_eq "$(out obs_bad_segs)" "$bad" "bad segments the observer saw"
	check_eq "$(out obs_bad_in_valid)" 0 \
		"bad segments in skbs marked verified (CHECKSUM_UNNECESSARY)"
	check_eq "$(out obs_bad_in_trains)" 0 "bad segments merged into trains"
	(($(num obs_trains) > 0))
	check_err $? "the observer saw no train"
	check_eq "$(out obs_valid_trains)" "$(out obs_trains)" \
		"trains marked verified, of those seen"
	log_test "gro: trains are marked verified only when every segment was, bad ones go alone"
	defer_run
}

case_partial()
{
	case_local 7430 --frags --seg "$BIG" --vlan 0 --qinq --partial --observe
	echo "# observer: $(out obs_skbs) skbs, $(out obs_trains) trains of" \
		"$(out obs_train_segs) (longest $(out obs_max_train))," \
		"$(out obs_notready_trains) left to a device, $(out obs_valid_skbs)" \
		"marked verified, $(out obs_short) shorter than their length;" \
		"rx_csum_local $(stat "$CASE_NS" rx_csum_local)"
	check_eq "$(stat "$CASE_NS" drop_csum)" 0 "segments failing their checksum"
	check_eq "$(out obs_short)" 0 \
		"skbs holding less than their length (a train's frag_list cut under a clone)"
	check_eq "$(out obs_notready_skbs)" "$(out obs_skbs)" \
		"skbs still CHECKSUM_PARTIAL, of those seen"
	check_eq "$(out obs_valid_skbs)" 0 "skbs with an unfilled checksum marked verified"
	(($(num obs_trains) > 0))
	check_err $? "the observer saw no train"
	check_eq "$(stat "$CASE_NS" rx_csum_local)" "$(out segs)" \
		"segments taken as local (rx_csum_local)"
	log_test "gro: segments left to a device merge and stay CHECKSUM_PARTIAL"
	defer_run
}

# The tap and a veth port on a bridge in one namespace, the receiver
# behind the veth: a train GRO built on the tap is forwarded to a device
# without tx-gso-list and cut by the module's gso_segment.
case_bridge()
{
	local sw rx port=7440

	case_begin
	netns_new sw && netns_new rx || { check_err 1 "ip netns add"; return; }
	ip -n "$sw" link add br0 type bridge stp_state 0 &&
		ip -n "$sw" link set br0 up &&
		ip link add p1 netns "$sw" type veth peer name eth0 netns "$rx" &&
		ip -n "$sw" link set p1 master br0 up &&
		ip -n "$rx" link set eth0 up &&
		ip netns exec "$sw" ethtool -K p1 tx-gso-list off >/dev/null
	check_err $? "bridge topology"
	tap_start "$sw" --port "$port" --sizes "$SIZES" --repeat "$REPEAT" \
		--vlan 0 --dst "$(ip -n "$rx" -br link show dev eth0 | awk '{print $3}')" ||
		return
	ip -n "$sw" link set "$TAPDEV" master br0
	check_err $? "adding $TAPDEV to the bridge"
	recv_start "$rx" "$port"
	tap_go
	recv_wait
	tap_stop
	echo "# bridge: GRO built $(stat "$sw" rx_gro_trains) trains of" \
		"$(stat "$sw" rx_gro_segs) segments on the tap, $(stat "$sw" tx_sw_segmented)" \
		"cut again for the veth; the receiver took $(stat "$rx" rx_msgs) messages," \
		"$(stat "$rx" rx_segs) segments, drop_malformed $(stat "$rx" drop_malformed)"
	check_merged "$sw"
	(($(stat "$sw" tx_sw_segmented) > 0))
	check_err $? "no forwarded train was cut by the module's gso_segment"
	check_eq "$(stat "$rx" rx_msgs)" "$NMSGS" "messages delivered behind the bridge"
	check_eq "$(stat "$rx" drop_malformed)" 0 "forwarded segments found malformed"
	check_eq "$(stat "$rx" drop_csum)" 0 "forwarded segments failing their checksum"
	log_test "gro: tagged trains forwarded by a bridge are cut into the segments that came"
	defer_run
}

# Untagged trains GRO built on a tap in a bridge, forwarded
# into a VXLAN over IPv6 port whose underlay cannot carry them whole: the
# stack cuts each train inside the tunnel and writes 70 bytes of outer
# headers in front of each segment's Ethernet header, which a segment in
# page frags (64 bytes of headroom before its Ethernet header) does not
# have. A packet socket on the underlay reads each segment from its
# link-layer header, as tcpdump would.
case_tunnel_room()
{
	local sw rx port=7460 mac
	local holder='import socket, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
s.bind(("u0", 0))
print("bound", flush=True)
time.sleep(600)'

	case_begin
	netns_new sw && netns_new rx || { check_err 1 "ip netns add"; return; }
	ip link add u0 netns "$sw" mtu 9000 type veth peer name u0 netns "$rx" mtu 9000 &&
		ip -n "$sw" addr add fd00::1/64 dev u0 nodad &&
		ip -n "$rx" addr add fd00::2/64 dev u0 nodad &&
		ip -n "$sw" link set u0 up && ip -n "$rx" link set u0 up &&
		ip netns exec "$sw" ethtool -K u0 tx-gso-list off >/dev/null &&
		ip -n "$sw" link add vx0 type vxlan id 7 dstport 4789 local fd00::1 \
			remote fd00::2 dev u0 udp6zerocsumtx udp6zerocsumrx &&
		ip -n "$rx" link add vx0 type vxlan id 7 dstport 4789 local fd00::2 \
			remote fd00::1 dev u0 udp6zerocsumtx udp6zerocsumrx &&
		ip -n "$sw" link add br0 type bridge stp_state 0 &&
		ip -n "$sw" link set br0 up &&
		ip -n "$sw" link set vx0 master br0 up &&
		ip -n "$rx" link set vx0 up
	check_err $? "VXLAN over IPv6 topology"
	ip netns exec "$sw" python3 -c "$holder" >"$LOGS/holder" 2>&1 &
	defer kill $!
	busywait 10000 grep -q bound "$LOGS/holder"
	check_err $? "packet socket on the underlay: $(cat "$LOGS/holder")"
	mac=$(ip -n "$rx" -br link show dev vx0 | awk '{print $3}')
	tap_start "$sw" --port "$port" --sizes "$SIZES" --repeat "$REPEAT" \
		--frags --seg "$BIG" --dst "$mac" || return
	ip -n "$sw" link set "$TAPDEV" master br0
	check_err $? "adding $TAPDEV to the bridge"
	recv_start "$rx" "$port"
	tap_go
	recv_wait
	tap_stop
	echo "# tunnel: GRO built $(stat "$sw" rx_gro_trains) trains of" \
		"$(stat "$sw" rx_gro_segs) segments on the tap, $(stat "$sw" tx_sw_segmented)" \
		"cut inside VXLAN over IPv6; the receiver took $(stat "$rx" rx_msgs)" \
		"messages; receiver drops: $(drops "$rx")"
	check_merged "$sw"
	(($(stat "$sw" tx_sw_segmented) > 0))
	check_err $? "no forwarded train was cut inside the tunnel"
	check_eq "$(stat "$rx" rx_msgs)" "$NMSGS" "messages delivered through the tunnel"
	check_eq "$(stat "$rx" drop_malformed)" 0 "segments found malformed"
	log_test "gro: trains forwarded into a tunnel are cut with room for its headers"
	defer_run
}

# udp_errors NS: UDP datagrams NS dropped on receive (InErrors).
udp_errors()
{
	ip netns exec "$1" awk '/^Udp:/ { if (!n) { for (i = 2; i <= NF; i++)
		if ($i == "InErrors") c = i; n = 1 } else print $c }' /proc/net/snmp
}

# Hyperframe over VXLAN between two namespaces, GRO on the receiving
# underlay: GRO takes the outer headers apart and reaches the hyperframe
# segments inside, which it must leave to the VXLAN device's own GRO
# (the tunnel's GSO type is not the train's).
case_vxlan()
{
	local a b port=7450 sizes=1,100000,300000 before trains

	case_begin
	netns_new a && netns_new b || { check_err 1 "ip netns add"; return; }
	ip link add eth0 netns "$a" type veth peer name eth0 netns "$b" &&
		ip -n "$a" addr add 198.18.0.1/24 dev eth0 &&
		ip -n "$b" addr add 198.18.0.2/24 dev eth0 &&
		ip -n "$a" link set eth0 up && ip -n "$b" link set eth0 up &&
		ip netns exec "$a" ethtool -K eth0 tx-gso-list off tso off >/dev/null &&
		ip netns exec "$b" ethtool -K eth0 gro on >/dev/null &&
		ip -n "$a" link add vxlan0 type vxlan id 42 dstport 4789 \
			local 198.18.0.1 remote 198.18.0.2 dev eth0 &&
		ip -n "$b" link add vxlan0 type vxlan id 42 dstport 4789 \
			local 198.18.0.2 remote 198.18.0.1 dev eth0 &&
		ip -n "$a" link set vxlan0 up && ip -n "$b" link set vxlan0 up
	check_err $? "VXLAN topology"
	before=$(udp_errors "$b")
	ip netns exec "$b" timeout 120 "$XFER" recv "$port" "$sizes" 2 \
		>"$LOGS/recv" 2>&1 &
	RECV_PID=$!
	busywait 10000 grep -q ready "$LOGS/recv"
	check_err $? "receiver on port $port did not start"
	ip netns exec "$a" timeout 120 "$XFER" send vxlan0 \
		"$(ip -n "$b" -br link show dev vxlan0 | awk '{print $3}')" \
		"$port" "$sizes" 2 >"$LOGS/send" 2>&1
	check_err $? "sender: $(cat "$LOGS/send")"
	recv_wait
	trains=$(stat "$b" rx_gro_trains)
	echo "# vxlan: $(stat "$a" tx_sw_segmented) trains cut for the underlay;" \
		"GRO built $trains trains of $(stat "$b" rx_gro_segs) segments;" \
		"UDP receive errors $(($(udp_errors "$b") - before)); sender" \
		"retransmitted $(stat "$a" tx_retransmits); receiver drops: $(drops "$b")"
	(($(stat "$a" tx_sw_segmented) > 0))
	check_err $? "no train was cut for the underlay"
	check_eq "$(($(udp_errors "$b") - before))" 0 \
		"VXLAN datagrams the receiver's UDP dropped"
	check_eq "$(stat "$b" rx_msgs)" 6 "messages delivered over VXLAN"
	((trains > 0))
	check_err $? "GRO built no train from the decapsulated segments"
	log_test "gro: segments inside a tunnel merge at the tunnel's device, not outside it"
	defer_run
}

ktap_plan "$(wc -w <<< "$CASES")"
for c in $CASES; do
	"case_$c"
done
exit "$(ktap_exit)"
