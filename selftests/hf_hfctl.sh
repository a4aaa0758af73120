#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hfctl against the real module: "module show" in text and JSON agrees with
# sysfs, follows the family parameter, works inside a namespace with -n,
# and when the module is gone says to load it and exits 1. Through the
# generic netlink family: "config set" round-trips every writable key,
# refuses out-of-range values (with the range, changing nothing), unknown
# keys and unprivileged callers, while a user namespace's root configures
# its own network namespace within the initial's limits; raw requests
# with stray attributes are refused by policy; each network namespace has
# its own settings (a new one copies the initial's); "socket show" names each
# socket's peers with the flow's state; "stats show" matches /proc/net/hyperframe
# after real traffic, per namespace; "peer show" and "socket show" list
# what the traffic created; every -j output parses.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

HFCTL=${HFCTL:-${HF_BUILD:?set HFCTL or HF_BUILD}/userspace/hfctl/hfctl}

XFER=$HF_DIR/hf_xfer
LOGS=$(mktemp -d)

# config_get KEY: a setting in its base unit (KEY as in -j: ack_delay_us).
config_get()
{
	"$HFCTL" -j config show | json_field "$1"
}

# stats_match NODE: hfctl -s -j stats show in the node's namespace lists
# exactly the counters of its /proc/net/hyperframe, with the same values.
# Reads /proc before and after; retries while counters still move.
stats_match()
{
	local ns=$1 try before after json

	for try in 1 2 3 4 5; do
		before=$(ip netns exec "$ns" cat /proc/net/hyperframe)
		json=$(timeout 60 "$HFCTL" -n "$ns" -s -j stats show) || return 1
		after=$(ip netns exec "$ns" cat /proc/net/hyperframe)
		[[ $before == "$after" ]] || { sleep 0.2; continue; }
		python3 -c '
import json, sys
proc = dict(line.split() for line in sys.argv[1].splitlines())
proc = {k: int(v) for k, v in proc.items()}
got = json.loads(sys.argv[2])
# -s adds the frame size histogram and the devices: not in /proc.
got.pop("frame_size"); got.pop("devices")
if proc != got:
    diff = sorted(set(proc.items()) ^ set(got.items()))
    sys.exit("differ: %s" % diff)
' "$after" "$json"
		return
	done
	echo "counters of $ns kept moving"
	return 1
}

ktap_plan 14

hf_module_load
out=$("$HFCTL" module show)
check_err $? "hfctl module show failed"
grep -qx 'family: 18' <<<"$out"
check_err $? "text output lacks 'family: 18': $out"
grep -qx 'ethertype: 0x88b5' <<<"$out"
check_err $? "text output lacks the EtherType: $out"
check_eq "$("$HFCTL" -j module show | json_field family)" 18 "JSON family"
check_eq "$("$HFCTL" -j module show | json_field ethertype)" $((0x88b5)) "JSON ethertype"
log_test "hfctl: module show agrees with sysfs"

hf_module_unload
hf_module_load family=19
check_eq "$("$HFCTL" -j module show | json_field family)" 19 "family after reload"
hf_module_unload
hf_module_load
log_test "hfctl: follows the family parameter"

hf_topo_create 2
check_eq "$("$HFCTL" -n "${HF_NODES[0]}" -j module show | json_field family)" 18 "family seen from a namespace"
"$HFCTL" -n hf-no-such-ns module show 2>/dev/null
check_eq $? 1 "exit status for a missing namespace"
defer_run
log_test "hfctl: -n NETNS"

hf_module_unload
err=$("$HFCTL" module show 2>&1)
check_eq $? 1 "exit status without the module"
grep -q 'load hyperframe.ko first' <<<"$err"
check_err $? "no hint to load the module: $err"
for object in config stats peer socket; do
	err=$("$HFCTL" "$object" show 2>&1)
	check_eq $? 1 "$object show: exit status without the module"
	grep -q 'load hyperframe.ko first' <<<"$err"
	check_err $? "$object show: no hint to load the module: $err"
done
hf_module_load
log_test "hfctl: readable error without the module"

