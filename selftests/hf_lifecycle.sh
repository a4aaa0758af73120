#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Lifecycle races: close() during a blocking send and a blocking receive,
# many threads on one socket, the interface going down and up or away in
# the middle of a transfer, either side's namespace deleted in the middle
# of one, module unload right after the last socket closes, and a closed
# socket's messages that a stopped receiver refuses for good. Every
# case is bounded in time and checks what the user sees: the errno of
# each call, and that each message sendmsg() accepted was delivered
# (intact, once, in order) or reported failed. The harness fails the run
# on any kernel report and when the module does not unload at the end.
#
# Synchronisation is on real conditions, polled: a receiver "ready", its
# namespace's counters (messages taken, segments refused for a full
# socket), a thread asleep inside its call (hf_race), the module's
# reference count. Each case must end within CASE_S seconds (60; 300 on
# the debug kernel line, KASAN and lockdep under TCG); every wait has a
# bound of its own, so a hang fails the case rather than the run.

source "$(dirname "$(readlink -f "$0")")/lib.sh"
source "$HF_DIR/ledger.sh"

RACE=$HF_DIR/hf_race
MAXMSG=100000
SIZES=4000,65536,524288
ACCT=$HF_DIR/hf_account
XFER=$HF_DIR/hf_xfer
LOGS=$(mktemp -d)
defer rm -rf "$LOGS"
CASE_S=60
[[ $(uname -r) != *-hf-debug ]] || CASE_S=300

# case_start; case_done NAME: report the case, failing it when it took
# longer than CASE_S seconds.
case_start()
{
	CASE_T0=${EPOCHREALTIME/./}
}

case_done()
{
	local ms=$(((${EPOCHREALTIME/./} - CASE_T0) / 1000))

	echo "# case took $((ms / 1000)).$(printf '%03d' $((ms % 1000))) s"
	((ms <= CASE_S * 1000))
	check_err $? "the case took $((ms / 1000)) s, over its $CASE_S s bound"
	log_test "$1"
}

refcnt_is_zero()
{
	[[ $(</sys/module/hyperframe/refcnt) -eq 0 ]]
}

# mark_rx, then taken N: the receiver RPID has taken N more messages.
mark_rx()
{
	pid_stat "$RPID" rx_msgs
	RX_MARK=$NSV
}

taken()
{
	pid_stat "$RPID" rx_msgs
	((NSV >= RX_MARK + $1))
}

refusing()
{
	pid_stat "$RPID" drop_rcvbuf
	((NSV > REFUSED_MARK))
}

# hold_receiver: stop the receiver (SIGSTOP) until its socket is full and
# refuses: from then on the sender has messages in flight that cannot
# complete, however the guest schedules it. release_receiver undoes it.
hold_receiver()
{
	pid_stat "$RPID" drop_rcvbuf
	REFUSED_MARK=$NSV
	kill -STOP "$RPID"
	wait_until 20000 refusing
	check_err $? "the held receiver never refused a message"
}

release_receiver()
{
	kill -CONT "$RPID"
	mark_rx
	wait_until 30000 taken 4
	check_err $? "transfer did not resume"
}

no_eth0()
{
	! ip -n "$1" link show dev eth0 >/dev/null 2>&1
}

# start_recv NODE PORT SIZES COUNT: an accounting receiver in the
# background; RPID is its pid, its ledger $LOGS/r-PORT.
start_recv()
{
	ip netns exec "${HF_NODES[$1]}" "$ACCT" recv --idle 30000 \
		--log "$LOGS/r-$2" "$2" "$3" "$4" >"$LOGS/recv-$2" 2>&1 &
	RPID=$!
	wait_until 30000 has_line "$LOGS/recv-$2" ready
	check_err $? "receiver on node $1 port $2 did not start"
	mark_rx
}

