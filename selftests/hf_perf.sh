#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hfperf against the real module, short runs on three namespaces behind a
# bridge: pair (hf and tcp, two sizes), all-to-all among the three (hf and
# tcp), mixed bulk plus ping-pong (hf), incast 2 -> 1 (hf) and pair over
# udp. Each run's JSON must be well formed and add up: every byte asked
# was delivered and counted by the receiver, every round completed,
# percentiles are ordered. Timings are printed as "# ..." lines and never
# judged: the guest is emulated and shared.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

HFPERF=${HFPERF:-${HF_BUILD:?set HFPERF or HF_BUILD}/userspace/hfperf/hfperf}
LOGS=$(mktemp -d)
defer rm -rf "$LOGS"

# check_json MODE FILE... : the checks of one run's JSON, in python3;
# prints the figures as "# ..." lines and any failure on stderr.
check_json()
{
	python3 - "$@" <<'PYEOF'
import json, sys

mode, files = sys.argv[1], sys.argv[2:]
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)
def gbit(bps):
    return "%.3f Gbit/s" % (bps / 1e9)
def ordered(p, name):
    need(p["samples"] > 0, name + ": no samples")
    need(p["min"] <= p["p50"] <= p["p99"] <= p["p999"] <= p["max"],
         name + ": percentiles out of order: %s" % p)

try:
    runs = [json.load(open(f)) for f in files]
except Exception as e:
    print("malformed JSON: %s" % e, file=sys.stderr)
    sys.exit(1)

for run in runs:
    t = run.get("transport")
    if mode in ("pair", "incast-client"):
        total = 0
        for s in run["sizes"]:
            need(s["bytes"] == s["bytes_asked"] or t == "udp",
                 "size %d: %d bytes delivered, %d asked" % (s["size"], s["bytes"], s["bytes_asked"]))
            need(s["messages"] + s["lost"] == s["sent"], "size %d: messages unaccounted" % s["size"])
            need(s["bytes"] == s["messages"] * s["size"], "size %d: bytes != messages * size" % s["size"])
            if t != "udp":
                need(s["lost"] == 0, "size %d: %d lost" % (s["size"], s["lost"]))
            if s["messages"] > 0 or t != "udp":
                ordered(s["latency_us"], "size %d latency" % s["size"])
            total += s["bytes"]
            print("# %s %s %s: %s, %.0f msg/s, latency p50 %.0f us p99 %.0f us, "
                  "cpu %.2f ns/B (system %.2f ns/B), %s tx packets/MiB, lost %d"
                  % (mode, t, s["size"], gbit(s["goodput_bps"]), s["msg_rate"],
                     s["latency_us"]["p50"], s["latency_us"]["p99"],
                     s["cpu_self_ns_per_byte"], s["cpu_system_ns_per_byte"],
                     "%.1f" % s["tx_packets_per_mib"] if "tx_packets_per_mib" in s else "-",
                     s["lost"]))
        counted = run.get("server_bytes")
        # udp: an ack may be lost after the receiver counted the message
        need(counted == total or (t == "udp" and counted is not None and counted >= total),
             "receiver counted %s bytes, acknowledged %d" % (counted, total))
    elif mode == "a2a":
        a = run["alltoall"]
        need(a["rounds_done"] == a["rounds_asked"],
             "rank %d: %d of %d rounds" % (a["rank"], a["rounds_done"], a["rounds_asked"]))
        need(a["bytes_received"] == a["bytes_expected"],
             "rank %d: received %d of %d bytes" % (a["rank"], a["bytes_received"], a["bytes_expected"]))
        need(len(a["rounds_us"]) == a["rounds_asked"], "rank %d: round list" % a["rank"])
        ordered(a["round_us"], "rank %d rounds" % a["rank"])
        print("# a2a %s rank %d: round p50 %.0f us p99 %.0f us max %.0f us, %s received"
              % (t, a["rank"], a["round_us"]["p50"], a["round_us"]["p99"],
                 a["round_us"]["max"], gbit(a["goodput_bps"])))
    elif mode == "mixed":
        s = run["sizes"][0]
        need(s["messages"] > 0 and s["lost"] == 0, "bulk: %d messages, %d lost" % (s["messages"], s["lost"]))
        need(run.get("server_bytes") == s["bytes"],
             "bulk: receiver counted %s bytes, acknowledged %d" % (run.get("server_bytes"), s["bytes"]))
        ordered(run["rtt_us"], "ping-pong")
        r = run["rtt_us"]
        print("# mixed %s: bulk %s; ping-pong %d round trips, p50 %.0f us p99 %.0f us p999 %.0f us"
              % (t, gbit(s["goodput_bps"]), r["samples"], r["p50"], r["p99"], r["p999"]))
    elif mode.startswith("incast-server"):
        want = int(mode.split(":")[1])
        flows = run["flows"]
        need(len(flows) == 2, "%d flows at the receiver, want 2" % len(flows))
        for f in flows:
            need(f["bytes"] == want, "flow %x: %d bytes, want %d" % (f["flow"], f["bytes"], want))
        need(0 < run["jain"] <= 1.000001, "Jain index %s" % run["jain"])
        print("# incast %s: per sender %s; Jain's index %.3f"
              % (t, ", ".join(gbit(f["goodput_bps"]) for f in flows), run["jain"]))
    elif mode == "server":
        need(len(run["flows"]) >= 1, "no flow at the receiver")

for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PYEOF
}

