#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Soak: mixed traffic among 4 nodes behind a bridge, every node's eth0
# under netem loss, delay and reordering, for HF_SOAK_SECONDS (default
# 30, the short version in the suite; "make soak" runs it long). Rounds
# until the deadline: an all-to-all of mid-size messages, then an incast
# of 1 MiB messages (three nodes to the fourth, a different one each
# round) alongside many 1..512 B messages between every pair. Every
# message is checked byte for byte by hf_xfer's receiver. The counters of
# every node are sampled every HF_SOAK_INTERVAL seconds (default 5) into
# HF_SOAK_LOG (default: a temporary file, summarised on stdout).
#
# Alongside the rounds, for the whole soak, hf_churn sends random-size
# messages (1 B to HF_SOAK_CHURN_MAX, default 256 KiB) both ways between
# nodes 0 and 1 and between nodes 2 and 3, with blocking sends, timing the
# longest sendto() and the longest wait of a message from sendto() to its
# delivery confirmation (issue 40).
#
# With HF_SOAK_HOSTILE=1 (the default) a fifth node on a switch port that
# learns no addresses injects blindly all along (hf_hostile): DATA in new
# epochs in node 0's name at node 1, ACKs in node 1's name at node 0,
# and at node 2 a flood of partial messages from spoofed sources with a
# duplicate trickle; none may cost a legitimate message.
#
# Asserted: every transfer succeeded; the counters agree with what was
# asked (sent == received == confirmed delivered, nothing failed) and the
# netem losses were repaired; the longest blocking send and the longest
# message wait stay within a bound derived from the path, and no flow spent
# any time at its maximum timeout backoff while its peer answered (the
# counter tx_backoff_answered_us stays 0); once traffic stops no receive
# memory is held and the idle peers are reclaimed; after the topology is
# torn down, slab memory is within HF_SOAK_MEM_BOUND_KB (default 8 MiB) of
# what it was before. Ends with a report ("# soak report" lines).
#
# The bound, derived from the path as the soak loads it: G, the bytes
# all nodes received over the traffic's duration, shared by the
# NODES * (NODES - 1) directed flows the rounds keep busy, gives a flow
# G / 12. A churn message waits for what its flow carries before it, both
# sockets' queues, at most 2 (SO_SNDBUF + HF_SOAK_CHURN_MAX), so
# 4 * 2 (SO_SNDBUF + HF_SOAK_CHURN_MAX) * 12 / G (a factor 4 for flows
# that get less than the mean share), plus at most one timeout of a peer
# that answers, the module's rto_max_us (2 s). A stall of one flow barely
# moves G, the other flows going on. Under TCG with the rounds beside it
# that is about 10 s; a flow held at its maximum backoff waited tens of
# seconds per stall, over and over. The exact check is the other one:
# tx_backoff_answered_us stays 0.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

XFER=$HF_DIR/hf_xfer
HOSTILE=$HF_DIR/hf_hostile
HOSTILE_ON=${HF_SOAK_HOSTILE:-1}
HFCTL=${HFCTL:-${HF_BUILD:?set HFCTL or HF_BUILD}/userspace/hfctl/hfctl}
SECS=${HF_SOAK_SECONDS:-30}
INTERVAL=${HF_SOAK_INTERVAL:-5}
NETEM=${HF_SOAK_NETEM:-loss 1% delay 1ms reorder 5%}
MEM_BOUND_KB=${HF_SOAK_MEM_BOUND_KB:-8192}
CHURN_MAX=${HF_SOAK_CHURN_MAX:-262144}
# One round. All-to-all: every ordered pair, these sizes, twice.
A2A_SIZES=1000,1456,1457,9000,65536,150000
A2A_REPEAT=2
# Incast: three nodes send this many 1 MiB messages each to the fourth.
INCAST_REPEAT=3
# Small messages, every ordered pair, alongside the incast.
SMALL_SIZES=1,2,3,7,16,31,64,100,127,128,200,255,256,300,400,511,512
SMALL_REPEAT=6
NODES=4

LOGS=$(mktemp -d)
SAMPLES=${HF_SOAK_LOG:-$LOGS/samples}
: >"$SAMPLES"

