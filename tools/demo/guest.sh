#!/bin/bash
# The demo's guest side: runs in the QEMU guest with hyperframe.ko loaded.
# Brings up 4 namespaces behind a bridge and runs an all-to-all: every node
# sends 4 messages of 1 MiB to every other node at once, each verified byte
# for byte on arrival, then shows the transport's own counters.
set -euo pipefail

source "$HF_BUILD/ksft/hyperframe/lib.sh"
hfctl=$HF_BUILD/userspace/hfctl/hfctl
xfer=$HF_BUILD/ksft/hyperframe/hf_xfer
logs=$(mktemp -d)

echo "guest kernel:     $(uname -r)"
echo "module:           $(basename "$HF_MODULE"), loaded"
"$hfctl" module show | sed 's/^/                  /'

hf_topo_create 4 1500
n=${#HF_NODES[@]}
echo "cluster:          $n namespaces behind bridge br0 (in $HF_SWITCH), MTU 1500"
for ((i = 0; i < n; i++)); do
	printf '  node %d  %-14s  eth0 %s\n' "$i" "${HF_NODES[i]}" "$(hf_node_mac "$i")"
done

echo "all-to-all:       every node sends 4 x 1 MiB to every other node, all at once"
for ((i = 0; i < n; i++)); do
	for ((j = 0; j < n; j++)); do
		((i == j)) || ip netns exec "${HF_NODES[j]}" "$xfer" recv $((7000 + 10 * i + j)) \
			1048576 4 >"$logs/r$i$j" 2>&1 &
	done
done
for f in "$logs"/r*; do
	busywait 10000 grep -q ready "$f"
done
start=$(date +%s%N)
pids=()
for ((i = 0; i < n; i++)); do
	for ((j = 0; j < n; j++)); do
		((i == j)) && continue
		ip netns exec "${HF_NODES[i]}" "$xfer" send eth0 "$(hf_node_mac "$j")" \
			$((7000 + 10 * i + j)) 1048576 4 >"$logs/s$i$j" 2>&1 &
		pids+=($!)
	done
done
fail=0
for p in "${pids[@]}"; do wait "$p" || fail=1; done
wait
ms=$(( ($(date +%s%N) - start) / 1000000 ))
bytes=$((n * (n - 1) * 4 * 1048576))
printf '                  %d MiB in %d ms (%.0f Mbit/s in an emulated guest), %s\n' \
	$((bytes >> 20)) "$ms" "$(echo "$bytes * 8 / $ms / 1000" | bc -l)" \
	"$( ((fail)) && echo 'FAILED' || echo 'every message verified byte for byte')"

printf '\n%-8s %8s %10s %10s %8s %10s %8s\n' node msgs_tx segs_tx frames_tx acks_rx retransmit rx_msgs
for ((i = 0; i < n; i++)); do
	ip netns exec "${HF_NODES[i]}" awk -v node="$i" '
		{ v[$1] = $2 }
		END { printf "%-8s %8d %10d %10d %8d %10d %8d\n", node, v["tx_msgs"],
		      v["tx_segs"], v["tx_frames"], v["rx_acks"], v["tx_retransmits"],
		      v["rx_msgs"] }' /proc/net/hyperframe
done
defer_run
rm -rf "$logs"
exit "$fail"
