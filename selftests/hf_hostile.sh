#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A hostile peer on the link while real traffic runs. Node 2 (hf_hostile)
# sends node 1 a seeded stream of random, truncated, malformed,
# bad-checksum and contradictory frames, forged ACKs, complete messages to
# an unbound port, and a flood of never-completed messages from thousands
# of spoofed addresses, and forges ACKs at node 0 in node 1's name; 2 s
# into it node 0 sends node 1 small and multi-MiB messages (hf_xfer,
# content-verified), the two having met before the flood. Asserts: the
# legitimate messages arrive byte-exact and the sender learns of no
# failure; each hostile class is dropped and counted by the reason it
# should be; peers stay within max_peers (and an eighth beyond, for peers
# that proved their address) and reassembly within mem_limit,
# and the kernel memory held at the peak within a bound derived from them;
# after the flood, idle reclaim gives the state back; forged ACKs keep no
# flow alive that its receiver has forgotten. The module is reloaded with
# a small mem_limit so that the flood reaches it.
#
# HF_HOSTILE_SEED, HF_HOSTILE_SECONDS and HF_HOSTILE_SPOOF override the
# generator's seed (1), the flood's length (10 s) and the number of spoofed
# addresses (2000). The figures are printed as TAP comments. Processes are
# slow to start in an emulated guest (0.1-1 s each), so everything that
# runs often (sampling, waiting, reading counters) uses shell builtins.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

XFER=$HF_DIR/hf_xfer
HFCTL=${HFCTL:-${HF_BUILD:?set HFCTL or HF_BUILD}/userspace/hfctl/hfctl}
HOSTILE=$HF_DIR/hf_hostile
PARAMS=/sys/module/hyperframe/parameters
SEED=${HF_HOSTILE_SEED:-1}
FLOOD_S=${HF_HOSTILE_SECONDS:-10}
SPOOF=${HF_HOSTILE_SPOOF:-2000}
MEM_LIMIT=$((32 << 20))
PORT=7300
# The flood's messages go to a socket that stays bound all along (a
# receiver that is never sent anything): a message for a port nobody bound
# is held nowhere, so only a bound port makes the flood take memory.
DECOY=7310
HELLO=7305
FORGET=7320
SIZES=1,1456,65536,1048576,4194304
NSIZES=5
REPEAT=2
# Kernel memory the bound allows per peer (struct hf_peer, about 2 KiB: a
# peer that only sends to us has no sending state), per message being
# reassembled (struct, head skb; its segments and tables are within
# mem_limit), and for the legitimate traffic (both ends' copies of the
# messages in flight, and the sender's sending state).
PEER_BYTES=$((16 << 10))
MSG_BYTES=$((2 << 10))
SLACK_BYTES=$((48 << 20))
# What may stay allocated once the flood's peers are reclaimed (caches).
KEPT_BYTES=$((8 << 20))
# Receiver drops each hostile class must cause (see hf_hostile.c).
RX_REASONS=(drop_malformed_short drop_malformed_version drop_malformed_type
	drop_malformed_flags drop_malformed_length drop_malformed_offset
	drop_malformed_frame drop_malformed_sack drop_malformed_status
	drop_csum drop_otherhost drop_disagree drop_seg_size drop_msg_window
	drop_beyond_window drop_no_peer drop_epoch
	drop_mem_limit rx_msgs_no_port rx_duplicates)
# Sender drops of the forged ACKs and frames aimed at it.
TX_REASONS=(drop_epoch drop_no_peer drop_malformed_sack drop_malformed_short)
LOGS=$(mktemp -d)
defer rm -rf "$LOGS"

# A file descriptor that never has data: "read -t" on it is a sleep that
# starts no process.
exec {never}<> <(:)
nap()
{
	read -r -t "$1" -u "$never"
}

now_ms()
{
	echo $((${EPOCHREALTIME/./} / 1000))
}