# shellcheck disable=SC2086
count_sizes() { local IFS=,; set -- $1; echo $#; }
MSGS_PER_ROUND=$((NODES * (NODES - 1) * $(count_sizes "$A2A_SIZES") * A2A_REPEAT +
	(NODES - 1) * INCAST_REPEAT +
	NODES * (NODES - 1) * $(count_sizes "$SMALL_SIZES") * SMALL_REPEAT))

# nstat NODE: the node's counters, one "name value" a line, read through
# a process living in its namespace (cheaper than "ip netns exec" under
# TCG, which matters for the sampler).
nstat()
{
	cat "/proc/${HOLDERS[$1]}/net/hyperframe"
}

# total FILE_PREFIX KEY: KEY summed over the snapshots FILE_PREFIX-0..3.
total()
{
	cat "$1"-* | awk -v k="$2" '$1 == k {n += $2} END {print n + 0}'
}

# quiet: no node holds a peer or receive memory (called through busywait).
# shellcheck disable=SC2317
quiet()
{
	local i

	for ((i = 0; i < NODES; i++)); do
		nstat "$i" | awk '($1 == "peers" || $1 == "rx_mem_bytes" ||
			$1 == "rx_mem_reserved_bytes") && $2 != 0 {bad = 1}
			END {exit bad}' || return 1
	done
}

# meminfo: "Slab SUnreclaim MemAvailable" in kB.
meminfo()
{
	awk '$1 == "Slab:" {s = $2} $1 == "SUnreclaim:" {u = $2}
	     $1 == "MemAvailable:" {a = $2} END {print s, u, a}' /proc/meminfo
}

# memother: other memory figures, for the report: "Name kB" pairs.
memother()
{
	awk '$1 ~ /^(MemFree|Cached|AnonPages|Shmem|KernelStack|PageTables|Percpu|VmallocUsed):$/ {
		printf "%s %s ", substr($1, 1, length($1) - 1), $2}' /proc/meminfo
	# Free pages parked on the per-CPU lists, which MemFree leaves out.
	awk '$1 == "count:" {n += $2} END {printf "pcp-lists %d", n * 4}' \
		/proc/zoneinfo
}

# note MSG: progress, with the seconds since the test started.
note()
{
	echo "# [+${SECONDS}s] $*"
}

# settle: let namespace teardown, RCU callbacks and reclaim finish: drop
# caches and wait until the unreclaimable slab stops shrinking (at most
# 30 s).
settle()
{
	local prev cur i

	prev=$(meminfo | awk '{print $2}')
	for ((i = 0; i < 30; i++)); do
		sync
		echo 3 >/proc/sys/vm/drop_caches
		sleep 1
		cur=$(meminfo | awk '{print $2}')
		((prev - cur < 64)) && break
		prev=$cur
	done
}

# xfer FROM TO PORT SIZES REPEAT: one verified transfer. On failure,
# leaves the reason in $LOGS/fail-FROM-TO-PORT; on success, no files.
xfer()
{
	local from=$1 to=$2 port=$3 sizes=$4 repeat=$5
	local rlog=$LOGS/recv-$port slog=$LOGS/send-$port
	local fail=$LOGS/fail-$from-$to-$port rpid rc n line

	ip netns exec "${HF_NODES[to]}" "$XFER" recv "$port" "$sizes" \
		"$repeat" >"$rlog" 2>&1 &
	rpid=$!
	# Polled with builtins and a slow sleep: two dozen receivers start at
	# once, and forks are dear under TCG.
	for ((n = 0; n < 150; n++)); do
		[[ -s $rlog ]] && break
		sleep 0.2
	done
	read -r line <"$rlog"
	if [[ $line != ready ]]; then
		echo "receiver $to:$port did not start: $(cat "$rlog")" >"$fail"
		kill "$rpid" 2>/dev/null
		wait "$rpid"
		return 1
	fi
	ip netns exec "${HF_NODES[from]}" timeout 300 "$XFER" send eth0 \
		"${MACS[to]}" "$port" "$sizes" "$repeat" >"$slog" 2>&1
	rc=$?
	if ((rc)); then
		echo "sender $from -> $to:$port exited $rc: $(cat "$slog")" >"$fail"
		kill "$rpid" 2>/dev/null
		wait "$rpid"
		return 1
	fi
	# Everything was confirmed delivered: the receiver has it all.
	timeout 60 tail --pid="$rpid" -f /dev/null
	kill "$rpid" 2>/dev/null
	wait "$rpid"
	rc=$?
	if ((rc)); then
		echo "receiver $from -> $to:$port exited $rc: $(cat "$rlog")" >"$fail"
		return 1
	fi
	rm -f "$rlog" "$slog"
}

