#!/usr/bin/env python3
"""The benchmark's report ("make bench"): reads what tools/bench/guest.sh
wrote (RAW: one JSON per hfperf run and a .meta beside it) and writes, in
DEST, results.json (every figure, the targets and how far each is), a
markdown table (results.md) and PNG plots: goodput against message size,
all-to-all round times, latency under load. Where the guest profiled a
4 MiB pair (profile-T.*.txt, perf report's text), it says where each
transport's CPU time went, per MiB delivered.

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
NAMES = {"hf": "hyperframe", "tcp": "TCP", "udp": "UDP (GSO/GRO)"}
SIZE_UNITS = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


def size_bytes(text):
    """'4k' -> 4096, as hfperf reads sizes."""
    if text[-1] in SIZE_UNITS:
        return int(text[:-1]) * SIZE_UNITS[text[-1]]
    return int(text)


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


def a2a_run(raw, name):
    ranks = [load_json(p) for p in sorted(raw.glob(name + ".rank*.json"))]
    ranks = [r["alltoall"] for r in ranks if r and "alltoall" in r]
    if len(ranks) != 4 or any(r["rounds_done"] != r["rounds_asked"] for r in ranks):
        return None
    # A round is done when its slowest node is done.
    rounds = [max(r["rounds_us"][i] for r in ranks) for i in range(len(ranks[0]["rounds_us"]))]
    return {
        "round_us": {"p50": percentile(rounds, 50), "p99": percentile(rounds, 99),
                     "max": max(rounds), "mean": statistics.mean(rounds)},
        "rounds_us": rounds,
        "goodput_bps_per_node": statistics.mean(r["goodput_bps"] for r in ranks),
    }


def mixed_run(raw, name):
    data = load_json(raw / (name + ".json"))
    if not data or "rtt_us" not in data:
        return None
    return {"bulk_goodput_bps": data["sizes"][0]["goodput_bps"],
            "rtt_us": {k: data["rtt_us"][k] for k in ("min", "p50", "p99", "p999", "max")}}


def incast_run(raw, name, meta):
    data = load_json(raw / (name + ".server.json"))
    if not data or len(data.get("flows", [])) != 3:
        return None
    flows = [f["goodput_bps"] for f in data["flows"]]
    return {"flows_bps": flows, "total_bps": sum(flows), "jain": data.get("jain"),
            "switch_drops": int(meta.get("switch_drops") or 0)}


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
        elif kind == "a2a":
            figures = a2a_run(raw, name)
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
    for regime, mtu in sorted({(r["regime"], r["mtu"]) for r in runs if r["regime"] != "lossy"},
                              key=lambda k: (k[0] != "cpu", k[1])):
        title = {"cpu": "CPU-bound (unshaped veth)",
                 "link": "Link-bound (%s per switch port, 256 KB FIFO)" % result["link_rate"],
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
    lines += lossy_markdown(runs)
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

    a2a = [r for r in runs if r["kind"] == "a2a"]
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

    mixed = [r for r in runs if r["kind"] == "mixed"]
    if mixed:
        fig, ax = plt.subplots(figsize=(7, 4))
        for r in mixed:
            p = r["rtt_us"]
            xs = [p["min"], p["p50"], p["p99"], p["p999"], p["max"]]
            ax.step([x / 1e3 for x in xs], [0, 0.5, 0.99, 0.999, 1.0], where="post",
                    label="%s, %s" % (NAMES[r["transport"]], r["regime"]),
                    color=colors[r["transport"]],
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
