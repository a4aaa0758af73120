#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Blind injection into a live flow (issue 33, items 2 and 3). Node 0 sends
# node 1 a stream of 1 MiB messages, slowed by a tbf on the switch's port
# to node 1 so that it is in flight for seconds, while node 2, on a switch
# port that learns no addresses, impersonates one end:
# 1. DATA in node 0's name at node 1 (hf_hostile --classes hijack): new
#    epochs that could start a flow, the same with guessed echoes, and
#    segments of unknown epochs anywhere. The receiver must challenge the
#    new epochs and never adopt one, answer the guessed echoes LOST (which
#    node 0 drops: not its epoch), drop the rest, and the flow must go on:
#    no reset, no failed message, every byte as sent.
# 2. ACKs in node 1's name at node 0 that carry the flow's real epoch, as
#    a local user who could read it would (here read by root, who may):
#    another receiver state, and LOST for segments never sent. None
#    acknowledges anything new, so none may restart the flow.
# 3. Who may read the epoch: root sees it in the peer dump and in HF_INFO,
#    an unprivileged user reads 0 in both and may not listen to events.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

XFER=$HF_DIR/hf_xfer
HOSTILE=$HF_DIR/hf_hostile
HFCTL=${HFCTL:-${HF_BUILD:?set HFCTL or HF_BUILD}/userspace/hfctl/hfctl}
PORT=7400
HELLO=7401
# 40 MiB at 40 Mbit/s: about 8 s in flight.
MIB=1048576
COUNT=40
RATE=40mbit
ATTACK_S=6
LOGS=$(mktemp -d)
defer rm -rf "$LOGS"

# delta NODE NAME: how much counter NAME of node NODE grew since snap().
declare -A base
snap()
{
	local n k v

	for n in 0 1; do
		while read -r k v; do
			base[$n.$k]=$v
		done < <(ip netns exec "${HF_NODES[n]}" cat /proc/net/hyperframe)
	done
}

delta()
{
	echo $(($(hf_stat "$1" "$2") - ${base[$1.$2]:-0}))
}

ready()
{
	grep -q '^ready' "$1" 2>/dev/null
}

# transfer TAG: start node 1's receiver and node 0's sender of COUNT
# messages of 1 MiB; sets RPID and SPID.
transfer()
{
	ip netns exec "${HF_NODES[1]}" timeout 120 "$XFER" recv $PORT $MIB $COUNT \
		> "$LOGS/recv.$1" 2>&1 &
	RPID=$!
	busywait 10000 ready "$LOGS/recv.$1"
	ip netns exec "${HF_NODES[0]}" timeout 120 "$XFER" send eth0 "$mac1" $PORT \
		$MIB $COUNT > "$LOGS/send.$1" 2>&1 &
	SPID=$!
}

# finish TAG: wait for both ends, check they succeeded.
finish()
{
	wait "$SPID"
	check_err $? "sender failed: $(tail -n 3 "$LOGS/send.$1")"
	wait "$RPID"
	check_err $? "receiver failed: $(tail -n 3 "$LOGS/recv.$1")"
}

ktap_plan 3

hf_topo_create 3 1500
check_err $? "topology"
# Spoofed source addresses must not steal the victims' traffic at the
# bridge (MAC theft is a link-layer attack; port security stops it).
ip -n "$HF_SWITCH" link set dev p2 type bridge_slave learning off
tc -n "$HF_SWITCH" qdisc replace dev p1 root tbf rate $RATE burst 64kb latency 500ms
mac0=$(hf_node_mac 0)
mac1=$(hf_node_mac 1)

# The two meet first: the flow under attack is a live one.
ip netns exec "${HF_NODES[1]}" timeout 30 "$XFER" recv $HELLO 1000 > "$LOGS/hello" 2>&1 &
hpid=$!
busywait 10000 ready "$LOGS/hello"
ip netns exec "${HF_NODES[0]}" timeout 30 "$XFER" send eth0 "$mac1" $HELLO 1000 \
	> "$LOGS/hello.send" 2>&1
check_err $? "first message: $(cat "$LOGS/hello.send")"
wait $hpid

# 1. Forged DATA in node 0's name.
snap
transfer data
sleep 1
ip netns exec "${HF_NODES[2]}" "$HOSTILE" --ifname eth0 --dst "$mac1" \
	--impersonate "$mac0" --classes hijack --seconds $ATTACK_S --pps 400 \
	--seed 7 > "$LOGS/hijack" 2>&1
check_err $? "hf_hostile: $(tail -n 3 "$LOGS/hijack")"
finish data
sed 's/^/# hijack: /' "$LOGS/hijack"
resets=$(delta 0 tx_resets)
failed=$(delta 0 tx_msgs_failed)
epochs=$(delta 1 rx_epochs)
echo "# sender: tx_resets +$resets, tx_msgs_failed +$failed, tx_epochs +$(delta 0 tx_epochs)," \
	"tx_challenges +$(delta 0 tx_challenges)," \
	"drop_epoch +$(delta 0 drop_epoch); receiver: rx_epochs +$epochs," \
	"rx_challenges +$(delta 1 rx_challenges), rx_lost_replies +$(delta 1 rx_lost_replies)," \
	"drop_unproven +$(delta 1 drop_unproven), drop_forged +$(delta 1 drop_forged)," \
	"drop_no_state +$(delta 1 drop_no_state), rx_msgs +$(delta 1 rx_msgs)"
