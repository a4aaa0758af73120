// tests/hfctl/probe_test.cc - unit tests of hfctl/probe.cc: the arguments
// of "hfctl probe", the verdict and the text and JSON it prints, from
// values alone (no BPF).
#include "probe.h"

#include <netinet/in.h>

#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli.h"

namespace {

using hfctl::DirectionCounts;
using hfctl::Options;
using hfctl::ProbeArgs;
using hfctl::ProbeResult;
using hfctl::QueueCounts;
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

TEST(DescribeFilter, SaysItAsTheCommandLineDoes) {
  EXPECT_EQ(hfctl::describe_filter(parse({"dev", "eth0"})), "");
  EXPECT_EQ(hfctl::describe_filter(parse({"dev", "eth0", "ethertype", "0x88b5"})),
            "ethertype 0x88b5");
  EXPECT_EQ(hfctl::describe_filter(parse({"dev", "eth0", "proto", "udp", "port", "53"})),
            "proto udp port 53");
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
  r.queue = QueueCounts{};
  r.queue->samples = 900000;
  r.queue->max_backlog = std::uint64_t{3} * 1024 * 1024;
  EXPECT_EQ(hfctl::probe_verdict(r),
            "flows move 1.2 GiB/s in 1.4 KiB packets at 900.0k pps; queue depth peaks at 3 "
            "MiB: larger frames and pacing would help");
  r.queue->max_backlog = 4096;
  EXPECT_EQ(hfctl::probe_verdict(r),
            "flows move 1.2 GiB/s in 1.4 KiB packets at 900.0k pps: larger frames (GSO/GRO, "
            "hyperframe) would cut the per-packet cost");
}

TEST(ProbeVerdict, DeepQueueMattersAtAnyRate) {
  // 100 pps is light, but a slow link's queue still builds.
  ProbeResult r = result(direction(100, 1514, 1, 1514), {});
  r.queue = QueueCounts{};
  r.queue->samples = 100;
  r.queue->max_backlog = std::uint64_t{1} << 20;
  EXPECT_EQ(hfctl::probe_verdict(r),
            "flows move 148 KiB/s in 1.5 KiB packets at 100 pps; queue depth peaks at 1 MiB: "
            "larger frames and pacing would help");
  // Large GSO skbs behind a deep queue: pacing, not frame size.
  r = result(direction(20000, 65536, 45, 1514), {});
  r.queue = QueueCounts{};
  r.queue->samples = 20000;
  r.queue->max_backlog = std::uint64_t{4} << 20;
  EXPECT_EQ(hfctl::probe_verdict(r),
            "flows move 1.3 GiB/s in 1.5 KiB packets at 900.0k pps; queue depth peaks at 4 MiB: "
            "packets are large already; pacing would keep the queue short");
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
            "qdisc: unavailable (this kernel has no qdisc:qdisc_dequeue tracepoint)\n"
            "tx skb bytes:\n"
            "  [2K, 4K)                2 ########################################\n"
            "tx wire packet bytes:\n"
            "  [1K, 2K)                4 ########################################\n"
            "verdict: flows move 2.9 KiB/s in 1.5 KiB packets at 2 pps: too little traffic for "
            "packet size to matter\n");
}

TEST(RenderProbe, TextQueueLine) {
  ProbeResult r = result({}, {});
  r.queue = QueueCounts{};
  std::ostringstream none;
  hfctl::render_probe(none, r, Options{});
  EXPECT_NE(none.str().find("qdisc: no dequeues"), std::string::npos);
  r.queue->samples = 10;
  r.queue->max_backlog = 70000;
  r.queue->max_qlen = 50;
  r.queue->backlog_hist.at(12) = 10;
  r.queue->qlen_hist.at(3) = 10;
  std::ostringstream some;
  hfctl::render_probe(some, r, Options{});
  EXPECT_NE(some.str().find("qdisc: backlog max 68.4 KiB, p50 <= 8 KiB; queue max 50 packets, "
                            "p50 <= 15; over 10 dequeues\n"),
            std::string::npos)
      << some.str();
}

TEST(RenderProbe, JsonInBaseUnits) {
  ProbeResult r = result(direction(2, 3000, 2, 1500), {}, 2.0);
  r.args.ethertype = 0x88b5;
  r.tx.skb_hist.at(11) = 2;
  r.queue = QueueCounts{};
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
            "\"qlen_hist\":[]},"
            "\"verdict\":\"flows move 2.9 KiB/s in 1.5 KiB packets at 2 pps: too little traffic "
            "for packet size to matter\"}\n");
}

}  // namespace
