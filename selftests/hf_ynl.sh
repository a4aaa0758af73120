#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The generic netlink family driven by the kernel's own YNL tool, cli.py
# (tools/net/ynl of linux-source-6.12, found by tools/ynl.sh), through
# the family's spec (docs/netlink/hyperframe.yaml), against the real
# module and compared with hfctl -j: the spec matches the kernel's
# description of the family (nlctrl: its operations, permission flags,
# and every request's policy, attribute by attribute with its type and
# range; a spec with one range off is caught); config-get gives hfctl's
# settings; a config-set through cli.py is what hfctl reads back, and an
# out-of-range or read-only value is refused with nothing changed; after
# traffic between two namespaces the peer-get and dev-get dumps and
# stats-get give hfctl's peers, devices, counters and frame size
# histogram; cli.py --subscribe events receives the events of new peers,
# alike, in order, as hfctl monitor does.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

HFCTL=${HFCTL:-${HF_BUILD:?set HFCTL or HF_BUILD}/userspace/hfctl/hfctl}
TREE=${HF_TREE:-$(dirname "$HF_BUILD")}
SPEC=$TREE/docs/netlink/hyperframe.yaml
CMP=$HF_DIR/hf_ynl.py
LOGS=$(mktemp -d)
defer rm -rf "$LOGS"

ktap_plan 8

# The tooling comes with "make deps"; without it every case fails.
if ! YNL=$("$TREE/tools/ynl.sh" 2>"$LOGS/ynl.err"); then
	echo "# the kernel's YNL tooling is missing: $(cat "$LOGS/ynl.err") (make deps)"
	for name in policies config-get config-set refusals peers devs stats events; do
		RET=1
		RET_MSG="no YNL tooling"
		log_test "ynl: $name"
	done
	exit "$(ktap_exit)"
fi
echo "# YNL from $YNL"

# cli NS ARGS...: cli.py on the family's spec in namespace NS (validated
# against the genetlink-c schema on the way), JSON out.
cli()
{
	local ns=$1

	shift
	ip netns exec "$ns" timeout 120 python3 "$YNL/tools/net/ynl/cli.py" \
		--spec "$SPEC" --schema "$YNL/Documentation/netlink/genetlink-c.yaml" \
		--output-json "$@"
}

# alike WHAT NS CLI-ARGS -- HFCTL-ARGS: cli.py's reply and hfctl -j's,
# compared by hf_ynl.py WHAT; the two are read between two hfctl reads
# that agree, so that nothing moved meanwhile (five tries).
alike()
{
	local what=$1 ns=$2 try
	local -a c=() h=()

	shift 2
	while [[ $1 != -- ]]; do
		c+=("$1")
		shift
	done
	shift
	h=("$@")
	for try in 1 2 3 4 5; do
		"$HFCTL" -n "$ns" -j "${h[@]}" >"$LOGS/h1" || return 1
		cli "$ns" "${c[@]}" >"$LOGS/c" 2>"$LOGS/c.err" ||
			{ echo "# cli.py ${c[*]}: $(cat "$LOGS/c" "$LOGS/c.err")"; return 1; }
		"$HFCTL" -n "$ns" -j "${h[@]}" >"$LOGS/h2" || return 1
		cmp -s "$LOGS/h1" "$LOGS/h2" && break
		sleep 0.5
	done
	python3 "$CMP" "$what" "$LOGS/c" "$LOGS/h2"
}

hf_module_load
hf_topo_create 2
n0=${HF_NODES[0]}
n1=${HF_NODES[1]}

# 1. The spec against the kernel's own description of the family (read
# with the YNL library and the kernel's nlctrl spec).
ip netns exec "$n0" timeout 120 python3 "$CMP" nlctrl "$YNL" "$LOGS/nlctrl" >"$LOGS/nlctrl.out" 2>&1
check_err $? "nlctrl: $(cat "$LOGS/nlctrl.out")"
python3 "$CMP" policy "$SPEC" "$LOGS/nlctrl"
check_err $? "the spec is not the kernel's family"
# The comparison fails on a spec whose max-msg range is one off.
sed '0,/max: 1073741824/s//max: 1073741823/' "$SPEC" >"$LOGS/off.yaml"
if ! cmp -s "$SPEC" "$LOGS/off.yaml"; then
	python3 "$CMP" policy "$LOGS/off.yaml" "$LOGS/nlctrl" >"$LOGS/off.out"
	check_fail $? "a spec with max-msg's range off passed: $(cat "$LOGS/off.out")"
	grep -m1 'max-msg' "$LOGS/off.out"
else
	check_err 1 "found no max-msg range to put off"
fi
log_test "ynl: the spec's operations, flags and request policies are the kernel's"

# 2. config-get.
alike config "$n1" --do config-get -- config show
check_err $? "config-get is not hfctl's config show"
log_test "ynl: config-get gives hfctl's settings"