# start_send NODE TO PORT SIZES OPTIONS...: the accounting sender, in
# the background, sending until $LOGS/stop-PORT exists (or 60 s pass).
start_send()
{
	local from=$1 to=$2 port=$3 sizes=$4

	shift 4
	ip netns exec "${HF_NODES[from]}" "$ACCT" send "$@" --time 60 \
		--until "$LOGS/stop-$port" --log "$LOGS/s-$port" eth0 \
		"$(hf_node_mac "$to")" "$port" "$sizes" $MAXMSG \
		>"$LOGS/send-$port" 2>&1 &
	SPID=$!
}

# finish PORT [killed]: stop the sender, wait for both (the receiver only
# when it was not killed), report the tallies; SENT is the sender's line.
finish()
{
	local port=$1 rc l

	: >"$LOGS/stop-$port"
	bounded_wait "$SPID" 100
	rc=$?
	SENT=$(line_of "$LOGS/send-$port" account:)
	echo "# sender: ${SENT#account: }"
	((rc)) && check_err $rc "sender failed ($rc): $(grep -v '^account:' "$LOGS/send-$port" | head -n 3)"
	[[ $2 == killed ]] && return
	# The sender has every outcome: what was delivered is queued.
	kill -USR1 "$RPID"
	bounded_wait "$RPID" 30
	rc=$?
	l=$(line_of "$LOGS/recv-$port" account:)
	echo "# receiver: ${l#account: }"
	((rc)) && check_err $rc "receiver failed ($rc): $(grep -v -e '^account:' -e ready "$LOGS/recv-$port" | head -n 3)"
}

# receiver_took_all PORT: the receiver on node 1, its sender gone, reads
# what it has and ends: what it took has no gap, and node 1 holds no
# peer, no reassembly memory and no socket after.
receiver_took_all()
{
	local l rc

	kill -USR1 "$RPID"
	bounded_wait "$RPID" 20
	((rc = $?)) && check_err $rc "receiver ($rc): $(grep -v -e ready -e '^account:' "$LOGS/recv-$1" | head -n 3)"
	l=$(line_of "$LOGS/recv-$1" account:)
	echo "# receiver: ${l#account: }"
	(($(field "$l" received) > 0 && $(field "$l" received) == $(field "$l" last) + 1))
	check_err $? "messages missing below the last one received: ${l#account: }"
	check_eq "$(hf_stat 1 rx_mem_bytes)" 0 "reassembly memory left on the receiver"
	check_eq "$(hf_stat 1 peers)" 0 "peers left on the receiver"
	wait_until 20000 refcnt_is_zero
	((rc = $?)) && check_err $rc "sockets left behind: module refcnt $(</sys/module/hyperframe/refcnt)"
}

# unload_now MS: rmmod as soon as the module lets go (within MS);
# UNLOAD_MS is how long that took, UNLOAD_REFS the refcnt it first saw.
unload_now()
{
	local t0

	t0=$((${EPOCHREALTIME/./} / 1000))
	UNLOAD_REFS=$(</sys/module/hyperframe/refcnt)
	UNLOAD_TRIES=1
	UNLOAD_WHY=
	until UNLOAD_ERR=$(rmmod hyperframe 2>&1); do
		UNLOAD_WHY=${UNLOAD_WHY:-$UNLOAD_ERR}
		if ((${EPOCHREALTIME/./} / 1000 - t0 > $1)); then
			return 1
		fi
		UNLOAD_TRIES=$((UNLOAD_TRIES + 1))
		sleep 0.01
	done
	UNLOAD_MS=$((${EPOCHREALTIME/./} / 1000 - t0))
}

# new_topo: a fresh pair of namespaces and a fresh log directory, after
# the previous ones are torn down.
new_topo()
{
	defer_run
	LOGS=$(mktemp -d)
	defer rm -rf "$LOGS"
	hf_topo_create 2 1500
}

ktap_plan 12

# Messages of earlier tests may still be resolving; each pins the module.
wait_until 60000 refcnt_is_zero
((rc = $?)) && check_err $rc "module still referenced before the test: $(</sys/module/hyperframe/refcnt)"
T0=$SECONDS
hf_topo_create 2 1500

