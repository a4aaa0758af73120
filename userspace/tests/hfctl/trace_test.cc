// tests/hfctl/trace_test.cc - unit tests of hfctl/bpf/trace.cc: the arguments
// of "hfctl trace", the record layouts the BPF programs assume and their check
// against tracefs format files, and the report in text and JSON, from values
// alone (no BPF).
#include "bpf/trace.h"

#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/cli.h"

namespace {

using hfctl::Options;
using hfctl::TraceArgs;
using hfctl::TraceCounts;
using hfctl::TraceField;
using hfctl::TracePeer;
using hfctl::TraceReport;
using hfctl::UsageError;

std::string usage_message(const std::vector<std::string>& args) {
  try {
    static_cast<void>(hfctl::parse_trace_args(args));
  } catch (const UsageError& error) {
    EXPECT_EQ(error.hint(), "hfctl trace help");
    return error.what();
  }
  return "";
}

// hf_frame_xmit's format file as 6.1 and 6.12 print it.
constexpr std::string_view kXmitFormat = R"(name: hf_frame_xmit
ID: 1587
format:
	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
	field:int common_pid;	offset:4;	size:4;	signed:1;

	field:u32 netns;	offset:8;	size:4;	signed:0;
	field:int ifindex;	offset:12;	size:4;	signed:1;
	field:u8 addr[6];	offset:16;	size:6;	signed:0;
	field:u32 epoch;	offset:24;	size:4;	signed:0;
	field:u32 msg_id;	offset:28;	size:4;	signed:0;
	field:u32 seq;	offset:32;	size:4;	signed:0;
	field:u32 segs;	offset:36;	size:4;	signed:0;
	field:u32 bytes;	offset:40;	size:4;	signed:0;

print fmt: "netns=%u ifindex=%d addr=%pM epoch=%u msg_id=%u seq=%u segs=%u bytes=%u", REC->netns
)";

const hfctl::TraceEventFormat& format_of(std::string_view event) {
  for (const auto& format : hfctl::trace_event_formats()) {
    if (format.event == event) {
      return format;
    }
  }
  throw std::runtime_error("no format for " + std::string(event));
}

TEST(TraceArgs, DefaultsAndEveryKey) {
  EXPECT_EQ(hfctl::parse_trace_args({}), TraceArgs{});
  const TraceArgs args =
      hfctl::parse_trace_args({{"dev", "eth0", "duration", "30", "interval", "500ms"}});
  EXPECT_EQ(args.dev, "eth0");
  EXPECT_EQ(args.duration, std::chrono::seconds(30));
  EXPECT_EQ(args.interval, std::chrono::milliseconds(500));
}

TEST(TraceArgs, ListeningLine) {
  EXPECT_EQ(hfctl::trace_listening(hfctl::parse_trace_args({})),
            "tracing every device until SIGINT");
  EXPECT_EQ(hfctl::trace_listening(hfctl::parse_trace_args({{"dev", "eth0", "duration", "600s"}})),
            "tracing eth0 for 600s; SIGINT ends it early");
  EXPECT_EQ(hfctl::trace_listening(hfctl::parse_trace_args({{"duration", "1500ms"}})),
            "tracing every device for 1500ms; SIGINT ends it early");
}

TEST(TraceArgs, MistakesAreNamed) {
  EXPECT_EQ(usage_message({"dev"}), R"("dev" needs a value)");
  EXPECT_EQ(usage_message({"dev", "a", "dev", "b"}), R"("dev" given twice)");
  EXPECT_EQ(usage_message({"rate", "1"}), R"(unknown argument "rate")");
  EXPECT_EQ(usage_message({"interval", "0"}), R"(invalid duration "0" (5s, 500ms; at most 24h))");
  EXPECT_EQ(usage_message({"dev", ""}), "dev needs a device name");
  EXPECT_EQ(usage_message({"interval", "50ms"}), R"(invalid interval "50ms" (at least 100ms))");
}

