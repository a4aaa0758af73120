#!/bin/bash
# The demo's guest side ("make demo"): runs in the QEMU guest with
# hyperframe.ko loaded. Four namespaces behind a bridge run the same
# all-to-all (every node sends 1 MiB to every other node, ROUNDS rounds,
# hfperf a2a, every byte checked) over hyperframe and then over TCP, each
# port with a real qdisc (hfq for hyperframe, fq for TCP), while
# "hfctl probe" watches node 0's port. Prints the comparison, the "measure
# first" numbers for each transport (what an skb and a wire packet carry
# on average, packets per second, queue depth) and the frame size
# hyperframe's controller settled on; leaves the runs under /run/hf/demo
# for tools/bench/report.py, which draws the plot on the host.
set -uo pipefail

source "$HF_BUILD/ksft/hyperframe/lib.sh"
source "$HF_TREE/tools/bench/lib.sh"
OUT=/run/hf/demo
ROUNDS=${DEMO_ROUNDS:-60}
SAY=demo
mkdir -p "$OUT/raw"
rm -f "$OUT"/raw/* "$OUT/failures"
uname -r >"$OUT/kernel"
echo 0 >"$OUT/quick"

# run T: the all-to-all over T, node 0's port probed meanwhile.
run()
{
	local t=$1 filter probe i

	for i in 0 1 2 3; do
		ip netns exec "${HF_NODES[i]}" tc qdisc replace dev eth0 root \
			"$([[ $t == hf ]] && echo hfq || echo fq)" || fail "qdisc on node $i"
	done
	if [[ $t == hf ]]; then
		filter="ethertype $(printf '0x%x' "$(cat /sys/module/hyperframe/parameters/ethertype)")"
	else
		filter="proto tcp"
	fi
	# shellcheck disable=SC2086 # the filter is words
	"$HFCTL" -n "${HF_NODES[0]}" -j probe dev eth0 duration 120s $filter \
		>"$OUT/probe-$t.json" 2>"$OUT/probe-$t.err" &
	probe=$!
	hf_said_wait "$probe" "$OUT/probe-$t.err" "hfctl probe: listening on " ||
		fail "hfctl probe did not attach: $(head -c 300 "$OUT/probe-$t.err")"
	say "all-to-all over $([[ $t == hf ]] && echo hyperframe || echo TCP):" \
		"$ROUNDS rounds of 1 MiB from every node to every other"
	a2a demo 1500 "$t"
	[[ $t == hf ]] && "$HFCTL" -n "${HF_NODES[0]}" -s -j peer show >"$OUT/peers-hf.json"
	kill -INT "$probe"
	wait "$probe" || fail "hfctl probe: $(head -c 300 "$OUT/probe-$t.err")"
}

say "guest kernel $(uname -r); $(basename "$HF_MODULE") loaded"
hf_topo_create 4 1500 || { fail "topology"; exit 1; }
say "4 namespaces behind a bridge, MTU 1500"
run hf
run tcp
defer_run

python3 - "$OUT" <<'PYEOF'
import json, pathlib, statistics, sys

out = pathlib.Path(sys.argv[1])
names = {"hf": "hyperframe", "tcp": "TCP"}

def rounds(t):
    ranks = [json.loads(p.read_text())["alltoall"]
             for p in sorted((out / "raw").glob("demo-1500-a2a-%s.rank*.json" % t))]
    if len(ranks) != 4:
        return None
    per_round = [max(r["rounds_us"][i] for r in ranks) for i in range(len(ranks[0]["rounds_us"]))]
    per_round.sort()
    return {"p50": per_round[len(per_round) // 2] / 1e3,
            "p99": per_round[min(len(per_round) - 1, int(len(per_round) * 0.99))] / 1e3,
            "gbit": sum(r["goodput_bps"] for r in ranks) / 1e9}

def probe(t):
    try:
        return json.loads((out / ("probe-%s.json" % t)).read_text())
    except (OSError, ValueError):
        return None

r = {t: rounds(t) for t in names}
p = {t: probe(t) for t in names}
print()
print("%-34s %14s %14s" % ("", "hyperframe", "TCP"))
def row(label, fn, fmt):
    cells = []
    for t in names:
        try:
            cells.append(fmt % fn(t))
        except (TypeError, KeyError):
            cells.append("-")
    print("%-34s %14s %14s" % (label, *cells))
row("round time p50 (slowest node)", lambda t: r[t]["p50"], "%.1f ms")
row("round time p99", lambda t: r[t]["p99"], "%.1f ms")
row("goodput, 4 nodes together", lambda t: r[t]["gbit"], "%.2f Gbit/s")
print("measured first, node 0's port (hfctl probe):")
row("  average skb (what the stack moves)", lambda t: p[t]["tx"]["avg_skb_bytes"] / 1024, "%.1f KiB")
row("  average wire packet", lambda t: p[t]["tx"]["avg_packet_bytes"], "%.0f B")
row("  wire packets per second", lambda t: p[t]["tx"]["packets_per_s"] / 1e3, "%.1fk")
row("  skbs per second", lambda t: p[t]["tx"]["skbs_per_s"] / 1e3, "%.1fk")
row("  queue depth, max (qdisc)", lambda t: p[t]["qdisc"]["max_backlog_bytes"] / 1024, "%.1f KiB")
if r["hf"] and r["tcp"]:
    print("hyperframe's round p50 is %.2fx TCP's" % (r["hf"]["p50"] / r["tcp"]["p50"]))
try:
    peers = json.loads((out / "peers-hf.json").read_text())
    frames = ", ".join("%s %d segments (%d KiB)" % (q["address"][-5:], q["frame_segs"],
                                                  q["frame_segs"] * q["seg_size"] // 1024)
                       for q in peers)
    print("hyperframe's frame size at node 0, per peer: " + frames)
except (OSError, ValueError, KeyError):
    print("hyperframe's frame size: not read")
for t in names:
    if p[t] and p[t].get("verdict"):
        print("probe's verdict for %s: %s" % (names[t], p[t]["verdict"]))
PYEOF
say "every message of both runs verified byte for byte; $failures runs failed"
exit $((failures > 0))
