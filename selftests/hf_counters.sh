#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The counters of issue 6 against the real module, after transfers whose
# every byte is known: the per-peer counters (bytes, frames, messages)
# match the messages sent, on both sides; the hyperframe size histogram
# holds exactly the frames the sender cut (predicted from seg_size and
# frame_segs), sums to tx_frames and to the bytes sent; the per-device
# counters equal the namespace's when one device carries the traffic and
# stay apart when two do; "stats prometheus" exports the histogram and the
# device families and passes promtool; a device's counters go when it is
# unregistered; past the 64 devices a namespace keeps apart, the rest share
# one "other" entry and no count is lost, and a freed entry is taken again.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

HFCTL=${HFCTL:-${HF_BUILD:?set HFCTL or HF_BUILD}/userspace/hfctl/hfctl}
XFER=$HF_DIR/hf_xfer
PP=$HF_DIR/hf_pingpong
LOGS=$(mktemp -d)
SIZES=1000,3000,100000,700000
SIZES2=5000,60000
defer rm -rf "$LOGS"

# xfer SENDER RECEIVER DEV PORT SIZES: one verified transfer from node
# SENDER to node RECEIVER over DEV (named so in both namespaces).
xfer()
{
	local s=${HF_NODES[$1]} r=${HF_NODES[$2]} dev=$3 port=$4 sizes=$5 mac

	mac=$(ip -n "$r" -br link show dev "$dev" | awk '{print $3}')
	ip netns exec "$r" "$XFER" recv "$port" "$sizes" >"$LOGS/recv" 2>&1 &
	local rpid=$!
	busywait 10000 grep -q ready "$LOGS/recv"
	check_err $? "receiver did not start: $(cat "$LOGS/recv")"
	ip netns exec "$s" timeout 120 "$XFER" send "$dev" "$mac" "$port" "$sizes" \
		>"$LOGS/send" 2>&1
	check_err $? "sender failed: $(cat "$LOGS/send")"
	wait "$rpid"
	check_err $? "receiver failed: $(cat "$LOGS/recv")"
}

# snap NS NAME: hfctl's views of NS in $LOGS/NAME.{stats,peers,devs}.json.
snap()
{
	"$HFCTL" -n "$1" -s -j stats show >"$LOGS/$2.stats.json" &&
	"$HFCTL" -n "$1" -j peer show >"$LOGS/$2.peers.json" &&
	"$HFCTL" -n "$1" -j dev show >"$LOGS/$2.devs.json"
}