# 1. A sender blocked on a full SO_SNDBUF, its descriptor closed by
# another thread: the call goes on until its timeout, room, or a signal.
case_start
for mode in timeout drain signal; do
	out=$(timeout 20 "$RACE" close-send "${HF_NODES[0]}" "${HF_NODES[1]}" "$mode" 2>&1)
	((rc = $?)) && check_err $rc "close-send $mode ($rc): $(grep -m 3 'hf_race: [a-z].*:' <<<"$out" | tr '\n' ' ')"
	comment "$out"
done
wait_until 10000 refcnt_is_zero
((rc = $?)) && check_err $rc "sockets left behind: module refcnt $(</sys/module/hyperframe/refcnt)"
case_done "lifecycle: close() during a blocking send: EAGAIN at SO_SNDTIMEO, success once room comes, EINTR on a signal; nothing lost"

# 2. The same for a blocked recv(); the three side by side, on ports of
# their own (they wait, mostly).
case_start
port=7310
for mode in timeout message signal; do
	HF_RACE_PORT=$port timeout 30 "$RACE" close-recv "${HF_NODES[0]}" \
		"${HF_NODES[1]}" "$mode" >"$LOGS/close-recv-$mode" 2>&1 &
	pids[port]=$!
	port=$((port + 10))
done
port=7310
for mode in timeout message signal; do
	wait "${pids[port]}"
	rc=$?
	out=$(<"$LOGS/close-recv-$mode")
	((rc)) && check_err $rc "close-recv $mode ($rc): $(grep -m 3 'hf_race: [a-z].*:' <<<"$out" | tr '\n' ' ')"
	comment "$out"
	port=$((port + 10))
done
wait_until 10000 refcnt_is_zero
((rc = $?)) && check_err $rc "sockets left behind: module refcnt $(</sys/module/hyperframe/refcnt)"
case_done "lifecycle: close() during a blocking recv: EAGAIN at SO_RCVTIMEO, the message if one comes, EINTR on a signal; port freed"

# 3. Many threads on one socket, both ways at once.
case_start
out=$(timeout 50 "$RACE" threads "${HF_NODES[0]}" "${HF_NODES[1]}" 8 60 2>&1)
((rc = $?)) && check_err $rc "threads ($rc): $(head -n 3 <<<"$out" | tr '\n' ' ')"
comment "$out"
case_done "lifecycle: 8 threads sending and receiving on each of two sockets at once, every message once and intact"

# 4. Interface down and up under the sender: its peers are torn down and
# every message queued or in flight fails with ENETDOWN (design.md,
# "Peers and flows"); a send while it is down fails with ENETDOWN at
# once; after it is up again the transfer goes on. The receiver is held
# (stopped, its socket full) across the flap, so messages are in flight.
case_start
start_recv 1 7400 "$SIZES" $MAXMSG
start_send 0 1 7400 "$SIZES" --retry ENETDOWN --expect ENETDOWN --drain 30
wait_until 30000 taken 4
check_err $? "transfer did not start"
hold_receiver
ip -n "${HF_NODES[0]}" link set eth0 down
ip -n "${HF_NODES[0]}" link set eth0 up
release_receiver
finish 7400
reported=$(count "$(field "$SENT" async_errors)" ENETDOWN)
refused=$(count "$(field "$SENT" send_errors)" ENETDOWN)
echo "# ENETDOWN: $reported messages reported failed, $refused sends refused while down"
((reported > 0))
check_err $? "no message in flight was reported failed when the interface went down"
ledger_check "$LOGS/s-7400" "$LOGS/r-7400" "$(field "$SENT" unnamed)"
case_done "lifecycle: sender's interface down/up mid-transfer: ENETDOWN reported, the rest delivered"