# Every writable key: KEY (as typed), VALUE (human units), JSON name and the
# value in base units. Each differs from the default.
keys=(
	"max_msg 32m max_msg 33554432"
	"max_peers 100 max_peers 100"
	"frame_segs 8 frame_segs 8"
	"frame_min_segs 2 frame_min_segs 2"
	"frame_max 512k frame_max_bytes 524288"
	"frame_delay_pct 50 frame_delay_pct 50"
	"pacing_rate 100Mbit pacing_rate 12500000"
	"mem_limit 256m mem_limit 268435456"
	"peer_idle 5s peer_idle_ms 5000"
	"flow_reset 1500ms flow_reset_ms 1500"
	"ack_delay 500us ack_delay_us 500"
	"max_inflight 64 max_inflight 64"
	"credit_initial 128k credit_initial 131072"
	"credit_budget 4m credit_budget 4194304"
	"rx_sched 1 rx_sched 1"
	"link_rate 50Mbit link_rate 6250000"
	"unsched_bytes 32k unsched_bytes 32768"
	"status_window 128 status_window 128"
	"rto_min 1ms rto_min_us 1000"
	"rto_max 1s rto_max_us 1000000"
	"rto_initial 30ms rto_initial_us 30000"
	"rto_max_backoff 4 rto_max_backoff 4"
	"retry_limit 5 retry_limit 5"
)
orig=$("$HFCTL" -j config show)
check_err $? "config show -j failed"
python3 -m json.tool <<<"$orig" >/dev/null
check_err $? "config show -j does not parse: $orig"
for k in "${keys[@]}"; do
	read -r key value jname base <<<"$k"
	"$HFCTL" config set "$key" "$value"
	check_err $? "config set $key $value failed"
	check_eq "$(config_get "$jname")" "$base" "$key after set"
	grep -qx "$key: $value" <<<"$("$HFCTL" config show)"
	check_err $? "config show does not print '$key: $value'"
done
# Back to the defaults, all at once, in base units under the JSON names.
restore=$(python3 -c '
import json, sys
c = json.loads(sys.argv[1])
# (a rate takes its unit even under its JSON name: bytes/s as "bps")
print(" ".join("%s %d%s" % (k, v, "bps" if k in ("pacing_rate", "link_rate") else "")
               for k, v in c.items() if k not in ("ethertype", "rto_granularity_us")))' "$orig")
"$HFCTL" config set $restore
check_err $? "config set (restore) failed"
check_eq "$("$HFCTL" -j config show)" "$orig" "configuration after restore"
log_test "hfctl: config set/show round trip for every writable key"

# refused KEY VALUE RANGE: set is refused with exit 1, the message gives
# RANGE, and the value stays.
refused()
{
	local before err

	before=$("$HFCTL" -j config show)
	err=$("$HFCTL" config set "$1" "$2" 2>&1)
	check_eq $? 1 "exit status of config set $1 $2"
	grep -qF "accepted range $3" <<<"$err"
	check_err $? "config set $1 $2: no range '$3' in: $err"
	check_eq "$("$HFCTL" -j config show)" "$before" "configuration after config set $1 $2"
}
refused max_inflight 5000 "1..4096"
refused max_inflight 0 "1..4096"
refused frame_segs 65536 "1..65535"
refused frame_max 2g "1..1g"
refused frame_delay_pct 10001 "0..10000"
refused pacing_rate 2tbit "0bit..1Tbit"
refused ack_delay 2s "0us..1s"
refused max_msg 2g "1..1g"
refused retry_limit 256 "0..255"
refused rto_max_backoff 33 "0..32"
refused credit_initial 2g "0..1g"
refused credit_budget 0 "1..1g"
refused rx_sched 2 "0..1"
refused link_rate 2tbit "0bit..1Tbit"
refused unsched_bytes 2g "0..1g"
refused status_window 31 "32..128"
refused status_window 129 "32..128"
# All or nothing: a good key with a bad one changes neither.
err=$("$HFCTL" config set max_peers 77 max_inflight 0 2>&1)
check_eq $? 1 "exit status of a half-bad config set"
check_eq "$(config_get max_peers)" "$(json_field max_peers <<<"$orig")" "max_peers after a half-bad set"
# min <= initial <= max is checked on the result.
err=$("$HFCTL" config set rto_min 30ms 2>&1)
check_eq $? 1 "exit status of rto_min above rto_initial"
grep -q 'rto_initial_us' <<<"$err"
check_err $? "rto_min above rto_initial: unclear message: $err"
check_eq "$(config_get rto_min_us)" 2000 "rto_min after a refused set"
fsegs=$(config_get frame_segs)
err=$("$HFCTL" config set frame_min_segs $((fsegs + 1)) 2>&1)
check_eq $? 1 "exit status of frame_min_segs above frame_segs"
grep -q 'frame_min_segs <= frame_segs' <<<"$err"
check_err $? "frame_min_segs above frame_segs: unclear message: $err"
err=$("$HFCTL" config set frobs 1 2>&1)
check_eq $? 2 "exit status for an unknown key"
grep -q 'unknown config key "frobs"; keys: max_msg, .*retry_limit' <<<"$err"
check_err $? "unknown key: no list of keys in: $err"
err=$("$HFCTL" config set ethertype 0x88b6 2>&1)
check_eq $? 2 "exit status for a read-only key"
err=$("$HFCTL" config set ack_delay fast 2>&1)
check_eq $? 2 "exit status for a malformed value"
grep -q 'expected a time in us' <<<"$err"
check_err $? "malformed value: unclear message: $err"
check_eq "$("$HFCTL" -j config show)" "$orig" "configuration after the refusals"
log_test "hfctl: config set refuses bad values and keys, changing nothing"

out=$(python3 "$HF_DIR/hf_genl_policy.py" 2>&1)
check_err $? "raw requests against the family's policies: $out"
check_eq "$("$HFCTL" -j config show)" "$orig" "configuration after the raw requests"
log_test "netlink: every request is validated by policy; stray attributes are refused"

nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all)
out=$("${nobody[@]}" "$HFCTL" -j config show)
check_err $? "config show as nobody failed"
check_eq "$out" "$orig" "configuration seen by nobody"
err=$("${nobody[@]}" "$HFCTL" config set max_peers 77 2>&1)
check_eq $? 1 "exit status of config set as nobody"
grep -q 'CAP_NET_ADMIN.*Operation not permitted' <<<"$err"
check_err $? "config set as nobody: no EPERM in: $err"
check_eq "$(config_get max_peers)" "$(json_field max_peers <<<"$orig")" "max_peers after nobody's set"
log_test "hfctl: config set needs CAP_NET_ADMIN"

