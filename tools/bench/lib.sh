#!/bin/bash
# The runs the benchmark (tools/bench/guest.sh) and the demo
# (tools/demo/guest.sh) share, sourced in the QEMU guest: hfperf servers
# and clients between the nodes of selftests/lib.sh's topology, each run's
# JSON and a .meta beside it under $OUT/raw, in the layout
# tools/bench/report.py reads. The caller sources the selftests' lib.sh,
# creates the topology and sets OUT, DURATION (pair runs), ROUNDS (a2a),
# MIXED (mixed runs), INCAST_BYTES (per incast sender) and LINK_RATE (hfq
# in the link regime). With FIFO=1 every run also samples the switch's
# tbf FIFOs (fifo.py) and records the guest's idle CPU over the run; with
# RX_SCHED=1 hyperframe's runs are the receiver-scheduled ones (named
# hf-rx, rx_sched=1 in their .meta).

HFPERF=$HF_BUILD/userspace/hfperf/hfperf
HFCTL=$HF_BUILD/userspace/hfctl/hfctl
failures=0
FIFO=${FIFO:-0}
FIFO_INTERVAL=${FIFO_INTERVAL:-0.01}
RX_SCHED=${RX_SCHED:-0}

say() { echo "${SAY:-bench}: $*"; }

# fail WHAT: note a run that did not complete; the report lists it.
fail()
{
	say "FAILED: $*"
	echo "$*" >>"$OUT/failures"
	failures=$((failures + 1))
}

# addr T NODE: NODE's address for transport T.
addr()
{
	if [[ $1 == hf ]]; then
		hf_node_mac "$2"
	else
		hf_node_addr "$2"
	fi
}

# wire_segs T NODE: data segments NODE's namespace has sent so far for T
# (hf, tcp; 0 for udp, whose counters count a GSO send once).
wire_segs()
{
	case $1 in
	hf) ip netns exec "${HF_NODES[$2]}" awk '$1 == "tx_segs" || $1 == "tx_retransmits" \
		{ n += $2 } END { print n + 0 }' /proc/net/hyperframe ;;
	tcp) ip netns exec "${HF_NODES[$2]}" awk '$1 == "Tcp:" && $2 ~ /^[0-9]/ { print $12 }' \
		/proc/net/snmp ;;
	*) echo 0 ;;
	esac
}

# queued_skbs T NODE: skbs of data NODE's namespace has handed to its
# qdisc so far for hf (a carrier, a chained train or a lone segment once,
# and each repair); empty for the others, whose device counts them.
queued_skbs()
{
	case $1 in
	hf) ip netns exec "${HF_NODES[$2]}" awk '$1 == "tx_frame_skbs" || $1 == "tx_retransmits" \
		{ n += $2 } END { print n + 0 }' /proc/net/hyperframe ;;
	*) echo "" ;;
	esac
}

# retransmits T NODE: data segments NODE's namespace has sent again so far
# for T (hf, tcp).
retransmits()
{
	case $1 in
	hf) ip netns exec "${HF_NODES[$2]}" awk '$1 == "tx_retransmits" { print $2 }' \
		/proc/net/hyperframe ;;
	tcp) ip netns exec "${HF_NODES[$2]}" awk '$1 == "Tcp:" && $2 ~ /^[0-9]/ { print $13 }' \
		/proc/net/snmp ;;
	*) echo 0 ;;
	esac
}

# tname T: T as run names and .meta files spell it: hf-rx for hyperframe
# with the receiver's schedule on (RX_SCHED=1).
tname()
{
	if [[ $1 == hf ]] && ((RX_SCHED)); then
		echo hf-rx
	else
		echo "$1"
	fi
}

# cpu_stat: "TOTAL IDLE" jiffies of the whole guest so far (idle and
# iowait are idle; steal and the guest fields are left out).
cpu_stat()
{
	awk '$1 == "cpu" { print $2 + $3 + $4 + $5 + $6 + $7 + $8, $5 + $6 }' /proc/stat
}

# The transport's own account of a run (issue 35, plan step 1): these
# counters of every node, summed, and hfq's rate_delayed, as deltas over
# the run in its .meta (hf_NAME=N); report.py tables them for hyperframe's
# rows. What held a message back: the outcome window, the pacer, credit;
# what the receiver's schedule did; and what loss recovery did.
RUN_COUNTERS=(tx_status_waits tx_pace_waits tx_pacing_delays tx_credit_stalls
	rx_sched_grants rx_sched_reclaims tx_unsched_bytes rx_credit_over
	tx_retransmits tx_spurious_retransmits tx_rto tx_rto_spurious tx_rate_cuts
	tx_repair_undos)

