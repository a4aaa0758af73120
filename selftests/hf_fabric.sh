#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The libfabric provider "hf" (userspace/fabric, docs/fabric.md) through
# libfabric's own tools, between two namespaces joined by veth: fi_info
# lists it with the capabilities it offers and refuses what it does not;
# fi_pingpong over RDM endpoints, untagged and tagged, at its default
# sizes (64 B to 1 MiB) and at 16 and 64 MiB, every message's data
# checked (-c); then, from /proc/net/hyperframe, that every libfabric
# message was one hyperframe message of its payload and the 24-byte
# provider header, and none failed. The latency at 64 B and the bandwidth
# at 4 MiB are printed as "# ..." lines, never judged. Last, hf_fi_local:
# Open MPI's ofi MTL hints and calls between two endpoints of one process
# (FI_LOCAL_COMM), which never reach the wire. Skips (KTAP skip, not a
# pass) where libfabric-bin is not installed.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

FABRIC_DIR=${HF_FABRIC_DIR:-${HF_BUILD:?set HF_FABRIC_DIR or HF_BUILD}/userspace/fabric}
HFCTL=${HFCTL:-$HF_BUILD/userspace/hfctl/hfctl}
FI_INFO=${HF_FI_INFO:-fi_info}
FI_PINGPONG=${HF_FI_PINGPONG:-fi_pingpong}
FI_LOCAL=${HF_FI_LOCAL:-$HF_BUILD/userspace/selftests/hf_fi_local}
HEADER=24			# the provider's header (docs/fabric.md)
DEFAULT_SIZES="64 256 1024 4096 65536 1048576"	# fi_pingpong's own
LOGS=$(mktemp -d)
defer rm -rf "$LOGS"

if ! command -v "$FI_INFO" >/dev/null || ! command -v "$FI_PINGPONG" >/dev/null; then
	echo "TAP version 13"
	echo "1..0 # SKIP libfabric-bin is not installed (no $FI_INFO, $FI_PINGPONG)"
	exit "$KSFT_SKIP"
fi

ktap_plan 7

[[ -f $FABRIC_DIR/libhf-fi.so ]] ||
	{ echo "# $FABRIC_DIR/libhf-fi.so is missing (build userspace with libfabric-dev)"; exit "$KSFT_FAIL"; }
hf_topo_create 2
check_err $? "topology"

# fab NODE CMD...: CMD in node NODE's namespace with the provider found.
fab()
{
	local node=$1

	shift
	ip netns exec "${HF_NODES[node]}" env FI_PROVIDER_PATH="$FABRIC_DIR" "$@"
}

# Messages and bytes each node's fi_pingpong runs send over hyperframe.
declare -a SENT_MSGS=(0 0) SENT_BYTES=(0 0)
PORT=47600

# pingpong NAME ITERS SIZES OPTION...: one fi_pingpong server on node 0
# and client on node 1, SIZES the sizes it runs ("default" for its own
# list, or one size passed as -S); checks that each size ran ITERS round
# trips, all answered, and that both ends exited 0. Counts what each side
# sent: per size ITERS messages of size + header, plus the closing
# 4-byte "fin".
pingpong()
{
	local name=$1 iters=$2 sizes=$3 size_opt=() server client s row rc=0

	shift 3
	[[ $sizes == default ]] && sizes=$DEFAULT_SIZES || size_opt=(-S "$sizes")
	PORT=$((PORT + 1))
	fab 0 timeout 300 "$FI_PINGPONG" -p hf -e rdm -I "$iters" "${size_opt[@]}" -B "$PORT" "$@" \
		>"$LOGS/$name.server" 2>&1 &
	server=$!
	if ! busywait 20000 __listening "$PORT"; then
		echo "# $name: the server never listened: $(tail -n 3 "$LOGS/$name.server")"
		kill "$server" 2>/dev/null
		wait "$server"
		return 1
	fi
	fab 1 timeout 300 "$FI_PINGPONG" -p hf -e rdm -I "$iters" "${size_opt[@]}" -P "$PORT" "$@" \
		"$(hf_node_addr 0)" >"$LOGS/$name.client" 2>&1
	client=$?
	wait "$server"
	s=$?
	sed "s/^/# $name client: /" "$LOGS/$name.client" | grep -E 'bytes|^# [^:]*: [0-9]|rror|fail'
	if ((client != 0 || s != 0)); then
		echo "# $name: client exited $client, server $s"
		sed "s/^/# $name server: /" "$LOGS/$name.server" | tail -n 5
		return 1
	fi
	for s in $sizes; do
		# "bytes #sent #ack ...": the size as fi_pingpong prints it,
		# ITERS sent and "=" acks (as many as sent).
		row=$(awk -v size="$(__size_str "$s")" -v iters="$iters" \
			'$1 == size && $2 == iters && $3 == "=" iters' "$LOGS/$name.client")
		if [[ -z $row ]]; then
			echo "# $name: no row of $iters round trips of $s bytes"
			rc=1
		fi
		SENT_MSGS[0]=$((SENT_MSGS[0] + iters))
		SENT_MSGS[1]=$((SENT_MSGS[1] + iters))
		SENT_BYTES[0]=$((SENT_BYTES[0] + iters * (s + HEADER)))
		SENT_BYTES[1]=$((SENT_BYTES[1] + iters * (s + HEADER)))
	done
	for s in 0 1; do
		SENT_MSGS[s]=$((SENT_MSGS[s] + 1))
		SENT_BYTES[s]=$((SENT_BYTES[s] + 4 + HEADER))
	done
	return $rc
}

