#!/usr/bin/env python3
"""The benchmark's report ("make bench"): reads what tools/bench/guest.sh
wrote (RAW: one JSON per hfperf run and a .meta beside it) and writes, in
DEST, results.json (every figure, the targets and how far each is), a
markdown table (results.md) and PNG plots: goodput against message size,
all-to-all round times, latency under load. Where the guest profiled a
4 MiB pair (profile-T.*.txt, perf report's text), it says where each
transport's CPU time went, per MiB delivered. The link regime (issue 35)
has its own section: every figure against the line-rate bound and against
TCP in the same run, the switch FIFO's backlog (NAME.fifo.json, fifo.py's
samples), the guest's idle CPU during each run (a warning where it was
under IDLE_WARN %: that run measured the CPU, not the links), and the
issue's targets, met or the shortfall.

Usage: report.py RAW DEST [--commit SHA] [--command CMD] [--quiet]
"""

import argparse
import datetime
import json
import pathlib
import re
import statistics
import sys

MIB = 1 << 20
TRANSPORTS = ("hf", "tcp", "udp")
NAMES = {"hf": "hyperframe", "tcp": "TCP", "udp": "UDP (GSO/GRO)",
         "hf-rx": "hyperframe, receiver-scheduled"}
SIZE_UNITS = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
# The link regime's rows, in order: hyperframe by default, with rx_sched
# on, TCP (UDP's pair run is a ceiling, no row of its own).
LINK_ROWS = ("hf", "hf-rx", "tcp")
# Below this much idle CPU in the guest a link-regime run measured the CPU.
IDLE_WARN = 20.0
# A full-size frame on the wire at MTU 1500, as tbf counts it (no FCS).
FULL_PACKET = 1514
RATE_UNITS = {"tbit": 1e12, "gbit": 1e9, "mbit": 1e6, "kbit": 1e3, "bit": 1.0}


def size_bytes(text):
    """'4k' -> 4096, as hfperf reads sizes."""
    if text[-1] in SIZE_UNITS:
        return int(text[:-1]) * SIZE_UNITS[text[-1]]
    return int(text)


def rate_bps(text):
    """'50mbit' -> 50e6 bits per second, as tc reads rates (a bare number is bits)."""
    text = text.strip().lower()
    for unit, scale in RATE_UNITS.items():
        if text.endswith(unit):
            return float(text[:-len(unit)]) * scale
    return float(text) if text else None


def label(run):
    """The row a run belongs to: its transport, or hf-rx for hyperframe with rx_sched."""
    return "hf-rx" if run["transport"] == "hf" and run.get("rx_sched") else run["transport"]