# round R: one round of traffic; ports differ from the previous rounds'.
round()
{
	local r=$1
	local base=$((10000 + (r % 100) * 100)) sink=$((r % NODES))
	local i j pids=()

	for ((i = 0; i < NODES; i++)); do
		for ((j = 0; j < NODES; j++)); do
			((i == j)) && continue
			xfer "$i" "$j" $((base + 10 * i + j)) "$A2A_SIZES" \
				"$A2A_REPEAT" &
			pids+=($!)
		done
	done
	wait "${pids[@]}"
	pids=()
	for ((i = 0; i < NODES; i++)); do
		((i == sink)) && continue
		xfer "$i" "$sink" $((base + 40 + i)) 1048576 "$INCAST_REPEAT" &
		pids+=($!)
	done
	for ((i = 0; i < NODES; i++)); do
		for ((j = 0; j < NODES; j++)); do
			((i == j)) && continue
			xfer "$i" "$j" $((base + 50 + 10 * i + j)) "$SMALL_SIZES" \
				"$SMALL_REPEAT" &
			pids+=($!)
		done
	done
	wait "${pids[@]}"
}

# sample T: one line per node into $SAMPLES, one summary line on stdout
# (T is the time in seconds, or "end"). Bash builtins only: every exec
# reads its binary over 9p in the guest, seconds each under a loaded TCG.
sample()
{
	local t=$1 i k v line lines='' r=''
	local -A sum=()

	for ((i = 0; i < NODES; i++)); do
		line="t=$t node=$i"
		while read -r k v; do
			((v)) || continue
			line+=" $k=$v"
			sum[$k]=$((${sum[$k]:-0} + v))
		done <"/proc/${HOLDERS[i]}/net/hyperframe"
		lines+=$line$'\n'
	done
	printf '%s' "$lines" >>"$SAMPLES"
	while read -r k v _; do
		sum[$k]=$v
	done </proc/meminfo
	[[ -r $LOGS/round ]] && read -r r <"$LOGS/round"
	echo "# sample t=$t round $r: msgs sent ${sum[tx_msgs]:-0}" \
		"received ${sum[rx_msgs]:-0} failed ${sum[tx_msgs_failed]:-0}," \
		"retransmits ${sum[tx_retransmits]:-0}, rto ${sum[tx_rto]:-0}," \
		"rx_mem ${sum[rx_mem_bytes]:-0} B, peers ${sum[peers]:-0}," \
		"Slab ${sum[Slab:]} kB, SUnreclaim ${sum[SUnreclaim:]} kB," \
		"MemAvailable ${sum[MemAvailable:]} kB"
}

sampler()
{
	local t0=$SECONDS

	while :; do
		sample $((SECONDS - t0))
		sleep "$INTERVAL"
	done
}

# topo [N] [monitor]: N nodes (default 4) with netem on every eth0; with
# "monitor", every node's events are recorded in $LOGS/events-I.
topo()
{
	local i n=${1:-$NODES} mon=${2:-}

	hf_topo_create "$n" 1500 || return 1
	MACS=()
	HOLDERS=()
	for ((i = 0; i < n; i++)); do
		ip netns exec "${HF_NODES[i]}" sleep 1000000 &
		HOLDERS+=($!)
		defer kill "$!"
		# shellcheck disable=SC2086
		ip netns exec "${HF_NODES[i]}" tc qdisc add dev eth0 root \
			netem $NETEM || return 1
		MACS+=("$(hf_node_mac "$i")")
		[[ -n $mon ]] || continue
		"$HFCTL" -n "${HF_NODES[i]}" -j monitor >"$LOGS/events-$i" 2>&1 &
		defer kill "$!"
	done
}

# hostile_start: the blind injector on node NODES (topo NODES+1), for the
# soak's duration; its processes in HOSTILE_PIDS, logs $LOGS/hostile-*.
HOSTILE_PIDS=()
hostile_start()
{
	local h=$NODES

	ip -n "$HF_SWITCH" link set dev "p$h" type bridge_slave learning off
	ip netns exec "${HF_NODES[h]}" "$HOSTILE" --ifname eth0 --dst "${MACS[1]}" \
		--impersonate "${MACS[0]}" --classes hijack --seconds "$SECS" \
		--pps 100 --seed 11 >"$LOGS/hostile-hijack" 2>&1 &
	HOSTILE_PIDS+=($!)
	ip netns exec "${HF_NODES[h]}" "$HOSTILE" --ifname eth0 --dst "${MACS[0]}" \
		--impersonate "${MACS[1]}" --classes sweep --seconds "$SECS" \
		--pps 100 --seed 12 >"$LOGS/hostile-sweep" 2>&1 &
	HOSTILE_PIDS+=($!)
	ip netns exec "${HF_NODES[h]}" "$HOSTILE" --ifname eth0 --dst "${MACS[2]}" \
		--classes partial,trickle --spoof 32 --dport 9999 --seconds "$SECS" \
		--pps 50 --seed 13 >"$LOGS/hostile-spoof" 2>&1 &
	HOSTILE_PIDS+=($!)
}

