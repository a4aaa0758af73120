#!/bin/bash
# The benchmark's guest side ("make bench"): runs in the QEMU guest with
# hyperframe.ko loaded and writes every measurement as JSON under
# /run/hf/bench (the host's run directory), for tools/bench/report.py.
#
# On a 4-node cluster of namespaces behind a bridge, every transport side
# by side in one run (hyperframe, TCP, UDP with GSO/GRO as a ceiling):
#  - cpu regime (unshaped veth), MTU 1500 and 9000: pair bulk per message
#    size, all-to-all (1 MiB per pair and round), bulk plus ping-pong,
#    incast 3 to 1;
#  - link regime (MTU 1500): every switch port towards a node is a link of
#    LINK_RATE (50 Mbit/s unless --link-rate says otherwise: a rate at
#    which a TCG guest's 4 nodes are held by the links, not the CPU) with
#    a finite FIFO (tbf), as a switch port; hyperframe's nodes put hfq at
#    that rate on their own port (their link share, and the rate their
#    ACKs hint), TCP's keep the veth default. Three rows: hyperframe as it
#    is by default, hyperframe with the receiver's schedule on (rx_sched
#    1, link_rate LINK_RATE in every node), TCP; each runs a 4 MiB pair,
#    an unloaded 64-byte ping-pong and the mixed run beside it, all-to-all
#    at every A2A_SIZES bytes per pair, incast 3 to 1 and, on 8 nodes
#    unless the guest cannot carry it, incast 7 to 1. During every
#    link-regime run fifo.py samples each switch port's FIFO every 10 ms,
#    and the guest's idle CPU over the run is recorded (a run with little
#    idle CPU measured the CPU, not the links);
#  - under loss and reordering (two nodes on a veth pair, netem on both
#    ends: loss 0.5 %, loss 2 %, delay 1ms reorder 25% 50% with no loss):
#    1 MiB bulk per transport (hyperframe, TCP), goodput and message
#    latency p50/p99/p999, and the segments sent again;
#  - the software limit: an AF_UNIX stream with large writes (two copies
#    per byte);
#  - CPU time per byte for every run (hfperf's, from /proc/stat);
#  - a profile (perf record -a -g) of one 4 MiB pair run per transport
#    (hyperframe, TCP) in the CPU-bound regime at MTU 1500: where each
#    one's CPU time goes (lib.sh's profile());
#  - RoCE through soft-RoCE (rxe) over loopback with perftest, where the
#    guest can, as a reference row (init namespace only: rxe in 6.1 opens
#    its UDP socket there).
# Each hyperframe and TCP run also records the wire segments its sender's
# namespace counted (/proc/net/hyperframe, /proc/net/snmp), so packets per
# MiB are wire packets as well as skbs.
#
# Usage: guest.sh [--quick] [--link-rate=RATE] [--no-incast7]
#   --quick: shorter runs, fewer sizes (CI); --link-rate: the link
#   regime's rate, as tc takes it (50mbit); --no-incast7: no 8-node
#   incast (the report says it was skipped, and why).
set -uo pipefail

source "$HF_BUILD/ksft/hyperframe/lib.sh"
source "$HF_TREE/tools/bench/lib.sh"
OUT=/run/hf/bench
LINK_RATE=50mbit
quick=0
incast7=1
for arg; do
	case $arg in
	--quick) quick=1 ;;
	--link-rate=*) LINK_RATE=${arg#--link-rate=} ;;
	--no-incast7) incast7=0 ;;
	*) echo "guest.sh: unknown argument $arg" >&2; exit 2 ;;
	esac
done

if ((quick)); then
	SIZES=(4k 1m 4m)
	DURATION=1s
	ROUNDS=4
	MIXED=2s
	INCAST_BYTES=4m
	LOSSY_DURATION=4s
	A2A_SIZES=(256k 4m)
	LINK_DURATION=3s
	INCAST7_BYTES=2m
else
	SIZES=(4k 64k 256k 1m 4m 16m 64m)
	DURATION=2s
	ROUNDS=10
	MIXED=3s
	INCAST_BYTES=16m
	LOSSY_DURATION=10s
	A2A_SIZES=(64k 256k 1m 4m)
	LINK_DURATION=6s
	INCAST7_BYTES=8m
