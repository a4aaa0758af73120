#!/bin/bash
# "make observe": the observability tools side by side, in the QEMU guest
# with hyperframe.ko loaded. Two namespaces joined by a veth pair; the same
# bulk transfer (hfperf pair, 1 MiB messages) over TCP and over hyperframe,
# each watched by "hfctl probe" on the sender's eth0 (any traffic, what the
# wire carries), and the hyperframe one by "hfctl trace" too (the module's
# tracepoints: frames, frame size, repairs, credit, latency).
set -euo pipefail

source "$HF_BUILD/ksft/hyperframe/lib.sh"
hfctl=$HF_BUILD/userspace/hfctl/hfctl
hfperf=$HF_BUILD/userspace/hfperf/hfperf
logs=$(mktemp -d)
bytes=${OBSERVE_BYTES:-64m}
status=0

# attached PID KIND N: PID has exited, or N of its BPF programs are
# attached: its perf events on tracepoints (KIND perf: hfctl trace), or
# the links of hfctl probe's programs (KIND link). Loading takes seconds
# under TCG.
attached()
{
	! kill -0 "$1" 2>/dev/null && return 0
	python3 - "$@" <<'EOF'
import json, subprocess, sys
pid, kind, want = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
out = subprocess.run(["bpftool", "-j", kind, "show"], capture_output=True, text=True).stdout
items = json.loads(out or "[]") or []
if kind == "perf":
	mine = [p for p in items if p.get("pid") == pid]
else:  # the probe's links, by its programs' names (one probe at a time)
	progs = subprocess.run(["bpftool", "-j", "prog", "show"], capture_output=True,
			       text=True).stdout
	ids = {p["id"] for p in json.loads(progs or "[]") or []
	       if p.get("name", "").startswith("hf_probe_")}
	mine = [l for l in items if l.get("prog_id") in ids]
sys.exit(0 if len(mine) >= want else 1)
EOF
}

# watch TRANSPORT: the transfer over TRANSPORT with its watchers.
watch()
{
	local t=$1 peer filter probe server trace=

	if [[ $t == hf ]]; then
		peer=$(hf_node_mac 1)
		filter="ethertype 0x88b5"
	else
		peer=$(hf_node_addr 1)
		filter="proto tcp port 7800"
	fi
	# shellcheck disable=SC2086 # the filter is words
	"$hfctl" -n "$n0" probe dev eth0 duration 120s $filter >"$logs/probe-$t" 2>&1 &
	probe=$!
	busywait 120000 attached "$probe" link 2 || status=1
	if [[ $t == hf ]]; then
		# -n, not "ip netns exec": that mounts a sysfs without tracefs.
		"$hfctl" -n "$n0" trace dev eth0 >"$logs/trace-$t" 2>&1 &
		trace=$!
		busywait 120000 attached "$trace" perf 9 || status=1
	fi
	ip netns exec "$n1" "$hfperf" server -t "$t" -d eth0 --port 7800 --clients 1 \
		>"$logs/server-$t" 2>&1 &
	server=$!
	ip netns exec "$n0" "$hfperf" pair -t "$t" -d eth0 --port 7800 --peer "$peer" \
		--sizes 1m --bytes "$bytes" --wait 30s >"$logs/pair-$t" 2>&1 || status=1
	wait "$server" || status=1
	kill -INT "$probe" ${trace:+"$trace"}
	wait "$probe" || status=1
	[[ -z $trace ]] || wait "$trace" || status=1
}

echo "guest kernel: $(uname -r); module $(basename "$HF_MODULE") loaded"
hf_topo_create 2 1500
n0=${HF_NODES[0]}
n1=${HF_NODES[1]}
echo "two namespaces, one veth pair, MTU 1500; $bytes in 1 MiB messages from node 0 to node 1"
for t in tcp hf; do
	watch "$t"
done

for t in tcp hf; do
	echo
	echo "==== ${t^^}: hfperf pair"
	cat "$logs/pair-$t"
	echo "==== ${t^^}: hfctl probe dev eth0 (node 0)"
	cat "$logs/probe-$t"
done
echo
echo "==== HF: hfctl trace dev eth0 (node 0)"
cat "$logs/trace-hf"
defer_run
rm -rf "$logs"
exit "$status"