# flow_story FAILFILE: for a failed transfer ("fail-FROM-TO-PORT"), what
# each end's monitor said about the other (back-offs left out).
flow_story()
{
	local from to

	IFS=- read -r _ from to _ <<<"$(basename "$1")"
	echo "# events of node $from about node $to:"
	grep -v '"event":"backoff"' "$LOGS/events-$from" |
		grep -F "\"${MACS[to]}\"" | sed 's/^/#   /'
	echo "# events of node $to about node $from:"
	grep -v '"event":"backoff"' "$LOGS/events-$to" |
		grep -F "\"${MACS[from]}\"" | sed 's/^/#   /'
}

ktap_plan $((5 + HOSTILE_ON))
echo "# soak: ${SECS}s of traffic, $NODES nodes, netem '$NETEM'," \
	"$MSGS_PER_ROUND messages a round"

# Warm-up: the first topology loads veth, bridge and netem and sizes
# their caches; that is not what the memory check is about. Three nodes
# are enough for a bridge.
topo 3
xfer 0 1 9000 1,100000 1
check_err $? "warm-up transfer: $(cat "$LOGS"/fail-* 2>/dev/null)"
rm -f "$LOGS"/fail-*
defer_run
settle
read -r slab0 sunr0 avail0 < <(meminfo)
other0=$(memother)
note "warm-up done; Slab $slab0 kB, SUnreclaim $sunr0 kB, MemAvailable $avail0 kB"

# Traffic.
echo "# soak config: $("$HFCTL" config show | tr -s '\n ' ' ')"
topo $((NODES + HOSTILE_ON)) monitor
check_err $? "topology with netem '$NETEM'"
((HOSTILE_ON)) && hostile_start
note "topology up, traffic starts"
sampler &
spid=$!
start=$SECONDS
hf_churn_start 0 1 "$SECS" "$CHURN_MAX" 9200 "$LOGS/churn01"
churn01=("${HF_CHURN_PIDS[@]}")
hf_churn_start 2 3 "$SECS" "$CHURN_MAX" 9200 "$LOGS/churn23"
churn23=("${HF_CHURN_PIDS[@]}")
rounds=0
while ((RET == 0 && (rounds == 0 || SECONDS - start < SECS))); do
	echo "$rounds" >"$LOGS/round"
	round "$rounds"
	rounds=$((rounds + 1))
	ls "$LOGS"/fail-* >/dev/null 2>&1 && break
done
HF_CHURN_PIDS=("${churn01[@]}" "${churn23[@]}")
hf_churn_wait
churn_rc=$?
hostile_rc=0
for pid in "${HOSTILE_PIDS[@]}"; do
	wait "$pid" || hostile_rc=1
done
elapsed=$((SECONDS - start))
note "traffic done"
nfail=$(find "$LOGS" -name 'fail-*' | wc -l)
for f in "$LOGS"/fail-*; do
	[[ -e $f ]] || continue
	echo "# $(cat "$f")"
	flow_story "$f"
done
check_eq "$nfail" 0 "failed transfers"
log_test "soak: $rounds rounds in ${elapsed}s, every transfer byte-exact (all-to-all, incast, small messages)"

# The counters, once every sender has its outcomes.
for ((i = 0; i < NODES; i++)); do
	nstat "$i" >"$LOGS/end-$i"
done
# hf_churn's messages, with the two end marks each process sends.
churn_msgs=0
for f in "$LOGS"/churn01-[01] "$LOGS"/churn23-[23]; do
	churn_msgs=$((churn_msgs + $(hf_churn_field sent "$f") + 2))