# 3. config-set through cli.py (u32 and u64 values), read back by hfctl.
before=$("$HFCTL" -n "$n1" -j config show)
want=$(python3 -c '
import json, sys
c = json.loads(sys.argv[1])
print(json.dumps({"ack-delay-us": c["ack_delay_us"] + 7, "retry-limit": 9,
                  "pacing-rate": 12500000, "mem-limit": c["mem_limit"] - 4096,
                  "frame-delay-pct": 150}))' "$before")
cli "$n1" --do config-set --json "$want" >"$LOGS/set" 2>&1
check_err $? "config-set $want: $(cat "$LOGS/set")"
"$HFCTL" -n "$n1" -j config show >"$LOGS/after"
python3 - "$before" "$want" "$LOGS/after" <<'EOF'
import json, sys
before, want = json.loads(sys.argv[1]), json.loads(sys.argv[2])
after = json.load(open(sys.argv[3]))
expect = dict(before, **{k.replace("-", "_"): v for k, v in want.items()})
if after != expect:
    sys.exit("# hfctl reads %s" % sorted(set(after.items()) ^ set(expect.items())))
print("# hfctl reads back %s" % want)
EOF
check_err $? "hfctl does not read back what cli.py set"
alike config "$n1" --do config-get -- config show
check_err $? "config-get after the set is not hfctl's"
log_test "ynl: config-set through cli.py, read back by hfctl -j"

# 4. Refused whole, nothing changed: a value out of its range, a read-only
# attribute (cli.py sends it; the kernel's policy refuses it).
cli "$n1" --do config-set --json '{"ack-delay-us": 1, "max-msg": 0}' >"$LOGS/range" 2>&1
check_fail $? "max-msg 0 accepted"
grep -q 'out of range' "$LOGS/range"
check_err $? "max-msg 0: not refused as out of range: $(cat "$LOGS/range")"
cli "$n1" --do config-set --json '{"ethertype": 2048}' >"$LOGS/ro" 2>&1
check_fail $? "ethertype accepted"
grep -q 'read-only' "$LOGS/ro"
check_err $? "ethertype: not refused as read-only: $(cat "$LOGS/ro")"
"$HFCTL" -n "$n1" -j config show >"$LOGS/after2"
cmp -s "$LOGS/after" "$LOGS/after2"
check_err $? "a refused config-set changed the settings"
echo "# $(head -n 1 "$LOGS/range" | cut -c 1-100)"
log_test "ynl: config-set out of range or read-only refused, nothing changed"

# Traffic both ways, then quiet. The peers must outlive the quiet: a
# peer idle for peer_idle_ms (10 s) is reclaimed, and on the debug line
# the settling and cli.py's start took longer than that (both dumps
# empty). Set in the nodes only; their namespaces go with the test.
for ns in "$n0" "$n1"; do
	"$HFCTL" -n "$ns" config set peer_idle 600s
	check_err $? "config set peer_idle 600s in $ns"
done
hf_exchange "$LOGS" 7100
check_err $? "the exchange between the nodes failed"
hf_counters_settle "$n0" "$n1"

# 5-7. Dumps and gets after traffic.
alike peers "$n0" --dump peer-get -- peer show
check_err $? "the peer-get dump is not hfctl's peer show"
log_test "ynl: the peer-get dump gives hfctl's peers"

alike devs "$n0" --dump dev-get -- dev show
check_err $? "the dev-get dump is not hfctl's dev show"
log_test "ynl: the dev-get dump gives hfctl's devices"

alike stats "$n0" --do stats-get -- -s stats show
check_err $? "stats-get is not hfctl's stats show"
log_test "ynl: stats-get gives hfctl's counters and frame size histogram"

# 8. Events: cli.py subscribes, sleeps, then prints what arrived. New
# peers (messages to addresses nobody has, given up after 3 silent
# timeouts) are made every second while it runs, some after it has
# subscribed; hfctl monitor, listening before and after, has them all.
cli "$n0" --do config-set --json '{"retry-limit": 2, "peer-idle-ms": 1000}' >"$LOGS/set2" 2>&1
check_err $? "config-set retry-limit 2: $(cat "$LOGS/set2")"
"$HFCTL" -n "$n0" -j monitor >"$LOGS/mon" 2>"$LOGS/mon.err" &
mon=$!
defer kill "$mon"
hf_monitor_probe 0 1 "$LOGS/mon"
check_err $? "hfctl monitor showed no event: $(cat "$LOGS/mon.err")"
cli "$n0" --subscribe events --sleep 20 >"$LOGS/ntf" 2>"$LOGS/ntf.err" &
sub=$!
defer kill "$sub"
pids=()
for ((i = 1; i <= 90 && ${#pids[@]} < 60; i++)); do
	kill -0 "$sub" 2>/dev/null || break
	ip netns exec "$n0" timeout 60 "$HF_DIR/hf_xfer" send eth0 \
		"$(printf '02:00:00:00:02:%02x' "$i")" 7000 100 >/dev/null 2>&1 &
	pids+=($!)
	sleep 1
done
wait "$sub"
check_err $? "cli.py --subscribe: $(cat "$LOGS/ntf.err")"
for p in "${pids[@]}"; do
	wait "$p"
done
# Until the monitor has printed the last event cli.py got.
busywait 10000 python3 "$CMP" events "$LOGS/ntf" "$LOGS/mon" >/dev/null
python3 "$CMP" events "$LOGS/ntf" "$LOGS/mon"
check_err $? "cli.py's events are not hfctl monitor's"
log_test "ynl: cli.py --subscribe events gets hfctl monitor's events"

exit "$(ktap_exit)"