fi
LOSSY_NETEM=("loss 0.5%" "loss 2%" "delay 1ms reorder 25% 50%")
mkdir -p "$OUT/raw"

# regime NAME MTU: one regime's runs for every transport.
regime()
{
	local name=$1 mtu=$2 t s

	hf_topo_create 4 "$mtu" || { fail "topology $name $mtu"; return; }
	for t in hf tcp udp; do
		say "$name regime, MTU $mtu, $t: pair sizes ${SIZES[*]}"
		for s in "${SIZES[@]}"; do
			pair "$name" "$mtu" "$t" "$s"
		done
		[[ $t == udp ]] && continue
		say "$name regime, MTU $mtu, $t: all-to-all, mixed, incast"
		a2a "$name" "$mtu" "$t"
		[[ $mtu == 9000 ]] && continue
		mixed "$name" "$mtu" "$t"
		incast "$name" "$mtu" "$t"
	done
	if [[ $name == cpu && $mtu == 1500 ]]; then
		say "$name regime, MTU $mtu: profiles of a 4 MiB pair run, hf and tcp"
		profile "$mtu" hf
		profile "$mtu" tcp
	fi
	defer_run
}

# switch_links N: every port of the switch towards N nodes a link of
# LINK_RATE, a 32 KB bucket and a 256 KB FIFO (tbf).
switch_links()
{
	local i

	for ((i = 0; i < $1; i++)); do
		tc -n "$HF_SWITCH" qdisc replace dev "p$i" root tbf rate "$LINK_RATE" \
			burst 32k limit 256k || fail "tbf on p$i"
	done
}

# The link regime's rows: hf, hf with the receiver's schedule (hf:rx), tcp.
LINK_ROWS=(hf hf:rx tcp)

# link_row ROW: sets RX_SCHED and the nodes' qdiscs for ROW; T is its
# transport.
link_row()
{
	T=${1%%:*}
	RX_SCHED=0
	[[ $1 == *:rx ]] && RX_SCHED=1
	node_qdisc "$T"
}

# link_regime: the link-bound runs (MTU 1500) on 4 nodes, then incast 7
# to 1 on 8 where the guest can carry it; every run samples the switch's
# FIFOs (FIFO=1).
link_regime()
{
	local row s why='' idle
	local DURATION=$LINK_DURATION FIFO=1

	hf_topo_create 4 1500 || { fail "topology link"; return; }
	switch_links 4
	for row in "${LINK_ROWS[@]}"; do
		link_row "$row"
		say "link regime ($LINK_RATE), $(tname "$T"): 4 MiB pair, ping-pong alone and" \
			"beside bulk, all-to-all at ${A2A_SIZES[*]} per pair, incast 3 to 1"
		pair link 1500 "$T" 4m
		pingpong link 1500 "$T"
		mixed link 1500 "$T"
		for s in "${A2A_SIZES[@]}"; do
			a2a link 1500 "$T" "$s"
		done
		incast link 1500 "$T"
	done
	link_row udp
	say "link regime ($LINK_RATE), udp: 4 MiB pair"
	pair link 1500 udp 4m
	RX_SCHED=0
	defer_run

	# 7 to 1: eight nodes, if the four-node incast left the guest idle
	# time to spare (else the eight would measure the CPU).
	((incast7)) || why="skipped by --no-incast7"
	(($(nproc) < 2)) && why="the guest has $(nproc) CPU"
	for s in hf tcp; do
		[[ -n $why ]] && break
		idle=$(awk -F= '$1 == "idle_pct" { print int($2) }' \
			"$OUT/raw/link-1500-incast-$s.meta" 2>/dev/null)
		[[ -z $idle ]] && why="no 3-to-1 incast of $s to judge the guest by"
		[[ -n $idle ]] && ((idle < 20)) &&
			why="the 3-to-1 incast of $s left $idle % of the guest's CPU idle (under 20 %)"
	done
	echo "$why" >"$OUT/incast7.txt"
	if [[ -n $why ]]; then
		say "incast 7 to 1 skipped: $why"
		return
	fi
	hf_topo_create 8 1500 || { fail "topology link, 8 nodes"; return; }
	switch_links 8
	for row in "${LINK_ROWS[@]}"; do
		link_row "$row"
		say "link regime ($LINK_RATE), $(tname "$T"): incast 7 to 1 on 8 nodes," \
			"$INCAST7_BYTES per sender"
		incast link 1500 "$T" "$INCAST7_BYTES"
	done
	RX_SCHED=0
	defer_run
}