# counters_sum: "NAME VALUE" per RUN_COUNTERS name, summed over the nodes,
# then "hfq_rate_delayed VALUE" over the nodes' hfq (0 where none).
counters_sum()
{
	local i

	for ((i = 0; i < ${#HF_NODES[@]}; i++)); do
		ip netns exec "${HF_NODES[i]}" cat /proc/net/hyperframe
		"$HFCTL" -n "${HF_NODES[i]}" -j qdisc show dev eth0 2>/dev/null |
			python3 -c '
import json, sys
try:
    v = json.load(sys.stdin)
except ValueError:
    sys.exit(0)
for q in v if isinstance(v, list) else [v]:
    print("hfq_rate_delayed", q.get("counters", {}).get("rate_delayed", 0))'
	done | awk -v names="${RUN_COUNTERS[*]} hfq_rate_delayed" '
		BEGIN { n = split(names, order, " "); for (i = 1; i <= n; i++) want[order[i]] = 1 }
		$1 in want { sum[$1] += $2 }
		END { for (i = 1; i <= n; i++) print order[i], sum[order[i]] + 0 }'
}

# run_begin NAME: marks the start of run NAME: the guest's CPU counters,
# the transport's (counters_sum) and, with FIFO=1, a fifo.py sampler of
# the switch's ports in $OUT/raw/NAME.fifo.json, running once its first
# sample is in.
run_begin()
{
	local name=$1 ports=() i

	read -r RUN_CPU_TOTAL RUN_CPU_IDLE < <(cpu_stat)
	RUN_COUNTERS_AT=$(counters_sum)
	FIFO_PID=
	((FIFO)) || return 0
	for ((i = 0; i < ${#HF_NODES[@]}; i++)); do
		ports+=("p$i")
	done
	rm -f "$OUT/raw/$name.fifo.json" "$OUT/raw/$name.fifo.json.ready"
	ip netns exec "$HF_SWITCH" python3 "$HF_TREE/tools/bench/fifo.py" \
		"$OUT/raw/$name.fifo.json" "$FIFO_INTERVAL" "${ports[@]}" \
		2>"$OUT/raw/$name.fifo.err" &
	FIFO_PID=$!
	busywait 60000 test -e "$OUT/raw/$name.fifo.json.ready" ||
		fail "$name: the FIFO sampler did not start: $(head -c 300 "$OUT/raw/$name.fifo.err")"
}

# run_end NAME: stops what run_begin started; RUN_IDLE is the percentage
# of the guest's CPU time that was idle since (the run's own sampler
# included).
run_end()
{
	local name=$1 total idle

	if [[ -n $FIFO_PID ]]; then
		kill -TERM "$FIFO_PID" 2>/dev/null
		wait "$FIFO_PID" || fail "$name: the FIFO sampler: $(head -c 300 "$OUT/raw/$name.fifo.err")"
		rm -f "$OUT/raw/$name.fifo.json.ready"
	fi
	read -r total idle < <(cpu_stat)
	RUN_IDLE=$(((idle - RUN_CPU_IDLE) * 1000 / (total - RUN_CPU_TOTAL + (total == RUN_CPU_TOTAL))))
	RUN_IDLE=$((RUN_IDLE / 10)).$((RUN_IDLE % 10))
	# hf_NAME=DELTA lines for meta().
	RUN_DELTAS=$(join <(echo "$RUN_COUNTERS_AT" | sort) <(counters_sum | sort) |
		awk '{ print "hf_" $1 "=" $3 - $2 }')
}

# server T NODE PORT CLIENTS NAME: an hfperf server in the background.
server()
{
	ip netns exec "${HF_NODES[$2]}" timeout 600 "$HFPERF" server -t "$1" -d eth0 \
		--port "$3" --clients "$4" -j >"$OUT/raw/$5.server.json" 2>"$OUT/raw/$5.server.err" &
	SERVER=$!
}

# meta NAME KEY=VALUE...: what a run was, beside its JSON; with the idle
# CPU of its run_begin .. run_end, whether the receiver scheduled, and
# the transport's counter deltas over the run.
meta()
{
	local name=$1

	shift
	{
		printf '%s\n' "$@" "idle_pct=${RUN_IDLE:-}" "rx_sched=$RX_SCHED"
		[[ -z ${RUN_DELTAS:-} ]] || echo "$RUN_DELTAS"
	} >"$OUT/raw/$name.meta"
	RUN_DELTAS=
}

# client NAME T MODE ARGS...: hfperf MODE ARGS from node 0 to an hfperf
# server on node 1 (a fresh port), its JSON in $OUT/raw/NAME.json, the run
# between run_begin and run_end.
client()
{
	local name=$1 t=$2 mode=$3
	local port=$((7000 + RANDOM % 2000))

	shift 3
	server "$t" 1 "$port" 1 "$name"
	run_begin "$name"
	ip netns exec "${HF_NODES[0]}" timeout 600 "$HFPERF" "$mode" -t "$t" -d eth0 \
		--port "$port" --peer "$(addr "$t" 1)" "$@" \
		--wait 30s -j >"$OUT/raw/$name.json" 2>"$OUT/raw/$name.err" ||
		fail "$name: $(head -c 300 "$OUT/raw/$name.err")"
	wait "$SERVER" || fail "$name server: $(head -c 300 "$OUT/raw/$name.server.err")"
	run_end "$name"
}

# pair REGIME MTU T SIZE: bulk from node 0 to node 1.
pair()
{
	local regime=$1 mtu=$2 t=$3 size=$4 name segs0 queued0 queued=

	name=$regime-$mtu-pair-$(tname "$t")-$size
	segs0=$(wire_segs "$t" 0)
	queued0=$(queued_skbs "$t" 0)
	client "$name" "$t" pair --sizes "$size" --duration "$DURATION"
	[[ -n $queued0 ]] && queued=$(($(queued_skbs "$t" 0) - queued0))
	meta "$name" regime="$regime" mtu="$mtu" kind=pair transport="$t" size="$size" \
		wire_segs=$(($(wire_segs "$t" 0) - segs0)) queued_skbs="$queued"
}

# pingpong REGIME MTU T: 64-byte messages from node 0 to node 1, one at a
# time (window 1), for MIXED: the unloaded round trip (send to the
# receiver's acknowledgement) that mixed's is held against.
pingpong()
{
	local regime=$1 mtu=$2 t=$3 name

	name=$regime-$mtu-pingpong-$(tname "$t")
	client "$name" "$t" pair --sizes 64 --window 1 --duration "$MIXED"
	meta "$name" regime="$regime" mtu="$mtu" kind=pingpong transport="$t" size=64
}

# a2a REGIME MTU T [BYTES]: all-to-all among the nodes, BYTES per pair and
# round (1 MiB, and no size in the run's name, when not given).
a2a()
{
	local regime=$1 mtu=$2 t=$3 bytes=${4:-1m} nodes='' i pids=() name n=${#HF_NODES[@]}
	local port=$((7000 + RANDOM % 2000))

	name=$regime-$mtu-a2a-$(tname "$t")${4:+-$4}
	for ((i = 0; i < n; i++)); do
		nodes+=${nodes:+,}$(addr "$t" "$i")
	done
	run_begin "$name"
	for ((i = 0; i < n; i++)); do
		ip netns exec "${HF_NODES[i]}" timeout 600 "$HFPERF" a2a -t "$t" -d eth0 \
			--port "$port" --rank "$i" --nodes "$nodes" --bytes "$bytes" --rounds "$ROUNDS" \
			--wait 30s -j >"$OUT/raw/$name.rank$i.json" 2>"$OUT/raw/$name.rank$i.err" &
		pids+=($!)
	done
	for ((i = 0; i < n; i++)); do
		wait "${pids[i]}" || fail "$name rank $i: $(head -c 300 "$OUT/raw/$name.rank$i.err")"
	done
	run_end "$name"
	meta "$name" regime="$regime" mtu="$mtu" kind=a2a transport="$t" bytes="$bytes" nodes="$n"
}

# mixed REGIME MTU T: bulk of 1 MiB messages and a 64-byte ping-pong, node 0 to 1.
mixed()
{
	local regime=$1 mtu=$2 t=$3 name

	name=$regime-$mtu-mixed-$(tname "$t")
	client "$name" "$t" mixed --size 1m --duration "$MIXED"
	meta "$name" regime="$regime" mtu="$mtu" kind=mixed transport="$t"
}

# incast REGIME MTU T [BYTES]: every other node sends 1 MiB messages, BYTES
# (INCAST_BYTES when not given) each, to node 0. With 3 senders (4 nodes)
# the run's name is as it always was; with more it ends in -N.
incast()
{
	local regime=$1 mtu=$2 t=$3 bytes=${4:-$INCAST_BYTES} name i pids=() drops
	local port=$((7000 + RANDOM % 2000)) senders=$((${#HF_NODES[@]} - 1))

	name=$regime-$mtu-incast-$(tname "$t")
	((senders != 3)) && name+=-$senders
	drops=$(switch_drops 0)
	server "$t" 0 "$port" "$senders" "$name"
	run_begin "$name"
	for ((i = 1; i <= senders; i++)); do
		ip netns exec "${HF_NODES[i]}" timeout 600 "$HFPERF" incast -t "$t" -d eth0 \
			--port "$port" --peer "$(addr "$t" 0)" --size 1m --bytes "$bytes" --wait 30s -j \
			>"$OUT/raw/$name.sender$i.json" 2>"$OUT/raw/$name.sender$i.err" &
		pids+=($!)
	done
	for ((i = 1; i <= senders; i++)); do
		wait "${pids[i - 1]}" || fail "$name sender $i: $(head -c 300 "$OUT/raw/$name.sender$i.err")"
	done
	wait "$SERVER" || fail "$name server: $(head -c 300 "$OUT/raw/$name.server.err")"
	run_end "$name"
	meta "$name" regime="$regime" mtu="$mtu" kind=incast transport="$t" senders="$senders" \
		switch_drops=$(($(switch_drops 0) - drops))
}

# switch_drops PORT: packets the switch's tbf on pPORT dropped so far (0
# without one); incast records what its run added.
switch_drops()
{
	tc -n "$HF_SWITCH" -s -j qdisc show dev "p$1" 2>/dev/null |
		python3 -c 'import json, sys
print(sum(q.get("drops", 0) for q in json.load(sys.stdin) if q.get("kind") == "tbf"))' 2>/dev/null ||
		echo 0
}

# node_qdisc T: hyperframe's nodes pace with hfq at the link rate in the
# link regime (their own link: a sender's NIC goes no faster), with
# rx_sched RX_SCHED (and, when 1, link_rate LINK_RATE) in every node's
# namespace (hfctl config set); TCP and UDP keep veth's default.
node_qdisc()
{
	local i

	for ((i = 0; i < ${#HF_NODES[@]}; i++)); do
		if [[ $1 == hf ]]; then
			ip netns exec "${HF_NODES[i]}" tc qdisc replace dev eth0 root hfq &&
				"$HFCTL" -n "${HF_NODES[i]}" qdisc set dev eth0 rate "$LINK_RATE" ||
				fail "hfq at $LINK_RATE on node $i"
			# link_rate counts only under rx_sched (hfq's rate first).
			"$HFCTL" -n "${HF_NODES[i]}" config set rx_sched "$RX_SCHED" \
				link_rate "$( ((RX_SCHED)) && echo "$LINK_RATE" || echo 0)" ||
				fail "rx_sched $RX_SCHED on node $i"
		else
			ip netns exec "${HF_NODES[i]}" tc qdisc del dev eth0 root 2>/dev/null
		fi
	done
}

# profile MTU T: a 4 MiB pair run of T under `perf record -a -g` (cpu-clock:
# a TCG guest has no PMU), the reports beside it in $OUT/raw as
# profile-T.{children,self,comm}.txt. perf takes seconds to start under
# TCG, so the run waits until its workload does (recording has begun) and
# stops it when the run ends: the profile covers the run and little else.
profile()
{
	local mtu=$1 t=$2 mark pid n=0 sort opts
	local data=$OUT/raw/profile-$t.data

	command -v perf >/dev/null || { fail "profile $t: perf is not installed"; return; }
	mark=$(mktemp -u)
	perf record -e cpu-clock -F 499 -a -g -o "$data" -- \
		sh -c "touch $mark; exec sleep 600" >"$OUT/raw/profile-$t.err" 2>&1 &
	pid=$!
	while [[ ! -e $mark ]] && kill -0 "$pid" 2>/dev/null && ((n++ < 1200)); do
		sleep 0.1
	done
	if [[ ! -e $mark ]]; then
		kill "$pid" 2>/dev/null
		wait "$pid"
		fail "profile $t: perf record did not start: $(head -c 300 "$OUT/raw/profile-$t.err")"
		return
	fi
	rm -f "$mark"
	pair profile "$mtu" "$t" 4m
	kill -INT "$pid"
	wait "$pid"
	for sort in children self comm; do
		case $sort in
		children) opts=(--children --sort sym) ;;
		self) opts=(--no-children --sort sym) ;;
		comm) opts=(--no-children --sort comm) ;;
		esac
		perf report -i "$data" "${opts[@]}" -n -g none --stdio --percent-limit 0.1 \
			>"$OUT/raw/profile-$t.$sort.txt" 2>>"$OUT/raw/profile-$t.err" ||
			fail "profile $t: perf report --sort $sort failed"
	done
	rm -f "$data" "$data.old"
}

# lossy_pair NETEM TAG T: bulk of 1 MiB messages from node 0 to node 1 for
# LOSSY_DURATION, with NETEM already on both nodes' eth0 (TAG names it in
# the file names): goodput and each message's latency, send to
# acknowledgement, p50/p99/p999 (issue 40: under light loss a flow must
# not wait like one whose peer went silent).
lossy_pair()
{
	local netem=$1 tag=$2 t=$3 name r0

	name=lossy-1500-pair-$t-$tag
	r0=$(retransmits "$t" 0)
	client "$name" "$t" pair --sizes 1m --duration "$LOSSY_DURATION"
	meta "$name" regime=lossy mtu=1500 kind=pair transport="$t" size=1m \
		netem="$netem" retransmits=$(($(retransmits "$t" 0) - r0))
}