# verify CHECK...: run the python checks below on the snapshots; each
# failed assertion is printed and makes it exit 1.
verify()
{
	python3 - "$LOGS" "$@" <<'PY'
import json, math, sys

logs, checks = sys.argv[1], sys.argv[2:]
failures = []

def load(name):
    with open(f"{logs}/{name}.json") as f:
        return json.load(f)

def eq(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got}, want {want}")

def frames(sizes, seg, fsegs):
    """Payload bytes of each hyperframe the sender cuts: a frame is up
    to frame_segs segments of one message, only the last one short."""
    out = []
    for size in sizes:
        step = seg * fsegs
        out += [min(step, size - off) for off in range(0, size, step)]
    return out

def bucket_of(bounds, v):
    return next(i for i, b in enumerate(bounds) if b == "+Inf" or v <= b)

def delta(after, before, key):
    return after[key] - before.get(key, 0)

env = dict(c.split("=", 1) for c in checks)
sizes = [int(s) for s in env["sizes"].split(",")]
fsegs = int(env["frame_segs"])
total = sum(sizes)

s_stats, r_stats = load("s.stats"), load("r.stats")
b_stats = load("b.stats") if "base" in env else {}
s_peers, r_peers = load("s.peers"), load("r.peers")
dev = env["dev"]
s_peer = [p for p in s_peers if p["dev"] == dev]
r_peer = [p for p in r_peers if p["dev"] == dev]
eq("sender peers on " + dev, len(s_peer), 1)
eq("receiver peers on " + dev, len(r_peer), 1)
s_peer, r_peer = s_peer[0], r_peer[0]
seg = s_peer["seg_size"]
want = frames(sizes, seg, fsegs)
nsegs = sum(math.ceil(s / seg) for s in sizes)

if "peer" in env:
    eq("sender peer tx_msgs", s_peer["tx_msgs"], len(sizes))
    eq("sender peer tx_msgs_delivered", s_peer["tx_msgs_delivered"], len(sizes))
    eq("sender peer tx_msgs_failed", s_peer["tx_msgs_failed"], 0)
    eq("sender peer tx_bytes", s_peer["tx_bytes"], total)
    eq("sender peer tx_segs", s_peer["tx_segs"], nsegs)
    eq("sender peer tx_frames", s_peer["tx_frames"], len(want))
    eq("sender peer rx_msgs", s_peer["rx_msgs"], 0)
    eq("receiver peer rx_bytes", r_peer["rx_bytes"], total)
    eq("receiver peer rx_segs", r_peer["rx_segs"], nsegs)
    eq("receiver peer rx_msgs", r_peer["rx_msgs"], len(sizes))
    eq("receiver peer tx_msgs", r_peer["tx_msgs"], 0)

if "hist" in env:
    h = s_stats["frame_size"]
    bounds = [b["le"] for b in h["buckets"]]
    eq("last bound", bounds[-1], "+Inf")
    eq("bounds increase", bounds[:-1], sorted(bounds[:-1]))
    expect = [0] * len(bounds)
    for f in want:
        expect[bucket_of(bounds, f)] += 1
    eq("histogram buckets", [b["count"] for b in h["buckets"]], expect)
    eq("histogram count", h["count"], len(want))
    eq("histogram count == tx_frames", h["count"], s_stats["tx_frames"])
    eq("histogram sum == bytes sent", h["sum"], total)
    eq("receiver histogram count", r_stats["frame_size"]["count"], 0)

if "dev" in env and "devs" in env:
    s_dev = [d for d in load("s.devs") if d["dev"] == dev]
    r_dev = [d for d in load("r.devs") if d["dev"] == dev]
    eq("sender devices named " + dev, len(s_dev), 1)
    eq("receiver devices named " + dev, len(r_dev), 1)
    s_dev, r_dev = s_dev[0], r_dev[0]
    # The namespace's counters moved by this transfer alone.
    d = lambda st, k: delta(st, b_stats if st is s_stats else {}, k)
    eq("dev tx_segs == namespace tx_segs", s_dev["tx_segs"], d(s_stats, "tx_segs"))
    eq("dev tx_frames == namespace tx_frames", s_dev["tx_frames"], d(s_stats, "tx_frames"))
    eq("dev tx_retransmits == namespace", s_dev["tx_retransmits"],
       d(s_stats, "tx_retransmits"))
    eq("dev tx_bytes", s_dev["tx_bytes"], total)
    eq("dev tx_segs", s_dev["tx_segs"], nsegs)
    eq("dev tx_frames", s_dev["tx_frames"], len(want))
    eq("receiver dev rx_segs == namespace rx_segs", r_dev["rx_segs"], r_stats["rx_segs"])
    eq("receiver dev rx_bytes", r_dev["rx_bytes"], total)
    # Each frame cut starts with an accepted segment unless lost, and a
    # repair travels alone, a frame of its own: exact without repairs.
    rexmit = s_dev["tx_retransmits"]
    if rexmit == 0:
        eq("receiver dev rx_frames", r_dev["rx_frames"], len(want))
    elif not len(want) - rexmit <= r_dev["rx_frames"] <= len(want) + rexmit:
        failures.append(f"receiver dev rx_frames {r_dev['rx_frames']} not within "
                        f"{len(want)} +- {rexmit}")
    drops = sum(v for k, v in r_stats.items()
                if k.startswith("drop_") and not k.startswith("drop_malformed_"))
    eq("receiver dev drops == namespace drops", r_dev["drops"], drops)
    eq("sender dev rx_bytes", s_dev["rx_bytes"], 0)

for f in failures:
    print("# " + f)
sys.exit(1 if failures else 0)
PY
}

