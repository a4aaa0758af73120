#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Prometheus side of hfctl against the real module, after known
# traffic between two namespaces: "stats prometheus" passes promtool and
# carries the namespace's counters, the hfq qdisc's among them (and writes a
# textfile atomically with -o); its other spellings "stats --prometheus"
# and "stats show --prometheus" (with -o too) print the same families and
# metric names and pass promtool; "exporter" serves them over HTTP (GET and HEAD, 405 for other
# methods, 404 elsewhere); a real Prometheus server started in the
# namespace scrapes the exporter and its query API returns the counter's
# value; the exporter survives a module reload, reporting hyperframe_up 0
# while the module is gone, and stops cleanly on SIGTERM.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

HFCTL=${HFCTL:-${HF_BUILD:?set HFCTL or HF_BUILD}/userspace/hfctl/hfctl}
XFER=$HF_DIR/hf_xfer
LOGS=$(mktemp -d)
EXPORTER=127.0.0.1:9477
PROMETHEUS=127.0.0.1:9090
defer rm -rf "$LOGS"

# get NS PATH [CURL OPTIONS...]: status line and body of an HTTP request to
# the exporter in NS, in $LOGS/body; prints the status code.
get()
{
	local ns=$1 path=$2

	shift 2
	ip netns exec "$ns" curl -s -o "$LOGS/body" -w '%{http_code}' \
		--max-time 20 "$@" "http://$EXPORTER$path"
}

# sample FILE NAME: the value of the sample NAME (labels included) in FILE.
sample()
{
	awk -v n="$2" '$1 == n {print $2}' "$1"
}

# prom_query NS QUERY: the answer of Prometheus in NS to an instant QUERY.
prom_query()
{
	ip netns exec "$1" curl -s --max-time 10 -G \
		--data-urlencode "query=$2" "http://$PROMETHEUS/api/v1/query"
}

# prom_value NS QUERY: the one value of that answer, or nothing yet.
prom_value()
{
	prom_query "$@" | python3 -c '
import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if len(r) == 1 else "")' 2>/dev/null
}

# prom_has NS QUERY VALUE: the answer is one sample of VALUE (no python:
# it is polled, and processes start slowly in an emulated guest).
prom_has()
{
	[[ $(prom_query "$1" "$2") =~ \"result\":\[\{[^]]*\"value\":\[[0-9.]+,\"$3\"\]\}\] ]]
}

# tc_sent NS: packets the root qdisc of eth0 in NS sent, as tc reports them.
tc_sent()
{
	ip netns exec "$1" tc -s qdisc show dev eth0 | awk '/Sent/ {print $4; exit}'
}

ktap_plan 6

for tool in curl promtool prometheus; do
	command -v $tool >/dev/null || { echo "# $tool is missing (make deps)"; exit "$KSFT_FAIL"; }
done

hf_topo_create 2
n0=${HF_NODES[0]}
n1=${HF_NODES[1]}
"$HFCTL" -n "$n0" qdisc attach dev eth0
check_err $? "hfctl qdisc attach dev eth0 in $n0"
ip netns exec "$n1" "$XFER" recv 7400 1000,100000 >"$LOGS/recv" 2>&1 &
rpid=$!
busywait 10000 grep -q ready "$LOGS/recv"
check_err $? "receiver did not start: $(cat "$LOGS/recv")"
ip netns exec "$n0" timeout 60 "$XFER" send eth0 "$(hf_node_mac 1)" 7400 \
	1000,100000 >"$LOGS/send" 2>&1
check_err $? "sender failed: $(cat "$LOGS/send")"
wait "$rpid"
check_err $? "receiver failed: $(cat "$LOGS/recv")"

"$HFCTL" -n "$n1" stats prometheus >"$LOGS/metrics"
check_err $? "stats prometheus failed"
promtool check metrics <"$LOGS/metrics" >"$LOGS/promtool" 2>&1
check_err $? "promtool: $(cat "$LOGS/promtool")"
label="namespace=\"$n1\""
check_eq "$(sample "$LOGS/metrics" "hyperframe_up{$label}")" 1 "hyperframe_up"
check_eq "$(sample "$LOGS/metrics" "hyperframe_rx_msgs_total{$label}")" 2 "rx_msgs"
check_eq "$(sample "$LOGS/metrics" "hyperframe_rx_bytes_total{$label}")" 101000 "rx_bytes"
check_eq "$(sample "$LOGS/metrics" "hyperframe_drops_total{$label,reason=\"csum\"}")" \
	"$(ip netns exec "$n1" awk '$1 == "drop_csum" {print $2}' /proc/net/hyperframe)" \
	"drops by reason"
mkdir "$LOGS/textfile"
tc_before=$(tc_sent "$n0")
"$HFCTL" -n "$n0" stats prometheus -o "$LOGS/textfile/hyperframe.prom"
check_err $? "stats prometheus -o failed"
tc_after=$(tc_sent "$n0")
check_eq "$(sample "$LOGS/textfile/hyperframe.prom" "hyperframe_tx_msgs_total{namespace=\"$n0\"}")" \
	2 "tx_msgs in the textfile"
check_eq "$(ls -A "$LOGS/textfile")" hyperframe.prom "files left in the textfile directory"
promtool check metrics <"$LOGS/textfile/hyperframe.prom" >"$LOGS/promtool" 2>&1
check_err $? "promtool on the textfile with hfq: $(cat "$LOGS/promtool")"
# The data band carried every DATA segment the sender sent, first time and
# again; all bands add up to what tc says hfq sent (read before and after:
# the guest may send a packet of its own in between).
prom=$LOGS/textfile/hyperframe.prom
label="dev=\"eth0\",namespace=\"$n0\""
check_eq "$(sample "$prom" "hyperframe_qdisc_packets_total{band=\"data\",$label}")" \
	$(($(sample "$prom" "hyperframe_tx_segs_total{namespace=\"$n0\"}") + \
	   $(sample "$prom" "hyperframe_tx_retransmits_total{namespace=\"$n0\"}"))) \
	"hfq data band: DATA segments sent"