# run_pair TRANSPORT PORT SIZES BYTES: server in n1, client in n0.
run_pair()
{
	local t=$1 port=$2 sizes=$3 bytes=$4 peer

	[[ $t == hf ]] && peer=$(hf_node_mac 1) || peer=$(hf_node_addr 1)
	ip netns exec "$n1" timeout 300 "$HFPERF" server -t "$t" -d eth0 --port "$port" \
		--clients 1 -j >"$LOGS/server-$t" 2>&1 &
	local spid=$!
	ip netns exec "$n0" timeout 300 "$HFPERF" pair -t "$t" -d eth0 --port "$port" \
		--peer "$peer" --sizes "$sizes" --bytes "$bytes" --wait 30s -j \
		>"$LOGS/pair-$t" 2>"$LOGS/pair-$t.err"
	check_err $? "hfperf pair -t $t: $(cat "$LOGS/pair-$t.err")"
	wait "$spid"
	check_err $? "hfperf server -t $t: $(cat "$LOGS/server-$t")"
	check_json pair "$LOGS/pair-$t" 2>"$LOGS/check"
	check_err $? "pair $t: $(tr '\n' ';' <"$LOGS/check")"
	check_json server "$LOGS/server-$t" 2>"$LOGS/check"
	check_err $? "server $t: $(tr '\n' ';' <"$LOGS/check")"
}

# run_a2a TRANSPORT PORT: all three nodes, 256k per pair and round.
run_a2a()
{
	local t=$1 port=$2 nodes= i pids=()

	for i in 0 1 2; do
		if [[ $t == hf ]]; then
			nodes+=${nodes:+,}$(hf_node_mac $i)
		else
			nodes+=${nodes:+,}$(hf_node_addr $i)
		fi
	done
	for i in 0 1 2; do
		ip netns exec "${HF_NODES[i]}" timeout 300 "$HFPERF" a2a -t "$t" -d eth0 \
			--port "$port" --rank $i --nodes "$nodes" --bytes 256k --rounds 8 \
			--wait 30s -j >"$LOGS/a2a-$t-$i" 2>"$LOGS/a2a-$t-$i.err" &
		pids+=($!)
	done
	for i in 0 1 2; do
		wait "${pids[i]}"
		check_err $? "hfperf a2a -t $t rank $i: $(cat "$LOGS/a2a-$t-$i.err")"
	done
	check_json a2a "$LOGS/a2a-$t-0" "$LOGS/a2a-$t-1" "$LOGS/a2a-$t-2" 2>"$LOGS/check"
	check_err $? "a2a $t: $(tr '\n' ';' <"$LOGS/check")"
}

ktap_plan 7

[[ -x $HFPERF ]] || { echo "# $HFPERF is missing (build userspace)"; exit "$KSFT_FAIL"; }
command -v python3 >/dev/null || { echo "# python3 is missing"; exit "$KSFT_FAIL"; }
hf_module_load
hf_topo_create 3
n0=${HF_NODES[0]}
n1=${HF_NODES[1]}
n2=${HF_NODES[2]}

run_pair hf 7600 64k,1m 4m
log_test "perf: pair over hf delivers every byte, 64k and 1m"

run_pair tcp 7610 64k,1m 4m
log_test "perf: pair over tcp delivers every byte, 64k and 1m"

run_a2a hf 7620
log_test "perf: all-to-all over hf among 3 nodes, every round complete"

run_a2a tcp 7630
log_test "perf: all-to-all over tcp among 3 nodes, every round complete"

ip netns exec "$n1" timeout 300 "$HFPERF" server -t hf -d eth0 --port 7640 --clients 1 -j \
	>"$LOGS/server-mixed" 2>&1 &
spid=$!
ip netns exec "$n0" timeout 300 "$HFPERF" mixed -t hf -d eth0 --port 7640 \
	--peer "$(hf_node_mac 1)" --size 256k --duration 2s --wait 30s -j \
	>"$LOGS/mixed" 2>"$LOGS/mixed.err"
check_err $? "hfperf mixed: $(cat "$LOGS/mixed.err")"
wait "$spid"
check_err $? "hfperf server (mixed): $(cat "$LOGS/server-mixed")"
check_json mixed "$LOGS/mixed" 2>"$LOGS/check"
check_err $? "mixed: $(tr '\n' ';' <"$LOGS/check")"
log_test "perf: mixed over hf, bulk delivered and ping-pong percentiles ordered"

ip netns exec "$n0" timeout 300 "$HFPERF" server -t hf -d eth0 --port 7650 --clients 2 -j \
	>"$LOGS/server-incast" 2>&1 &
spid=$!
cpids=()
for i in 1 2; do
	ip netns exec "${HF_NODES[i]}" timeout 300 "$HFPERF" incast -t hf -d eth0 --port 7650 \
		--peer "$(hf_node_mac 0)" --size 256k --bytes 4m --wait 30s -j \
		>"$LOGS/incast-$i" 2>"$LOGS/incast-$i.err" &
	cpids+=($!)
done
for i in 0 1; do
	wait "${cpids[i]}"
	check_err $? "hfperf incast sender $((i + 1)): $(cat "$LOGS/incast-$((i + 1)).err")"
done
wait "$spid"
check_err $? "hfperf server (incast): $(cat "$LOGS/server-incast")"
check_json incast-client "$LOGS/incast-1" "$LOGS/incast-2" 2>"$LOGS/check"
check_err $? "incast senders: $(tr '\n' ';' <"$LOGS/check")"
check_json incast-server:$((4 << 20)) "$LOGS/server-incast" 2>"$LOGS/check"
check_err $? "incast receiver: $(tr '\n' ';' <"$LOGS/check")"
log_test "perf: incast 2 -> 1 over hf, both flows complete, Jain's index reported"

run_pair udp 7660 64k,1m 4m
log_test "perf: pair over udp (GSO/GRO), every message acknowledged or counted lost"

exit "$(ktap_exit)"