# sample FILE NAME: the value of the sample NAME (labels included) in FILE.
sample()
{
	awk -v n="$2" '$1 == n {print $2}' "$1"
}

ktap_plan 8

command -v promtool >/dev/null || { echo "# promtool is missing (make deps)"; exit "$KSFT_FAIL"; }

hf_topo_create 2
n0=${HF_NODES[0]}
n1=${HF_NODES[1]}
# Peers must outlive the checks: an idle one is reclaimed with its counters.
idle=$("$HFCTL" -j config show | python3 -c 'import json,sys; print(json.load(sys.stdin)["peer_idle_ms"])')
defer hf_config_set peer_idle "${idle}ms"
hf_config_set peer_idle 600s
check_err $? "config set peer_idle"
fsegs=$("$HFCTL" -j config show | python3 -c 'import json,sys; print(json.load(sys.stdin)["frame_segs"])')
# The frame size pinned (min = initial = max at 1456-byte segments), so
# every frame is predictable; the controller's own test is hf_transfer's.
read -r fmin fmax < <("$HFCTL" -j config show |
	python3 -c 'import json,sys; c=json.load(sys.stdin); print(c["frame_min_segs"], c["frame_max_bytes"])')
defer hf_config_set frame_min_segs "$fmin" frame_max "$fmax"
hf_config_set frame_min_segs "$fsegs" frame_max $((fsegs * 1456))
check_err $? "config set frame_min_segs, frame_max"

xfer 0 1 eth0 7400 "$SIZES"
snap "$n0" s && snap "$n1" r
check_err $? "hfctl views failed"
out=$(verify sizes="$SIZES" frame_segs="$fsegs" dev=eth0 peer=1)
check_err $? "peer counters: $out"
[[ -z $out ]] || echo "$out"
"$HFCTL" -n "$n0" -s peer show | sed 's/^/# /'
"$HFCTL" -n "$n0" -s peer show | grep -qE '^    tx_bytes [0-9]+ tx_frames [0-9]+ tx_msgs 4 delivered 4 failed 0 '
check_err $? "peer show -s lacks the message counters: $("$HFCTL" -n "$n0" -s peer show)"
log_test "counters: per-peer bytes, frames and messages match the transfer, both sides"

out=$(verify sizes="$SIZES" frame_segs="$fsegs" dev=eth0 hist=1)
check_err $? "histogram: $out"
[[ -z $out ]] || echo "$out"
"$HFCTL" -n "$n0" -s stats show >"$LOGS/stats.txt"
grep -qE "^frame_size count $(sample <(tr -s ' ' <"$LOGS/stats.txt") tx_frames) sum 804000$" \
	"$LOGS/stats.txt"
check_err $? "stats show -s lacks the histogram: $(cat "$LOGS/stats.txt")"
"$HFCTL" -n "$n0" stats show | grep -q '^frame_size'
check_fail $? "stats show without -s shows the histogram"
log_test "counters: frame size histogram holds exactly the frames sent"

out=$(verify sizes="$SIZES" frame_segs="$fsegs" dev=eth0 devs=1)
check_err $? "devices: $out"
[[ -z $out ]] || echo "$out"
sed -n '/^frame_size/,$s/^/# /p' "$LOGS/stats.txt"
grep -qE '^dev eth0 ifindex [0-9]+$' "$LOGS/stats.txt"
check_err $? "stats show -s lacks the device section"
check_eq "$("$HFCTL" -j dev show | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" \
	0 "devices of the initial namespace"
log_test "counters: per-device counters equal the namespace's over one device"