bands=0
for band in control data other; do
	v=$(sample "$prom" "hyperframe_qdisc_packets_total{band=\"$band\",$label}")
	[[ $v =~ ^[0-9]+$ ]] || { check_err 1 "no $band band sample: '$v'"; v=0; }
	bands=$((bands + v))
done
((tc_before <= bands && bands <= tc_after))
check_err $? "hfq packets by band: $bands, tc said $tc_before before and $tc_after after"
check_eq "$(sample "$LOGS/textfile/hyperframe.prom" \
	"hyperframe_qdisc_queued_packets{band=\"data\",$label}")" 0 "data queued after the run"
log_test "exporter: stats prometheus passes promtool and carries the counters and hfq's"

# names FILE: the families (# HELP and # TYPE lines) and the metric names
# of the samples in FILE, one a line, sorted.
names()
{
	{
		grep -E '^# (HELP|TYPE) ' "$1"
		grep -vE '^#' "$1" | sed -E 's/[{ ].*//'
	} | sort -u
}

"$HFCTL" -n "$n0" stats prometheus >"$LOGS/spelled.command"
check_err $? "stats prometheus failed"
names "$LOGS/spelled.command" >"$LOGS/names.command"
(($(wc -l <"$LOGS/names.command") > 20))
check_err $? "stats prometheus named too little: $(wc -l <"$LOGS/names.command") lines"
for spelling in "stats --prometheus" "stats show --prometheus" "--prometheus stats" \
	"stats --prometheus -o $LOGS/textfile/flag.prom"; do
	# shellcheck disable=SC2086 # the spelling is words
	"$HFCTL" -n "$n0" $spelling >"$LOGS/spelled" 2>"$LOGS/spelled.err"
	check_err $? "hfctl $spelling: $(cat "$LOGS/spelled.err")"
	if [[ $spelling == *-o* ]]; then
		check_eq "$(wc -c <"$LOGS/spelled")" 0 "hfctl $spelling wrote to standard output"
		cp "$LOGS/textfile/flag.prom" "$LOGS/spelled"
	fi
	names "$LOGS/spelled" >"$LOGS/names.spelled"
	diff -u "$LOGS/names.command" "$LOGS/names.spelled" >"$LOGS/names.diff"
	check_err $? "hfctl $spelling names other metrics: $(grep '^[-+][^-+]' "$LOGS/names.diff" | head -n 5 | tr '\n' ' ')"
	promtool check metrics <"$LOGS/spelled" >"$LOGS/promtool" 2>&1
	check_err $? "promtool on hfctl $spelling: $(cat "$LOGS/promtool")"
