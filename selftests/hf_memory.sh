#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What a local user or a hostile peer can make the module hold (issue 33,
# items 4 to 7). Node 0 and node 1 are hosts, node 2 a hostile peer on a
# switch port that learns no addresses.
# 1. An unprivileged user's messages to absent addresses: within the
#    module-wide limit (parameter mem) whatever was asked, and given back
#    soon after the sockets close.
# 2. A message no buffer could ever hold fails with EMSGSIZE, not a hang.
# 3. A user namespace's root cannot make pins last longer (retry_limit,
#    peer_idle, rto_max, rto_max_backoff above the initial namespace's).
# 4. A message's pages are charged to the sender's memory cgroup: a send
#    larger than the cgroup allows fails with ENOMEM.
# 5. A slow reader holds what its SO_RCVBUF allows (one larger message
#    alone), from any number of sources; delivered messages stay in the
#    namespace's accounting until read.
# 6. A sender that ignores its credit has what goes far beyond dropped.
# 7. Reassembly that makes no progress expires although repeats keep
#    coming, and the peer goes; close() lets go of the socket at once.
# 8. A full peer table makes room: spoofed sources and absent addresses
#    lock no real peer out (a flood keeps the table full of strangers in
#    their grace, and a new peer gets in by echoing a challenge sent
#    without any state kept); a group source is never answered; a peer
#    that only sends to us is small.
# 9. A sender evicted from a full table comes back while the table has
#    no room for it: answered LOST without any state kept, its message
#    fails with ECONNRESET at once, not at its retry limit, and it gets in
#    once there is room.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

XFER=$HF_DIR/hf_xfer
PIN=$HF_DIR/hf_pin
HOSTILE=$HF_DIR/hf_hostile
HFCTL=${HFCTL:-${HF_BUILD:?set HFCTL or HF_BUILD}/userspace/hfctl/hfctl}
PARAMS=/sys/module/hyperframe/parameters
LOGS=$(mktemp -d)
defer rm -rf "$LOGS"
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all)

# on NODE CMD...: CMD in node NODE's namespace.
on()
{
	local n=$1

	shift
	ip netns exec "${HF_NODES[n]}" "$@"
}

# ctr NODE NAME: counter NAME of node NODE (hf_stat, no process per read).
ctr()
{
	local k v

	while read -r k v; do
		[[ $k == "$2" ]] && { echo "$v"; return; }
	done < "/proc/${HOLDER[$1]}/net/hyperframe"
	echo 0
}

mem_avail()
{
	local k v u

	while read -r k v u; do
		[[ $k == MemAvailable: ]] && { echo $((v * 1024)); return; }
	done < /proc/meminfo
}

# Kernel memory in use, bytes (as hf_hostile.sh reads it).
kmem()
{
	local k v u pcp=0
	local -A m

	while read -r k v u; do
		m[${k%:}]=$v
	done < /proc/meminfo
	while read -r k v u; do
		[[ $k == count: ]] && pcp=$((pcp + v))
	done < /proc/zoneinfo
	echo $((1024 * (m[MemTotal] - m[MemFree] - m[Buffers] - m[Cached] -
			m[AnonPages] - m[SReclaimable]) - pcp * 4096))
}