def load_json(path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def read_meta(path):
    meta = {}
    for line in path.read_text().splitlines():
        key, _, value = line.partition("=")
        meta[key] = value
    meta["mtu"] = int(meta["mtu"])
    return meta


def percentile(values, q):
    """Nearest-rank percentile of VALUES (q in 0..100)."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def pair_run(raw, name, meta, two_copy_bps):
    data = load_json(raw / (name + ".json"))
    if not data or not data.get("sizes"):
        return None
    s = data["sizes"][0]
    run = {
        "goodput_bps": s["goodput_bps"],
        "msg_rate": s["msg_rate"],
        "latency_us": {k: s["latency_us"][k] for k in ("p50", "p99", "p999")
                       if k in s["latency_us"]},
        "cpu_self_ns_per_byte": s["cpu_self_ns_per_byte"],
        "cpu_system_ns_per_byte": s["cpu_system_ns_per_byte"],
        "skbs_per_mib": s.get("tx_packets_per_mib"),
        "bytes": s["bytes"],
    }
    wire = int(meta.get("wire_segs", 0))
    if meta["transport"] != "udp" and wire > 0 and s["bytes"] > 0:
        run["wire_packets_per_mib"] = wire / (s["bytes"] / MIB)
    # Through the qdisc: hyperframe counts what it queued (a carrier once);
    # a TCP or UDP GSO skb passes the qdisc once, as the device counts it.
    queued = meta.get("queued_skbs", "")
    if queued and s["bytes"] > 0:
        run["qdisc_skbs_per_mib"] = int(queued) / (s["bytes"] / MIB)
    elif meta["transport"] != "hf":
        run["qdisc_skbs_per_mib"] = run["skbs_per_mib"]
    if two_copy_bps:
        run["of_two_copy_bound"] = s["goodput_bps"] / two_copy_bps
    return run


def a2a_run(raw, name, meta):
    nodes = int(meta.get("nodes") or 4)
    ranks = [load_json(raw / ("%s.rank%d.json" % (name, i))) for i in range(nodes)]
    ranks = [r["alltoall"] for r in ranks if r and "alltoall" in r]
    if len(ranks) != nodes or any(r["rounds_done"] != r["rounds_asked"] for r in ranks):
        return None
    # A round is done when its slowest node is done.
    rounds = [max(r["rounds_us"][i] for r in ranks) for i in range(len(ranks[0]["rounds_us"]))]
    return {
        "round_us": {"p50": percentile(rounds, 50), "p99": percentile(rounds, 99),
                     "max": max(rounds), "mean": statistics.mean(rounds)},
        "rounds_us": rounds,
        "first_round_us": rounds[0],
        "nodes": nodes,
        "bytes": size_bytes(meta.get("bytes") or "1m"),
        "goodput_bps_per_node": statistics.mean(r["goodput_bps"] for r in ranks),
    }


def mixed_run(raw, name):
    data = load_json(raw / (name + ".json"))
    if not data or "rtt_us" not in data:
        return None
    return {"bulk_goodput_bps": data["sizes"][0]["goodput_bps"],
            "rtt_us": {k: data["rtt_us"][k] for k in ("min", "p50", "p99", "p999", "max")}}


def pingpong_run(raw, name):
    """The unloaded 64-byte round trip: a pair run of window 1."""
    data = load_json(raw / (name + ".json"))
    if not data or not data.get("sizes"):
        return None
    lat = data["sizes"][0]["latency_us"]
    return {"rtt_us": {k: lat[k] for k in ("min", "p50", "p99", "p999", "max") if k in lat}}


def incast_run(raw, name, meta):
    data = load_json(raw / (name + ".server.json"))
    return incast_run_from(data.get("flows", []), meta) if data else None


def flow_goodput(flow):
    """A server flow's goodput without its first message, which arrived
    before the flow's time began: hfperf's own where it reports
    first_bytes, recomputed for results of an hfperf before it (which
    counted that message, reading a flow of 2 messages as twice its rate)."""
    if "first_bytes" in flow:
        return flow["goodput_bps"]
    if flow.get("messages", 0) < 2 or not flow.get("seconds"):
        return 0
    return (flow["bytes"] - flow["bytes"] / flow["messages"]) * 8 / flow["seconds"]


def incast_run_from(flows_in, meta):
    """An incast run from its server's flows (hfperf's JSON) and its meta:
    each flow's goodput, their sum and Jain's index of them."""
    senders = int(meta.get("senders") or 3)
    if len(flows_in) != senders:
        return None
    flows = [flow_goodput(f) for f in flows_in]
    squares = sum(x * x for x in flows)
    return {"flows_bps": flows, "total_bps": sum(flows),
            "jain": sum(flows) ** 2 / (len(flows) * squares) if squares else None,
            "senders": senders, "switch_drops": int(meta.get("switch_drops") or 0)}


def fifo_summary(path):
    """The switch FIFOs during one run (fifo.py's samples): per port and the
    worst port's, peak and p99 backlog in packets and bytes over the
    samples where the port was busy, and the drops of every port."""
    data = load_json(path)
    if not data or not data.get("ports"):
        return None
    ports = {}
    for name, p in sorted(data["ports"].items()):
        pkts, nbytes = p.get("pkts") or [0], p.get("bytes") or [0]
        ports[name] = {"peak_pkts": max(pkts), "peak_bytes": max(nbytes),
                       "p99_pkts": percentile(pkts, 99), "p99_bytes": percentile(nbytes, 99),
                       "busy_samples": len(p.get("pkts") or []), "drops": p.get("drops", 0),
                       "sent_bytes": p.get("sent_bytes", 0), "busy_s": p.get("busy_s")}
    return {"interval_ms": data.get("interval_s", 0) * 1e3,
            "mean_interval_ms": data.get("mean_interval_s", 0) * 1e3,
            "samples": data.get("samples", 0),
            "peak_pkts": max(p["peak_pkts"] for p in ports.values()),
            "peak_bytes": max(p["peak_bytes"] for p in ports.values()),
            "p99_pkts": max(p["p99_pkts"] for p in ports.values()),
            "p99_bytes": max(p["p99_bytes"] for p in ports.values()),
            "drops": sum(p["drops"] for p in ports.values()),
            "ports": ports}


def collect(raw):
    two_copy = load_json(raw / "two-copy.json")
    two_copy_bps = two_copy["bps"] if two_copy else None
    runs, missing = [], []
    for meta_path in sorted(raw.glob("*.meta")):
        name = meta_path.name[:-len(".meta")]
        meta = read_meta(meta_path)
        if meta["regime"] == "profile":
            continue  # profile_runs() reads these
        kind = meta["kind"]
        if kind == "pair":
            figures = pair_run(raw, name, meta, two_copy_bps)
        elif kind == "pingpong":
            figures = pingpong_run(raw, name)
        elif kind == "a2a":
            figures = a2a_run(raw, name, meta)
        elif kind == "mixed":
            figures = mixed_run(raw, name)
        else:
            figures = incast_run(raw, name, meta)
        if figures is None:
            missing.append(name)
            continue
        run = {k: meta[k] for k in ("regime", "mtu", "kind", "transport")}
        if kind == "pair":
            run["size"] = size_bytes(meta["size"])
        if "netem" in meta:
            run["netem"] = meta["netem"]
        if meta.get("retransmits", "").isdigit():
            run["retransmits"] = int(meta["retransmits"])
        run["rx_sched"] = meta.get("rx_sched") == "1"
        # The transport's counter deltas over the run, all nodes (lib.sh
        # counters_sum); only hyperframe's mean anything.
        counters = {k[3:]: int(v) for k, v in meta.items()
                    if k.startswith("hf_") and v.lstrip("-").isdigit()}
        if counters and run["transport"] == "hf":
            run["counters"] = counters
        try:
            run["idle_pct"] = float(meta["idle_pct"])
        except (KeyError, ValueError):
            run["idle_pct"] = None
        fifo = fifo_summary(raw / (name + ".fifo.json"))
        if fifo:
            run["fifo"] = fifo
        run.update(figures)
        runs.append(run)
    return two_copy_bps, runs, missing


# The idle loop: left out of the hottest functions (the run's setup and
# end idle too, so per MiB it says nothing of the transport).
IDLE = re.compile(r"native_safe_halt|default_idle|\w+_idle|mwait_idle\w*")

# What a profile's time is spent on: (label, how to find it) where a name
# is a symbol's "children" share (time in it and what it calls) in the
# children report, "self:REGEX" sums the self shares of the symbols it
# matches and "comm:REGEX" those of the commands it matches. Shares overlap
# (a send call runs the receive softirq when it enables bottom halves).
PROFILE_ROWS = (
    ("the run's threads (hfperf, softirq threads)", "comm:hfperf|ksoftirqd/.*"),
    ("send calls", ("hf_sendmsg", "tcp_sendmsg")),
    ("receive calls", ("hf_recvmsg", "tcp_recvmsg")),
    ("receive softirq (net_rx_action)", ("net_rx_action",)),
    ("copying user data", "self:copy_user_.*|rep_movs_alternative|__copy_user_nocache"),
    ("allocating skbs (__alloc_skb)", ("__alloc_skb",)),
    ("freeing skbs (skb_release_data)", ("skb_release_data",)),
    ("zeroing memory (clear_page, memset)", "self:clear_page_.*|memset_.*|__memset"),
)
ROW = re.compile(r"^\s+([\d.]+)%\s+(?:([\d.]+)%\s+)?(\d+)\s+(?:\[[^\]]+\]\s+)?(.+?)\s*$")


def perf_report(path):
    """perf report --stdio -n text: (event count, [(share %, self %, name)])."""
    try:
        text = path.read_text()
    except OSError:
        return None, []
    count = re.search(r"^# Event count \(approx\.\): (\d+)", text, re.M)
    rows = []
    for line in text.splitlines():
        m = ROW.match(line)
        if m:
            first = float(m.group(1))
            rows.append((first, float(m.group(2)) if m.group(2) else first, m.group(4)))
    return (int(count.group(1)) if count else None), rows


def profile_run(raw, t):
    """One transport's profile: CPU microseconds per MiB delivered, by row."""
    run = load_json(raw / ("profile-1500-pair-%s-4m.json" % t))
    event_ns, children = perf_report(raw / ("profile-%s.children.txt" % t))
    _, self_rows = perf_report(raw / ("profile-%s.self.txt" % t))
    _, comms = perf_report(raw / ("profile-%s.comm.txt" % t))
    if not run or not run.get("sizes") or not event_ns or not children:
        return None
    size = run["sizes"][0]
    mib = size["bytes"] / MIB
    if mib <= 0:
        return None

    def us_per_mib(share):
        return share / 100 * event_ns / 1e3 / mib

    rows = {}
    for label, how in PROFILE_ROWS:
        if isinstance(how, tuple):
            shares = [c for c, _, name in children if name in how]
            share = max(shares) if shares else 0.0
        else:
            where, _, pattern = how.partition(":")
            regex = re.compile(pattern)
            share = sum(c for c, _, name in (comms if where == "comm" else self_rows)
                        if regex.fullmatch(name))
        rows[label] = us_per_mib(share)
    top = [(name, us_per_mib(own)) for _, own, name in self_rows
           if not IDLE.fullmatch(name)][:12]
    return {"goodput_bps": size["goodput_bps"], "bytes": size["bytes"],
            "cpu_ms": event_ns / 1e6, "rows_us_per_mib": rows, "top_us_per_mib": top}


def profile_runs(raw):
    runs = {t: profile_run(raw, t) for t in ("hf", "tcp")}
    return {t: r for t, r in runs.items() if r}


def find(runs, **want):
    for run in runs:
        if all(run.get(k) == v for k, v in want.items()):
            return run
    return None


def ratio(a, b):
    return a / b if a is not None and b else None


def targets(runs, two_copy_bps):
    """The issue's targets, in the CPU-bound regime at MTU 1500."""
    out = []

    def add(name, want, got, met, how):
        out.append({"target": name, "want": want, "measured": got, "met": met, "how": how})

    hf = find(runs, regime="cpu", mtu=1500, kind="a2a", transport="hf")
    tcp = find(runs, regime="cpu", mtu=1500, kind="a2a", transport="tcp")
    r = ratio(hf and hf["round_us"]["p50"], tcp and tcp["round_us"]["p50"])
    add("all-to-all round time (4 nodes, 1 MiB per pair), p50 vs TCP", "<= 0.6x", r,
        r is not None and r <= 0.6, "per round, the slowest node's time")
    hf = find(runs, regime="cpu", mtu=1500, kind="pair", transport="hf", size=4 * MIB)
    tcp = find(runs, regime="cpu", mtu=1500, kind="pair", transport="tcp", size=4 * MIB)
    r = ratio(hf and hf["goodput_bps"], tcp and tcp["goodput_bps"])
    add("bulk goodput at 4 MiB messages vs TCP", ">= 1.3x", r, r is not None and r >= 1.3,
        "pair, node 0 to node 1")
    r = ratio(hf and hf["goodput_bps"], two_copy_bps)
    add("bulk goodput at 4 MiB messages vs the two-copy bound", ">= 0.85", r,
        r is not None and r >= 0.85, "AF_UNIX stream, 1 MiB writes, same guest")
    r = ratio(tcp and tcp["goodput_bps"], two_copy_bps)
    add("(TCP's bulk goodput vs the two-copy bound, for reference)", "about 0.65-0.7", r, None,
        "AF_UNIX stream, 1 MiB writes, same guest")
    hfm = find(runs, regime="cpu", mtu=1500, kind="mixed", transport="hf")
    tcpm = find(runs, regime="cpu", mtu=1500, kind="mixed", transport="tcp")
    r = ratio(hfm and hfm["rtt_us"]["p99"], tcpm and tcpm["rtt_us"]["p99"])
    add("small-message p99 under bulk vs TCP", "<= 0.1x", r, r is not None and r <= 0.1,
        "64-byte ping-pong beside 1 MiB bulk on the same pair of nodes")
    r = ratio(tcp and tcp.get("qdisc_skbs_per_mib"), hf and hf.get("qdisc_skbs_per_mib"))
    add("skbs per MiB through the qdisc, TCP's over hyperframe's (4 MiB messages)", ">= 20x",
        r, r is not None and r >= 20,
        "hyperframe: tx_frame_skbs + tx_retransmits (a carrier once); TCP: sender's veth "
        "tx_packets (a GSO skb passes the qdisc once)")
    r = ratio(tcp and tcp.get("skbs_per_mib"), hf and hf.get("skbs_per_mib"))
    add("(skbs per MiB on the device, TCP's over hyperframe's, for reference)", "-", r, None,
        "sender's veth tx_packets: a carrier's trains each count, a GSO skb once")
    return out


def link_runs(runs, **want):
    """The link regime's runs matching WANT (row=... for a row), in order."""
    return [r for r in runs if r["regime"] == "link"
            and all((label(r) if k == "row" else r.get(k)) == v for k, v in want.items())]


def receiver_share(run, link_bps):
    """The share of the receiver's link (port p0) an incast used: the bytes
    its port sent over the time it was busy (fifo.py's), headers and all,
    against the link's rate; else the flows' goodput against it."""
    port = (run.get("fifo") or {}).get("ports", {}).get("p0") or {}
    if port.get("busy_s") and link_bps:
        return port["sent_bytes"] * 8 / port["busy_s"] / link_bps
    return ratio(run["total_bps"], link_bps)


def a2a_bound_us(run, link_bps):
    """The line-rate bound of a round: what each node must take in, (N - 1)
    times the bytes per pair, at the link's rate."""
    if not link_bps:
        return None
    return (run["nodes"] - 1) * run["bytes"] * 8 / link_bps * 1e6


def cpu_bound(run):
    return run.get("idle_pct") is not None and run["idle_pct"] < IDLE_WARN


def link_targets(runs, link_bps):
    """Issue 35's targets for each hyperframe row of the link regime: each
    with want, measured, met and, where missed, the shortfall (how far
    past the limit, in the measured figure's unit)."""
    out = []

    def add(row, name, op, limit, got, how, used=()):
        met = got is not None and (got <= limit if op == "<=" else got >= limit)
        short = None
        if got is not None and not met:
            short = got - limit if op == "<=" else limit - got
        out.append({"row": row, "target": name, "want": "%s %s" % (op, num(limit, "%g")),
                    "measured": got, "met": met, "shortfall": short, "how": how,
                    "cpu_bound": any(cpu_bound(r) for r in used if r)})

    tcp_mixed = (link_runs(runs, kind="mixed", row="tcp") or [None])[0]
    for row in ("hf", "hf-rx"):
        if not link_runs(runs, row=row):
            continue
        a2a = sorted(link_runs(runs, kind="a2a", row=row), key=lambda r: r["bytes"])
        for r in a2a:
            bound = a2a_bound_us(r, link_bps)
            size = human_size(r["bytes"])
            limit = 1.25 if r["bytes"] < 256 << 10 else 1.10
            how = "rounds of %d nodes, the slowest node's; bound %s ms" % (
                r["nodes"], num(bound and bound / 1e3))
            add(row, "all-to-all %s per pair: round p50 / line-rate bound" % size, "<=", limit,
                ratio(r["round_us"]["p50"], bound), how, [r])
            add(row, "all-to-all %s per pair: round p99 / line-rate bound" % size, "<=", 1.25,
                ratio(r["round_us"]["p99"], bound), how, [r])
            add(row, "all-to-all %s per pair: first round / line-rate bound" % size, "<=", 1.25,
                ratio(r["first_round_us"], bound), how + "; the first round alone", [r])
        mixed = (link_runs(runs, kind="mixed", row=row) or [None])[0]
        alone = (link_runs(runs, kind="pingpong", row=row) or [None])[0]
        add(row, "64-byte ping-pong beside bulk: p99 / TCP's", "<=", 0.1,
            ratio(mixed and mixed["rtt_us"]["p99"], tcp_mixed and tcp_mixed["rtt_us"]["p99"]),
            "the same two nodes, 1 MiB bulk beside", [mixed, tcp_mixed])
        add(row, "64-byte ping-pong beside bulk: p99 / its own unloaded p99", "<=", 3.0,
            ratio(mixed and mixed["rtt_us"]["p99"], alone and alone["rtt_us"]["p99"]),
            "unloaded: 64-byte messages one at a time, same run", [mixed, alone])
        sampled = [r for r in link_runs(runs, row=row) if r.get("fifo")]
        add(row, "switch FIFO drops, every run", "<=", 0,
            sum(r["fifo"]["drops"] for r in sampled) if sampled else None,
            "%d runs sampled" % len(sampled), sampled)
        worst = max(sampled, key=lambda r: r["fifo"]["p99_bytes"]) if sampled else None
        add(row, "switch FIFO p99 backlog, worst run and port (full-size packets)", "<=", 4,
            worst and worst["fifo"]["p99_bytes"] / FULL_PACKET,
            "bytes / %d, over the samples where the port was busy" % FULL_PACKET, [worst])
        for r in sorted(link_runs(runs, kind="incast", row=row), key=lambda r: r["senders"]):
            what = "incast %d to 1" % r["senders"]
            add(row, what + ": share of the receiver's link", ">=", 0.95,
                receiver_share(r, link_bps),
                "the receiver's switch port: bytes sent while busy, against the link's rate", [r])
            add(row, what + ": Jain index", ">=", 0.99, r["jain"], "per-sender goodput", [r])
            add(row, what + ": drops", "<=", 0,
                r["fifo"]["drops"] if r.get("fifo") else r["switch_drops"], "every switch port",
                [r])
    return out


def describe(run):
    """A link-regime run in a few words: 'a2a 256 KiB', 'incast 7 to 1'."""
    if run["kind"] == "a2a":
        return "a2a %s" % human_size(run["bytes"])
    if run["kind"] == "incast":
        return "incast %d to 1" % run["senders"]
    if run["kind"] == "pair":
        return "pair %s" % human_size(run["size"])
    return run["kind"]


def fifo_cells(run):
    f = run.get("fifo")
    if not f:
        return "-", "-", "-"
    return ("%s / %s" % (num(f["p99_pkts"], "%d"), num(f["peak_pkts"], "%d")),
            "%.1f / %.1f" % (f["p99_bytes"] / 1024, f["peak_bytes"] / 1024), "%d" % f["drops"])


def idle_cell(run):
    if run.get("idle_pct") is None:
        return "-"
    return ("**%.0f**" if cpu_bound(run) else "%.0f") % run["idle_pct"]


def mbit(bps):
    return "%.1f" % (bps / 1e6) if bps is not None else "-"


def times_bound(us, bound):
    if us is None:
        return "-"
    r = ratio(us, bound)
    return "%.1f (%s)" % (us / 1e3, "%.2fx" % r if r is not None else "-")


def link_markdown(result):
    """The link regime's section: every row against the bound and TCP."""
    runs = [r for r in result["runs"] if r["regime"] == "link"]
    if not runs:
        return []
    link_bps = rate_bps(result["link_rate"] or "")
    rows = [t for t in LINK_ROWS if any(label(r) == t for r in runs)]
    lines = ["## Link-bound (%s per switch port, 256 KB FIFO), MTU 1500" % result["link_rate"], "",
             "Every switch port towards a node is a tbf of the link's rate with a 256 KB"
             " FIFO; hyperframe's nodes pace with hfq at that rate, and"
             " \"receiver-scheduled\" is hyperframe with `rx_sched 1` in every node."
             " idle: the guest's idle CPU during the run, %%; FIFO: the switch ports'"
             " backlog sampled every %s ms, p99 / peak in packets and in KiB (the worst"
             " port's, over the samples where it was busy), and drops at every port." % (
                 num(next((r["fifo"]["interval_ms"] for r in runs if r.get("fifo")), None),
                     "%g")), ""]
    hot = [r for r in runs if cpu_bound(r)]
    if hot:
        lines += ["**Warning: CPU-bound runs** (under %.0f %% of the guest's CPU idle; these"
                  " measured the guest, not the links): %s." % (
                      IDLE_WARN, ", ".join("%s %s (%.0f %%)" % (
                          NAMES[label(r)], describe(r), r["idle_pct"]) for r in hot)), ""]
    pairs = [r for r in runs if r["kind"] == "pair"]
    if pairs:
        lines += ["Bulk, 4 MiB messages, node 0 to node 1:", "",
                  "| row | Mbit/s | of the link | idle | FIFO p99/peak pkts | KiB | drops |",
                  "|---|---|---|---|---|---|---|"]
        for t in rows + ["udp"]:
            for r in [r for r in pairs if label(r) == t]:
                lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                    (NAMES[t], mbit(r["goodput_bps"]),
                     num(ratio(r["goodput_bps"], link_bps), "%.2f"), idle_cell(r))
                    + fifo_cells(r)))
        lines.append("")
    a2a = [r for r in runs if r["kind"] == "a2a"]
    if a2a:
        lines += ["All-to-all, %d nodes, %d rounds (a round is its slowest node's); ms, and in"
                  " brackets the multiple of the line-rate bound: (N - 1) x bytes per pair"
                  " at the link's rate:" % (a2a[0]["nodes"], len(a2a[0]["rounds_us"])), "",
                  "| per pair | bound ms | row | round p50 | round p99 | first round | p50 / TCP's"
                  " | idle | FIFO p99/peak pkts | KiB | drops |",
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
        for size in sorted({r["bytes"] for r in a2a}):
            tcp = next((r for r in a2a if r["bytes"] == size and label(r) == "tcp"), None)
            for t in rows:
                for r in [r for r in a2a if r["bytes"] == size and label(r) == t]:
                    bound = a2a_bound_us(r, link_bps)
                    lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                        (human_size(size), num(bound and bound / 1e3), NAMES[t],
                         times_bound(r["round_us"]["p50"], bound),
                         times_bound(r["round_us"]["p99"], bound),
                         times_bound(r["first_round_us"], bound),
                         num(ratio(r["round_us"]["p50"], tcp and tcp["round_us"]["p50"]), "%.2f")
                         if t != "tcp" else "", idle_cell(r)) + fifo_cells(r)))
        lines.append("")
    mixed = [r for r in runs if r["kind"] == "mixed"]
    if mixed:
        tcp = next((r for r in mixed if label(r) == "tcp"), None)
        lines += ["64-byte ping-pong beside 1 MiB bulk on the same two nodes, against the"
                  " same ping-pong alone (one message at a time, in the same run); us:", "",
                  "| row | bulk Mbit/s | alone p50 | alone p99 | beside p50 | beside p99 | beside p999"
                  " | p99 / alone | p99 / TCP's | idle | FIFO p99/peak pkts | KiB | drops |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for t in rows:
            for r in [r for r in mixed if label(r) == t]:
                alone = next((a for a in runs if a["kind"] == "pingpong" and label(a) == t), None)
                a = alone["rtt_us"] if alone else {}
                lines.append("| %s | %s | %s | %s | %.0f | %.0f | %.0f | %s | %s | %s | %s | %s | %s |" % (
                    (NAMES[t], mbit(r["bulk_goodput_bps"]), num(a.get("p50"), "%.0f"),
                     num(a.get("p99"), "%.0f"), r["rtt_us"]["p50"], r["rtt_us"]["p99"],
                     r["rtt_us"]["p999"], num(ratio(r["rtt_us"]["p99"], a.get("p99")), "%.2f"),
                     num(ratio(r["rtt_us"]["p99"], tcp and tcp["rtt_us"]["p99"]), "%.2f")
                     if t != "tcp" else "", idle_cell(r)) + fifo_cells(r)))
        lines.append("")
    incast = sorted([r for r in runs if r["kind"] == "incast"], key=lambda r: r["senders"])
    if incast or result.get("incast7_skipped"):
        lines += ["Incast, N senders to node 0, 1 MiB messages. Of the link: what the"
                  " receiver's switch port sent while busy, headers and all, against the"
                  " link's rate. Goodput: the senders' together, each without its first"
                  " message (hfperf's server times a flow from the first message read), and"
                  " Jain's index of them:", "",
                  "| senders | row | of the link | goodput Mbit/s | Jain | per sender Mbit/s | idle"
                  " | FIFO p99/peak pkts | KiB | drops |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for r in sorted(incast, key=lambda r: (r["senders"], LINK_ROWS.index(label(r))
                                               if label(r) in LINK_ROWS else 9)):
            lines.append("| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                (r["senders"], NAMES[label(r)], num(receiver_share(r, link_bps), "%.2f"),
                 mbit(r["total_bps"]), num(r["jain"], "%.3f"),
                 ", ".join(mbit(f) for f in r["flows_bps"]),
                 idle_cell(r)) + fifo_cells(r)))
        lines.append("")
        if result.get("incast7_skipped"):
            lines += ["Incast 7 to 1 (8 nodes) not run: %s." % result["incast7_skipped"], ""]
    targets = result.get("link_targets") or []
    if targets:
        trows = [t for t in ("hf", "hf-rx") if any(x["row"] == t for x in targets)]
        lines += ["### Targets of issue 35 (link-bound)", "",
                  "Measured, and met or the shortfall (how far past the limit); *CPU-bound*:"
                  " the run behind the figure left under %.0f %% of the CPU idle." % IDLE_WARN,
                  "", "| target | want | %s |" % " | ".join(NAMES[t] for t in trows),
                  "|---|---|" + "---|" * len(trows)]
        for name in dict.fromkeys(x["target"] for x in targets):
            cells, want = [], ""
            for t in trows:
                x = next((x for x in targets if x["row"] == t and x["target"] == name), None)
                if not x:
                    cells.append("-")
                    continue
                want = x["want"]
                cell = num(x["measured"], "%d" if isinstance(x["measured"], int) else "%.2f")
                cell += " yes" if x["met"] else (" **no** (%s)" % (
                    "+%s" % num(x["shortfall"], "%d" if isinstance(x["shortfall"], int)
                                else "%.2f") if x["shortfall"] is not None else
                    "not measured"))
                if x["cpu_bound"]:
                    cell += " *CPU-bound*"
                cells.append(cell)
            lines.append("| %s | %s | %s |" % (name, want, " | ".join(cells)))
        lines.append("")
    return lines