# 5. Interface down and up under the receiver: it forgets the flow, and
# the sender learns that the messages it had started may be lost
# (ECONNRESET, wire-format.md "Flows and epochs"), or gives up on the
# silent peer (EHOSTUNREACH); the messages after that are delivered.
case_start
start_recv 1 7401 "$SIZES" $MAXMSG
start_send 0 1 7401 "$SIZES" --expect ECONNRESET,EHOSTUNREACH --drain 30
wait_until 30000 taken 4
check_err $? "transfer did not start"
hold_receiver
ip -n "${HF_NODES[1]}" link set eth0 down
ip -n "${HF_NODES[1]}" link set eth0 up
release_receiver
finish 7401
ledger_check "$LOGS/s-7401" "$LOGS/r-7401" "$(field "$SENT" unnamed)"
(($(field "$SENT" failed) > 0))
check_err $? "the receiver lost its state for a message in flight and the sender was not told"
case_done "lifecycle: receiver's interface down/up mid-transfer: messages in flight fail with ECONNRESET/EHOSTUNREACH, the rest delivered"

# 6. Interface deleted under the sender (the veth pair goes): in-flight
# messages fail with ENETDOWN, the next send gets ENODEV (ENETDOWN if it
# comes between the interface closing and its unregistering).
case_start
start_recv 1 7402 "$SIZES" $MAXMSG
start_send 0 1 7402 "$SIZES" --stop ENODEV,ENETDOWN --expect ENETDOWN --drain 30
wait_until 30000 taken 4
check_err $? "transfer did not start"
hold_receiver
ip -n "${HF_NODES[0]}" link del eth0
kill -CONT "$RPID"
finish 7402
stopped=$(($(count "$(field "$SENT" send_errors)" ENODEV) + $(count "$(field "$SENT" send_errors)" ENETDOWN)))
check_eq "$stopped" 1 "sends refused with ENODEV (or ENETDOWN)"
(($(count "$(field "$SENT" async_errors)" ENETDOWN) > 0))
check_err $? "no message in flight was reported failed with ENETDOWN"
ledger_check "$LOGS/s-7402" "$LOGS/r-7402" "$(field "$SENT" unnamed)"
check_eq "$(hf_stat 1 rx_mem_bytes)" 0 "reassembly memory left on the receiver"
check_eq "$(hf_stat 0 peers)" 0 "peers left on the sender"
case_done "lifecycle: interface deleted mid-transfer: ENETDOWN for messages in flight, ENODEV for the next send"
echo "# $((SECONDS - T0)) s so far"

# 7. The receiver's namespace deleted: its process ends (a namespace
# lives while a socket does; SIGTERM, so that it writes down what it
# took) and the namespace is removed. Its interface goes with it, and
# with the veth pair the sender's: the sender sees its messages refused
# or failed, then ENODEV. What the receiver took was accepted, intact, in
# order; what it had not taken when it closed is not checked.
case_start
new_topo
start_recv 1 7403 "$SIZES" $MAXMSG
start_send 0 1 7403 "$SIZES" --stop ENODEV,ENETDOWN \
	--expect ECONNREFUSED,ENETDOWN,ECONNRESET,EHOSTUNREACH --drain 30
wait_until 30000 taken 4
check_err $? "transfer did not start"
kill -TERM "$RPID"
bounded_wait "$RPID" 20
((rc = $?)) && check_err $rc "receiver ($rc): $(grep -v -e ready -e '^account:' "$LOGS/recv-7403" | head -n 3)"
l=$(line_of "$LOGS/recv-7403" account:)
echo "# receiver: ${l#account: }"
ip netns del "${HF_NODES[1]}"
t0=$SECONDS
bounded_wait "$SPID" 40
rc=$?
SENT=$(line_of "$LOGS/send-7403" account:)
echo "# sender: ${SENT#account: }"
((rc)) && check_err $rc "sender failed ($rc): $(grep -v '^account:' "$LOGS/send-7403" | head -n 3)"
stopped=$(($(count "$(field "$SENT" send_errors)" ENODEV) + $(count "$(field "$SENT" send_errors)" ENETDOWN)))
check_eq "$stopped" 1 "the sender's interface did not go with the namespace"
echo "# namespace gone and the sender told within $((SECONDS - t0)) s; outcomes: $(field "$SENT" async_errors)"
(($(field "$SENT" failed) + $(field "$SENT" unnamed) > 0))
check_err $? "no message was reported failed"
ledger_check "$LOGS/s-7403" "$LOGS/r-7403" "$(field "$SENT" unnamed)" lenient
check_eq "$(hf_stat 0 peers)" 0 "peers left on the sender"
case_done "lifecycle: receiver's namespace deleted mid-transfer: sender told, then ENODEV"