done
check_eq "$(sample "$LOGS/textfile/flag.prom" "hyperframe_tx_msgs_total{namespace=\"$n0\"}")" \
	2 "tx_msgs in the textfile of stats --prometheus -o"
echo "# $(grep -c '^# TYPE ' "$LOGS/names.command") families, $(grep -vc '^#' "$LOGS/names.command") metric names in each spelling"
log_test "exporter: stats --prometheus and stats show --prometheus: the same metrics, promtool passes"

ip netns exec "$n1" "$HFCTL" exporter --listen $EXPORTER >"$LOGS/exporter" 2>&1 &
epid=$!
defer kill $epid
busywait 20000 get "$n1" /metrics >/dev/null
check_err $? "the exporter did not answer: $(cat "$LOGS/exporter")"
check_eq "$(get "$n1" /metrics)" 200 "GET /metrics"
check_eq "$(sample "$LOGS/body" hyperframe_rx_msgs_total)" 2 "rx_msgs served"
promtool check metrics <"$LOGS/body" >"$LOGS/promtool" 2>&1
check_err $? "promtool on the served metrics: $(cat "$LOGS/promtool")"
check_eq "$(get "$n1" /metrics --head)" 200 "HEAD /metrics"
check_eq "$(get "$n1" /metrics -X POST -d x=1)" 405 "POST /metrics"
check_eq "$(get "$n1" /nope)" 404 "GET /nope"
check_eq "$(get "$n0" /metrics)" 000 "the exporter reached from another namespace"
log_test "exporter: serves /metrics over HTTP, refuses other methods and paths"

cat >"$LOGS/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: hyperframe
    static_configs:
      - targets: ['$EXPORTER']
EOF
ip netns exec "$n1" prometheus --config.file="$LOGS/prometheus.yml" \
	--storage.tsdb.path="$LOGS/tsdb" --web.listen-address=$PROMETHEUS \
	>"$LOGS/prometheus.log" 2>&1 &
ppid_=$!
defer kill $ppid_
t0=$SECONDS
# Prometheus takes 10-150 s to start and scrape in a loaded TCG guest.
busywait 300000 prom_has "$n1" hyperframe_rx_msgs_total 2
check_err $? "Prometheus returned '$(prom_value "$n1" hyperframe_rx_msgs_total)' for hyperframe_rx_msgs_total: $(tail -n 3 "$LOGS/prometheus.log")"
echo "# Prometheus: hyperframe_rx_msgs_total = $(prom_value "$n1" hyperframe_rx_msgs_total)," \
	"hyperframe_rx_bytes_total = $(prom_value "$n1" hyperframe_rx_bytes_total)," \
	"up = $(prom_value "$n1" 'up{job="hyperframe"}'), $((SECONDS - t0)) s after its start"
check_eq "$(prom_value "$n1" hyperframe_rx_bytes_total)" 101000 "rx_bytes in Prometheus"
log_test "exporter: a real Prometheus scrapes it and returns the counters"

kill $ppid_
wait $ppid_ 2>/dev/null
"$HFCTL" -n "$n0" qdisc detach dev eth0
check_err $? "hfq detach (it pins the module)"
hf_module_unload
check_err $? "module unload with the exporter running"
check_eq "$(get "$n1" /metrics)" 200 "GET /metrics without the module"
check_eq "$(sample "$LOGS/body" hyperframe_up)" 0 "hyperframe_up without the module"
check_eq "$(grep -c '^hyperframe_' "$LOGS/body")" \
	"$(($(grep -c '^hyperframe_exporter_' "$LOGS/body") + 1))" \
	"samples without the module (the exporter's own besides hyperframe_up)"
hf_module_load
check_err $? "module load"
check_eq "$(get "$n1" /metrics)" 200 "GET /metrics after the reload"
check_eq "$(sample "$LOGS/body" hyperframe_up)" 1 "hyperframe_up after the reload"
log_test "exporter: keeps serving across a module reload"

kill -TERM $epid
wait $epid
check_eq $? 0 "exporter exit status on SIGTERM"
log_test "exporter: stops cleanly on SIGTERM"

exit "$(ktap_exit)"