def counters_markdown(runs):
    """Hyperframe's counters over each of its runs: what held messages back."""
    counted = [r for r in runs if r.get("counters")]
    if not counted:
        return []
    names = [n for n in dict.fromkeys(k for r in counted for k in r["counters"])
             if any(r["counters"].get(n) for r in counted)]
    lines = ["## Hyperframe's counters per run", "",
             "Deltas over each hyperframe run, summed over the nodes (`/proc/net/hyperframe`,"
             " and hfq's `rate_delayed`); counters that stayed 0 in every run are left out."
             " What held messages back (`tx_status_waits`: the outcome window;"
             " `tx_pace_waits`, `tx_pacing_delays`: the pacer; `tx_credit_stalls`: credit),"
             " what the receiver's schedule did, and what loss recovery did.", ""]
    if not names:
        return lines + ["Every counter stayed 0.", ""]
    lines += ["| regime | run | row | %s |" % " | ".join("`%s`" % n for n in names),
              "|---|---|---|" + "---|" * len(names)]
    for r in counted:
        lines.append("| %s | %s | %s | %s |" % (
            r["regime"], describe(r), NAMES[label(r)],
            " | ".join("%d" % r["counters"].get(n, 0) for n in names)))
    lines.append("")
    return lines


def gbit(bps):
    return "%.2f" % (bps / 1e9) if bps is not None else "-"