# wait_for TIMEOUT_MS CMD...: busywait without starting processes.
wait_for()
{
	local end=$(($(now_ms) + $1))

	shift
	until "$@"; do
		(($(now_ms) > end)) && return 1
		nap 0.1
	done
	return 0
}

# slurp VAR FILE: all of FILE in one go. Reading a proc file a line at a
# time would seek back after each line and make the kernel print it again,
# changed numbers and all, so that lines come out cut.
slurp()
{
	IFS= read -r -d '' "$1" < "$2"
}

# load_ctrs ARRAY FILE: counters of a /proc/net/hyperframe copy into ARRAY.
load_ctrs()
{
	local -n arr=$1
	local all k v

	slurp all "$2"
	arr=()
	while read -r k v; do
		[[ -n $k ]] && arr[$k]=$v
	done <<< "$all"
}

# Kernel memory in use, in bytes: what is neither free (in the buddy
# allocator or on its per-CPU lists) nor page cache, buffers, reclaimable
# slab or user memory. Sets KMEM, SLAB, PCP, and MEMINFO to all of
# /proc/meminfo (KiB).
declare -A MEMINFO
read_kmem()
{
	local all k v u
	local -n m=MEMINFO

	slurp all /proc/meminfo
	while read -r k v u; do
		[[ -n $k ]] && m[${k%:}]=$v
	done <<< "$all"
	PCP=0
	slurp all /proc/zoneinfo
	while read -r k v u; do
		[[ $k == count: ]] && PCP=$((PCP + v))
	done <<< "$all"
	PCP=$((PCP * 4096))
	KMEM=$((1024 * (${m[MemTotal]} - ${m[MemFree]} - ${m[Buffers]} -
			${m[Cached]} - ${m[AnonPages]} - ${m[SReclaimable]}) - PCP))
	SLAB=$((1024 * ${m[SUnreclaim]}))
}