# lossy: every LOSSY_NETEM setting on a veth pair, both ends, and a
# lossy_pair run per transport under each.
lossy()
{
	local netem tag t i

	hf_topo_create 2 1500 || { fail "topology lossy"; return; }
	for netem in "${LOSSY_NETEM[@]}"; do
		tag=${netem//[^a-z0-9.]/_}
		for i in 0 1; do
			# shellcheck disable=SC2086
			tc -n "${HF_NODES[i]}" qdisc replace dev eth0 root netem $netem ||
				fail "netem '$netem' on node $i"
		done
		for t in hf tcp; do
			say "lossy, netem '$netem', $t: 1 MiB bulk for $LOSSY_DURATION"
			lossy_pair "$netem" "$tag" "$t"
		done
	done
	defer_run
}

# two_copy: bytes per second an AF_UNIX stream moves with 1 MiB writes (a
# copy in, a copy out): the software limit of any socket.
two_copy()
{
	python3 - "$OUT/raw/two-copy.json" <<'PYEOF'
import json, os, socket, sys, time

a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
for s in (a, b):
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
chunk = b"\0" * (1 << 20)
seconds = 3.0
pid = os.fork()
if pid == 0:
    a.close()
    buf = bytearray(1 << 20)
    while b.recv_into(buf):
        pass
    os._exit(0)
b.close()
start = time.monotonic()
sent = 0
while time.monotonic() - start < seconds:
    a.sendall(chunk)
    sent += len(chunk)
a.close()
os.waitpid(pid, 0)
elapsed = time.monotonic() - start
json.dump({"bytes": sent, "seconds": elapsed, "bps": sent * 8 / elapsed},
          open(sys.argv[1], "w"))
print("bench: two-copy bound (AF_UNIX, 1 MiB writes): %.3f Gbit/s" % (sent * 8 / elapsed / 1e9))
PYEOF
}

# roce: ib_send_bw and ib_send_lat over soft-RoCE on loopback, if the guest
# has what it takes; the reason goes to roce.txt when it does not.
roce()
{
	local why='' dev=rxe_lo

	command -v ib_send_bw >/dev/null || why="perftest is not installed"
	[[ -z $why ]] && { modprobe rdma_rxe 2>/dev/null || why="no rdma_rxe module"; }
	[[ -z $why ]] && { rdma link add "$dev" type rxe netdev lo 2>"$OUT/roce.err" ||
		why="rdma link add rxe over lo: $(head -c 200 "$OUT/roce.err")"; }
	if [[ -n $why ]]; then
		echo "$why" >"$OUT/roce.txt"
		say "RoCE reference skipped: $why"
		return
	fi
	{
		timeout 60 ib_send_bw -d "$dev" -s 4194304 -n 200 -F >"$OUT/raw/roce-bw.server" 2>&1 &
		sleep 1
		timeout 60 ib_send_bw -d "$dev" -s 4194304 -n 200 -F 127.0.0.1
		wait
		timeout 60 ib_send_lat -d "$dev" -s 64 -n 1000 -F >"$OUT/raw/roce-lat.server" 2>&1 &
		sleep 1
		timeout 60 ib_send_lat -d "$dev" -s 64 -n 1000 -F 127.0.0.1
		wait
	} >"$OUT/roce.txt" 2>&1 || echo "perftest failed" >>"$OUT/roce.txt"
	rdma link delete "$dev" 2>/dev/null
}

uname -r >"$OUT/kernel"
echo "$quick" >"$OUT/quick"
echo "$LINK_RATE" >"$OUT/link_rate"
rm -f "$OUT/failures"
hf_module_load
two_copy
regime cpu 1500
((quick)) || regime cpu 9000
link_regime
lossy
((quick)) || roce
say "done, $failures runs failed"
exit $((failures > 0))