def num(value, fmt="%.1f"):
    return fmt % value if value is not None else "-"


def human_size(n):
    for unit, scale in (("MiB", MIB), ("KiB", 1 << 10)):
        if n >= scale and n % scale == 0:
            return "%d %s" % (n // scale, unit)
    return "%d B" % n


def lossy_markdown(runs):
    """The table of the runs under netem loss and reordering, by setting."""
    lossy = [r for r in runs if r["regime"] == "lossy"]
    if not lossy:
        return []
    lines = ["## Under loss and reordering (veth pair, netem on both ends, MTU 1500)", "",
             "1 MiB bulk, node 0 to node 1; message latency from the send to the"
             " receiver's acknowledgement (ms); retransmits: segments sent again.", "",
             "| netem | transport | Gbit/s | hf/TCP | p50 ms | p99 ms | p999 ms | retransmits |",
             "|---|---|---|---|---|---|---|---|"]
    for netem in sorted({r.get("netem", "") for r in lossy},
                        key=lambda n: [r.get("netem") for r in lossy].index(n)):
        row = {t: find(lossy, transport=t, netem=netem) for t in ("hf", "tcp")}
        for t in ("hf", "tcp"):
            r = row[t]
            if not r:
                continue
            lat = r["latency_us"]
            lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                netem, NAMES[t], gbit(r["goodput_bps"]),
                num(ratio(r["goodput_bps"], row["tcp"] and row["tcp"]["goodput_bps"]), "%.2f")
                if t == "hf" else "",
                num(lat.get("p50") and lat["p50"] / 1e3), num(lat.get("p99") and lat["p99"] / 1e3),
                num(lat.get("p999") and lat["p999"] / 1e3),
                r.get("retransmits", "-")))
    lines.append("")
    return lines