shrink_slabs()
{
	local f

	for f in /sys/kernel/slab/*/shrink; do
		echo 1 2>/dev/null > "$f"
	done
}

has_line()
{
	grep -q "$2" "$1" 2>/dev/null
}

# sink NODE NAME PORT RCVBUF [force]: a receiver that reads nothing until
# told; its pipe is SINK_IN[NAME], its output $LOGS/NAME.
declare -A SINK_IN SINK_PID
sink()
{
	mkfifo "$LOGS/$2.in"
	on "$1" "$PIN" sink "$3" "$4" ${5:+"$5"} < "$LOGS/$2.in" > "$LOGS/$2" 2>&1 &
	SINK_PID[$2]=$!
	exec {fd}> "$LOGS/$2.in"
	SINK_IN[$2]=$fd
	busywait 10000 has_line "$LOGS/$2" ready
}

sink_read()
{
	echo read >&"${SINK_IN[$1]}"
	busywait 10000 has_line "$LOGS/$1" '^read'
}

sink_close()
{
	exec {SINK_IN[$1]}>&-
	wait "${SINK_PID[$1]}"
}

# peak NODE NAME SECONDS: the highest value counter NAME of NODE takes in
# SECONDS, sampled every 0.1 s.
peak()
{
	local max=0 v end=$((SECONDS + $3))

	while ((SECONDS < end)); do
		v=$(ctr "$1" "$2")
		((v > max)) && max=$v
		sleep 0.1
	done
	echo "$max"
}

ktap_plan 9

hf_topo_create 3 1500
check_err $? "topology"
ip -n "$HF_SWITCH" link set dev p2 type bridge_slave learning off
mac0=$(hf_node_mac 0)
mac1=$(hf_node_mac 1)
# Processes whose /proc/PID/net is each node's view of the counters.
declare -a HOLDER
for n in 0 1 2; do
	ip netns exec "${HF_NODES[n]}" sleep 900 &
	HOLDER[n]=$!
	defer kill "${HOLDER[n]}"
done
# Once they are "sleep", ip has entered the namespace and exec'd.
holders_up()
{
	local n c

	for n in 0 1 2; do
		read -r c < "/proc/${HOLDER[n]}/comm"
		[[ $c == sleep ]] || return 1
	done
}
busywait 10000 holders_up
check_err $? "namespace holders did not start"
IFS=, read -r mem0 mem1 mem2 < $PARAMS/mem
mem_max=$((mem2 * 4096))
echo "# module-wide limit: $mem0,$mem1,$mem2 pages (hard $((mem_max >> 20)) MiB)"

# 1. An unprivileged user asks the module to hold 1 GiB for absent peers.
# A long retry limit keeps what it was given pinned until the close.
"$HFCTL" -n "${HF_NODES[0]}" config set retry_limit 20
base_avail=$(mem_avail)
mkfifo "$LOGS/fill.in"
on 0 "${NOBODY[@]}" "$PIN" fill eth0 16 $((64 << 20)) random hold \
	< "$LOGS/fill.in" > "$LOGS/fill" 2>&1 &
fpid=$!
exec {fill}> "$LOGS/fill.in"
busywait 60000 has_line "$LOGS/fill" holding
check_err $? "hf_pin fill: $(cat "$LOGS/fill")"
held=$(ctr 0 mem_bytes)
drop=$((base_avail - $(mem_avail)))
read -r _ accepted _ asked bytes _ <<< "$(head -n 1 "$LOGS/fill" | tr -d ,)"
echo "# nobody: $(head -n 3 "$LOGS/fill" | tr '\n' ' '); module holds $((held >> 20)) MiB;" \
	"MemAvailable fell $((drop >> 20)) MiB"
((held <= mem_max))
check_err $? "holds $held bytes: above the hard limit $mem_max"
((drop <= mem_max + (64 << 20)))
check_err $? "MemAvailable fell $drop bytes with a hard limit of $mem_max"
((accepted < asked))
check_err $? "all $asked messages accepted: nothing limited"
grep -q "errno ENOBUFS" "$LOGS/fill"
check_err $? "no ENOBUFS for what the limit refused: $(cat "$LOGS/fill")"
t0=$SECONDS
exec {fill}>&-
wait $fpid
released()
{
	(($(ctr 0 mem_bytes) == 0))
}
busywait 10000 released
check_err $? "still held $(($(ctr 0 mem_bytes) >> 20)) MiB $((SECONDS - t0)) s after close"
echo "# after close: held $(ctr 0 mem_bytes) bytes within $((SECONDS - t0)) s;" \
	"tx_msgs_orphaned +$(ctr 0 tx_msgs_orphaned)"
"$HFCTL" -n "${HF_NODES[0]}" config set retry_limit 8
log_test "memory: a user's messages fit the module-wide limit and are given up soon after close"

# 2. Messages no buffer could hold: EMSGSIZE at once.
"$HFCTL" -n "${HF_NODES[0]}" config set max_msg $((1 << 30))
check_err $? "max_msg 1 GiB"
for size in $((1 << 30)) $((mem_max + (1 << 20))); do
	((size > 1 << 30)) && continue
	out=$(on 0 timeout 30 "$PIN" fill eth0 1 "$size" "$mac1" block 2>&1)
	rc=$?
	echo "# a blocking send of $((size >> 20)) MiB: status $rc: $(tr '\n' ' ' <<< "$out")"
	check_eq "$rc" 0 "hf_pin status for $size bytes (124: it hung)"
	grep -q "errno EMSGSIZE 1" <<< "$out"
	check_err $? "a $size-byte send did not fail with EMSGSIZE: $out"
done
"$HFCTL" -n "${HF_NODES[0]}" config set max_msg $((64 << 20))
log_test "memory: a message no buffer could ever hold fails with EMSGSIZE, never blocks"

# 3. A user namespace's root cannot make pins last longer.
userns_knob=/proc/sys/kernel/unprivileged_userns_clone
if [[ -e $userns_knob ]]; then
	defer echo "$(cat "$userns_knob")" ">$userns_knob"
	echo 1 > "$userns_knob"
fi
for kv in "retry_limit 255" "peer_idle 86400s" "rto_max 60s" "rto_max_backoff 32"; do
	# shellcheck disable=SC2086 # key and value
	out=$("${NOBODY[@]}" unshare --user --map-root-user --net \
		"$HFCTL" config set $kv 2>&1)
	rc=$?
	echo "# user namespace root: config set $kv: status $rc: $out"
	((rc != 0)) && grep -q "needs CAP_NET_ADMIN there" <<< "$out"
	check_err $? "config set $kv in a user namespace: status $rc: $out"
done
log_test "memory: a user namespace's root cannot raise what bounds how long memory stays pinned"

# 4. The memory cgroup of the sender is charged.
cg=/sys/fs/cgroup/hfmem$$
echo +memory > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
if mkdir "$cg" 2>/dev/null && [[ -e $cg/memory.max ]]; then
	defer rmdir "$cg"
	echo $((32 << 20)) > "$cg/memory.max"
	for size in $((48 << 20)) $((4 << 20)); do
		# shellcheck disable=SC2016 # expanded by the inner shell
		out=$(sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' cg "$cg" \
			ip netns exec "${HF_NODES[0]}" "$PIN" fill eth0 1 "$size" "$mac1" block 2>&1)
		echo "# in a cgroup of 32 MiB, a $((size >> 20)) MiB send: $(tr '\n' ' ' <<< "$out")"
		if ((size > 32 << 20)); then
			grep -q "errno ENOMEM 1" <<< "$out"
			check_err $? "a $size-byte send in a 32 MiB cgroup did not fail with ENOMEM"
		else
			grep -q "accepted 1 of 1" <<< "$out"
			check_err $? "a $size-byte send in a 32 MiB cgroup failed"
		fi
	done
else
	check_err 1 "no memory cgroup to test with (cgroup2 at /sys/fs/cgroup)"
fi
log_test "memory: a message's pages are charged to the sender's memory cgroup"

# 5. A slow reader: many sources cannot make it hold more than its buffer
# allows, and what it was delivered counts until read.
"$HFCTL" -n "${HF_NODES[1]}" config set mem_limit $((32 << 20))
sink 1 slow 7500 131072
refused0=$(ctr 1 drop_rcvbuf)
on 2 "$HOSTILE" --ifname eth0 --dst "$mac1" --classes partial --spoof 4 \
	--dport 7500 --seconds 4 --pps 400 > "$LOGS/partial" 2>&1 &
hpid=$!
top=$(peak 1 rx_mem_reserved_bytes 4)
wait $hpid
echo "# 4 spoofed sources at a reader of SO_RCVBUF 128 KiB: reserved peaked at" \
	"$((top >> 10)) KiB (mem_limit 32 MiB); drop_rcvbuf +$(($(ctr 1 drop_rcvbuf) - refused0))"
((top <= (8 << 20) + (256 << 10)))
check_err $? "reserved $top bytes for one reader: more than one message and its buffer"
sink_close slow
sink 1 unread 7501 0
on 0 "$XFER" send eth0 "$mac1" 7501 32768 3 > "$LOGS/unread.send" 2>&1
check_err $? "sending to the unread socket: $(cat "$LOGS/unread.send")"
unread=$(ctr 1 rx_mem_reserved_bytes)
sink_read unread
after=$(ctr 1 rx_mem_reserved_bytes)
echo "# 3 messages of 32 KiB delivered: reserved $unread bytes unread, $after after" \
	"the read ($(grep '^read' "$LOGS/unread"))"
((unread >= 3 * 32768 && after == 0))
check_err $? "delivered messages left the accounting before being read ($unread, then $after)"
sink_close unread
"$HFCTL" -n "${HF_NODES[1]}" config set mem_limit $((512 << 20))
log_test "memory: a slow reader holds what its buffer allows, and delivered bytes count until read"

# 6. A sender that ignores its credit: 1 MiB messages to a reader that
# does not read, with room in its buffer (64 MiB) but a share of 1 MiB.
# What is being reassembled is always granted (a message admitted is
# paid for); delivered and unread, it counts against the share. The
# bound holds when every segment arrives: a segment lost on the way (the
# guest's backlog full under a flood too fast for it) leaves its message
# in reassembly, granted, and the grant grows with it, so rx_credit_over
# (bytes taken past the limit of the moment, summed) is then no longer
# bounded by the slack alone; the flood goes at a rate the guest takes.
# Nor may a message expire during the flood (peer_idle): its bytes would
# be given back, and the credit with them (the debug kernel, taking the
# flood at a tenth of the rate, took 2 MB beyond a share of 1 MiB so).
backlog_drops()
{
	# The second column of softnet_stat: packets the backlog dropped.
	local n=0 dropped

	while read -r _ dropped _; do
		n=$((n + 16#$dropped))
	done < /proc/net/softnet_stat
	echo "$n"
}
"$HFCTL" -n "${HF_NODES[1]}" config set credit_budget $((1 << 20))
sink 1 credit 7502 $((64 << 20)) force
"$HFCTL" -n "${HF_NODES[1]}" config set peer_idle 300s
over0=$(ctr 1 rx_credit_over)
dropped0=$(ctr 1 drop_over_credit)
msgs0=$(ctr 1 rx_msgs)
lost0=$(backlog_drops)
on 2 "$HOSTILE" --ifname eth0 --dst "$mac1" --classes overrun --dport 7502 \
	--spoof 1 --seed 61 --count 4000 --pps 1000 > "$LOGS/overrun" 2>&1
over=$(($(ctr 1 rx_credit_over) - over0))
dropped=$(($(ctr 1 drop_over_credit) - dropped0))
lost=$(($(backlog_drops) - lost0))
echo "# 4000 segments of 1 MiB messages, ignoring the credit: rx_credit_over +$over bytes," \
	"drop_over_credit +$dropped, rx_msgs +$(($(ctr 1 rx_msgs) - msgs0)), lost on the way $lost," \
	"expired $(ctr 1 rx_msgs_expired)"
((over <= 64 * 1456 + 1456 && dropped > 0))
check_err $? "took $over bytes beyond the credit, dropped $dropped ($lost lost in the guest's backlog)"
sink_close credit
"$HFCTL" -n "${HF_NODES[1]}" config set credit_budget $((16 << 20)) peer_idle 10s
log_test "memory: data far beyond the credit granted is dropped and counted"

# 7. Reassembly that never ends: repeats are no progress; close lets go.
"$HFCTL" -n "${HF_NODES[1]}" config set peer_idle 3s
sink 1 trickle 7503 0
expired0=$(ctr 1 rx_msgs_expired)
reclaimed0=$(ctr 1 peers_reclaimed)
on 2 "$HOSTILE" --ifname eth0 --dst "$mac1" --classes trickle --dport 7503 \
	--spoof 1 --seed 71 --seconds 12 --pps 1 > "$LOGS/trickle" 2>&1 &
hpid=$!
sleep 1
held=$(ctr 1 rx_mem_reserved_bytes)
# The message expires and the peer is reclaimed although the repeats go
# on (a repeat after that finds no peer, and starts the same again).
gone()
{
	(($(ctr 1 rx_msgs_expired) > expired0 && $(ctr 1 peers_reclaimed) > reclaimed0))
}
busywait 9000 gone
check_err $? "repeats kept the message: expired +$(($(ctr 1 rx_msgs_expired) - expired0)), peers_reclaimed +$(($(ctr 1 peers_reclaimed) - reclaimed0))"
echo "# one segment of 16 MiB, then a repeat a second: $((held >> 20)) MiB reserved," \
	"expired +$(($(ctr 1 rx_msgs_expired) - expired0)), peers_reclaimed" \
	"+$(($(ctr 1 peers_reclaimed) - reclaimed0)) while the repeats went on"
wait $hpid
sink_close trickle
"$HFCTL" -n "${HF_NODES[1]}" config set peer_idle 30s
read -r refs0 < /sys/module/hyperframe/refcnt
sink 1 closing 7504 0
on 2 "$HOSTILE" --ifname eth0 --dst "$mac1" --classes trickle --dport 7504 \
	--spoof 1 --seed 72 --count 1 > "$LOGS/closing" 2>&1
held=$(ctr 1 rx_mem_reserved_bytes)
sink_close closing
freed()
{
	local r

	read -r r < /sys/module/hyperframe/refcnt
	((r == refs0 && $(ctr 1 rx_mem_reserved_bytes) == 0))
}
busywait 3000 freed
check_err $? "after close: module refcnt $(cat /sys/module/hyperframe/refcnt) (was $refs0), $(ctr 1 rx_mem_reserved_bytes) bytes reserved"
echo "# a socket closed with $((held >> 20)) MiB in reassembly: refcnt back to $refs0," \
	"reserved $(ctr 1 rx_mem_reserved_bytes)"
"$HFCTL" -n "${HF_NODES[1]}" config set peer_idle 10s
log_test "memory: reassembly that makes no progress expires, and close() lets go of the socket"

# 8. A full peer table. First spoofed sources at node 1 while node 0, new
# to it, sends; then absent addresses at node 0 before it sends.
"$HFCTL" -n "${HF_NODES[1]}" config set max_peers 16
on 1 timeout 60 "$XFER" recv 7505 1000 3 > "$LOGS/recv5" 2>&1 &
rpid=$!
busywait 10000 has_line "$LOGS/recv5" ready
declare -A c0
for k in peers_evicted drop_peer_limit rx_stranger_replies peers_proven_in; do
	c0[$k]=$(ctr 1 "$k")
done
challenged0=$(ctr 0 tx_challenges)
on 2 "$HOSTILE" --ifname eth0 --dst "$mac1" --classes partial --spoof 300 \
	--dport 7599 --seconds 6 --pps 2000 > "$LOGS/spoof" 2>&1 &
hpid=$!
sleep 1
out=$(on 0 timeout 30 "$XFER" send eth0 "$mac1" 7505 1000 3 2>&1)
check_err $? "a new peer during a flood of spoofed sources: $out"
wait $rpid
check_err $? "node 1 did not receive: $(cat "$LOGS/recv5")"
wait $hpid
read -r _ _ _ flood _ < "$LOGS/spoof"
declare -A d
for k in "${!c0[@]}"; do
	d[$k]=$(($(ctr 1 "$k") - c0[$k]))
done
echo "# node 1, max_peers 16, $flood frames from 300 spoofed sources: peers_evicted" \
	"+${d[peers_evicted]}, drop_peer_limit +${d[drop_peer_limit]}," \
	"rx_stranger_replies +${d[rx_stranger_replies]}, peers_proven_in" \
	"+${d[peers_proven_in]}; node 0 answered $(($(ctr 0 tx_challenges) - challenged0))" \
	"challenges; its 3 messages delivered"
# Strangers the full table refused were answered, at most once a frame.
# (On a slow kernel the flood may not outrun the grace: nothing refused.)
((d[rx_stranger_replies] <= d[drop_peer_limit] &&
  (d[drop_peer_limit] == 0 || d[rx_stranger_replies] > 0)))
check_err $? "${d[drop_peer_limit]} frames refused, ${d[rx_stranger_replies]} stateless answers"
# Frames from a group source address: dropped, never answered, no peer.
# A bridge drops them itself: they come over a veth pair of their own.
ip link add hfgs0 netns "${HF_NODES[2]}" type veth peer name hfgs1 netns "${HF_NODES[1]}"
on 2 ip link set hfgs0 up && on 1 ip link set hfgs1 up
check_err $? "a veth pair from node 2 to node 1"
answers()
{
	echo $(($(ctr 1 rx_stranger_replies) + $(ctr 1 rx_lost_replies) + $(ctr 1 rx_challenges)))
}
bad0=$(ctr 1 drop_bad_source)
answers0=$(answers)
peers0=$(ctr 1 peers)
on 2 "$HOSTILE" --ifname hfgs0 --dst "$(on 1 cat /sys/class/net/hfgs1/address)" \
	--impersonate 01:00:5e:00:00:fb --classes hijack --count 50 > "$LOGS/group" 2>&1
bad=$(($(ctr 1 drop_bad_source) - bad0))
echo "# 50 frames from a group source: drop_bad_source +$bad, answers" \
	"+$(($(answers) - answers0)), peers $peers0 -> $(ctr 1 peers)"
((bad == 50 && $(answers) == answers0 && $(ctr 1 peers) <= peers0))
check_err $? "frames from a group source: drop_bad_source +$bad, or answered, or a peer made"
on 1 ip link del hfgs1
"$HFCTL" -n "${HF_NODES[0]}" config set max_peers 16
out=$(on 0 "${NOBODY[@]}" "$PIN" fill eth0 16 1000 random 2>&1)
echo "# nobody at node 0: $(tr '\n' ' ' <<< "$out")"
on 1 timeout 30 "$XFER" recv 7506 1000 1 > "$LOGS/recv6" 2>&1 &
rpid=$!
busywait 10000 has_line "$LOGS/recv6" ready
out=$(on 0 timeout 30 "$XFER" send eth0 "$mac1" 7506 1000 2>&1)
check_err $? "root's send after nobody filled the table: $out"
wait $rpid
echo "# node 0, max_peers 16, after 16 absent addresses: peers_evicted $(ctr 0 peers_evicted)"
# A peer that only sends to us: its state is small.
"$HFCTL" -n "${HF_NODES[1]}" config set max_peers 4096 peer_idle 30s
peers0=$(ctr 1 peers)
shrink_slabs
k0=$(kmem)
on 2 "$HOSTILE" --ifname eth0 --dst "$mac1" --classes partial --spoof 600 \
	--dport 7599 --count 600 > "$LOGS/spoof600" 2>&1
n=$(($(ctr 1 peers) - peers0))
shrink_slabs
per=$((($(kmem) - k0) / (n > 0 ? n : 1)))
echo "# 600 spoofed sources, one frame each: $n peers, $((per >> 10)) KiB of kernel memory each"
((n >= 500 && per < 16 << 10))
check_err $? "$n peers took $per bytes each"
"$HFCTL" -n "${HF_NODES[1]}" config set max_peers 256 peer_idle 10s
log_test "memory: a full peer table makes room for real peers; a receive-only peer is small"

# 9. Node 1 holds one peer. Node 0 sends once, falls quiet and is evicted
# for node 2, which proves its address with a second message; node 1 then
# keeps node 2 (flow_reset 60s: a proven peer is not quiet before that),
# and node 0, still holding the flow it had, sends again.
"$HFCTL" -n "${HF_NODES[1]}" config set peer_idle 1s
no_peers()
{
	(($(ctr 1 peers) == 0))
}
busywait 30000 no_peers
check_err $? "node 1 still holds $(ctr 1 peers) peers"
"$HFCTL" -n "${HF_NODES[1]}" config set peer_idle 60s max_peers 1 flow_reset 500ms
on 1 timeout 120 "$XFER" recv 7507 1000 2 > "$LOGS/recv7" 2>&1 &
rpid=$!
on 1 timeout 120 "$XFER" recv 7508 65536 2 > "$LOGS/recv8" 2>&1 &
bpid=$!
busywait 10000 has_line "$LOGS/recv7" ready && busywait 10000 has_line "$LOGS/recv8" ready
check_err $? "the receivers did not start"
# Node 0's message starts a new flow (node 1 forgot the one before), which
# node 0 then keeps however long it is idle.
"$HFCTL" -n "${HF_NODES[0]}" config set flow_reset 100ms
sleep 0.3
out=$(on 0 timeout 30 "$XFER" send eth0 "$mac1" 7507 1000 2>&1)
check_err $? "node 0's first message: $out"
"$HFCTL" -n "${HF_NODES[0]}" config set flow_reset 60s
evicted0=$(ctr 1 peers_evicted)
sleep 0.6
for i in 1 2; do
	out=$(on 2 timeout 30 "$XFER" send eth0 "$mac1" 7508 65536 2>&1)
	check_err $? "node 2's message $i: $out"
done
wait $bpid
check_err $? "node 1 did not receive node 2's messages: $(cat "$LOGS/recv8")"
(($(ctr 1 peers_evicted) > evicted0))
check_err $? "node 0 was not evicted for node 2 (peers $(ctr 1 peers))"
"$HFCTL" -n "${HF_NODES[1]}" config set flow_reset 60s
replies0=$(ctr 1 rx_stranger_replies)
resets0=$(ctr 0 tx_resets)
out=$(on 0 timeout 30 "$XFER" send eth0 "$mac1" 7507 1000 2>&1)
rc=$?
replies=$(($(ctr 1 rx_stranger_replies) - replies0))
resets=$(($(ctr 0 tx_resets) - resets0))
echo "# node 0 back while node 2 holds the only place: status $rc ($out);" \
	"rx_stranger_replies +$replies, node 0 tx_resets +$resets"
((rc != 0 && replies > 0 && resets == 1)) && grep -q "reset" <<< "$out"
check_err $? "not answered LOST at once: status $rc, $replies answers, $resets resets: $out"
# Node 2 may now fall quiet, and node 0 take its place.
"$HFCTL" -n "${HF_NODES[1]}" config set flow_reset 500ms
proven0=$(ctr 1 peers_proven_in)
out=$(on 0 timeout 30 "$XFER" send eth0 "$mac1" 7507 1000 2>&1)
check_err $? "node 0 once node 2 fell quiet: $out"
wait $rpid
check_err $? "node 1 did not receive node 0's messages: $(cat "$LOGS/recv7")"
echo "# node 0 once node 2 fell quiet: delivered; peers_proven_in" \
	"+$(($(ctr 1 peers_proven_in) - proven0)), peers_evicted +$(($(ctr 1 peers_evicted) - evicted0))"
"$HFCTL" -n "${HF_NODES[0]}" config set flow_reset 2s
"$HFCTL" -n "${HF_NODES[1]}" config set max_peers 256 peer_idle 10s flow_reset 2s
log_test "memory: a sender evicted from a full table is answered LOST without state, and gets back in"

exit "$(ktap_exit)"
