#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Checks the topology builder every network test stands on: 2 nodes over
# one veth pair and 4 nodes through a bridge, at MTU 1500 and 9000. Each
# node must reach every other with a full-MTU, don't-fragment packet, the
# links must carry the MTU asked for, and teardown must leave nothing.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

# topo_case N MTU
topo_case()
{
	local n=$1 mtu=$2
	local i j got before after

	before=$(ip netns list | wc -l)
	hf_topo_create "$n" "$mtu"
	check_err $? "topology of $n nodes was not created"
	for ((i = 0; i < n; i++)); do
		got=$(ip -n "${HF_NODES[i]}" -o link show dev eth0 |
			sed -n 's/.* mtu \([0-9]*\) .*/\1/p')
		check_eq "$got" "$mtu" "MTU of node $i"
	done
	for ((i = 0; i < n; i++)); do
		for ((j = 0; j < n; j++)); do
			((i == j)) && continue
			ip netns exec "${HF_NODES[i]}" ping -q -c 1 -W 5 \
				-M do -s $((mtu - 28)) "$(hf_node_addr "$j")" \
				>/dev/null
			check_err $? "node $i cannot reach node $j at MTU $mtu"
		done
	done
	defer_run
	after=$(ip netns list | wc -l)
	check_eq "$after" "$before" "namespaces left after teardown"
	log_test "topology: $n nodes, MTU $mtu"
}

ktap_plan 4
topo_case 2 1500
topo_case 2 9000
topo_case 4 1500
topo_case 4 9000
exit "$(ktap_exit)"