# shellcheck disable=SC2317
__listening()
{
	ip netns exec "${HF_NODES[0]}" ss -Hltn "sport = :$1" | grep -q .
}

# __size_str BYTES: the size as fi_pingpong prints it (64, 1k, 1m, 64m).
__size_str()
{
	local n=$1

	if ((n >= 1 << 20)); then
		echo "$((n >> 20))m"
	elif ((n >= 1 << 10)); then
		echo "$((n >> 10))k"
	else
		echo "$n"
	fi
}

# field NAME FILE: fi_info -v's first "NAME: value" line.
field()
{
	awk -v k="$1:" '$1 == k {$1 = ""; sub(/^ /, ""); print; exit}' "$2"
}

# 1: fi_info
fab 0 "$FI_INFO" -p hf -v >"$LOGS/info" 2>&1
check_err $? "fi_info -p hf: $(tail -n 1 "$LOGS/info")"
caps=$(field caps "$LOGS/info")
for cap in FI_MSG FI_TAGGED FI_SEND FI_RECV FI_DIRECTED_RECV FI_SOURCE FI_LOCAL_COMM \
	FI_REMOTE_COMM; do
	[[ $caps == *"$cap,"* || $caps == *"$cap ]"* ]] || check_err 1 "caps lack $cap: $caps"
done
[[ $caps != *FI_RMA* && $caps != *FI_ATOMIC* ]] || check_err 1 "caps claim RMA or atomics: $caps"
check_eq "$(field type "$LOGS/info")" FI_EP_RDM "endpoint type"
check_eq "$(field prov_name "$LOGS/info")" hf "provider name"
check_eq "$(field addr_format "$LOGS/info")" FI_SOCKADDR "address format"
check_eq "$(awk '$1 == "fi_domain_attr:" {d = 1} d && $1 == "name:" {print $2; exit}' \
	"$LOGS/info")" eth0 "domain (interface)"
check_eq "$(field threading "$LOGS/info")" FI_THREAD_SAFE "threading"
check_eq "$(field max_msg_size "$LOGS/info")" $((64 * 1024 * 1024 - HEADER)) \
	"max_msg_size (max_msg less the header)"
grep -q 'msg_order: \[ FI_ORDER_SAS' "$LOGS/info" || check_err 1 "msg_order without FI_ORDER_SAS"
grep -q 'mode: \[  \]' "$LOGS/info" || check_err 1 "mode bits required: $(field mode "$LOGS/info")"
# What it does not offer, it refuses (-FI_ENODATA), and no utility
# provider wraps it.
for hint in "-c FI_RMA" "-c FI_ATOMIC" "-t FI_EP_MSG" "-t FI_EP_DGRAM"; do
	# shellcheck disable=SC2086
	if fab 0 "$FI_INFO" -p hf $hint >"$LOGS/refused" 2>&1; then
		check_err 1 "fi_info -p hf $hint answered: $(head -n 3 "$LOGS/refused" | tr '\n' ' ')"
	fi
