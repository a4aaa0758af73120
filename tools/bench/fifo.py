#!/usr/bin/env python3
"""The switch's FIFO backlog during one benchmark run (tools/bench/lib.sh's
fifo_start and fifo_stop): run in the switch's namespace, it reads the
root tbf of each port PORT... every INTERVAL seconds straight from rtnetlink
(an RTM_GETQDISC dump: no tc process per sample, which a TCG guest would
pay for in milliseconds of CPU), until SIGTERM or SIGINT, and then writes
OUT: for every port, its queue at each sample where the port was busy
(it sent bytes since the previous sample, or held a backlog), in packets
and bytes, the time it was busy (the intervals ending in such a sample)
and the drops, bytes and packets it counted over the run.
Writes OUT.ready once the first sample is in. Python's standard library
only (it runs in the guest).

Usage: fifo.py OUT INTERVAL PORT...
"""

import json
import signal
import socket
import struct
import sys
import time

RTM_NEWQDISC, RTM_GETQDISC = 36, 38
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLM_F_REQUEST, NLM_F_DUMP = 0x1, 0x300
TCA_KIND, TCA_STATS2 = 1, 7
TCA_STATS_BASIC, TCA_STATS_QUEUE = 1, 3
TC_H_ROOT = 0xFFFFFFFF
NLMSG = struct.Struct("=IHHII")
TCMSG = struct.Struct("=BxxxiIII")
NLA = struct.Struct("=HH")


def attrs(data, start, end):
    """(type, payload) of each netlink attribute in DATA[start:end]."""
    out = {}
    while start + NLA.size <= end:
        length, kind = NLA.unpack_from(data, start)
        if length < NLA.size:
            break
        out[kind & 0x3FFF] = data[start + NLA.size:start + length]
        start += (length + 3) & ~3
    return out


class Sampler:
    """Root tbf statistics of a set of devices by ifindex, one dump each."""

    def __init__(self, ifindexes):
        self.want = set(ifindexes)
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
        self.sock.bind((0, 0))
        self.seq = 0

    def sample(self):
        """{ifindex: (bytes, packets, qlen, backlog, drops)} of the root tbfs."""
        self.seq += 1
        body = TCMSG.pack(socket.AF_UNSPEC, 0, 0, 0, 0)
        self.sock.send(NLMSG.pack(NLMSG.size + len(body), RTM_GETQDISC,
                                  NLM_F_REQUEST | NLM_F_DUMP, self.seq, 0) + body)
        out = {}
        while True:
            data = self.sock.recv(1 << 16)
            off = 0
            while off + NLMSG.size <= len(data):
                length, kind, _, seq, _ = NLMSG.unpack_from(data, off)
                if length < NLMSG.size:
                    return out
                if seq == self.seq and kind == NLMSG_DONE:
                    return out
                if seq == self.seq and kind == NLMSG_ERROR:
                    raise OSError("RTM_GETQDISC dump failed")
                if seq == self.seq and kind == RTM_NEWQDISC:
                    _, ifindex, _, parent, _ = TCMSG.unpack_from(data, off + NLMSG.size)
                    if ifindex in self.want and parent == TC_H_ROOT:
                        a = attrs(data, off + NLMSG.size + TCMSG.size, off + length)
                        if a.get(TCA_KIND, b"").rstrip(b"\0") == b"tbf" and TCA_STATS2 in a:
                            s = a[TCA_STATS2]
                            st = attrs(s, 0, len(s))
                            nbytes, packets = struct.unpack_from("=QI", st[TCA_STATS_BASIC])
                            qlen, backlog, drops = struct.unpack_from("=III", st[TCA_STATS_QUEUE])
                            out[ifindex] = (nbytes, packets, qlen, backlog, drops)
                off += (length + 3) & ~3


def main():
    out_path, interval, ports = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    index = {p: socket.if_nametoindex(p) for p in ports}
    sampler = Sampler(index.values())
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    first = sampler.sample()
    last = dict(first)
    series = {p: {"pkts": [], "bytes": [], "busy_s": 0.0} for p in ports}
    samples = 1
    start = time.monotonic()
    open(out_path + ".ready", "w").close()
    next_at = start + interval
    then = start
    while not stop:
        delay = next_at - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        next_at += interval
        now = sampler.sample()
        at = time.monotonic()
        samples += 1
        for p, i in index.items():
            if i not in now:
                continue
            nbytes, _, qlen, backlog, _ = now[i]
            if nbytes != last.get(i, now[i])[0] or qlen or backlog:
                series[p]["pkts"].append(qlen)
                series[p]["bytes"].append(backlog)
                series[p]["busy_s"] += at - then
        last, then = now, at
    elapsed = time.monotonic() - start
    result = {"interval_s": interval, "samples": samples,
              "mean_interval_s": elapsed / max(1, samples - 1), "ports": {}}
    for p, i in index.items():
        a, b = first.get(i), last.get(i)
        if a is None or b is None:
            continue
        result["ports"][p] = dict(series[p], drops=b[4] - a[4], sent_bytes=b[0] - a[0],
                                  sent_packets=b[1] - a[1])
    with open(out_path, "w") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main()