# Give empty slabs back to the page allocator, so that what is measured
# after the run is what is held, not what a cache keeps for later.
shrink_slabs()
{
	local f

	for f in /sys/kernel/slab/*/shrink; do
		echo 1 2>/dev/null > "$f"
	done
}

# sampler PROC OUT: every 0.2 s, "ms kmem slab peers rx_mem reserved
# rx_msgs" of the receiver, until OUT.stop appears.
sampler()
{
	local -A c

	while [[ ! -e $2.stop ]]; do
		read_kmem
		load_ctrs c "$1"
		echo "$(now_ms) $KMEM $SLAB ${c[peers]:-0} ${c[rx_mem_bytes]:-0}" \
			"${c[rx_mem_reserved_bytes]:-0} ${c[rx_msgs]:-0}"
		nap 0.2
	done > "$2"
}

# mib BYTES: "12.3 MiB"; dmib BYTES: the same with a sign, "+0.1 MiB".
mib()
{
	local b=$1 sign=

	((b < 0)) && sign=- b=$((-b))
	b=$(((b * 10 + 524288) / 1048576))
	((b)) || sign=
	echo "$sign$((b / 10)).$((b % 10)) MiB"
}

dmib()
{
	local m

	m=$(mib "$1")
	[[ $m == -* ]] && echo "$m" || echo "+$m"
}

secs()
{
	echo "$(($1 / 1000)).$((($1 % 1000) / 100)) s"
}

modcount_zero()
{
	local n

	read -r n < /sys/module/hyperframe/refcnt
	((n == 0))
}

# Reload the module with PARAMS... after the harness's own parameters.
reload()
{
	wait_for 30000 modcount_zero || return 1
	rmmod hyperframe || return 1
	# shellcheck disable=SC2086
	insmod "$HF_MODULE" ${HF_MODULE_PARAMS:-} "$@"
}

ktap_plan 8
t0=$(now_ms)

if [[ -n ${HF_MODULE:-} ]]; then
	reload mem_limit=$MEM_LIMIT
	check_err $? "could not reload the module with mem_limit=$MEM_LIMIT"
	defer reload
fi
[[ -r $PARAMS/max_peers ]] || { echo "# the module is not loaded"; exit "$KSFT_FAIL"; }
read -r max_peers < $PARAMS/max_peers
read -r mem_limit < $PARAMS/mem_limit
read -r dmesg_before < <(dmesg | wc -l)

hf_topo_create 3 1500
check_err $? "topology"
# The hostile node's switch port learns no addresses: spoofing a victim's
# address must not steal its traffic at the bridge (MAC theft is a link
# layer attack hyperframe cannot stop; port security does).
ip -n "$HF_SWITCH" link set dev p2 type bridge_slave learning off
# Long-lived processes in the namespaces: /proc/PID/net is their view.
ip netns exec "${HF_NODES[0]}" sleep 600 &
holder0=$!
ip netns exec "${HF_NODES[1]}" sleep 600 &
holder1=$!
defer kill $holder0 $holder1
# Once they are "sleep", ip has entered the namespace and exec'd.
is_sleeping()
{
	local a b

	read -r a < /proc/$holder0/comm
	read -r b < /proc/$holder1/comm
	[[ $a$b == sleepsleep ]]
}
wait_for 30000 is_sleeping
check_err $? "namespace holders did not start"
# Their mount namespaces have the node's /sys (ip netns exec mounts it).
read -r mac0 < /proc/$holder0/root/sys/class/net/eth0/address
read -r mac1 < /proc/$holder1/root/sys/class/net/eth0/address
proc0=/proc/$holder0/net/hyperframe
proc1=/proc/$holder1/net/hyperframe
declare -A n0b n1b n0a n1a s
load_ctrs n0b $proc0
load_ctrs n1b $proc1

sampler $proc1 "$LOGS/samples" &
spid=$!
defer touch "$LOGS/samples.stop"
shrink_slabs
read_kmem
kmem_before=$KMEM
slab_before=$SLAB
declare -A mem_before
for k in "${!MEMINFO[@]}"; do
	mem_before[$k]=${MEMINFO[$k]}
done
start=$(now_ms)
echo "# setup took $(secs $((start - t0)))"

# is_ready FILE: the receiver writing to FILE has bound its port.
is_ready()
{
	local l

	[[ -e $1 ]] || return 1
	while read -r l; do
		[[ $l == ready ]] && return 0
	done < "$1"
	return 1
}

# The receivers: the legitimate one, the flood's target, and one for a
# first message. The legitimate peers meet before the attack: a peer that
# first appears during a flood from more spoofed addresses than max_peers
# finds the table full. The transfer follows within a few seconds, well
# inside peer_idle_ms, so the receiver keeps the peer.
ip netns exec "${HF_NODES[1]}" timeout 150 "$XFER" recv $PORT $SIZES $REPEAT \
	> "$LOGS/recv" 2>&1 &
rpid=$!
# The decoy's buffer (forced, 64 MiB) is larger than mem_limit: the flood
# meets the namespace's limit, not the socket's (hf_memory.sh tests that).
HF_XFER_RCVBUF=$((64 << 20)) ip netns exec "${HF_NODES[1]}" timeout 150 "$XFER" recv $DECOY 1 \
	> "$LOGS/decoy" 2>&1 &
dpid=$!
defer kill $dpid
ip netns exec "${HF_NODES[1]}" timeout 60 "$XFER" recv $HELLO 1 \
	> "$LOGS/hello" 2>&1 &
hpid=$!
wait_for 30000 is_ready "$LOGS/recv" && wait_for 30000 is_ready "$LOGS/decoy" &&
	wait_for 30000 is_ready "$LOGS/hello"
check_err $? "the receivers did not start"
ip netns exec "${HF_NODES[0]}" timeout 60 "$XFER" send eth0 "$mac1" $HELLO 1 \
	> "$LOGS/hello.send" 2>&1
check_err $? "the first legitimate message failed: $(<"$LOGS/hello.send")"
wait $hpid
check_err $? "the first legitimate message was not received: $(<"$LOGS/hello")"
load_ctrs s $proc1
msgs_before=$((s[rx_msgs] - n1b[rx_msgs]))

# The hostile node: everything at the receiver, forged ACKs at the sender.
flood_start=$(now_ms)
ip netns exec "${HF_NODES[2]}" "$HOSTILE" --ifname eth0 --dst "$mac1" \
	--seed "$SEED" --seconds "$FLOOD_S" --spoof "$SPOOF" --dport $DECOY \
	> "$LOGS/hostile1" 2>&1 &
h1=$!
ip netns exec "${HF_NODES[2]}" "$HOSTILE" --ifname eth0 --dst "$mac0" \
	--seed $((SEED + 1)) --seconds "$FLOOD_S" --spoof 64 --pps 500 \
	--classes ack,malformed,truncated --impersonate "$mac1" \
	> "$LOGS/hostile0" 2>&1 &
h0=$!
# The legitimate transfer starts once the flood is under way.
nap 2
ip netns exec "${HF_NODES[0]}" timeout 150 "$XFER" send eth0 "$mac1" $PORT \
	$SIZES $REPEAT > "$LOGS/send" 2>&1 &
xpid=$!
wait $h1
rc1=$?
wait $h0
rc0=$?
flood_end=$(now_ms)

wait $xpid
xrc=$?
wait $rpid
rrc=$?
kill $dpid
# A slow kernel (the debug line) takes a few hundred frames in FLOOD_S,
# spread over SPOOF sources; semantic frames by count, about twenty from
# each of 40 sources, reach every drop that needs a flow's state there
# too (a source's frames after its "new epoch" are all unproven, so one
# source alone would not).
ip netns exec "${HF_NODES[2]}" "$HOSTILE" --ifname eth0 --dst "$mac1" \
	--seed $((SEED + 3)) --count 800 --spoof 40 --dport $DECOY \
	--classes semantic > "$LOGS/hostile1s" 2>&1
check_err $? "the semantic frames: $(<"$LOGS/hostile1s")"

# One line each: the run, frames per class, verdicts the decoder expects;
# the receiver side's expectations are kept in "expect".
declare -A expect
for side in 1 0; do
	who=receiver
	((side)) || who=sender
	cls=
	exp=
	while read -r a b c rest; do
		case $a in
		hf_hostile:) echo "# hostile at the $who: $b $c $rest" ;;
		class) cls+=" $b=$c" ;;
		expect)
			exp+=" $b=$c"
			((side)) && expect[$b]=$c
			;;
		sub) [[ -n $rest ]] && echo "# MISMATCH at the $who: $b $c $rest" ;;
		*) echo "# hostile at the $who: $a $b $c $rest" ;;
		esac
	done < "$LOGS/hostile$side"
	echo "# hostile at the $who, frames by class:$cls"
	echo "# hostile at the $who, expected verdicts:$exp"
done

check_eq "$rc1/$rc0" 0/0 "hf_hostile exit status (receiver/sender side)"
while read -r l; do
	echo "# legitimate sender: $l"
done < "$LOGS/send"
while read -r l; do
	[[ $l != ready ]] && echo "# legitimate receiver: $l"
done < "$LOGS/recv"
check_eq $xrc 0 "legitimate sender exit status"
check_eq $rrc 0 "legitimate receiver exit status"
log_test "hostile: legitimate messages arrive byte-exact under attack"

# Reclaim: the spoofed peers go after peer_idle_ms of silence (10 s), at
# the next pass of the once-a-second reclaim; what they held goes with them.
reclaimed()
{
	load_ctrs s $proc1
	((s[peers] <= 1 && s[rx_mem_bytes] == 0 &&
	  ${s[rx_mem_reserved_bytes]:-0} == 0))
}
wait_for 20000 reclaimed
reclaim_rc=$?
reclaim_at=$(now_ms)
nap 0.5
touch "$LOGS/samples.stop"
wait $spid
shrink_slabs
read_kmem
kmem_after=$KMEM
slab_after=$SLAB
load_ctrs n0a $proc0
load_ctrs n1a $proc1

# Drops by reason at the receiver: each class's reasons must have counted.
line=
for k in "${RX_REASONS[@]}"; do
	if [[ -z ${n1a[$k]} ]]; then
		check_err 1 "the receiver has no counter $k"
		continue
	fi
	line+=" $k=$((n1a[$k] - n1b[$k]))"
	((n1a[$k] > n1b[$k]))
	check_err $? "receiver: $k did not increase (${n1b[$k]} -> ${n1a[$k]})"
done
echo "# receiver drops by reason:$line"
line=
for k in "${!n1a[@]}"; do
	[[ $k =~ ^(drop_|rx_msgs_no|rx_msgs_too) && $k != drop_malformed ]] ||
		continue
	[[ " ${RX_REASONS[*]} " == *" $k "* ]] && continue
	((n1a[$k] > n1b[$k])) && line+=" $k=$((n1a[$k] - n1b[$k]))"
done
echo "# receiver, other counts:$line; rx_segs=$((n1a[rx_segs] - n1b[rx_segs]))" \
	"rx_msgs=$((n1a[rx_msgs] - n1b[rx_msgs]))"
# What the decoder refuses is counted under the reason the reference decoder
# gives: never more than were sent, and no more lost on the way than 10 %.
exact=0
for k in "${!expect[@]}"; do
	[[ $k == valid ]] && continue
	got=$((n1a[$k] - n1b[$k]))
	((got == expect[$k])) && exact=$((exact + 1))
	((got <= expect[$k] && got * 10 >= expect[$k] * 9))
	check_err $? "receiver: $k counted $got, the hostile sent ${expect[$k]}"
done
echo "# receiver: $exact of $((${#expect[@]} - 1)) decoder verdicts counted" \
	"exactly as the reference decoder expects"
# More spoofed sources than max_peers: strangers were evicted to make room
# (hf_peer.c), or refused while every stranger was still in its grace.
full=$((n1a[peers_evicted] - n1b[peers_evicted] + n1a[drop_peer_limit] - n1b[drop_peer_limit]))
echo "# receiver: peers_evicted +$((n1a[peers_evicted] - n1b[peers_evicted])), drop_peer_limit" \
	"+$((n1a[drop_peer_limit] - n1b[drop_peer_limit])) for $SPOOF sources and max_peers $max_peers"
((full > 0))
check_err $? "the full peer table neither evicted nor refused anyone"
log_test "hostile: receiver drops every hostile class and counts it by reason"

# The sender: forged ACKs dropped, nothing failed, no flow restarted.
line=
for k in "${TX_REASONS[@]}"; do
	if [[ -z ${n0a[$k]} ]]; then
		check_err 1 "the sender has no counter $k"
		continue
	fi
	line+=" $k=$((n0a[$k] - n0b[$k]))"
	((n0a[$k] > n0b[$k]))
	check_err $? "sender: $k did not increase (${n0b[$k]} -> ${n0a[$k]})"
done
for k in tx_msgs_failed tx_resets; do
	[[ -z ${n0a[$k]} ]] && continue
	line+=" $k=$((n0a[$k] - n0b[$k]))"
	check_eq "${n0a[$k]}" "${n0b[$k]}" "sender: $k"
done
check_eq $((n0a[tx_msgs_delivered] - n0b[tx_msgs_delivered])) \
	$((NSIZES * REPEAT + 1)) "messages the sender learned were delivered"
echo "# sender drops:$line; retransmits=$((n0a[tx_retransmits] - n0b[tx_retransmits]))" \
	"rto=$((n0a[tx_rto] - n0b[tx_rto]))"
log_test "hostile: forged ACKs at the sender are dropped and harm nothing"

# Peaks over the run, and legitimate progress while the flood lasted.
kmem_peak=0 slab_peak=0 peers_peak=0 rxmem_peak=0 rxres_peak=0 msgs_flood=0
legit_at=0
while read -r ms km sl pe rm rr rx; do
	((km > kmem_peak)) && kmem_peak=$km
	((sl > slab_peak)) && slab_peak=$sl
	((pe > peers_peak)) && peers_peak=$pe
	((rm > rxmem_peak)) && rxmem_peak=$rm
	((rr > rxres_peak)) && rxres_peak=$rr
	((ms <= flood_end)) && msgs_flood=$((rx - n1b[rx_msgs] - msgs_before))
	((!legit_at && rx - n1b[rx_msgs] - msgs_before >= NSIZES * REPEAT)) &&
		legit_at=$ms
done < "$LOGS/samples"
echo "# legitimate: $msgs_flood of $((NSIZES * REPEAT)) messages delivered" \
	"while the flood lasted ($(secs $((flood_end - flood_start))), the transfer" \
	"started 2 s in), the last $(secs $((legit_at - flood_start))) after it started"
# Strangers hold at most max_peers; a peer that proved its address (node 0,
# back after the flood evicted it) may take the table an eighth beyond.
proven=$((${n1a[peers_proven_in]:-0} - ${n1b[peers_proven_in]:-0}))
echo "# peers: peak $peers_peak (max_peers $max_peers) from $SPOOF spoofed" \
	"addresses, ${n1a[peers]} after reclaim; peers_proven_in +$proven"
((peers_peak <= max_peers + proven && proven <= max_peers / 8 + 1))
check_err $? "peers peaked at $peers_peak, above max_peers $max_peers and the $proven that proved their address"
((peers_peak > 0))
check_err $? "the sampler saw no peers"
log_test "hostile: peers stay within max_peers"

bound=$((mem_limit + (max_peers + proven) * (PEER_BYTES + 32 * MSG_BYTES) + SLACK_BYTES))
echo "# memory: kernel $(mib $kmem_before) before, $(mib $kmem_peak) at the" \
	"peak ($(dmib $((kmem_peak - kmem_before)))), $(mib $kmem_after) after" \
	"reclaim ($(dmib $((kmem_after - kmem_before))))"
echo "# memory: unreclaimable slab $(mib $slab_before) before, $(mib $slab_peak)" \
	"at the peak; reassembly peak $(mib $rxmem_peak), reserved peak" \
	"$(mib $rxres_peak), mem_limit $(mib $mem_limit)"
echo "# memory: bound mem_limit + max_peers x ($((PEER_BYTES >> 10)) KiB +" \
	"32 x $((MSG_BYTES >> 10)) KiB) + $(mib $SLACK_BYTES) = $(mib $bound)"
check_err $((rxmem_peak > mem_limit)) "reassembly peaked at $rxmem_peak, above mem_limit"
check_err $((rxres_peak > mem_limit)) "reservations peaked at $rxres_peak, above mem_limit"
check_err $((kmem_peak - kmem_before > bound)) \
	"kernel memory grew by $(mib $((kmem_peak - kmem_before))), above the bound"
log_test "hostile: memory held for peers stays within the bound"

echo "# reclaim: done $(secs $((reclaim_at - flood_end))) after the flood ended"
check_err $reclaim_rc "state not reclaimed 20 s after the flood: peers ${s[peers]}, reassembly ${s[rx_mem_bytes]}, reserved ${s[rx_mem_reserved_bytes]}"
echo "# memory after reclaim: kernel $(dmib $((kmem_after - kmem_before)))," \
	"unreclaimable slab $(dmib $((slab_after - slab_before)))," \
	"per-CPU free lists $(mib $PCP) (counted as free)"
if ((kmem_after - kmem_before > KEPT_BYTES)); then
	line=
	for k in "${!MEMINFO[@]}"; do
		d=$((MEMINFO[$k] - ${mem_before[$k]:-0}))
		((d > 1024 || d < -1024)) && line+=" $k=$((d / 1024))M"
	done
	echo "# /proc/meminfo changes over the run:$line"
	check_err 1 "kernel memory still $(mib $((kmem_after - kmem_before))) above the start"
fi
log_test "hostile: idle reclaim gives the flood's state back"

# Forged ACKs must not keep alive a flow its receiver has forgotten. Node
# 1 forgets node 0 after peer_idle (1.5 s here) of silence, while node 2
# forges ACKs at node 0 in node 1's name. Node 0's next message must start
# a new flow: sent in the forgotten one, node 1 would answer it from a new
# state, and node 0 would fail it as a lost receiver state (ECONNRESET).
forgotten()
{
	load_ctrs s $proc1
	((s[peers] == 0))
}
idle_ms=$("$HFCTL" -j config show | sed -n 's/.*"peer_idle_ms":\([0-9]*\).*/\1/p')
"$HFCTL" config set peer_idle 1500ms
check_err $? "config set peer_idle 1500ms failed"
fpids=()
for port in $FORGET $((FORGET + 1)); do
	ip netns exec "${HF_NODES[1]}" timeout 60 "$XFER" recv $port 1 \
		> "$LOGS/forget-$port" 2>&1 &
	fpids+=($!)
done
wait_for 30000 is_ready "$LOGS/forget-$FORGET" &&
	wait_for 30000 is_ready "$LOGS/forget-$((FORGET + 1))"
check_err $? "the receivers did not start"
ip netns exec "${HF_NODES[0]}" timeout 60 "$XFER" send eth0 "$mac1" $FORGET 1 \
	> "$LOGS/forget.send" 2>&1
check_err $? "the first message failed: $(<"$LOGS/forget.send")"
load_ctrs n0b $proc0
ip netns exec "${HF_NODES[2]}" "$HOSTILE" --ifname eth0 --dst "$mac0" \
	--seed $((SEED + 2)) --seconds 6 --spoof 4 --pps 300 --classes ack \
	--impersonate "$mac1" > "$LOGS/hostile-forget" 2>&1 &
h2=$!
wait_for 20000 forgotten
check_err $? "node 1 did not forget node 0 within 20 s: ${s[peers]} peers"
wait $h2
check_err $? "hf_hostile (forged ACKs) failed: $(tail -n 1 "$LOGS/hostile-forget")"
ip netns exec "${HF_NODES[0]}" timeout 60 "$XFER" send eth0 "$mac1" \
	$((FORGET + 1)) 1 > "$LOGS/forget.send" 2>&1
check_err $? "the message after the forged ACKs failed: $(<"$LOGS/forget.send")"
for pid in "${fpids[@]}"; do
	wait "$pid"
	check_err $? "a receiver failed: $(cat "$LOGS"/forget-*)"
done
load_ctrs n0a $proc0
echo "# forgotten flow: forged ACKs dropped $((n0a[drop_epoch] - n0b[drop_epoch]))" \
	"for their epoch, $((n0a[drop_no_peer] - n0b[drop_no_peer])) once node 0" \
	"forgot node 1 too; $((n0a[tx_epochs] - n0b[tx_epochs])) new flow," \
	"$((n0a[tx_resets] - n0b[tx_resets])) resets"
check_eq $((n0a[tx_resets] - n0b[tx_resets])) 0 "flows reset by the receiver"
check_eq $((n0a[tx_epochs] - n0b[tx_epochs])) 1 "new flows started"
"$HFCTL" config set peer_idle "${idle_ms}ms"
check_err $? "config set peer_idle ${idle_ms}ms (restore) failed"
log_test "hostile: forged ACKs keep no forgotten flow alive"

dmesg | tail -n +$((dmesg_before + 1)) |
	grep -E 'BUG|WARNING|Oops|refcount_t|list_(add|del) corruption' > "$LOGS/dmesg"
check_fail $? "kernel report: $(head -n 3 "$LOGS/dmesg")"
log_test "hostile: no kernel report"
echo "# total $(secs $(($(now_ms) - t0)))"

exit "$(ktap_exit)"
