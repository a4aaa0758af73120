#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One of two QEMU guests joined by a virtio-net link, a real NIC driver
# between two kernels (tools/vm/nic-pair.sh boots both, this script runs
# in each). At MTU 1500 and 9000, the sender sends every size around the
# segment boundaries up to 16 MiB, twice, and the receiver checks each
# message byte for byte. virtio-net cannot carry trains (no tx-gso-list):
# the sender's stack cuts them into wire segments (hf_offload.c), and the
# receiver's GRO, which virtio-net runs, puts them back together.
#
# Usage: hf_nic_peer.sh recv|send PEER_MAC
# The two find each other without help: before each MTU's transfer the
# sender retries a one-byte message to a probe port until the receiver,
# which listens there only once it is ready, takes it.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

role=${1:?usage: hf_nic_peer.sh recv|send PEER_MAC}
peer=${2:?usage: hf_nic_peer.sh recv|send PEER_MAC}
XFER=$HF_DIR/hf_xfer
LOGS=$(mktemp -d)
defer rm -rf "$LOGS"

# stat NAME: a counter of this guest's namespace.
stat()
{
	awk -v k="$1" '$1 == k {print $2}' /proc/net/hyperframe
}

# The NIC: the only device besides lo, once virtio_net has bound it.
modprobe virtio_net
nic()
{
	local d

	for d in /sys/class/net/*; do
		[[ ${d##*/} == lo ]] || { echo "${d##*/}"; return 0; }
	done
	return 1
}
busywait 10000 nic >/dev/null
dev=$(nic)
[[ -n $dev ]] || { echo "Bail out! no virtio-net device"; exit "$KSFT_FAIL"; }
echo "# $role on $dev ($(cat "/sys/class/net/$dev/address")), driver" \
	"$(basename "$(readlink -f "/sys/class/net/$dev/device/driver")"), peer $peer"

ktap_plan 2
phase=0
for mtu in 1500 9000; do
	phase=$((phase + 1))
	seg=$((mtu - 44))
	sizes="0,1,$((mtu - 1)),$mtu,$((mtu + 1)),$((seg - 1)),$seg,$((seg + 1)),$((16 * seg)),65536,1048576,16777216"
	probe=$((6000 + phase))
	port=$((7000 + phase))
	ip link set dev "$dev" mtu "$mtu" up
	check_err $? "ip link set dev $dev mtu $mtu up"
	busywait 10000 grep -qx up "/sys/class/net/$dev/operstate"
	check_err $? "$dev did not come up"
	declare -A before=()
	for name in rx_msgs rx_segs rx_data_skbs rx_gro_trains rx_gro_segs \
		    tx_msgs_delivered tx_sw_segmented tx_data_skbs tx_segs \
		    tx_retransmits; do
		before[$name]=$(stat "$name")
	done
	if [[ $role == recv ]]; then
		"$XFER" recv "$port" "$sizes" 2 >"$LOGS/recv" 2>&1 &
		rpid=$!
		busywait 10000 grep -q ready "$LOGS/recv"
		check_err $? "receiver on port $port did not start"
		# Ready: only now does the probe port answer.
		timeout 300 "$XFER" recv "$probe" 1 1 >"$LOGS/probe" 2>&1
		check_err $? "probe on port $probe: $(cat "$LOGS/probe")"
		timeout 300 tail --pid="$rpid" -f /dev/null
		wait "$rpid"
		check_err $? "receiver: $(cat "$LOGS/recv")"
		msgs=$(($(stat rx_msgs) - before[rx_msgs]))
		segs=$(($(stat rx_segs) - before[rx_segs]))
		skbs=$(($(stat rx_data_skbs) - before[rx_data_skbs]))
		trains=$(($(stat rx_gro_trains) - before[rx_gro_trains]))
		gsegs=$(($(stat rx_gro_segs) - before[rx_gro_segs]))
		echo "# MTU $mtu: $msgs messages, $segs segments in $skbs skbs;" \
			"GRO built $trains trains of $gsegs segments" \
			"($((trains ? gsegs / trains : 0)) on average)"
		check_eq "$msgs" 25 "messages delivered (24 and the probe)"
		((trains > 0 && gsegs >= 2 * trains && skbs < segs))
		check_err $? "GRO merged nothing: $trains trains, $skbs skbs for $segs segments"
		check_eq "$(stat drop_malformed)" 0 "segments found malformed"
		check_eq "$(stat drop_csum)" 0 "segments failing their checksum"
	else
		# The receiver boots alongside: retry until its probe port takes
		# the byte (a missing peer fails after the retry limit).
		deadline=$((SECONDS + 240))
		until timeout 30 "$XFER" send "$dev" "$peer" "$probe" 1 1 >"$LOGS/probe" 2>&1; do
			if ((SECONDS > deadline)); then
				check_err 1 "the receiver never answered on port $probe: $(cat "$LOGS/probe")"
				break
			fi
			sleep 1
		done
		timeout 300 "$XFER" send "$dev" "$peer" "$port" "$sizes" 2 >"$LOGS/send" 2>&1
		check_err $? "sender: $(cat "$LOGS/send")"
		delivered=$(($(stat tx_msgs_delivered) - before[tx_msgs_delivered]))
		cut=$(($(stat tx_sw_segmented) - before[tx_sw_segmented]))
		echo "# MTU $mtu: $delivered messages confirmed;" \
			"$(($(stat tx_segs) - before[tx_segs])) segments in" \
			"$(($(stat tx_data_skbs) - before[tx_data_skbs])) skbs, $cut trains cut" \
			"in software, $(($(stat tx_retransmits) - before[tx_retransmits])) retransmitted"
		check_eq "$delivered" 25 "messages confirmed delivered (24 and the probe)"
		((cut > 0))
		check_err $? "no train was cut in software for virtio-net"
	fi
	log_test "virtio-net $role: sizes 0 .. 16 MiB at MTU $mtu, byte-exact, trains cut and merged"
done
exit "$(ktap_exit)"