# CAP_NET_ADMIN in the network namespace's user namespace is enough to
# configure it: nobody makes a user namespace and a network namespace in
# it, and as root there sets its own settings. Raising a limit that bounds
# memory the whole machine shares above the initial namespace's still
# needs CAP_NET_ADMIN in the initial user namespace.
userns_knob=/proc/sys/kernel/unprivileged_userns_clone
if [[ -e $userns_knob ]]; then
	defer echo "$(cat "$userns_knob")" ">$userns_knob"
	echo 1 >"$userns_knob"
fi
init_mem=$(json_field mem_limit <<<"$orig")
# shellcheck disable=SC2016 # the inner script expands its own arguments
out=$("${nobody[@]}" unshare --user --map-root-user --net bash -c '
hfctl=$1 mem=$2
"$hfctl" config set peer_idle 5s || exit 11
"$hfctl" -j config show || exit 12
"$hfctl" config set mem_limit $((mem + 1)) && exit 13
"$hfctl" config set mem_limit $((mem / 2)) || exit 14
"$hfctl" -j config show || exit 15
' userns "$HFCTL" "$init_mem" 2>&1)
check_eq $? 0 "configuring a user namespace's own network namespace: $out"
python3 -c '
import json, sys
text, mem = sys.argv[1], int(sys.argv[2])
lines = text.splitlines()
first, last = json.loads(lines[0]), json.loads(lines[-1])
assert first["peer_idle_ms"] == 5000, first
assert first["mem_limit"] == mem, first
assert last["mem_limit"] == mem // 2 and last["peer_idle_ms"] == 5000, last
want = ("mem_limit above the initial namespace\x27s needs CAP_NET_ADMIN there: "
        "Operation not permitted")
assert any(want in l for l in lines[1:-1]), "no refusal in %s" % lines[1:-1]
' "$out" "$init_mem"
check_err $? "user namespace configuration: $out"
check_eq "$("$HFCTL" -j config show)" "$orig" "initial namespace after a user namespace's sets"
log_test "hfctl: a user namespace's root configures its own namespace, within the initial's limits"

# Each namespace has its own settings; a new one starts from a copy of
# the initial namespace's as they are when it is created.
cfgns=hfcfg$RANDOM
ip netns add "$cfgns-a"
defer ip netns del "$cfgns-a"
"$HFCTL" -n "$cfgns-a" config set peer_idle 7s max_peers 77
check_err $? "config set in $cfgns-a failed"
check_eq "$("$HFCTL" -n "$cfgns-a" -j config show | json_field peer_idle_ms)" 7000 \
	"peer_idle_ms where it was set"
check_eq "$("$HFCTL" -n "$cfgns-a" -j config show | json_field max_peers)" 77 \
	"max_peers where it was set"
check_eq "$("$HFCTL" -j config show)" "$orig" "initial namespace after a set in another"
"$HFCTL" config set ack_delay 3ms
check_err $? "config set ack_delay 3ms failed"
defer "$HFCTL" config set ack_delay_us "$(json_field ack_delay_us <<<"$orig")"
ip netns add "$cfgns-b"
defer ip netns del "$cfgns-b"
check_eq "$("$HFCTL" -n "$cfgns-b" -j config show | json_field ack_delay_us)" 3000 \
	"ack_delay_us of a namespace made after the initial's changed"
check_eq "$("$HFCTL" -n "$cfgns-b" -j config show | json_field peer_idle_ms)" \
	"$(json_field peer_idle_ms <<<"$orig")" "peer_idle_ms of the new namespace"
check_eq "$("$HFCTL" -n "$cfgns-a" -j config show | json_field ack_delay_us)" \
	"$(json_field ack_delay_us <<<"$orig")" "ack_delay_us of the older namespace"
"$HFCTL" config set ack_delay_us "$(json_field ack_delay_us <<<"$orig")"
check_err $? "restoring ack_delay_us failed"
log_test "hfctl: config is per network namespace; a new one copies the initial's"


# Traffic: two messages from node 0 to node 1, port 7100. Peers must not
# be reclaimed as idle before they are looked at, however slow the guest.
"$HFCTL" config set peer_idle 600s
check_err $? "config set peer_idle 600s failed"
defer "$HFCTL" config set peer_idle_ms "$(json_field peer_idle_ms <<<"$orig")"
hf_topo_create 2
n0=${HF_NODES[0]}
n1=${HF_NODES[1]}
ip netns exec "$n1" "$XFER" recv 7100 1000,100000 >"$LOGS/recv" 2>&1 &
rpid=$!
busywait 10000 grep -q ready "$LOGS/recv"
check_err $? "receiver did not start: $(cat "$LOGS/recv")"
out=$("$HFCTL" -n "$n1" -j socket show)
check_err $? "socket show -j failed"
python3 -m json.tool <<<"$out" >/dev/null
check_err $? "socket show -j does not parse: $out"
python3 -c '
import json, sys
socks = json.loads(sys.argv[1])
sys.exit(0 if [s for s in socks if s["port"] == 7100 and s["ifindex"] == 0] else 1)' "$out"
check_err $? "socket show -j lacks port 7100: $out"
"$HFCTL" -n "$n1" socket show | grep -qE '^7100 +\*'
check_err $? "socket show lacks port 7100: $("$HFCTL" -n "$n1" socket show)"
check_eq "$("$HFCTL" -n "$n0" -j socket show)" "[]" "sockets of the other namespace"
log_test "hfctl: socket show lists a bound socket in its namespace only"

ip netns exec "$n0" timeout 60 "$XFER" send eth0 "$(hf_node_mac 1)" 7100 \
	1000,100000 >"$LOGS/send" 2>&1
check_err $? "sender failed: $(cat "$LOGS/send")"
timeout 60 tail --pid="$rpid" -f /dev/null
wait "$rpid"
check_err $? "receiver failed: $(cat "$LOGS/recv")"
out=$("$HFCTL" -n "$n0" -j peer show)
check_err $? "peer show -j failed"
python3 -m json.tool <<<"$out" >/dev/null
check_err $? "peer show -j does not parse: $out"
python3 -c '
import json, sys
peers = json.loads(sys.argv[1])
ok = len(peers) == 1 and peers[0]["address"] == sys.argv[2] and \
     peers[0]["dev"] == "eth0" and peers[0]["tx_segs"] > 0 and peers[0]["epoch"] > 0
sys.exit(0 if ok else 1)' "$out" "$(hf_node_mac 1)"
check_err $? "peer show -j on node 0 lacks node 1 with segments sent: $out"
"$HFCTL" -n "$n1" peer show | grep -q "dev eth0 addr $(hf_node_mac 0) .*rx_segs [1-9]"
check_err $? "peer show on node 1 lacks node 0: $("$HFCTL" -n "$n1" peer show)"
log_test "hfctl: peer show lists the peer after traffic"

# socket show names the peers each socket talked to, with the flow's
# frame size, rate, credit, srtt and retransmits, as peer show has them.
mkfifo "$LOGS/hold1" "$LOGS/hold0"
ip netns exec "$n1" env HF_XFER_HOLD=1 "$XFER" recv 7102 2000000 \
	<"$LOGS/hold1" >"$LOGS/recv2" 2>&1 &
rpid=$!
exec {hold1}>"$LOGS/hold1"
busywait 10000 grep -q ready "$LOGS/recv2"
check_err $? "holding receiver did not start: $(cat "$LOGS/recv2")"
ip netns exec "$n0" env HF_XFER_HOLD=1 timeout 600 "$XFER" send eth0 "$(hf_node_mac 1)" \
	7102 2000000 <"$LOGS/hold0" >"$LOGS/send2" 2>&1 &
spid=$!
exec {hold0}>"$LOGS/hold0"
busywait 60000 grep -q done "$LOGS/send2"
check_err $? "holding sender did not finish: $(cat "$LOGS/send2")"
busywait 60000 grep -q done "$LOGS/recv2"
check_err $? "holding receiver did not finish: $(cat "$LOGS/recv2")"
hf_counters_settle "$n0" "$n1"
socks0=$("$HFCTL" -n "$n0" -j socket show)
check_err $? "socket show -j on node 0 failed"
peers0=$("$HFCTL" -n "$n0" -j peer show)
socks1=$("$HFCTL" -n "$n1" -j socket show)
check_err $? "socket show -j on node 1 failed"
python3 -c '
import json, sys
socks, peers, mac = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
assert len(socks) == 1, "node 0 should have one socket: %s" % socks
[sock] = socks
assert len(sock["peers"]) == 1, "the sender should name one peer: %s" % sock
[p] = sock["peers"]
[q] = [q for q in peers if q["address"] == mac]
assert p["address"] == mac and p["dev"] == "eth0", p
assert p["frame_segs"] > 0 and p["seg_size"] == 1456, p
assert p["srtt_us"] > 0 and p["tx_bytes"] >= 2000000, p
# Counters stood still after the outcome: they must agree exactly.
for k in ("tx_segs", "retransmits", "tx_bytes", "tx_msgs_delivered", "frame_segs",
          "pacing_rate", "credit_bytes", "srtt_us", "epoch"):
    assert p[k] == q[k], "%s: socket show %s, peer show %s" % (k, p[k], q[k])
' "$socks0" "$peers0" "$(hf_node_mac 1)"
check_err $? "node 0 socket show -j peers: $socks0 against $peers0"
python3 -c '
import json, sys
socks, mac = json.loads(sys.argv[1]), sys.argv[2]
[sock] = [s for s in socks if s["port"] == 7102]
[p] = sock["peers"]
assert p["address"] == mac and p["rx_bytes"] >= 2000000 and p["rx_msgs"] >= 1, p
' "$socks1" "$(hf_node_mac 0)"
check_err $? "node 1 socket show -j lacks its sender: $socks1"
out=$("$HFCTL" -n "$n0" socket show)
grep -qE "^ +peer dev eth0 addr $(hf_node_mac 1) frame_segs [1-9][0-9]* frame_bytes [1-9][0-9]* rate [^ ]+ credit [^ ]+ srtt [^ ]+ retransmits [0-9]+ inflight [0-9]+$" <<<"$out"
check_err $? "socket show text lacks the peer line: $out"
echo "# node 0: $(grep peer <<<"$out")"
exec {hold0}>&- {hold1}>&-
wait "$spid"
check_err $? "holding sender failed: $(cat "$LOGS/send2")"
wait "$rpid"
check_err $? "holding receiver failed: $(cat "$LOGS/recv2")"
check_eq "$("$HFCTL" -n "$n0" -j socket show)" "[]" "node 0 sockets after close"
log_test "hfctl: socket show lists each socket's peers with frame size, rate, credit, srtt"

stats_match "$n0"
check_err $? "node 0 counters"
stats_match "$n1"
check_err $? "node 1 counters"
check_eq "$("$HFCTL" -n "$n0" -j stats show | json_field tx_msgs)" 3 "node 0 tx_msgs"
check_eq "$("$HFCTL" -n "$n1" -j stats show | json_field tx_msgs)" 0 "node 1 tx_msgs"
check_eq "$("$HFCTL" -n "$n1" -j stats show | json_field rx_msgs)" 3 "node 1 rx_msgs"
check_eq "$("$HFCTL" -n "$n1" -j stats show | json_field rx_bytes)" 2101000 "node 1 rx_bytes"
check_eq "$("$HFCTL" -j stats show | json_field rx_msgs)" 0 "initial namespace rx_msgs"
"$HFCTL" -n "$n1" stats show | grep -qE '^rx_msgs +3$'
check_err $? "text stats lack 'rx_msgs 3'"
"$HFCTL" -n "$n1" stats show | grep -q '^drop_malformed_'
check_fail $? "the malformed breakdown shows without -s"
"$HFCTL" -n "$n1" -s stats show | grep -q '^drop_malformed_short '
check_err $? "the malformed breakdown is missing with -s"
defer_run
log_test "hfctl: stats match /proc/net/hyperframe, per namespace"

exit "$(ktap_exit)"
