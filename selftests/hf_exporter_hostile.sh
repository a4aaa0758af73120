#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hfctl exporter against hostile clients and as a daemon started by root
# (issue 33, item 12): with three times as many slow clients as it has
# connection slots, each sending a byte every 2 s and reconnecting when
# closed, a scrape is still answered within a second (the exporter evicts
# the connection that has had the longest to send its request); started
# with -n as root, it serves as nobody with no capability left (and as
# root only when --user root asks for it); the hfq qdiscs, dumped under
# RTNL, are dumped once per --cache-ms however often it is scraped, while
# the counters are read afresh for every scrape.

source "$(dirname "$(readlink -f "$0")")/lib.sh"

HFCTL=${HFCTL:-${HF_BUILD:?set HFCTL or HF_BUILD}/userspace/hfctl/hfctl}
LOGS=$(mktemp -d)
PORT=9477
EXPORTER=127.0.0.1:$PORT
SLOTS=16	# the default --max-connections
SLOW=$((3 * SLOTS))
defer rm -rf "$LOGS"

# get NS PATH: the status code of GET PATH from the exporter in NS, and
# the seconds it took ("200 0.004512"); the body is in $LOGS/body.
get()
{
	rm -f "$LOGS/body"
	ip netns exec "$1" curl -s -o "$LOGS/body" -w '%{http_code} %{time_total}' \
		--max-time 20 "http://$EXPORTER$2"
}

# sample NAME: the value of the sample NAME (labels included) in the last
# body fetched.
sample()
{
	awk -v n="$1" '$1 == n {print $2}' "$LOGS/body"
}

# status PID FIELD: the values of FIELD in /proc/PID/status, tabs as spaces.
status()
{
	awk -v f="$2:" '$1 == f {$1 = ""; sub(/^ /, ""); print}' "/proc/$1/status"
}

# exporter NS ARGS...: start hfctl -n NS exporter ARGS in the background as
# root; sets $epid and waits until it answers.
exporter()
{
	local ns=$1

	shift
	"$HFCTL" -n "$ns" exporter --listen $EXPORTER "$@" >"$LOGS/exporter" 2>&1 &
	epid=$!
	defer kill $epid
	busywait 20000 get "$ns" /metrics >/dev/null
	check_err $? "the exporter did not answer: $(cat "$LOGS/exporter")"
}

# stop_exporter: SIGTERM, and the exit status must be 0.
stop_exporter()
{
	kill -TERM $epid
	wait $epid
	check_eq $? 0 "exporter exit status on SIGTERM"
}

ktap_plan 4

command -v curl >/dev/null || { echo "# curl is missing (make deps)"; exit "$KSFT_FAIL"; }

hf_topo_create 2
n0=${HF_NODES[0]}
"$HFCTL" -n "$n0" qdisc attach dev eth0
check_err $? "hfctl qdisc attach dev eth0 in $n0"
defer "$HFCTL" -n "$n0" qdisc detach dev eth0

# The slow clients: one process, $SLOW connections, each sends one byte of
# a request head every 2 s and connects again when the server closes it.
cat >"$LOGS/slow.py" <<'EOF'
import socket, sys, time
port, count, period = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
head = b"GET /metrics HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"a" * 100000
def connect():
    s = socket.socket()
    s.setblocking(False)
    try:
        s.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass
    return [s, 0]
conns = [connect() for _ in range(count)]
reconnects = 0
print("ready", flush=True)
while True:
    for c in conns:
        try:
            if c[0].recv(4096) == b"":
                raise ConnectionError
        except BlockingIOError:
            pass
        except OSError:
            c[0].close()
            c[:] = connect()
            reconnects += 1
            print("reconnects", reconnects, flush=True)
            continue
        try:
            c[1] += c[0].send(head[c[1]:c[1] + 1])
        except BlockingIOError:
            pass
        except OSError:
            pass
    time.sleep(period)
EOF

# 1. Slow clients hold every slot (and the backlog behind them).
exporter "$n0"
read -r code base <<<"$(get "$n0" /metrics)"
check_eq "$code" 200 "GET /metrics before the slow clients"
ip netns exec "$n0" python3 "$LOGS/slow.py" $PORT $SLOW 2 >"$LOGS/slow" 2>&1 &
spid=$!
defer kill $spid
busywait 20000 grep -q ready "$LOGS/slow"
check_err $? "the slow clients did not start: $(cat "$LOGS/slow")"
sleep 3	# every slot taken, the backlog full of more
worst=0
for i in 1 2 3 4 5; do
	read -r code took <<<"$(get "$n0" /metrics)"
	echo "# scrape $i under $SLOW slow clients: status $code in $took s (${base} s without them)"
	check_eq "$code" 200 "scrape $i under slow clients"
	check_eq "$(sample "hyperframe_up{namespace=\"$n0\"}")" 1 "hyperframe_up of scrape $i"
	worst=$(awk -v a="$worst" -v b="${took:-99}" 'BEGIN {print (b > a) ? b : a}')
	sleep 1
