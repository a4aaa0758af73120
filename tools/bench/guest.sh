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
#    LINK_RATE with a finite FIFO (tbf), as a switch port; hyperframe's
#    nodes put hfq at that rate on their own port (their link share, and
#    the rate their ACKs hint), TCP's keep the veth default;
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
# Usage: guest.sh [--quick]   (--quick: shorter runs, fewer sizes; CI)
set -uo pipefail

source "$HF_BUILD/ksft/hyperframe/lib.sh"
source "$HF_TREE/tools/bench/lib.sh"
OUT=/run/hf/bench
LINK_RATE=200mbit
quick=0
[[ ${1:-} == --quick ]] && quick=1

if ((quick)); then
	SIZES=(4k 1m 4m)
	DURATION=1s
	ROUNDS=4
	MIXED=2s
	INCAST_BYTES=4m
	LOSSY_DURATION=4s
else
	SIZES=(4k 64k 256k 1m 4m 16m 64m)
	DURATION=2s
	ROUNDS=10
	MIXED=3s
	INCAST_BYTES=16m
	LOSSY_DURATION=10s
fi
LOSSY_NETEM=("loss 0.5%" "loss 2%" "delay 1ms reorder 25% 50%")
mkdir -p "$OUT/raw"

# regime NAME MTU: one regime's runs for every transport.
regime()
{
	local name=$1 mtu=$2 t s i

	hf_topo_create 4 "$mtu" || { fail "topology $name $mtu"; return; }
	if [[ $name == link ]]; then
		for i in 0 1 2 3; do
			tc -n "$HF_SWITCH" qdisc replace dev "p$i" root tbf rate "$LINK_RATE" \
				burst 32k limit 256k || fail "tbf on p$i"
		done
	fi
	for t in hf tcp udp; do
		[[ $name == link ]] && node_qdisc "$t"
		say "$name regime, MTU $mtu, $t: pair sizes ${SIZES[*]}"
		for s in "${SIZES[@]}"; do
			[[ $name == link && $s != 4m ]] && continue
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
regime link 1500
lossy
((quick)) || roce
say "done, $failures runs failed"
exit $((failures > 0))
