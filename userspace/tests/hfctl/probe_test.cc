// tests/hfctl/probe_test.cc - unit tests of hfctl/bpf/probe.cc: the arguments
// of "hfctl probe", the verdict and the text and JSON it prints, from
// values alone (no BPF).
#include "bpf/probe.h"

#include <netinet/in.h>

#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/cli.h"

namespace {

using hfctl::DirectionCounts;
using hfctl::Options;
using hfctl::ProbeArgs;
using hfctl::ProbeResult;
using hfctl::QueueCounts;
using hfctl::QueueInterval;
using hfctl::UsageError;

ProbeArgs parse(const std::vector<std::string>& args) {
  return hfctl::parse_probe_args(args);
}

// The message parse() throws, or "" if it does not.
std::string refusal(const std::vector<std::string>& args) {
  try {
    static_cast<void>(parse(args));
  } catch (const UsageError& error) {
    EXPECT_EQ(error.hint(), "hfctl probe help");
    return error.what();
  }
  return "";
}

// A direction of `skbs` skbs of `skb_bytes`, each `segs` wire packets of
// `packet_bytes`.
DirectionCounts direction(std::uint64_t skbs, std::uint64_t skb_bytes, std::uint64_t segs,
                          std::uint64_t packet_bytes) {
  DirectionCounts dir;
  dir.skbs = skbs;
  dir.bytes = skbs * skb_bytes;
  dir.gso_skbs = segs > 1 ? skbs : 0;
  dir.packets = skbs * segs;
  dir.wire_bytes = skbs * segs * packet_bytes;
  dir.max_skb = skb_bytes;
  return dir;
}

ProbeResult result(DirectionCounts tx, DirectionCounts rx, double seconds = 1.0) {
  ProbeResult r;
  r.args.dev = "eth0";
  r.seconds = seconds;
  r.tx = tx;
  r.rx = rx;
  return r;
}

Options json() {
  Options options;
  options.json = true;
  return options;
}

TEST(ParseProbeArgs, DeviceAloneTakesFiveSeconds) {
  const ProbeArgs args = parse({"dev", "eth0"});
  EXPECT_EQ(args.dev, "eth0");
  EXPECT_EQ(args.duration, std::chrono::seconds(5));
  EXPECT_FALSE(args.ethertype);
  EXPECT_FALSE(args.ip_proto);
  EXPECT_FALSE(args.port);
}

TEST(ParseProbeArgs, EveryFilterInAnyOrder) {
  const ProbeArgs tcp = parse({"proto", "tcp", "duration", "500ms", "port", "5201", "dev", "v0"});
  EXPECT_EQ(tcp.dev, "v0");
  EXPECT_EQ(tcp.duration, std::chrono::milliseconds(500));
  EXPECT_EQ(tcp.ip_proto, IPPROTO_TCP);
  EXPECT_EQ(tcp.port, 5201);
  EXPECT_EQ(parse({"dev", "eth0", "proto", "udp"}).ip_proto, IPPROTO_UDP);
  EXPECT_EQ(parse({"dev", "eth0", "ethertype", "0x88b5"}).ethertype, 0x88b5);
  // A bare number of seconds, as timeout(1) takes it.
  EXPECT_EQ(parse({"dev", "eth0", "duration", "3"}).duration, std::chrono::seconds(3));
}

TEST(ParseProbeArgs, FiveTuple) {
  const ProbeArgs v4 = parse({"dev", "v0", "proto", "udp", "src", "198.18.0.1", "dst", "198.18.0.2",
                              "sport", "6001", "dport", "0x17d5"});
  ASSERT_TRUE(v4.src);
  ASSERT_TRUE(v4.dst);
  EXPECT_EQ(v4.src->size, 4U);
  EXPECT_EQ(std::vector<std::uint8_t>(v4.src->view().begin(), v4.src->view().end()),
            (std::vector<std::uint8_t>{198, 18, 0, 1}));
  EXPECT_EQ(v4.dst->bytes.at(3), 2);
  EXPECT_EQ(v4.sport, 6001);
  EXPECT_EQ(v4.dport, 0x17d5);
  EXPECT_FALSE(v4.port);
  const ProbeArgs v6 = parse({"dev", "v0", "dst", "2001:db8::2", "src", "2001:db8::1"});
  ASSERT_TRUE(v6.src);
  EXPECT_EQ(v6.src->size, 16U);
  EXPECT_EQ(v6.src->bytes.at(0), 0x20);
  EXPECT_EQ(v6.src->bytes.at(15), 1);
  EXPECT_EQ(v6.dst->bytes.at(15), 2);
  // Addresses alone need no proto; the ports do, as port does.
  EXPECT_FALSE(v6.ip_proto);
  // port (either direction) still works beside them.
  EXPECT_EQ(parse({"dev", "v0", "proto", "tcp", "port", "80", "dport", "80"}).port, 80);
}

TEST(ParseProbeArgs, Intervals) {
  const ProbeArgs plain = parse({"dev", "eth0"});
  EXPECT_FALSE(plain.interval);
  EXPECT_EQ(hfctl::probe_interval(plain), std::chrono::milliseconds(250));
  EXPECT_EQ(hfctl::probe_intervals(plain), 20U);
  const ProbeArgs odd = parse({"dev", "eth0", "duration", "1s", "interval", "300ms"});
  EXPECT_EQ(odd.interval, std::chrono::milliseconds(300));
  EXPECT_EQ(hfctl::probe_intervals(odd), 4U);  // the last one cut short
  const ProbeArgs fine = parse({"dev", "eth0", "duration", "25s", "interval", "100ms"});
  EXPECT_EQ(hfctl::probe_intervals(fine), 250U);
  // Too short to split in 20: 1 ms intervals.
  const ProbeArgs brief = parse({"dev", "eth0", "duration", "10ms"});
  EXPECT_EQ(hfctl::probe_interval(brief), std::chrono::milliseconds(1));
  EXPECT_EQ(hfctl::probe_intervals(brief), 10U);
}

TEST(ParseProbeArgs, ListeningLine) {
  EXPECT_EQ(hfctl::probe_listening(parse({"dev", "eth0"})),
            "listening on eth0 for 5s; SIGINT ends it early");
  EXPECT_EQ(hfctl::probe_listening(
                parse({"dev", "v0", "duration", "1500ms", "proto", "udp", "port", "5202"})),
            "listening on v0 for 1500ms, proto udp port 5202; SIGINT ends it early");
}

TEST(ParseProbeArgs, RefusesBadCommandLines) {
  EXPECT_EQ(refusal({}), "probe needs dev DEV");
  EXPECT_EQ(refusal({"dev"}), "\"dev\" needs a value");
  EXPECT_EQ(refusal({"dev", "a", "dev", "b"}), "\"dev\" given twice");
  EXPECT_EQ(refusal({"dev", "a", "speed", "1"}), "unknown argument \"speed\"");
  EXPECT_EQ(refusal({"dev", "a", "duration", "0s"}),
            "invalid duration \"0s\" (5s, 500ms; at most 24h)");
  EXPECT_EQ(refusal({"dev", "a", "duration", "soon"}),
            "invalid duration \"soon\" (5s, 500ms; at most 24h)");
  EXPECT_EQ(refusal({"dev", "a", "proto", "sctp"}), "invalid proto \"sctp\" (tcp or udp)");
  EXPECT_EQ(refusal({"dev", "a", "port", "80"}), "port needs proto tcp or proto udp");
  EXPECT_EQ(refusal({"dev", "a", "proto", "tcp", "port", "0"}), "invalid port \"0\" (1 to 65535)");
  EXPECT_EQ(refusal({"dev", "a", "proto", "tcp", "port", "70000"}),
            "invalid port \"70000\" (1 to 65535)");
  EXPECT_EQ(refusal({"dev", "a", "ethertype", "0x800", "proto", "tcp"}),
            "ethertype and proto cannot be combined (proto implies IPv4 or IPv6)");
  EXPECT_EQ(refusal({"dev", "a", "ethertype", "100"}), "invalid ethertype \"100\" (1536 to 65535)");
}

TEST(ParseProbeArgs, RefusesBadFiveTuples) {
  const std::string address = "(an IPv4 or IPv6 address, without a prefix length)";
  EXPECT_EQ(refusal({"dev", "a", "src", "198.18.0"}), "invalid src \"198.18.0\" " + address);
  EXPECT_EQ(refusal({"dev", "a", "dst", "10.0.0.0/8"}), "invalid dst \"10.0.0.0/8\" " + address);
  EXPECT_EQ(refusal({"dev", "a", "dst", "2001:db8::g"}), "invalid dst \"2001:db8::g\" " + address);
  EXPECT_EQ(refusal({"dev", "a", "src", ""}), "invalid src \"\" " + address);
  EXPECT_EQ(refusal({"dev", "a", "src", "10.0.0.1", "dst", "::1"}),
            "src 10.0.0.1 and dst ::1 are not of one address family");
  EXPECT_EQ(refusal({"dev", "a", "sport", "80"}), "sport needs proto tcp or proto udp");
  EXPECT_EQ(refusal({"dev", "a", "dport", "80"}), "dport needs proto tcp or proto udp");
  EXPECT_EQ(refusal({"dev", "a", "proto", "udp", "sport", "0"}),
            "invalid sport \"0\" (1 to 65535)");
  EXPECT_EQ(refusal({"dev", "a", "proto", "udp", "dport", "65536"}),
            "invalid dport \"65536\" (1 to 65535)");
  EXPECT_EQ(refusal({"dev", "a", "proto", "udp", "dport", "-1"}),
            "invalid dport \"-1\" (1 to 65535)");
  EXPECT_EQ(refusal({"dev", "a", "proto", "udp", "sport", "http"}),
            "invalid sport \"http\" (1 to 65535)");
  EXPECT_EQ(refusal({"dev", "a", "ethertype", "0x88b5", "dst", "10.0.0.1"}),
            "ethertype and dst cannot be combined (dst implies IPv4 or IPv6)");
  EXPECT_EQ(refusal({"dev", "a", "src", "10.0.0.1", "src", "10.0.0.2"}), "\"src\" given twice");
}

TEST(ParseProbeArgs, RefusesBadIntervals) {
  EXPECT_EQ(refusal({"dev", "a", "interval", "0"}),
            "invalid interval \"0\" (100ms, 1s; at most 24h)");
  EXPECT_EQ(refusal({"dev", "a", "interval", "often"}),
            "invalid interval \"often\" (100ms, 1s; at most 24h)");
  EXPECT_EQ(refusal({"dev", "a", "interval", "10s"}), "interval 10s is longer than duration 5s");
  EXPECT_EQ(refusal({"dev", "a", "duration", "1500ms", "interval", "2s"}),
            "interval 2s is longer than duration 1500ms");
  EXPECT_EQ(refusal({"dev", "a", "interval", "10ms"}),
            "interval 10ms makes 500 intervals of duration 5s (at most 256)");
}

TEST(DescribeFilter, SaysItAsTheCommandLineDoes) {
  EXPECT_EQ(hfctl::describe_filter(parse({"dev", "eth0"})), "");
  EXPECT_EQ(hfctl::describe_filter(parse({"dev", "eth0", "ethertype", "0x88b5"})),
            "ethertype 0x88b5");
  EXPECT_EQ(hfctl::describe_filter(parse({"dev", "eth0", "proto", "udp", "port", "53"})),
            "proto udp port 53");
  // In a fixed order, whatever the command line's; IPv6 in its short form.
  EXPECT_EQ(hfctl::describe_filter(parse({"dev", "eth0", "dport", "5201", "sport", "40000", "dst",
                                          "2001:0db8:0::2", "proto", "tcp", "src", "2001:db8::1"})),
            "proto tcp src 2001:db8::1 dst 2001:db8::2 sport 40000 dport 5201");
  EXPECT_EQ(hfctl::describe_filter(parse({"dev", "eth0", "dst", "198.18.0.2"})), "dst 198.18.0.2");
}

TEST(ProbeVerdict, NothingMatched) {
  EXPECT_EQ(hfctl::probe_verdict(result({}, {})),
            "no packets matched on eth0: nothing to judge (is traffic flowing, and does the "
            "filter match it?)");
}

TEST(ProbeVerdict, LightTraffic) {
  EXPECT_EQ(hfctl::probe_verdict(result(direction(100, 1514, 1, 1514), {})),
            "flows move 148 KiB/s in 1.5 KiB packets at 100 pps: too little traffic for packet "
            "size to matter");
}

TEST(ProbeVerdict, MtuPacketsBehindADeepQueue) {
  ProbeResult r = result(direction(900000, 1448, 1, 1448), direction(450000, 66, 1, 66));
  r.dequeue = QueueCounts{};
  r.dequeue->samples = 900000;
  r.dequeue->max_backlog = std::uint64_t{3} * 1024 * 1024;
  EXPECT_EQ(hfctl::probe_verdict(r),
            "flows move 1.2 GiB/s in 1.4 KiB packets at 900.0k pps; queue depth peaks at 3 "
            "MiB / 0 packets; larger frames and pacing would help");
  r.dequeue->max_backlog = 4096;
  EXPECT_EQ(hfctl::probe_verdict(r),
            "flows move 1.2 GiB/s in 1.4 KiB packets at 900.0k pps: larger frames (GSO/GRO, "
            "hyperframe) would cut the per-packet cost");
}

TEST(ProbeVerdict, DeepQueueMattersAtAnyRate) {
  // 100 pps is light, but a slow link's queue still builds.
  ProbeResult r = result(direction(100, 1514, 1, 1514), {});
  r.dequeue = QueueCounts{};
  r.dequeue->samples = 100;
  r.dequeue->max_backlog = std::uint64_t{1} << 20;
  EXPECT_EQ(hfctl::probe_verdict(r),
            "flows move 148 KiB/s in 1.5 KiB packets at 100 pps; queue depth peaks at 1 MiB / "
            "0 packets; larger frames and pacing would help");
  // Large GSO skbs behind a deep queue: pacing, not frame size.
  r = result(direction(20000, 65536, 45, 1514), {});
  r.dequeue = QueueCounts{};
  r.dequeue->samples = 20000;
  r.dequeue->max_backlog = std::uint64_t{4} << 20;
  EXPECT_EQ(hfctl::probe_verdict(r),
            "flows move 1.3 GiB/s in 1.5 KiB packets at 900.0k pps; queue depth peaks at 4 MiB / "
            "0 packets; packets are large already: pacing would keep the queue short");
}

TEST(ProbeVerdict, GsoAlreadyLarge) {
  // The busier direction decides: here the receive side.
  EXPECT_EQ(
      hfctl::probe_verdict(result(direction(10, 66, 1, 66), direction(20000, 65536, 45, 1514))),
      "packets are already 64 KiB GSO/GRO skbs (1.5 KiB on the wire); the bottleneck is "
      "elsewhere: profile the CPU");
  EXPECT_EQ(hfctl::probe_verdict(result(direction(20000, 65536, 1, 65536), {})),
            "packets are already 64 KiB on the wire; the bottleneck is elsewhere: profile the "
            "CPU");
}

TEST(ProbeVerdict, EnqueuePeaksWhereDequeuesAreRare) {
  // The dequeue side saw a shallow queue; enqueues saw it 512 KiB deep.
  ProbeResult r = result(direction(100, 1514, 1, 1514), {});
  r.dequeue = QueueCounts{};
  r.dequeue->samples = 3;
  r.dequeue->max_backlog = 3000;
  r.dequeue->max_qlen = 2;
  r.enqueue = QueueCounts{};
  r.enqueue->samples = 100;
  r.enqueue->max_backlog = std::uint64_t{512} << 10;
  r.enqueue->max_qlen = 346;
  EXPECT_EQ(hfctl::peak_backlog(r), std::uint64_t{512} << 10);
  EXPECT_EQ(hfctl::peak_qlen(r), 346U);
  EXPECT_EQ(hfctl::probe_verdict(r),
            "flows move 148 KiB/s in 1.5 KiB packets at 100 pps; queue depth peaks at 512 KiB / "
            "346 packets; larger frames and pacing would help");
  // Without the enqueue side the same run reads as light traffic.
  r.enqueue.reset();
  EXPECT_EQ(hfctl::probe_verdict(r),
            "flows move 148 KiB/s in 1.5 KiB packets at 100 pps: too little traffic for packet "
            "size to matter");
}

TEST(ProbeVerdict, NamesTheBurstAndMessageScale) {
  ProbeResult r = result(direction(1000, 1514, 1, 1514), {});
  r.tx.skb_hist.at(10) = 900;  // [1K, 2K)
  r.tx.skb_hist.at(6) = 100;   // [64, 128)
  r.enqueue = QueueCounts{};
  r.enqueue->samples = 1000;
  r.enqueue->max_backlog = std::uint64_t{1} << 20;
  r.enqueue->max_qlen = 700;
  r.interval = std::chrono::milliseconds(100);
  r.series.assign(10, QueueInterval{.samples = 100, .max_backlog = 0, .max_qlen = 0});
  r.series.at(3).max_backlog = std::uint64_t{1} << 20;
  r.series.at(4).max_backlog = 4096;
  EXPECT_EQ(hfctl::probe_verdict(r),
            "flows move 1.4 MiB/s in 1.5 KiB packets at 1.0k pps (skbs p50 <= 1.5 KiB, max "
            "1.5 KiB); queue depth peaks at 1 MiB / 700 packets, in bursts: backlogged in 2 of 10 "
            "intervals; larger frames and pacing would help");
  for (std::size_t i = 0; i < 6; ++i) {
    r.series.at(i).max_backlog = 100000;
  }
  EXPECT_NE(hfctl::probe_verdict(r).find(", standing: backlogged in 6 of 10 intervals;"),
            std::string::npos)
      << hfctl::probe_verdict(r);
}

TEST(RenderProbe, TextSaysEachDirectionTheQueueAndTheVerdict) {
  ProbeResult r = result(direction(2, 3000, 2, 1500), {}, 2.0);
  r.args.ip_proto = IPPROTO_TCP;
  r.tx.skb_hist.at(11) = 2;
  r.tx.packet_hist.at(10) = 4;
  std::ostringstream out;
  hfctl::render_probe(out, r, Options{});
  EXPECT_EQ(out.str(),
            "dev eth0 for 2.00s (proto tcp)\n"
            "tx: 2 skbs (1/s), avg 2.9 KiB, max 2.9 KiB, 2 GSO/GRO; 4 wire packets (2 pps), "
            "avg 1.5 KiB; 2.9 KiB/s\n"
            "rx: 0 skbs (0/s), avg 0 B, max 0 B, 0 GSO/GRO; 0 wire packets (0 pps), avg 0 B; "
            "0 B/s\n"
            "qdisc at enqueue: unavailable (this kernel has no qdisc:qdisc_enqueue tracepoint)\n"
            "qdisc at dequeue: unavailable (this kernel has no qdisc:qdisc_dequeue tracepoint)\n"
            "tx skb bytes:\n"
            "  [2K, 4K)                2 ########################################\n"
            "tx wire packet bytes:\n"
            "  [1K, 2K)                4 ########################################\n"
            "verdict: flows move 2.9 KiB/s in 1.5 KiB packets at 2 pps (skbs p50 <= 2.9 KiB, "
            "max 2.9 KiB): too little traffic for packet size to matter\n");
}

TEST(RenderProbe, TextQueueLines) {
  ProbeResult r = result({}, {});
  r.dequeue = QueueCounts{};
  r.enqueue = QueueCounts{};
  r.interval = std::chrono::milliseconds(500);
  r.series.resize(4);
  std::ostringstream none;
  hfctl::render_probe(none, r, Options{});
  EXPECT_NE(none.str().find("qdisc at enqueue: no enqueues (a queueless device, noqueue, or no "
                            "traffic through it)\n"
                            "qdisc at dequeue: no dequeues (a queueless device, noqueue, or no "
                            "traffic through it)\n"
                            "qdisc depth per 0.50s: nothing enqueued or dequeued\n"),
            std::string::npos)
      << none.str();
  r.dequeue->samples = 10;
  r.dequeue->max_backlog = 70000;
  r.dequeue->max_qlen = 50;
  r.dequeue->backlog_hist.at(12) = 10;
  r.dequeue->qlen_hist.at(3) = 10;
  r.enqueue.reset();
  std::ostringstream some;
  hfctl::render_probe(some, r, Options{});
  EXPECT_NE(some.str().find("qdisc at enqueue: unavailable (this kernel has no "
                            "qdisc:qdisc_enqueue tracepoint)\n"
                            "qdisc at dequeue: backlog max 68.4 KiB, p50 <= 8 KiB; queue max 50 "
                            "packets, p50 <= 15; over 10 dequeues\n"),
            std::string::npos)
      << some.str();
}

TEST(RenderProbe, TextTimeSeries) {
  ProbeResult r = result({}, {});
  r.enqueue = QueueCounts{};
  r.enqueue->samples = 30;
  r.interval = std::chrono::milliseconds(250);
  r.series = {{.samples = 10, .max_backlog = 0, .max_qlen = 0},
              {.samples = 12, .max_backlog = 20000, .max_qlen = 20},
              {.samples = 0, .max_backlog = 0, .max_qlen = 0},
              {.samples = 8, .max_backlog = 5000, .max_qlen = 5}};
  std::ostringstream out;
  hfctl::render_probe(out, r, Options{});
  // The bar: the interval's backlog over the deepest, in 40ths, rounded up.
  EXPECT_NE(out.str().find("qdisc depth per 0.25s (the deepest in each):\n"
                           "     0.00s        0 B      0 packets\n"
                           "     0.25s   19.5 KiB     20 packets "
                           "########################################\n"
                           "     0.50s          -\n"
                           "     0.75s    4.9 KiB      5 packets ##########\n"),
            std::string::npos)
      << out.str();
}

TEST(RenderProbe, JsonInBaseUnits) {
  ProbeResult r = result(direction(2, 3000, 2, 1500), {}, 2.0);
  r.args.ethertype = 0x88b5;
  r.tx.skb_hist.at(11) = 2;
  r.dequeue = QueueCounts{};
  std::ostringstream out;
  hfctl::render_probe(out, r, json());
  EXPECT_EQ(out.str(),
            "{\"dev\":\"eth0\",\"duration_s\":2,\"filter\":\"ethertype 0x88b5\","
            "\"tx\":{\"skbs\":2,\"bytes\":6000,\"gso_skbs\":2,\"packets\":4,\"wire_bytes\":6000,"
            "\"max_skb_bytes\":3000,\"skbs_per_s\":1,\"packets_per_s\":2,"
            "\"wire_bytes_per_s\":3000,\"avg_skb_bytes\":3000,\"avg_packet_bytes\":1500,"
            "\"skb_bytes_hist\":[{\"min\":2048,\"max\":4095,\"count\":2}],"
            "\"packet_bytes_hist\":[]},"
            "\"rx\":{\"skbs\":0,\"bytes\":0,\"gso_skbs\":0,\"packets\":0,\"wire_bytes\":0,"
            "\"max_skb_bytes\":0,\"skbs_per_s\":0,\"packets_per_s\":0,\"wire_bytes_per_s\":0,"
            "\"avg_skb_bytes\":0,\"avg_packet_bytes\":0,\"skb_bytes_hist\":[],"
            "\"packet_bytes_hist\":[]},"
            "\"qdisc\":{\"available\":true,\"dequeues\":0,\"max_backlog_bytes\":0,"
            "\"p50_backlog_bytes\":0,\"max_qlen\":0,\"p50_qlen\":0,\"backlog_bytes_hist\":[],"
            "\"qlen_hist\":[],\"enqueue\":{\"available\":false},\"peak_backlog_bytes\":0,"
            "\"peak_qlen\":0,\"interval_ms\":0,\"series\":[]},"
            "\"verdict\":\"flows move 2.9 KiB/s in 1.5 KiB packets at 2 pps (skbs p50 <= 2.9 "
            "KiB, max 2.9 KiB): too little traffic for packet size to matter\"}\n");
}

TEST(RenderProbe, JsonEnqueueAndTimeSeries) {
  ProbeResult r = result({}, {}, 1.0);
  r.dequeue = QueueCounts{};
  r.dequeue->samples = 4;
  r.dequeue->max_backlog = 1000;
  r.dequeue->max_qlen = 1;
  r.enqueue = QueueCounts{};
  r.enqueue->samples = 6;
  r.enqueue->max_backlog = 6000;
  r.enqueue->max_qlen = 6;
  r.enqueue->backlog_hist.at(12) = 6;
  r.enqueue->qlen_hist.at(2) = 6;
  r.interval = std::chrono::milliseconds(500);
  r.series = {{.samples = 7, .max_backlog = 6000, .max_qlen = 6},
              {.samples = 3, .max_backlog = 1000, .max_qlen = 1}};
  std::ostringstream out;
  hfctl::render_probe(out, r, json());
  EXPECT_NE(out.str().find(
                "\"qdisc\":{\"available\":true,\"dequeues\":4,\"max_backlog_bytes\":1000,"
                "\"p50_backlog_bytes\":0,\"max_qlen\":1,\"p50_qlen\":0,\"backlog_bytes_hist\":[],"
                "\"qlen_hist\":[],\"enqueue\":{\"available\":true,\"enqueues\":6,"
                "\"max_backlog_bytes\":6000,\"p50_backlog_bytes\":8191,\"max_qlen\":6,"
                "\"p50_qlen\":7,\"backlog_bytes_hist\":[{\"min\":4096,\"max\":8191,\"count\":6}],"
                "\"qlen_hist\":[{\"min\":4,\"max\":7,\"count\":6}]},\"peak_backlog_bytes\":6000,"
                "\"peak_qlen\":6,\"interval_ms\":500,\"series\":["
                "{\"t_ms\":0,\"samples\":7,\"backlog_bytes_max\":6000,\"qlen_max\":6},"
                "{\"t_ms\":500,\"samples\":3,\"backlog_bytes_max\":1000,\"qlen_max\":1}]}"),
            std::string::npos)
      << out.str();
}

}  // namespace