def markdown(result):
    runs = result["runs"]
    lines = ["# hyperframe benchmark", "",
             "Kernel %s, %s; made by `%s`%s." % (
                 result["kernel"], result["date"], result["command"],
                 " (quick run)" if result["quick"] else ""),
             "Every figure comes from one run in one QEMU (TCG) guest: ratios between"
             " transports mean more than absolute figures, which the emulation lowers.", ""]
    if result["two_copy_bps"]:
        lines += ["Two-copy bound (AF_UNIX stream, 1 MiB writes): **%s Gbit/s**." %
                  gbit(result["two_copy_bps"]), ""]
    lines += ["## Targets (CPU-bound, MTU 1500)", "",
              "| target | want | measured | met |", "|---|---|---|---|"]
    for t in result["targets"]:
        met = "-" if t["met"] is None else ("yes" if t["met"] else "**no**")
        lines.append("| %s | %s | %s | %s |" % (t["target"], t["want"],
                                             num(t["measured"], "%.2f"), met))
    lines.append("")
    for regime, mtu in sorted({(r["regime"], r["mtu"]) for r in runs
                               if r["regime"] not in ("lossy", "link")},
                              key=lambda k: (k[0] != "cpu", k[1])):
        title = {"cpu": "CPU-bound (unshaped veth)",
                 }.get(regime, "%s (hfq for hyperframe, fq for TCP)" % regime.capitalize())
        lines += ["## %s, MTU %d" % (title, mtu), ""]
        pairs = [r for r in runs if r["regime"] == regime and r["mtu"] == mtu and r["kind"] == "pair"]
        if pairs:
            lines += ["Bulk, node 0 to node 1 (Gbit/s; skbs and wire packets per MiB at the sender:"
                      " hyperframe's skbs through the qdisc, a carrier once, and on the device,"
                      " each train; TCP's GSO skbs are the same at both;"
                      " CPU: the whole guest's busy time per byte delivered):", "",
                      "| size | hyperframe | TCP | UDP | hf/TCP | hf of two-copy | qdisc skbs/MiB hf | device skbs/MiB hf | skbs/MiB TCP | wire/MiB hf | wire/MiB TCP | CPU ns/B hf | CPU ns/B TCP |",
                      "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
            for size in sorted({r["size"] for r in pairs}):
                row = {t: find(pairs, transport=t, size=size) for t in TRANSPORTS}
                g = {t: row[t]["goodput_bps"] if row[t] else None for t in TRANSPORTS}
                lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    human_size(size), gbit(g["hf"]), gbit(g["tcp"]), gbit(g["udp"]),
                    num(ratio(g["hf"], g["tcp"]), "%.2f"),
                    num(row["hf"] and row["hf"].get("of_two_copy_bound"), "%.2f"),
                    num(row["hf"] and row["hf"].get("qdisc_skbs_per_mib")),
                    num(row["hf"] and row["hf"].get("skbs_per_mib")),
                    num(row["tcp"] and row["tcp"].get("skbs_per_mib")),
                    num(row["hf"] and row["hf"].get("wire_packets_per_mib")),
                    num(row["tcp"] and row["tcp"].get("wire_packets_per_mib")),
                    num(row["hf"] and row["hf"]["cpu_system_ns_per_byte"]),
                    num(row["tcp"] and row["tcp"]["cpu_system_ns_per_byte"])))
            lines.append("")
        other = [r for r in runs if r["regime"] == regime and r["mtu"] == mtu and r["kind"] != "pair"]
        a2a = [r for r in other if r["kind"] == "a2a"]
        if a2a:
            lines += ["All-to-all, 4 nodes, 1 MiB per pair and round (the slowest node's round):", "",
                      "| transport | round p50 ms | round p99 ms | per node Gbit/s |", "|---|---|---|---|"]
            for r in a2a:
                lines.append("| %s | %.1f | %.1f | %s |" % (
                    NAMES[r["transport"]], r["round_us"]["p50"] / 1e3, r["round_us"]["p99"] / 1e3,
                    gbit(r["goodput_bps_per_node"])))
            lines.append("")
        mixed = [r for r in other if r["kind"] == "mixed"]
        if mixed:
            lines += ["64-byte ping-pong beside 1 MiB bulk on the same nodes:", "",
                      "| transport | bulk Gbit/s | p50 us | p99 us | p999 us |", "|---|---|---|---|---|"]
            for r in mixed:
                lines.append("| %s | %s | %.0f | %.0f | %.0f |" % (
                    NAMES[r["transport"]], gbit(r["bulk_goodput_bps"]), r["rtt_us"]["p50"],
                    r["rtt_us"]["p99"], r["rtt_us"]["p999"]))
            lines.append("")
        incast = [r for r in other if r["kind"] == "incast"]
        if incast:
            lines += ["Incast, nodes 1-3 to node 0, 1 MiB messages:", "",
                      "| transport | total Gbit/s | per sender Gbit/s | Jain | switch drops |",
                      "|---|---|---|---|---|"]
            for r in incast:
                lines.append("| %s | %s | %s | %s | %d |" % (
                    NAMES[r["transport"]], gbit(r["total_bps"]),
                    ", ".join(gbit(f) for f in r["flows_bps"]), num(r["jain"], "%.3f"),
                    r["switch_drops"]))
            lines.append("")
    lines += link_markdown(result)
    lines += lossy_markdown(runs)
    lines += counters_markdown(runs)
    profiles = result.get("profile") or {}
    if profiles:
        lines += ["## Profile: 4 MiB bulk, CPU-bound, MTU 1500 (perf in the guest)", "",
                  "`perf record -a -g`, cpu-clock at 499 Hz over the whole guest while one"
                  " 4 MiB pair run moved data (%s). CPU time per MiB delivered, in"
                  " microseconds; the rows overlap (a send call runs the receive softirq"
                  " when it enables bottom halves)." % "; ".join(
                      "%s %s Gbit/s, %.0f ms of CPU sampled" % (
                          NAMES[t], gbit(p["goodput_bps"]), p["cpu_ms"])
                      for t, p in sorted(profiles.items())), "",
                  "| where | hyperframe | TCP | hf/TCP |", "|---|---|---|---|"]
        hf, tcp = profiles.get("hf"), profiles.get("tcp")
        for label, _ in PROFILE_ROWS:
            a = hf and hf["rows_us_per_mib"][label]
            b = tcp and tcp["rows_us_per_mib"][label]
            lines.append("| %s | %s | %s | %s |" % (label, num(a, "%.0f"), num(b, "%.0f"),
                                                   num(ratio(a, b), "%.2f")))
        lines += ["", "Hottest functions, their own time (microseconds per MiB):", "",
                  "| hyperframe | us/MiB | TCP | us/MiB |", "|---|---|---|---|"]
        tops = [p["top_us_per_mib"] if p else [] for p in (hf, tcp)]
        for i in range(max(len(x) for x in tops)):
            cells = []
            for top in tops:
                cells += ["`%s`" % top[i][0], "%.0f" % top[i][1]] if i < len(top) else ["", ""]
            lines.append("| %s |" % " | ".join(cells))
        lines.append("")
    lines += ["## RoCE (soft-RoCE, rxe over loopback, initial namespace)", "", "```",
              result["roce"].strip() or "(not run)", "```", ""]
    if result["failures"] or result["missing"]:
        lines += ["## Runs that failed", ""]
        lines += ["- " + f for f in result["failures"] + ["no result: " + m for m in result["missing"]]]
        lines.append("")
    return "\n".join(lines)