# 8. The sender's namespace deleted: its process killed, the namespace
# removed. What it had sent still arrives, intact and in order (the
# transport owns accepted messages): the numbers received have no gap.
# The namespace then goes, taking the veth pair, and the receiver holds
# nothing for it.
case_start
new_topo
start_recv 1 7404 "$SIZES" $MAXMSG
start_send 0 1 7404 "$SIZES"
wait_until 30000 taken 4
check_err $? "transfer did not start"
kill -9 "$SPID"
wait "$SPID" 2>/dev/null
ip netns del "${HF_NODES[0]}"
t0=$SECONDS
wait_until 30000 no_eth0 "${HF_NODES[1]}"
check_err $? "the sender's namespace was never dismantled (the receiver's veth is still there)"
echo "# sender's namespace dismantled within $((SECONDS - t0)) s"
receiver_took_all 7404
case_done "lifecycle: sender's namespace deleted mid-transfer: accepted messages arrive intact, nothing held after"
echo "# $((SECONDS - T0)) s so far"

# 9. Module unload right after the last socket closes, with the peers of
# a finished transfer still in the namespaces (timers included).
case_start
new_topo
ip netns exec "${HF_NODES[1]}" timeout 30 "$XFER" recv 7500 1000,200000 3 >"$LOGS/x" 2>&1 &
xpid=$!
wait_until 30000 has_line "$LOGS/x" ready
check_err $? "receiver before unload did not start"
ip netns exec "${HF_NODES[0]}" timeout 30 "$XFER" send eth0 "$(hf_node_mac 1)" \
	7500 1000,200000 3 >/dev/null
check_err $? "transfer before unload failed"
bounded_wait $xpid 30
((rc = $?)) && check_err $rc "receiver before unload failed: $(cat "$LOGS/x")"
check_eq "$(hf_stat 0 peers)" 1 "peers before unload"
unload_now 5000
((rc = $?)) && check_err $rc "module did not unload within 5 s of the last close: refcnt $(</sys/module/hyperframe/refcnt)"
echo "# unloaded ${UNLOAD_MS:-?} ms after the last socket closed (refcnt then ${UNLOAD_REFS:-?}, $UNLOAD_TRIES tries${UNLOAD_WHY:+: $UNLOAD_WHY})"
hf_module_load ${HF_MODULE_PARAMS:-}
check_err $? "reload failed"
case_done "lifecycle: module unloads right after the last socket closes, peers and their timers still present"

# 10. A message still in flight when its socket closes (ACKs delayed
# 300 ms by netem: a 2 MiB message takes a dozen round trips) pins the
# module until its outcome is known; it arrives intact, and the module
# unloads right after.
case_start
ip netns exec "${HF_NODES[1]}" tc qdisc add dev eth0 root netem delay 300ms
start_recv 1 7501 2097152 1
base=$(</sys/module/hyperframe/refcnt)
ip netns exec "${HF_NODES[0]}" "$ACCT" send --drain 0 eth0 "$(hf_node_mac 1)" \
	7501 2097152 1 >"$LOGS/inflight" 2>&1