done
awk -v w="$worst" 'BEGIN {exit !(w < 1.0)}'
check_err $? "the slowest scrape under $SLOW slow clients took $worst s (1 s allowed)"
evicted=$(sample "hyperframe_exporter_evicted_connections_total{namespace=\"$n0\"}")
echo "# slowest: $worst s; connections evicted: ${evicted:-none};" \
	"slow clients reconnected $(tail -n 1 "$LOGS/slow" | awk '{print $2}') times"
((${evicted:-0} > 0))
check_err $? "no slow connection was evicted: '$evicted'"
kill $spid
wait $spid 2>/dev/null
log_test "exporter: a scrape is answered within 1 s while $SLOW slow clients hold every slot"

# 2. Started by root with -n: after setns it serves as nobody, without a
# capability, and still reads the counters and the qdisc.
for field in Uid Gid; do
	check_eq "$(status $epid $field)" "65534 65534 65534 65534" "$field of the exporter"
done
for field in CapInh CapPrm CapEff CapBnd CapAmb; do
	check_eq "$(status $epid $field)" 0000000000000000 "$field of the exporter"
done
check_eq "$(status $epid NoNewPrivs)" 1 "NoNewPrivs of the exporter"
check_eq "$(status $epid Groups)" "" "supplementary groups of the exporter"
read -r code _ <<<"$(get "$n0" /metrics)"
check_eq "$code" 200 "GET /metrics as nobody"
check_eq "$(sample "hyperframe_up{namespace=\"$n0\"}")" 1 "hyperframe_up as nobody"
[[ -n $(sample "hyperframe_qdisc_backlog_bytes{dev=\"eth0\",namespace=\"$n0\"}") ]]
check_err $? "no hfq sample as nobody"
echo "# exporter $(status $epid Uid | cut -d' ' -f1):$(status $epid Gid | cut -d' ' -f1)" \
	"CapEff $(status $epid CapEff) CapBnd $(status $epid CapBnd)"
stop_exporter
exporter "$n0" --user root
check_eq "$(status $epid Uid)" "0 0 0 0" "Uid of the exporter with --user root"
check_eq "$(sample "hyperframe_up{namespace=\"$n0\"}")" 1 "hyperframe_up as root"
stop_exporter
log_test "exporter: with -n, root drops to nobody and every capability after setns"

# 3. A long --cache-ms: the qdisc is dumped for the first scrape only, so
# traffic between two scrapes moves the counters but not hfq's samples.
other="hyperframe_qdisc_packets_total{band=\"other\",dev=\"eth0\",namespace=\"$n0\"}"
dumps="hyperframe_exporter_qdisc_dumps_total{namespace=\"$n0\"}"
exporter "$n0" --cache-ms 600000
get "$n0" /metrics >/dev/null
a_other=$(sample "$other")
a_dumps=$(sample "$dumps")
ip netns exec "$n0" ping -q -c 3 -i 0.2 "$(hf_node_addr 1)" >/dev/null
for i in 1 2 3 4 5; do
	get "$n0" /metrics >/dev/null
done
echo "# --cache-ms 600000: hfq band other $a_other then $(sample "$other")" \
	"across 3 pings, qdisc dumps $a_dumps then $(sample "$dumps") over 6 scrapes"
check_eq "$(sample "$other")" "$a_other" "hfq's band other from the cache"
check_eq "$a_dumps" 1 "qdisc dumps after the first scrape"
check_eq "$(sample "$dumps")" 1 "qdisc dumps after six scrapes"
stop_exporter
log_test "exporter: --cache-ms: one qdisc dump for scrapes within it"

# 4. --cache-ms 0: every scrape dumps, and sees the pings.
exporter "$n0" --cache-ms 0
get "$n0" /metrics >/dev/null
a_other=$(sample "$other")
a_dumps=$(sample "$dumps")
ip netns exec "$n0" ping -q -c 3 -i 0.2 "$(hf_node_addr 1)" >/dev/null
get "$n0" /metrics >/dev/null
echo "# --cache-ms 0: hfq band other $a_other then $(sample "$other") across 3 pings," \
	"qdisc dumps $a_dumps then $(sample "$dumps")"
((${a_other:-0} + 3 <= $(sample "$other")))
check_err $? "hfq's band other did not count the pings: $a_other then $(sample "$other")"
check_eq "$(sample "$dumps")" $((${a_dumps:-0} + 1)) "qdisc dumps after one more scrape"
stop_exporter
log_test "exporter: --cache-ms 0 dumps the qdiscs for every scrape"

exit "$(ktap_exit)"
