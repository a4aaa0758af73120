#!/usr/bin/env python3
"""Unit tests of tools/bench/report.py on a synthetic run directory: the
figures it derives (a round is its slowest node's, wire packets per MiB,
ratios to TCP and to the two-copy bound), the targets' verdicts, a
profile's CPU time per MiB from perf's text reports, the markdown, and a
failed run reported rather than dropped."""

import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import report  # noqa: E402


def pair_json(goodput, skbs_per_mib, nbytes=64 << 20):
    return {"mode": "pair", "sizes": [{
        "size": 4 << 20, "bytes": nbytes, "goodput_bps": goodput, "msg_rate": 10.0,
        "latency_us": {"samples": 3, "min": 1, "p50": 2, "p99": 3, "p999": 3, "max": 3, "mean": 2},
        "cpu_self_ns_per_byte": 1.0, "cpu_system_ns_per_byte": 2.0,
        "tx_packets_per_mib": skbs_per_mib}]}


class ReportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.tmp.name)
        self.raw = self.root / "bench" / "raw"
        self.raw.mkdir(parents=True)
        (self.raw / "two-copy.json").write_text(json.dumps({"bps": 8e9}))
        (self.root / "bench" / "kernel").write_text("6.1.0-test\n")

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, meta, data=None, **extra):
        lines = ["%s=%s" % kv for kv in meta.items()]
        (self.raw / (name + ".meta")).write_text("\n".join(lines) + "\n")
        if data is not None:
            (self.raw / (name + ".json")).write_text(json.dumps(data))
        for suffix, value in extra.items():
            (self.raw / ("%s.%s.json" % (name, suffix))).write_text(json.dumps(value))

    def pair(self, t, goodput, skbs, wire, queued=""):
        self.write("cpu-1500-pair-%s-4m" % t,
                   {"regime": "cpu", "mtu": 1500, "kind": "pair", "transport": t,
                    "size": "4m", "wire_segs": wire, "queued_skbs": queued},
                   pair_json(goodput, skbs))

    def a2a(self, t, rounds_by_rank):
        ranks = {"rank%d" % i: {"alltoall": {
            "rounds_done": len(r), "rounds_asked": len(r), "rounds_us": r,
            "goodput_bps": 1e9}} for i, r in enumerate(rounds_by_rank)}
        self.write("cpu-1500-a2a-%s" % t, {"regime": "cpu", "mtu": 1500, "kind": "a2a",
                                           "transport": t}, **ranks)

    def run_report(self):
        dest = self.root / "out"
        rc = subprocess.run([sys.executable, str(HERE / "report.py"), str(self.root / "bench"),
                             str(dest), "--quiet"], capture_output=True, text=True)
        return rc.returncode, json.loads((dest / "results.json").read_text()), \
            (dest / "results.md").read_text()

    def test_lossy_rows_side_by_side_per_setting(self):
        for netem, tag in (("loss 2%", "loss_2"), ("delay 1ms reorder 25% 50%", "reorder")):
            for t, goodput, rexmit in (("hf", 3e9, 40), ("tcp", 2e9, 55)):
                data = pair_json(goodput, 1.0)
                data["sizes"][0]["latency_us"].update(p50=2000, p99=9000, p999=40000)
                self.write("lossy-1500-pair-%s-%s" % (t, tag),
                           {"regime": "lossy", "mtu": 1500, "kind": "pair", "transport": t,
                            "size": "1m", "netem": netem, "retransmits": rexmit}, data)
        rc, result, md = self.run_report()
        self.assertEqual(rc, 0)
        hf = report.find(result["runs"], regime="lossy", transport="hf", netem="loss 2%")
        self.assertEqual(hf["retransmits"], 40)
        self.assertEqual(hf["latency_us"]["p999"], 40000)
        self.assertIn("## Under loss and reordering", md)
        self.assertIn("| loss 2% | hyperframe | 3.00 | 1.50 | 2.0 | 9.0 | 40.0 | 40 |", md)
        self.assertIn("| delay 1ms reorder 25% 50% | TCP | 2.00 |  | 2.0 | 9.0 | 40.0 | 55 |", md)
        # Not among the regimes' bulk tables.
        self.assertNotIn("## Lossy", md)

    def test_figures_and_targets(self):
        # 716 wire segments per MiB, 18 trains, 1 carrier through the qdisc.
        self.pair("hf", 6e9, 18.0, 64 * 716, 64)
        self.pair("tcp", 4e9, 20.0, 64 * 725)
        # Rounds: the slowest rank per round; p50 of [30, 40, 50] is 40.
        self.a2a("hf", [[10, 40, 50]] + [[30, 20, 10]] * 3)
        self.a2a("tcp", [[100, 100, 100]] * 4)
        rc, result, md = self.run_report()
        self.assertEqual(rc, 0)
        hf = report.find(result["runs"], kind="pair", transport="hf")
        self.assertAlmostEqual(hf["wire_packets_per_mib"], 716.0)
        self.assertAlmostEqual(hf["of_two_copy_bound"], 0.75)
        a2a = report.find(result["runs"], kind="a2a", transport="hf")
        self.assertEqual(a2a["rounds_us"], [30, 40, 50])
        self.assertEqual(a2a["round_us"]["p50"], 40)
        verdict = {t["target"]: t for t in result["targets"]}
        rounds = verdict["all-to-all round time (4 nodes, 1 MiB per pair), p50 vs TCP"]
        self.assertAlmostEqual(rounds["measured"], 0.4)
        self.assertTrue(rounds["met"])
        bulk = verdict["bulk goodput at 4 MiB messages vs TCP"]
        self.assertAlmostEqual(bulk["measured"], 1.5)
        self.assertTrue(bulk["met"])
        bound = verdict["bulk goodput at 4 MiB messages vs the two-copy bound"]
        self.assertFalse(bound["met"])  # 0.75 < 0.85
        skbs = verdict["skbs per MiB through the qdisc, TCP's over hyperframe's (4 MiB messages)"]
        self.assertAlmostEqual(skbs["measured"], 20.0)
        self.assertTrue(skbs["met"])
        device = verdict["(skbs per MiB on the device, TCP's over hyperframe's, for reference)"]
        self.assertAlmostEqual(device["measured"], 20.0 / 18.0)
        self.assertIsNone(device["met"])
        mixed = verdict["small-message p99 under bulk vs TCP"]
        self.assertIsNone(mixed["measured"])  # no mixed run: not met, not invented
        self.assertFalse(mixed["met"])
        self.assertIn("| 4 MiB | 6.00 | 4.00 | - | 1.50 | 0.75 | 1.0 | 18.0 | 20.0 | 716.0 | 725.0 | 2.0 | 2.0 |",
                      md)

    def test_failed_run_is_reported(self):
        self.pair("hf", 6e9, 18.0, 100)
        self.write("cpu-1500-pair-tcp-4m", {"regime": "cpu", "mtu": 1500, "kind": "pair",
                                            "transport": "tcp", "size": "4m", "wire_segs": 0})
        (self.root / "bench" / "failures").write_text("cpu-1500-pair-tcp-4m: refused\n")
        rc, result, md = self.run_report()
        self.assertEqual(rc, 1)
        self.assertEqual(result["missing"], ["cpu-1500-pair-tcp-4m"])
        self.assertIn("no result: cpu-1500-pair-tcp-4m", md)
        self.assertIn("cpu-1500-pair-tcp-4m: refused", md)

    def test_profile(self):
        # perf report --stdio -n text as the guest writes it: 2 s of CPU
        # sampled while 100 MiB moved, so 1 % is 200 us per MiB.
        head = "# Samples: 4K of event 'cpu-clock'\n# Event count (approx.): 2000000000\n#\n"
        for t, send, alloc in (("hf", 40.0, 10.0), ("tcp", 20.0, 0.5)):
            self.write("profile-1500-pair-%s-4m" % t,
                       {"regime": "profile", "mtu": 1500, "kind": "pair", "transport": t,
                        "size": "4m", "wire_segs": 0},
                       pair_json(1e9, 18.0, nbytes=100 << 20))
            (self.raw / ("profile-%s.children.txt" % t)).write_text(
                head + "    50.00%%     0.00%%             0  [k] do_syscall_64\n"
                "    %.2f%%     0.10%%             4  [k] %s_sendmsg\n" % (send, t) +
                "    %.2f%%     1.00%%            40  [k] __alloc_skb\n" % alloc)
            (self.raw / ("profile-%s.self.txt" % t)).write_text(
                head + "    30.00%          1200  [k] native_safe_halt\n"
                "    12.00%           480  [k] copy_user_enhanced_fast_string\n"
                "     3.00%           120  [k] clear_page_erms\n"
                "     1.00%            40  [k] memset_erms\n")
            (self.raw / ("profile-%s.comm.txt" % t)).write_text(
                head + "    30.00%          1200  swapper\n"
                "    45.00%          1800  hfperf\n"
                "     5.00%           200  ksoftirqd/0\n"
                "     4.00%           160  ip\n")
        rc, result, md = self.run_report()
        self.assertEqual(rc, 0)
        self.assertEqual(result["runs"], [])  # a profile run is not a regime's
        hf = result["profile"]["hf"]
        rows = hf["rows_us_per_mib"]
        self.assertAlmostEqual(rows["the run's threads (hfperf, softirq threads)"], 10000)
        self.assertAlmostEqual(rows["send calls"], 8000)
        self.assertAlmostEqual(rows["allocating skbs (__alloc_skb)"], 2000)
        self.assertAlmostEqual(rows["copying user data"], 2400)
        self.assertAlmostEqual(rows["zeroing memory (clear_page, memset)"], 800)
        self.assertEqual(rows["receive calls"], 0)  # absent: nothing sampled there
        self.assertEqual([name for name, _ in hf["top_us_per_mib"]],
                         ["copy_user_enhanced_fast_string", "clear_page_erms", "memset_erms"])
        self.assertIn("| send calls | 8000 | 4000 | 2.00 |", md)
        self.assertIn("| allocating skbs (__alloc_skb) | 2000 | 100 | 20.00 |", md)
        self.assertIn("| `clear_page_erms` | 600 | `clear_page_erms` | 600 |", md)

    def test_profile_missing_report(self):
        self.write("profile-1500-pair-hf-4m",
                   {"regime": "profile", "mtu": 1500, "kind": "pair", "transport": "hf",
                    "size": "4m", "wire_segs": 0}, pair_json(1e9, 18.0))
        rc, result, md = self.run_report()
        self.assertEqual(result["profile"], {})  # no perf text: no figures invented
        self.assertNotIn("## Profile", md)


if __name__ == "__main__":
    unittest.main()