done
want=$((rounds * MSGS_PER_ROUND + churn_msgs))
tx_msgs=$(total "$LOGS/end" tx_msgs)
rx_msgs=$(total "$LOGS/end" rx_msgs)
delivered=$(total "$LOGS/end" tx_msgs_delivered)
failed=$(total "$LOGS/end" tx_msgs_failed)
retransmits=$(total "$LOGS/end" tx_retransmits)
lost=0
for ((i = 0; i < NODES; i++)); do
	n=$(ip netns exec "${HF_NODES[i]}" tc -s qdisc show dev eth0 |
		sed -n 's/.*dropped \([0-9]*\).*/\1/p' | head -n 1)
	lost=$((lost + ${n:-0}))
done
if ((nfail == 0)); then
	check_eq "$tx_msgs" "$want" "messages sent"
	check_eq "$rx_msgs" "$want" "messages received"
fi
check_eq "$delivered" "$rx_msgs" "messages confirmed delivered vs received"
check_eq "$failed" 0 "messages failed"
((lost > 0 && retransmits > 0))
check_err $? "netem lost $lost frames, $retransmits retransmits: the loss was not exercised"
log_test "soak: counters agree: sent == received == confirmed, none failed, losses repaired"

# Blocking sends and message waits (issue 40).
churn_files=("$LOGS"/churn01-[01] "$LOGS"/churn23-[23])
for f in "${churn_files[@]}"; do
	echo "# churn node ${f##*-}: $(grep -v '^ready' "$f" | tr '\n' ' ')"
done
check_err "$churn_rc" "hf_churn failed: $(cat "${churn_files[@]}" | grep -v '^ready')"
sndbuf=$(hf_churn_field sndbuf "${churn_files[@]}")
rto_max_ms=$(("$("$HFCTL" -j config show | json_field rto_max_us)" / 1000))
goodput=$(($(total "$LOGS/end" rx_bytes) / (elapsed > 0 ? elapsed : 1)))
((goodput > 0)) || goodput=1
flows=$((NODES * (NODES - 1)))
bound_ms=$((4 * 2 * (sndbuf + CHURN_MAX) * flows * 1000 / goodput + rto_max_ms))
echo "# path goodput $((goodput / 1000)) kB/s over $flows flows: bound on sends and waits $bound_ms ms"
max_send=$(hf_churn_field max_send_ms "${churn_files[@]}")
max_wait=$(hf_churn_field max_wait_ms "${churn_files[@]}")
answered=$(total "$LOGS/end" tx_backoff_answered_us)
check_err "$(awk -v s="${max_send:-0}" -v b="$bound_ms" 'BEGIN {print !(s <= b)}')" \
	"a blocking send took $max_send ms (bound $bound_ms)"
check_err "$(awk -v s="${max_wait:-0}" -v b="$bound_ms" 'BEGIN {print !(s <= b)}')" \
	"a message waited $max_wait ms for its confirmation (bound $bound_ms)"
check_eq "$answered" 0 "us flows spent at maximum backoff while the peer answered"
log_test "soak: longest blocking send ${max_send} ms, longest message wait ${max_wait} ms (bound $bound_ms), no answered backoff"

# Quiescence: no receive memory held, and the peers, idle for
# peer_idle_ms (10 s), reclaimed.
kill "$spid" 2>/dev/null
wait "$spid" 2>/dev/null
sample end
for ((i = 0; i < NODES; i++)); do
	check_eq "$(nstat "$i" | awk '$1 == "rx_mem_bytes" {print $2}')" 0 \
		"rx_mem_bytes on node $i once traffic stopped"
done
t0=$SECONDS
busywait 40000 quiet
check_err $? "peers or receive memory left after 40 s idle: $(for ((i = 0; i < NODES; i++)); do
	nstat "$i" | grep -E '^(peers|rx_mem)' | tr '\n' ' '; done)"
idle=$((SECONDS - t0))
quiesced=$((RET == 0))
log_test "soak: no receive memory held once traffic stopped, idle peers reclaimed (${idle}s)"