refs=$(</sys/module/hyperframe/refcnt)
echo "# module refcnt with the receiver open: $base; right after the sender exited: $refs"
((refs > base))
check_err $? "nothing pinned the module while a message was in flight"
rmmod hyperframe 2>/dev/null
check_fail $? "the module unloaded with a message in flight"
bounded_wait "$RPID" 30
((rc = $?)) && check_err $rc "the message in flight at close did not arrive intact: $(cat "$LOGS/recv-7501")"
l=$(line_of "$LOGS/recv-7501" account:)
echo "# receiver: ${l#account: }"
check_eq "$(field "$l" received)" 1 "messages received of the one in flight at close"
unload_now 30000
((rc = $?)) && check_err $rc "module did not unload once the message resolved: refcnt $(</sys/module/hyperframe/refcnt)"
echo "# unloaded ${UNLOAD_MS:-?} ms after the receiver exited (refcnt then ${UNLOAD_REFS:-?}, $UNLOAD_TRIES tries${UNLOAD_WHY:+: $UNLOAD_WHY})"
hf_module_load ${HF_MODULE_PARAMS:-}
check_err $? "final load"
case_done "lifecycle: a message in flight at close pins the module until it is delivered, then it unloads"

# 11. A receiver that stops reading for good cannot keep a closed
# socket's messages alive: its refusals are no progress for them, so the
# retry limit ends them, and the sender's namespace, deleted meanwhile,
# is dismantled while the receiver is still stopped (it lived until the
# receiver read again before). What the receiver took has no gap.
case_start
new_topo
start_recv 1 7503 65536 $MAXMSG
start_send 0 1 7503 65536
wait_until 30000 taken 2
check_err $? "transfer did not start"
hold_receiver
kill -9 "$SPID"
wait "$SPID" 2>/dev/null
ip netns del "${HF_NODES[0]}"
t0=$SECONDS
wait_until 30000 no_eth0 "${HF_NODES[1]}"
check_err $? "a stopped receiver kept the closed socket's messages, and the sender's namespace, alive"
echo "# sender's namespace dismantled within $((SECONDS - t0)) s of its deletion, the receiver stopped"
kill -CONT "$RPID"
receiver_took_all 7503
case_done "lifecycle: a closed socket's messages that a stopped receiver refuses end at the retry limit, nothing held after"

# 12. A reader that pauses: its full socket refuses, and from then on
# its ACKs say CLOSED (a closed window, wire-format.md), so the sender
# stops sending into refusals: over 3 s held it sends only its timer's
# probes, one per backed-off timeout, never the window again and again.
# Nothing fails for the pause (a refusing receiver is alive), and all is
# delivered once the reader reads.
case_start
new_topo
start_recv 1 7504 65536 $MAXMSG
start_send 0 1 7504 65536 --drain 30
wait_until 30000 taken 4
check_err $? "transfer did not start"
hold_receiver
sleep 0.5
rexmit0=$(($(hf_stat 0 tx_retransmits)))
refused0=$(($(hf_stat 1 drop_rcvbuf)))
sleep 3
rexmit=$(($(hf_stat 0 tx_retransmits) - rexmit0))
refused=$(($(hf_stat 1 drop_rcvbuf) - refused0))
echo "# held 3 s: $rexmit segments sent again, $refused refused," \
	"$(hf_stat 0 tx_rto) timeouts in all"
# A probe or two per timeout, backed off from the least RTO: 13 and 23
# in 6.1 runs; sending into the refusals, as before the zero window, is
# 15 more per timeout and a repair for each refused segment reported.
((rexmit <= 48))
check_err $? "$rexmit segments sent into a full receiver in 3 s"
release_receiver
finish 7504
check_eq "$(field "$SENT" failed)" 0 "messages failed for a paused reader"
ledger_check "$LOGS/s-7504" "$LOGS/r-7504" "$(field "$SENT" unnamed)"
case_done "lifecycle: a paused reader: zero window, only probes while it is full, everything delivered after"
defer_run
echo "# $((SECONDS - T0)) s in all"

exit "$(ktap_exit)"