check_eq "$resets" 0 "flows reset at the sender"
check_eq "$failed" 0 "messages failed at the sender"
# The sender may start a new epoch of its own (the flow was idle past
# flow_reset since the first message); the receiver adopts that one only.
check_eq "$epochs" "$(delta 0 tx_epochs)" "epochs adopted by the receiver against epochs the sender started"
check_eq "$(delta 1 rx_msgs)" $COUNT "messages delivered"
(($(delta 1 rx_challenges) > 0 && $(delta 1 drop_unproven) > 0))
check_err $? "no new epoch was challenged"
(($(delta 1 rx_lost_replies) > 0 && $(delta 1 drop_no_state) > 0))
check_err $? "no guessed echo was answered LOST"
(($(delta 1 drop_forged) > 0))
check_err $? "no mid-stream segment was dropped as forged"
# Answers are rate-limited per 100 ms: 64 challenges, 8 LOST answers,
# whatever is forged.
((answers = $(delta 1 rx_challenges), answers <= 640 * (ATTACK_S + 2)))
check_err $? "$answers challenges in ${ATTACK_S} s: more than the rate limit"
((answers = $(delta 1 rx_lost_replies), answers <= 80 * (ATTACK_S + 2)))
check_err $? "$answers LOST answers in ${ATTACK_S} s: more than the rate limit"
log_test "blind: forged DATA in the sender's name neither resets nor stalls a live flow"

# 2. Forged ACKs in node 1's name, with the real epoch.
snap
transfer ack
sleep 1
epoch=$(ip netns exec "${HF_NODES[0]}" "$HFCTL" -j peer show |
	python3 -c 'import json, sys
for p in json.load(sys.stdin):
    if p["address"] == sys.argv[1]:
        print(p["epoch"])' "$mac1")
((epoch > 0))
check_err $? "root does not see the flow's epoch (got '$epoch')"
ip netns exec "${HF_NODES[2]}" "$HOSTILE" --ifname eth0 --dst "$mac0" \
	--impersonate "$mac1" --classes sweep --epoch "$epoch" \
	--seconds $ATTACK_S --pps 400 --seed 8 > "$LOGS/sweep" 2>&1
check_err $? "hf_hostile: $(tail -n 3 "$LOGS/sweep")"
finish ack
sed 's/^/# forged acks: /' "$LOGS/sweep"
echo "# sender: tx_resets +$(delta 0 tx_resets), tx_msgs_failed +$(delta 0 tx_msgs_failed)," \
	"drop_ack_invalid +$(delta 0 drop_ack_invalid); receiver: rx_msgs +$(delta 1 rx_msgs)"
check_eq "$(delta 0 tx_resets)" 0 "flows restarted by forged ACKs"
check_eq "$(delta 0 tx_msgs_failed)" 0 "messages failed at the sender"
(($(delta 0 drop_ack_invalid) > 0))
check_err $? "the forged ACKs were not dropped as invalid"
log_test "blind: ACKs with a leaked epoch that acknowledge nothing restart nothing"

# 3. Who sees epochs: root yes, an unprivileged user reads 0, no events.
nobody()
{
	ip netns exec "${HF_NODES[0]}" setpriv --reuid=65534 --regid=65534 \
		--clear-groups "$@"
}
ip netns exec "${HF_NODES[1]}" timeout 30 "$XFER" recv $HELLO 1000 > "$LOGS/hello2" 2>&1 &
hpid=$!
busywait 10000 ready "$LOGS/hello2"
out=$(nobody "$XFER" send eth0 "$mac1" $HELLO 1000 1 info 2>&1)
check_err $? "unprivileged send: $out"
wait $hpid
grep -q 'epoch=0$' <<< "$out"
check_err $? "HF_INFO shows an unprivileged user the epoch: $(grep -m1 '^info' <<< "$out")"
seen=$(nobody "$HFCTL" -j peer show | python3 -c 'import json, sys
print(" ".join(str(p["epoch"]) for p in json.load(sys.stdin)))')
echo "# epochs an unprivileged user reads in the peer dump: $seen"
[[ -n $seen && ! $seen =~ [1-9] ]]
check_err $? "the peer dump shows an unprivileged user epochs: $seen"
out=$(nobody timeout 10 "$HFCTL" monitor 2>&1)
rc=$?
echo "# unprivileged hfctl monitor: status $rc: $out"
((rc != 0 && rc != 124))
check_err $? "an unprivileged user may listen to events (status $rc)"
grep -qi "not permitted" <<< "$out"
check_err $? "the refusal does not say why: $out"
log_test "blind: epochs are shown to CAP_NET_ADMIN only"

exit "$(ktap_exit)"