done
log_test "fi_info -p hf: RDM, msg and tagged, directed receive, source, local and remote, SAS; no RMA, MSG or DGRAM"

before0=$(ip netns exec "${HF_NODES[0]}" cat /proc/net/hyperframe)
before1=$(ip netns exec "${HF_NODES[1]}" cat /proc/net/hyperframe)

# 2, 3: untagged and tagged at fi_pingpong's sizes, data checked
pingpong msg 10 default -c
check_err $? "fi_pingpong untagged"
log_test "fi_pingpong -e rdm untagged, 64 B to 1 MiB, data checked"

pingpong tagged 10 default -c -m tagged
check_err $? "fi_pingpong tagged"
log_test "fi_pingpong -e rdm tagged, 64 B to 1 MiB, data checked"

# 4: large messages; 64 MiB of payload needs max_msg above 64 MiB
# for the header
max_msg=$("$HFCTL" -j config show | json_field max_msg)
defer "$HFCTL" config set max_msg "$max_msg"
hf_config_set max_msg $((65 * 1024 * 1024)) >"$LOGS/config" 2>&1
check_err $? "max_msg: $(cat "$LOGS/config")"
pingpong large16 3 $((16 * 1024 * 1024)) -c -m tagged
check_err $? "fi_pingpong 16 MiB"
pingpong large64 2 $((64 * 1024 * 1024)) -c
check_err $? "fi_pingpong 64 MiB"
log_test "fi_pingpong -e rdm at 16 MiB (tagged) and 64 MiB (untagged), data checked"

# 5: figures, not judged: latency at 64 B, bandwidth at 4 MiB
pingpong lat 500 64 -m tagged
check_err $? "fi_pingpong 64 B"
pingpong bw 10 $((4 * 1024 * 1024)) -m tagged
check_err $? "fi_pingpong 4 MiB"
lat=$(awk '$1 == "64" {print $(NF - 1)}' "$LOGS/lat.client")
bw=$(awk '$1 == "4m" {print $(NF - 2)}' "$LOGS/bw.client")
echo "# fi_pingpong tagged: 64 B ${lat:-?} usec/xfer, 4 MiB ${bw:-?} MB/s"
log_test "fi_pingpong -e rdm tagged 64 B x 500 and 4 MiB x 10 (figures above)"

# 6: every libfabric message was one hyperframe message
hf_counters_settle "${HF_NODES[0]}" "${HF_NODES[1]}" || echo "# counters still moving"
# delta NODE NAME: how much counter NAME of node NODE grew since before.
delta()
{
	local before

	[[ $1 == 0 ]] && before=$before0 || before=$before1
	echo $(($(hf_stat "$1" "$2") - $(awk -v k="$2" '$1 == k {print $2}' <<<"$before")))
}
for n in 0 1; do
	check_eq "$(delta $n tx_msgs)" "${SENT_MSGS[n]}" "node $n: hyperframe messages sent"
	check_eq "$(delta $n tx_bytes)" "${SENT_BYTES[n]}" "node $n: hyperframe bytes sent"
	check_eq "$(delta $n tx_msgs_delivered)" "${SENT_MSGS[n]}" "node $n: messages delivered"
	check_eq "$(delta $n tx_msgs_failed)" 0 "node $n: messages failed"
	echo "# node $n: $(delta $n tx_msgs) messages, $(delta $n tx_bytes) bytes sent over hyperframe"
done
log_test "/proc/net/hyperframe: one hyperframe message per libfabric message, header included"

# 7: two endpoints of one process (FI_LOCAL_COMM), as Open MPI's ofi MTL
# drives them (hf_fi_local); none of it crosses hyperframe.
sent=$(hf_stat 0 tx_msgs)
fab 0 env FI_HF_UNEXP_MSGS=16 timeout 120 "$FI_LOCAL" eth0 >"$LOGS/local" 2>&1
check_err $? "hf_fi_local: $(grep -E 'FAIL|hf_fi_local' "$LOGS/local")"
grep '^# ' "$LOGS/local" | grep -v '^# ok'
check_eq "$(hf_stat 0 tx_msgs)" "$sent" "hyperframe messages sent by hf_fi_local"
log_test "FI_LOCAL_COMM: Open MPI's hints and calls between endpoints of one process, off the wire"

exit "$(ktap_exit)"