TEST(TraceFormat, ParsesFieldsWithArraysAndCommonOnes) {
  const std::vector<TraceField> fields = hfctl::parse_trace_format(kXmitFormat);
  ASSERT_EQ(fields.size(), 12U);
  EXPECT_EQ(fields[0], (TraceField{"common_type", 0, 2}));
  EXPECT_EQ(fields[6], (TraceField{"addr", 16, 6}));
  EXPECT_EQ(fields[11], (TraceField{"bytes", 40, 4}));
}

// The structs of bpf/hf_trace.h lay the records out as the kernel does.
TEST(TraceFormat, TheProgramsLayoutMatchesTheModules) {
  EXPECT_EQ(hfctl::trace_format_mismatch(format_of("hf_frame_xmit"),
                                         hfctl::parse_trace_format(kXmitFormat)),
            "");
  const auto& deliver = format_of("hf_msg_deliver").fields;
  EXPECT_EQ(deliver.back(), (TraceField{"latency_ns", 40, 8}));  // after len at 36
  const auto& dequeue = format_of("hfq_dequeue").fields;
  EXPECT_EQ(dequeue.back(), (TraceField{"sojourn_ns", 24, 8}));
  const auto& size = format_of("hf_frame_size").fields;
  EXPECT_EQ(size.back(), (TraceField{"reason", 40, 1}));
  const auto& hint = format_of("hf_rate_hint").fields;
  EXPECT_EQ(hint.back(), (TraceField{"new_rate", 40, 8}));  // after old_rate at 32
  EXPECT_EQ(hfctl::trace_event_formats().size(), hfctl::kTraceEvents);
  for (std::size_t i = 0; i < hfctl::kTraceEvents; ++i) {
    EXPECT_EQ(hfctl::trace_event_formats()[i].event, hfctl::kTraceEventNames.at(i));
  }
}

TEST(TraceFormat, AMovedOrMissingFieldIsRefusedWithWhere) {
  std::vector<TraceField> fields = hfctl::parse_trace_format(kXmitFormat);
  fields[10].offset = 44;  // segs
  EXPECT_EQ(hfctl::trace_format_mismatch(format_of("hf_frame_xmit"), fields),
            "field segs at offset 36, size 4; the module has it at offset 44, size 4");
  fields.erase(fields.begin() + 10);
  EXPECT_EQ(hfctl::trace_format_mismatch(format_of("hf_frame_xmit"), fields),
            "field segs at offset 36, size 4; the module has no such field");
  EXPECT_NE(hfctl::trace_format_mismatch(format_of("hf_frame_xmit"), {}), "");
}

TraceReport sample_report() {
  TraceReport report;
  report.args.dev = "eth0";
  report.netns = 4026531840;
  report.seconds = 2.0;
  report.window_seconds = 2.0;
  TraceCounts& t = report.totals;
  t.events = {4, 3, 1, 5, 2, 1, 6, 6, 2, 3};
  t.xmit_segs = 40;
  t.xmit_bytes = std::uint64_t{4} * 65536;
  t.xmit_bytes_hist.at(16) = 4;
  t.size_reasons.at(2) = 1;
  t.rate_cuts = 1;
  t.hfq_enqueued = {5, 1, 0};
  t.hfq_dequeued = {5, 1, 0};
  t.sojourn_ns_hist.at(0).at(10) = 5;
  t.deliver_bytes = 3000;
  t.latency_ns_hist.at(20) = 2;
  TracePeer peer;
  peer.ifindex = 2;
  peer.addr = {2, 0, 0, 0, 0, 1};
  peer.dev = "eth0";
  peer.tx_frames = 4;
  peer.tx_bytes = std::uint64_t{4} * 65536;
  peer.retransmits = 1;
  peer.msgs = 2;
  peer.frame_segs = 8;
  peer.rate = 512;
  peer.rate_hints = 3;
  peer.rate_hint = 12'500'000;  // 100 Mbit/s
  t.peers.push_back(peer);
  return report;
}