if ((HOSTILE_ON)); then
	check_eq "$hostile_rc" 0 "hf_hostile exit status"
	for f in "$LOGS"/hostile-*; do
		echo "# $(basename "$f"): $(grep -E '^(hf_hostile|class)' "$f" | tr '\n' ' ')"
	done
	forged1=$(($(awk '$1 ~ /^(drop_unproven|drop_forged|drop_no_state)$/ {n += $2} END {print n + 0}' \
		"$LOGS/end-1")))
	forged0=$(awk '$1 ~ /^(drop_ack_invalid|drop_epoch)$/ {n += $2} END {print n + 0}' "$LOGS/end-0")
	evicted2=$(awk '$1 ~ /^(peers_evicted|drop_peer_limit|rx_msgs_expired)$/ {n += $2}
		END {print n + 0}' "$LOGS/end-2")
	echo "# blind injection dropped: at node 1 (forged DATA) $forged1, at node 0" \
		"(forged ACKs) $forged0; node 2's spoofed flood: evictions, refusals and" \
		"expiries $evicted2; resets $(total "$LOGS/end" tx_resets)"
	((forged1 > 0 && forged0 > 0))
	check_err $? "the blind injection was not seen: node 1 $forged1, node 0 $forged0"
	check_eq "$(total "$LOGS/end" tx_resets)" 0 "flows reset under blind injection"
	log_test "soak: blind injection all along (forged epochs, forged ACKs, spoofed sources, a duplicate trickle) cost no message"
fi

rx_mem_peak=$(awk '{for (i = 3; i <= NF; i++) if ($i ~ /^rx_mem_bytes=/) {
	split($i, kv, "="); n[$1] += kv[2]}} END {for (t in n) if (n[t] > m) m = n[t];
	print m + 0}' "$SAMPLES")
drops=$(cat "$LOGS"/end-* | awk '$1 ~ /^drop_/ {n[$1] += $2}
	END {for (k in n) if (n[k]) printf " %s=%d", k, n[k]}')

# Teardown, and the memory the kernel gave back.
note "peers reclaimed; tearing down"
defer_run
settle
read -r slab1 sunr1 avail1 < <(meminfo)
other1=$(memother)
note "settled"
init_rx_mem=$(awk '$1 == "rx_mem_bytes" {print $2}' /proc/net/hyperframe)
check_eq "$init_rx_mem" 0 "rx_mem_bytes in the initial namespace"
((sunr1 - sunr0 < MEM_BOUND_KB))
check_err $? "SUnreclaim grew by $((sunr1 - sunr0)) kB (bound $MEM_BOUND_KB kB)"
((slab1 - slab0 < MEM_BOUND_KB))
check_err $? "Slab grew by $((slab1 - slab0)) kB (bound $MEM_BOUND_KB kB)"
log_test "soak: slab memory after teardown within $MEM_BOUND_KB kB of before"

cat <<EOF
# soak report: ${SECS}s asked, ${elapsed}s of traffic, $rounds rounds, netem '$NETEM' on every node
# soak report: transfers failed $nfail; messages sent $tx_msgs, received $rx_msgs, confirmed delivered $delivered, failed $failed (expected $want)
# soak report: bytes sent $(total "$LOGS/end" tx_bytes), received $(total "$LOGS/end" rx_bytes)
# soak report: data segments $(total "$LOGS/end" tx_segs), lost by netem $lost, retransmitted $retransmits (spurious $(total "$LOGS/end" tx_spurious_retransmits), repairs lost $(total "$LOGS/end" tx_repairs_lost)), rto $(total "$LOGS/end" tx_rto) ($(total "$LOGS/end" tx_rto_spurious) found early), resent for room $(total "$LOGS/end" tx_window_resends), reorder waits $(total "$LOGS/end" tx_reorder_waits), duplicates received $(total "$LOGS/end" rx_duplicates), resets $(total "$LOGS/end" tx_resets)
# soak report: blocking sends and message waits (hf_churn, 1 B..$CHURN_MAX B both ways, nodes 0-1 and 2-3): longest send ${max_send} ms, longest wait ${max_wait} ms, bound $bound_ms ms (path goodput $((goodput / 1000)) kB/s over $flows flows); at maximum backoff while answered: $answered us
# soak report: drops:${drops:- none}
# soak report: rx_mem_bytes peak $rx_mem_peak (summed over nodes, sampled), back to 0 and peers reclaimed: $( ((quiesced)) && echo "yes, ${idle}s after the traffic" || echo "NO, see above")
# soak report: memory kB before -> after teardown: Slab $slab0 -> $slab1 ($((slab1 - slab0))), SUnreclaim $sunr0 -> $sunr1 ($((sunr1 - sunr0))), MemAvailable $avail0 -> $avail1 ($((avail1 - avail0))); bound $MEM_BOUND_KB
# soak report: other kernel memory kB before -> after: $(echo "$other0 $other1" | awk '{
	n = NF / 2
	for (i = 1; i < n; i += 2) printf "%s %d -> %d, ", $i, $(i + 1), $(n + i + 1)}' | sed 's/, $//')
EOF
rm -rf "$LOGS"

exit "$(ktap_exit)"
