#!/bin/bash
# The demo's guest side: runs in the QEMU guest with hyperframe.ko loaded.
set -euo pipefail

source "$HF_BUILD/ksft/hyperframe/lib.sh"
hfctl=$HF_BUILD/userspace/hfctl/hfctl
hold=$HF_BUILD/ksft/hyperframe/hf_sockhold

echo "guest kernel:     $(uname -r)"
echo "module:           $(basename "$HF_MODULE"), loaded"
"$hfctl" module show | sed 's/^/                  /'

hf_topo_create 4 1500
echo "cluster:          ${#HF_NODES[@]} namespaces behind bridge br0 (in $HF_SWITCH), MTU 1500"
for ((i = 0; i < ${#HF_NODES[@]}; i++)); do
	ip netns exec "${HF_NODES[i]}" "$hold" --probe
	printf '  node %d  %-14s  eth0 %s  AF_HYPERFRAME SOCK_RDM socket: opened and closed\n' \
		"$i" "${HF_NODES[i]}" "$(hf_node_mac "$i")"
done
defer_run
echo "demo: the module registered its family, every node opened a socket, the cluster was torn down"