def plots(result, dest):
    """PNG plots; returns their paths, or says why there are none."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return [], "python3-matplotlib is not installed"
    runs, made = result["runs"], []
    colors = {"hf": "tab:blue", "tcp": "tab:orange", "udp": "tab:gray"}

    def save(fig, name):
        fig.tight_layout()
        made.append(dest / name)
        fig.savefig(made[-1], dpi=100)
        plt.close(fig)

    mtus = sorted({r["mtu"] for r in runs if r["regime"] == "cpu" and r["kind"] == "pair"})
    if mtus:
        fig, axes = plt.subplots(1, len(mtus), figsize=(6 * len(mtus), 4), squeeze=False)
        for ax, mtu in zip(axes[0], mtus):
            for t in TRANSPORTS:
                pts = sorted((r["size"], r["goodput_bps"] / 1e9) for r in runs
                             if r["regime"] == "cpu" and r["mtu"] == mtu and r["kind"] == "pair"
                             and r["transport"] == t)
                if pts:
                    ax.plot(*zip(*pts), marker="o", label=NAMES[t], color=colors[t])
            if result["two_copy_bps"]:
                ax.axhline(result["two_copy_bps"] / 1e9, linestyle="--", color="black",
                           label="two-copy bound")
            ax.set_xscale("log", base=2)
            ax.set_xlabel("message size (bytes)")
            ax.set_ylabel("goodput (Gbit/s)")
            ax.set_title("bulk, CPU-bound, MTU %d" % mtu)
            ax.legend()
        save(fig, "goodput_vs_size.png")

    a2a = [r for r in runs if r["kind"] == "a2a" and r["regime"] != "link"]
    if a2a:
        fig, ax = plt.subplots(figsize=(7, 4))
        labels = ["%s %s MTU %d" % (NAMES[r["transport"]], r["regime"], r["mtu"]) for r in a2a]
        xs = range(len(a2a))
        ax.bar([x - 0.2 for x in xs], [r["round_us"]["p50"] / 1e3 for r in a2a], 0.4, label="p50")
        ax.bar([x + 0.2 for x in xs], [r["round_us"]["p99"] / 1e3 for r in a2a], 0.4, label="p99")
        ax.set_xticks(list(xs))
        ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
        ax.set_ylabel("round time (ms)")
        ax.set_title("all-to-all, 4 nodes, 1 MiB per pair and round")
        ax.legend()
        save(fig, "alltoall_rounds.png")

    link_bps = rate_bps(result["link_rate"] or "")
    link_a2a = [r for r in runs if r["kind"] == "a2a" and r["regime"] == "link"]
    if link_a2a and link_bps:
        fig, ax = plt.subplots(figsize=(7, 4))
        for t, color in zip(LINK_ROWS, ("tab:blue", "tab:green", "tab:orange")):
            pts = sorted((r["bytes"], r["round_us"]["p50"] / a2a_bound_us(r, link_bps),
                          r["round_us"]["p99"] / a2a_bound_us(r, link_bps))
                         for r in link_a2a if label(r) == t)
            if pts:
                xs = [p[0] for p in pts]
                ax.plot(xs, [p[1] for p in pts], marker="o", color=color,
                        label="%s p50" % NAMES[t])
                ax.plot(xs, [p[2] for p in pts], marker="x", linestyle=":", color=color,
                        label="%s p99" % NAMES[t])
        ax.axhline(1.0, color="black", linestyle="--", label="line-rate bound")
        ax.axhline(1.1, color="gray", linestyle=":", label="target p50 (1.10x)")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("bytes per pair and round")
        ax.set_ylabel("round time / line-rate bound")
        ax.set_title("all-to-all, link-bound (%s)" % result["link_rate"])
        ax.legend(fontsize=7)
        save(fig, "link_alltoall.png")

    mixed = [r for r in runs if r["kind"] == "mixed"]
    if mixed:
        fig, ax = plt.subplots(figsize=(7, 4))
        for r in mixed:
            p = r["rtt_us"]
            xs = [p["min"], p["p50"], p["p99"], p["p999"], p["max"]]
            ax.step([x / 1e3 for x in xs], [0, 0.5, 0.99, 0.999, 1.0], where="post",
                    label="%s, %s" % (NAMES[label(r)], r["regime"]),
                    color=colors.get(label(r), "tab:green"),
                    linestyle="-" if r["regime"] == "cpu" else "--")
        ax.set_xscale("log")
        ax.set_xlabel("64-byte round trip beside bulk (ms)")
        ax.set_ylabel("fraction (through min, p50, p99, p999, max)")
        ax.set_title("latency under load")
        ax.legend()
        save(fig, "latency_under_load.png")
    return made, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw", type=pathlib.Path, help="the guest's bench directory")
    ap.add_argument("dest", type=pathlib.Path)
    ap.add_argument("--commit", default="unknown")
    ap.add_argument("--command", default="make bench")
    ap.add_argument("--quiet", action="store_true", help="print only what was written")
    args = ap.parse_args()
    raw_dir = args.raw / "raw"
    if not raw_dir.is_dir():
        print("report.py: %s holds no benchmark results" % args.raw, file=sys.stderr)
        return 1
    two_copy_bps, runs, missing = collect(raw_dir)

    def text(name):
        path = args.raw / name
        return path.read_text() if path.exists() else ""

    result = {
        "kernel": text("kernel").strip() or "unknown",
        "date": datetime.date.today().isoformat(),
        "commit": args.commit,
        "command": args.command,
        "quick": text("quick").strip() == "1",
        "link_rate": text("link_rate").strip(),
        "two_copy_bps": two_copy_bps,
        "runs": runs,
        "targets": targets(runs, two_copy_bps),
        "link_targets": link_targets(runs, rate_bps(text("link_rate"))),
        "incast7_skipped": text("incast7.txt").strip(),
        "profile": profile_runs(raw_dir),
        "roce": text("roce.txt"),
        "failures": [l for l in text("failures").splitlines() if l],
        "missing": missing,
    }
    args.dest.mkdir(parents=True, exist_ok=True)
    made, why = plots(result, args.dest)
    result["plots"] = [p.name for p in made]
    (args.dest / "results.json").write_text(json.dumps(result, indent=1) + "\n")
    md = markdown(result)
    if made:
        md += "\nPlots: " + ", ".join("`%s`" % p.name for p in made) + "\n"
    elif why:
        md += "\nNo plots: %s.\n" % why
    (args.dest / "results.md").write_text(md)
    if not args.quiet:
        print(md)
    print("report.py: wrote %s" % ", ".join(
        str(args.dest / n) for n in ["results.json", "results.md"] + result["plots"]))
    return 1 if result["failures"] or missing else 0


if __name__ == "__main__":
    sys.exit(main())