"$HFCTL" -n "$n0" stats prometheus >"$LOGS/metrics"
check_err $? "stats prometheus failed"
promtool check metrics <"$LOGS/metrics" >"$LOGS/promtool" 2>&1
check_err $? "promtool: $(cat "$LOGS/promtool")"
label="namespace=\"$n0\""
m=$LOGS/metrics
grep -q '^# TYPE hyperframe_tx_frame_size_bytes histogram$' "$m"
check_err $? "no histogram TYPE line"
count=$(sample "$m" "hyperframe_tx_frame_size_bytes_count{$label}")
check_eq "$count" "$(sample "$m" "hyperframe_tx_frames_total{$label}")" "histogram _count"
check_eq "$(sample "$m" "hyperframe_tx_frame_size_bytes_bucket{le=\"+Inf\",$label}")" \
	"$count" "+Inf bucket"
check_eq "$(sample "$m" "hyperframe_tx_frame_size_bytes_sum{$label}")" 804000 "histogram _sum"
# Cumulative: never decreasing, in increasing order of le.
awk '/^hyperframe_tx_frame_size_bytes_bucket/ { if ($2 < last) bad = 1; last = $2 }
     END { exit bad }' "$m"
check_err $? "buckets not cumulative: $(grep _bucket "$m")"
check_eq "$(sample "$m" "hyperframe_dev_tx_bytes_total{dev=\"eth0\",$label}")" 804000 \
	"device tx_bytes"
check_eq "$(sample "$m" "hyperframe_dev_tx_segs_total{dev=\"eth0\",$label}")" \
	"$(sample "$m" "hyperframe_tx_segs_total{$label}")" "device tx_segs"
grep -E '^hyperframe_[a-z_]+\{[^}]*(peer|addr)=' "$m"
check_fail $? "a sample labelled by peer"
grep -E '^hyperframe_tx_frame_size_bytes_bucket' "$m" | sed 's/^/# /'
log_test "counters: stats prometheus exports the histogram and device families, promtool passes"

# A second link between the same namespaces: its traffic counts apart.
ip link add eth1 netns "$n0" type veth peer name eth1 netns "$n1"
ip -n "$n0" link set eth1 up && ip -n "$n1" link set eth1 up
check_err $? "second link"
cp "$LOGS/s.stats.json" "$LOGS/b.stats.json"
cp "$LOGS/s.devs.json" "$LOGS/b.devs.json"
xfer 0 1 eth1 7401 "$SIZES2"
snap "$n0" s && snap "$n1" r
check_err $? "hfctl views failed"
out=$(verify sizes="$SIZES2" frame_segs="$fsegs" dev=eth1 base=1 peer=1)
check_err $? "second device, peer: $out"
python3 - "$LOGS" <<'PY'
import json, sys
logs = sys.argv[1]
before = {d["dev"]: d for d in json.load(open(f"{logs}/b.devs.json"))}
after = {d["dev"]: d for d in json.load(open(f"{logs}/s.devs.json"))}
stats = json.load(open(f"{logs}/s.stats.json"))
bad = []
if before.get("eth0") != after.get("eth0"):
    bad.append(f"eth0 moved: {before.get('eth0')} -> {after.get('eth0')}")
if after.get("eth1", {}).get("tx_bytes") != 65000:
    bad.append(f"eth1 tx_bytes: {after.get('eth1')}")
for k in ("tx_segs", "tx_frames", "tx_bytes"):
    if sum(d[k] for d in after.values()) != (stats[k] if k != "tx_bytes" else 804000 + 65000):
        bad.append(f"devices' {k} do not add up to the namespace's")
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
check_err $? "second device counted apart"
log_test "counters: two devices count apart and add up to the namespace"

ip -n "$n0" link del eth1
check_err $? "deleting eth1"
devs=$("$HFCTL" -n "$n0" -j dev show | python3 -c 'import json,sys; print(",".join(d["dev"] for d in json.load(sys.stdin)))')
check_eq "$devs" eth0 "devices after eth1 went ($n0)"
devs=$("$HFCTL" -n "$n1" -j dev show | python3 -c 'import json,sys; print(",".join(d["dev"] for d in json.load(sys.stdin)))')
check_eq "$devs" eth0 "devices after eth1 went ($n1)"
# The namespace's counters stay; only the device's entry went.
check_eq "$("$HFCTL" -n "$n0" -j stats show | python3 -c 'import json,sys; print(json.load(sys.stdin)["tx_bytes"])')" \
	869000 "namespace tx_bytes after eth1 went"