TEST(RenderTrace, JsonCarriesCountsHistogramsAndPeers) {
  std::ostringstream out;
  Options options;
  options.json = true;
  hfctl::render_trace(out, sample_report(), options);
  const std::string json = out.str();
  for (const std::string_view want :
       {R"("netns":4026531840)", R"("dev":"eth0")", R"("hf_frame_xmit":4)", R"("hf_msg_deliver":2)",
        R"("frame_bytes_p50":131071)",
        R"("frame_bytes_hist":[{"min":65536,"max":131071,"count":4}])", R"("loss":1)",
        R"("rate_cuts":1)", R"("control":{"enqueued":5,"dequeued":5,"sojourn_ns_p50":2047)",
        R"("latency_ns_p99":2097151)", R"("addr":"02:00:00:00:00:01")",
        R"("tx_bytes_per_s":131072)",
        R"("frame_segs":8,"rate":0.5,"rate_hints":3,"rate_hint":12500000})", R"("hf_rate_hint":3)",
        R"("rate_hints":{"changes":3})", R"("peers_untracked":0,"missed":0})"}) {
    EXPECT_NE(json.find(want), std::string::npos) << want << " in " << json;
  }
}

TEST(RenderTrace, TextSaysTheRatesOfTheWindowAndThePeers) {
  TraceReport report = sample_report();
  report.live = true;
  report.window_start = report.totals;
  report.window_start.events[0] = 2;
  report.window_start.peers[0].tx_bytes = std::uint64_t{2} * 65536;
  report.window_seconds = 1.0;
  std::ostringstream out;
  hfctl::render_trace(out, report, Options{});
  const std::string text = out.str();
  EXPECT_NE(text.find("hyperframe trace: netns 4026531840, dev eth0, 2.0s (rates over the last "
                      "1.0s; Ctrl-C to stop)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  hf_frame_xmit               4        2.0/s"), std::string::npos) << text;
  EXPECT_NE(text.find("frame size changes: 1, loss 1; frame size changed 0, rate cut 1"),
            std::string::npos)
      << text;
  // 2 x 64 KiB in the last second, 64 KiB frames, 8 segments, half rate.
  EXPECT_NE(
      text.find("eth0       02:00:00:00:00:01   1.0 Mbit/s      0 bit/s    64 KiB      8     50%"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("     50% 100.0 Mbit/s      1 "), std::string::npos) << "the hint: " << text;
  EXPECT_NE(text.find("rate hints: 3 changes\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("message latency:\n"), std::string::npos) << "bars only with -s";
  Options stats;
  stats.stats = 1;
  std::ostringstream with_bars;
  hfctl::render_trace(with_bars, report, stats);
  EXPECT_NE(with_bars.str().find("message latency:\n  [1.0 ms, 2.1 ms)"), std::string::npos)
      << with_bars.str();
}

// Past 2^31 (2.1 s of latency) the last bucket has no upper bound to show.
// A receiver that stopped hinting (0) shows "none"; one never seen, "-".
TEST(RenderTrace, ARateHintOfZeroIsNone) {
  TraceReport report = sample_report();
  report.totals.peers[0].rate_hint = 0;
  std::ostringstream out;
  hfctl::render_trace(out, report, Options{});
  EXPECT_NE(out.str().find("     50%         none "), std::string::npos) << out.str();
  report.totals.peers[0].rate_hint.reset();
  std::ostringstream json;
  Options options;
  options.json = true;
  hfctl::render_trace(json, report, options);
  EXPECT_NE(json.str().find(R"("rate_hints":3,"rate_hint":null})"), std::string::npos)
      << json.str();
}

TEST(RenderTrace, TheOpenLastBucketHasNoBound) {
  TraceReport report = sample_report();
  report.totals.latency_ns_hist.at(hfctl::kLog2Buckets - 1) = 3;
  Options json;
  json.json = true;
  std::ostringstream out;
  hfctl::render_trace(out, report, json);
  EXPECT_NE(out.str().find(R"("latency_ns_p50":null,"latency_ns_p90":null,"latency_ns_p99":null)"),
            std::string::npos)
      << out.str();
  std::ostringstream text;
  hfctl::render_trace(text, report, Options{});
  EXPECT_NE(text.str().find("message latency: 5, p50 > 2.15 s, p90 > 2.15 s, p99 > 2.15 s, max > "
                            "2.15 s"),
            std::string::npos)
      << text.str();
}

}  // namespace
