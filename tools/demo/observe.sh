#!/bin/bash
# "make observe": the observability tools side by side, in the QEMU guest
# with hyperframe.ko loaded. Two namespaces joined by a veth pair; the same
# bulk transfer (hfperf pair, 1 MiB messages) over TCP and over hyperframe,
# each watched by "hfctl probe" on the sender's eth0 (any traffic, what the
# wire carries), and the hyperframe one by "hfctl trace" too (the module's
# tracepoints: frames, frame size, repairs, credit, latency).
set -euo pipefail

source "$HF_BUILD/ksft/hyperframe/lib.sh"
source "$HF_TREE/tools/bench/lib.sh"
hfctl=$HF_BUILD/userspace/hfctl/hfctl
hfperf=$HF_BUILD/userspace/hfperf/hfperf
logs=$(mktemp -d)
bytes=${OBSERVE_BYTES:-64m}
status=0

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
	hf_said_wait "$probe" "$logs/probe-$t" "hfctl probe: listening on " || status=1
	if [[ $t == hf ]]; then
		# -n, not "ip netns exec": that mounts a sysfs without tracefs.
		"$hfctl" -n "$n0" trace dev eth0 >"$logs/trace-$t" 2>&1 &
		trace=$!
		hf_said_wait "$trace" "$logs/trace-$t" "hfctl trace: tracing " || status=1
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