log_test "counters: an unregistered device's counters go with it"

# 7. More devices than a namespace keeps apart (HF_DEV_SLOTS, 64). eth0
# holds one entry (eth1's was freed above), so of 66 new links x0..x65 the
# first 63 take the rest, in the order of their first traffic, and x63,
# x64, x65 share "other" (ifindex 0). One 1000-byte message on each.
NLINKS=66
for ((i = 0; i < NLINKS; i++)); do
	echo "link add x$i netns $n0 type veth peer name x$i netns $n1"
done | ip -batch -
check_err $? "creating $NLINKS veth pairs"
for ns in "$n0" "$n1"; do
	for ((i = 0; i < NLINKS; i++)); do echo "link set x$i up"; done | ip -n "$ns" -batch -
	check_err $? "links up in $ns"
done
"$HFCTL" -n "$n0" -j stats show >"$LOGS/many.before.json"
"$HFCTL" -n "$n0" -j dev show >"$LOGS/many.devs0.json"
ip netns exec "$n1" "$XFER" recv 7402 1000 "$NLINKS" >"$LOGS/recv" 2>&1 &
rpid=$!
busywait 10000 grep -q ready "$LOGS/recv"
check_err $? "receiver did not start: $(cat "$LOGS/recv")"
# One process in the sender's namespace sends on every link in turn.
ip -n "$n1" -br link show | awk '$1 ~ /^x[0-9]+@/ {sub(/@.*/, "", $1); print $1, $3}' |
	sort -V >"$LOGS/macs"
check_eq "$(wc -l <"$LOGS/macs")" "$NLINKS" "peer addresses read"
ip netns exec "$n0" bash -c '
	while read -r dev mac; do
		timeout 60 "$1" send "$dev" "$mac" 7402 1000 || { echo "send on $dev failed"; exit 1; }
	done <"$2"' sh "$XFER" "$LOGS/macs" >"$LOGS/send" 2>&1
check_err $? "senders failed: $(tail -n 3 "$LOGS/send")"
wait "$rpid"
check_err $? "receiver failed: $(cat "$LOGS/recv")"
hf_counters_settle "$n0" "$n1"
"$HFCTL" -n "$n0" -j stats show >"$LOGS/many.after.json"
"$HFCTL" -n "$n0" -j dev show >"$LOGS/many.tx.json"
"$HFCTL" -n "$n1" -j dev show >"$LOGS/many.rx.json"
python3 - "$LOGS" "$NLINKS" <<'PY'
import json, sys
logs, nlinks = sys.argv[1], int(sys.argv[2])
bad = []
for side, key in (("tx", "tx_bytes"), ("rx", "rx_bytes")):
    rows = json.load(open(f"{logs}/many.{side}.json"))
    by = {r["dev"]: r for r in rows}
    named = sorted((d for d in by if d.startswith("x")), key=lambda d: int(d[1:]))
    want = [f"x{i}" for i in range(63)]
    if named != want:
        bad.append(f"{side}: devices kept apart: {named}, want x0..x62")
    if len(rows) != 65:
        bad.append(f"{side}: {len(rows)} entries, want 64 devices and other")
    other = by.get("other")
    if not other or other["ifindex"] != 0 or other[key] != 3000:
        bad.append(f"{side}: other: {other}, want ifindex 0 and {key} 3000")
    for d in want:
        if by.get(d, {}).get(key) != 1000:
            bad.append(f"{side}: {d}: {by.get(d)}")
    if side == "tx":
        before = json.load(open(f"{logs}/many.before.json"))
        after = json.load(open(f"{logs}/many.after.json"))
        # eth0 carried nothing here (and eth1's bytes left with it): the
        # new entries hold all the namespace counted in this case.
        eth0 = {r["dev"]: r for r in json.load(open(f"{logs}/many.devs0.json"))}["eth0"]
        if by.get("eth0") != eth0:
            bad.append(f"eth0 moved: {eth0} -> {by.get('eth0')}")
        for k in ("tx_bytes", "tx_segs", "tx_frames"):
            moved = sum(r[k] for r in rows if r["dev"] != "eth0")
            if moved != after[k] - before[k]:
                bad.append(f"new entries' {k} add up to {moved}, "
                           f"the namespace's moved {after[k] - before[k]}")
        if after["tx_bytes"] - before["tx_bytes"] != 1000 * nlinks:
            bad.append(f"namespace tx_bytes moved {after['tx_bytes'] - before['tx_bytes']}")
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
check_err $? "devices past the 64th"
# The links go: their entries are freed, "other" keeps what it counted,
# and a new device takes a freed entry with its own, fresh counters.
for ((i = 0; i < NLINKS; i++)); do echo "link del x$i"; done | ip -n "$n0" -batch -
check_err $? "deleting the links"
ip link add y0 netns "$n0" type veth peer name y0 netns "$n1" &&
	ip -n "$n0" link set y0 up && ip -n "$n1" link set y0 up
check_err $? "link y0"
xfer 0 1 y0 7403 5000
"$HFCTL" -n "$n0" -j dev show >"$LOGS/reuse.json"
entries=$(python3 - "$LOGS/reuse.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
print(" ".join(f"{r['dev']}:{r['tx_bytes']}" for r in rows if r["dev"] != "eth0"))
PY
)
check_eq "$entries" \
	"y0:5000 other:3000" "entries after the links went and y0 came"
log_test "counters: past 64 devices the rest share \"other\", nothing lost; freed entries are reused"

# 8. The status window: an ACK reports the outcomes of 32 messages past
# the oldest unresolved one (status_window 32), or up to 128 where the
# receiver is set so, and no more may start. 64-byte round trips on one
# socket, alone, never wait for it; beside a 4 MiB message of another
# socket to the same peer, paced at 1 MB/s so that it stays unresolved
# for about 4 s, the 33rd ping started after it waits, and each such
# wait counts once in tx_status_waits; unless both nodes are at 128,
# when 100 pings never wait (a node at 128 with a peer at 32 stays at
# 32). The messages of a 1 ms run to a port nobody holds go right after
# the bulk one: every outcome reaches the sender, the 101
# deliveries and the refusals (past 32, in the ACKs' extra words), and no
# ACK is refused. At 128 both, the pings are done before the bulk message:
# none waited for it (a page of send buffer each, 44 unresolved ones
# filled it before small messages shared pages; a timing bound).
# Each run starts a new flow (flow_reset), so the receiver fixes its
# window for it.
m1=$(hf_node_mac 1)
reset=$("$HFCTL" -j config show | json_field flow_reset_ms)
defer hf_config_set flow_reset "${reset}ms" status_window 32
hf_config_set flow_reset 300ms
check_err $? "config set flow_reset"
ip netns exec "$n1" "$PP" echo hf 7500 >"$LOGS/echo" 2>&1 &
defer kill $!
busywait 10000 grep -q ready "$LOGS/echo"
check_err $? "echo server: $(cat "$LOGS/echo")"
ip netns exec "$n1" "$PP" sink hf 7501 >"$LOGS/sink" 2>&1 &
defer kill $!
busywait 10000 grep -q ready "$LOGS/sink"
check_err $? "sink: $(cat "$LOGS/sink")"
w0=$(hf_stat 0 tx_status_waits)
ip netns exec "$n0" "$PP" ping hf eth0 "$m1" 7500 64 100 0 >"$LOGS/ping-alone" 2>&1
check_err $? "pings alone: $(cat "$LOGS/ping-alone")"
check_eq "$(($(hf_stat 0 tx_status_waits) - w0))" 0 "tx_status_waits of 100 pings alone"
# beside_bulk W0 W1: node 0 at status_window W0 sends a 4 MiB message,
# a few to a closed port and 100 pings to node 1 at W1; prints the waits
# counted.
beside_bulk()
{
	local w r d f bad closed early

	"$HFCTL" -n "$n0" config set status_window "$1" &&
		"$HFCTL" -n "$n1" config set status_window "$2" || return 1
	sleep 0.5
	w=$(hf_stat 0 tx_status_waits)
	r=$(hf_stat 1 rx_msgs)
	d=$(hf_stat 0 tx_msgs_delivered)
	f=$(hf_stat 0 tx_msgs_failed)
	bad=$(hf_stat 0 drop_ack_invalid)
	# One message each: the first send of a run shorter than itself.
	ip netns exec "$n0" "$PP" bulk hf eth0 "$m1" 7501 $((4 << 20)) 0.001 1000000 \
		>"$LOGS/bulk" 2>&1 || { cat "$LOGS/bulk"; return 1; }
	# To the closed port: the messages of 1 ms (a few).
	ip netns exec "$n0" "$PP" bulk hf eth0 "$m1" 7599 64 0.001 \
		>"$LOGS/closed" 2>&1 || { cat "$LOGS/closed"; return 1; }
	closed=$(sed -n 's/^bulk bytes=\([0-9]*\) .*/\1/p' "$LOGS/closed")
	closed=$((${closed:-0} / 64))
	ip netns exec "$n0" "$PP" ping hf eth0 "$m1" 7500 64 100 0 >"$LOGS/ping" 2>&1 ||
		{ cat "$LOGS/ping"; return 1; }
	w=$(($(hf_stat 0 tx_status_waits) - w))
	# Whether the pings were done before the bulk message was: none of
	# them waited for it, neither for the window nor for send buffer
	# room (a page each, 44 unresolved small messages filled it).
	early=$(($(hf_stat 0 tx_msgs_delivered) - d < 101))
	# rx_msgs counts the pings and the bulk message delivered.
	busywait 30000 eval "test \$(hf_stat 1 rx_msgs) -eq $((r + 101))" ||
		{ echo "node 1 took $(($(hf_stat 1 rx_msgs) - r)) messages, want 101 (pings:" \
			"$(cat "$LOGS/ping"); $closed to the closed port; node 0 learned" \
			"$(($(hf_stat 0 tx_msgs_delivered) - d)) deliveries," \
			"$(($(hf_stat 0 tx_msgs_failed) - f)) refusals)"; return 1; }
	busywait 10000 eval "test \$(hf_stat 0 tx_msgs_failed) -eq $((f + closed))" ||
		{ echo "node 0 learned $(($(hf_stat 0 tx_msgs_failed) - f)) refusals, want $closed"; return 1; }
	busywait 10000 eval "test \$(hf_stat 0 tx_msgs_delivered) -eq $((d + 101))" ||
		{ echo "node 0 learned $(($(hf_stat 0 tx_msgs_delivered) - d)) deliveries, want 101"; return 1; }
	[[ $(hf_stat 0 drop_ack_invalid) == "$bad" ]] ||
		{ echo "node 0 refused $(($(hf_stat 0 drop_ack_invalid) - bad)) ACKs"; return 1; }
	echo "# status_window $1 to $2: $(cat "$LOGS/ping"), tx_status_waits $w," \
		"$closed refused, pings done before the bulk message: $early" >&2
	echo "$w $early"
}
for pair in "32 32" "128 32" "32 128" "128 128"; do
	read -r a b <<<"$pair"
	out=$(beside_bulk "$a" "$b")
	check_err $? "status_window $a to $b: $out"
	[[ $out =~ ^[0-9]+\ [01]$ ]] || continue
	read -r waits before <<<"$out"
	if ((a == 128 && b == 128)); then
		check_eq "$waits" 0 "tx_status_waits, status_window $a to $b"
		# 100 pings take well under the 4 s the bulk message takes, on a
		# machine fast enough: then no ping waited for it.
		((before == 1))
		check_time $? "at 128 the pings were not done before the bulk message"
	else
		((waits >= 1 && waits <= 100))
		check_err $? "tx_status_waits, status_window $a to $b: $waits, want 1..100"
	fi
done
log_test "counters: tx_status_waits counts the messages the status window holds; 128 lifts it"

exit "$(ktap_exit)"
