// tests/hfctl/prometheus_test.cc - unit tests of hfctl/exporter/prometheus.cc:
// the exposition text of a counter table, names, types, labels, escaping and
// order.
#include "exporter/prometheus.h"

#include <linux/hyperframe.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

using hfctl::PrometheusLabel;

// Counters as the kernel returns them (kernel order, a subset of each kind).
std::vector<hf::Counter> kernel_counters() {
  return {{"tx_msgs", 12},
          {"tx_bytes", 1048576},
          {"rx_segs", 700},
          {"drop_malformed", 3},
          {"drop_csum", 5},
          {"drop_otherhost", 0},
          {"drop_malformed_short", 1},
          {"drop_malformed_version", 2},
          {"peers", 2},
          {"rx_mem_bytes", 65536},
          {"rx_mem_reserved_bytes", 131072}};
}

std::string render(const std::vector<hf::Counter>& counters,
                   const std::vector<PrometheusLabel>& labels = {}) {
  std::ostringstream out;
  hfctl::render_prometheus(out, counters, labels);
  return out.str();
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

constexpr std::string_view kUpHeader =
    "# HELP hyperframe_up Whether the hyperframe counters of the network namespace could be read "
    "(1) or not (0: the module is not loaded, or the query failed).\n"
    "# TYPE hyperframe_up gauge\n";

TEST(RenderPrometheus, WholeFixture) {
  EXPECT_EQ(render(kernel_counters()),
            std::string(kUpHeader) +
                "hyperframe_up 1\n"
                "# HELP hyperframe_drops_total Frames dropped on receive, by reason (the kernel's "
                "drop_REASON counters).\n"
                "# TYPE hyperframe_drops_total counter\n"
                "hyperframe_drops_total{reason=\"csum\"} 5\n"
                "hyperframe_drops_total{reason=\"malformed\"} 3\n"
                "hyperframe_drops_total{reason=\"otherhost\"} 0\n"
                "# HELP hyperframe_malformed_drops_total Frames that failed to decode, by reason "
                "(drop_malformed_REASON); they sum to hyperframe_drops_total{reason=\"malformed\"}."
                "\n"
                "# TYPE hyperframe_malformed_drops_total counter\n"
                "hyperframe_malformed_drops_total{reason=\"short\"} 1\n"
                "hyperframe_malformed_drops_total{reason=\"version\"} 2\n"
                "# HELP hyperframe_peers Peers the network namespace holds state for.\n"
                "# TYPE hyperframe_peers gauge\n"
                "hyperframe_peers 2\n"
                "# HELP hyperframe_rx_mem_bytes Reassembly memory held, in bytes.\n"
                "# TYPE hyperframe_rx_mem_bytes gauge\n"
                "hyperframe_rx_mem_bytes 65536\n"
                "# HELP hyperframe_rx_mem_reserved_bytes Receive memory reserved by admitted "
                "messages, in reassembly or delivered and not read yet, in bytes.\n"
                "# TYPE hyperframe_rx_mem_reserved_bytes gauge\n"
                "hyperframe_rx_mem_reserved_bytes 131072\n"
                "# HELP hyperframe_rx_segs_total DATA segments accepted.\n"
                "# TYPE hyperframe_rx_segs_total counter\n"
                "hyperframe_rx_segs_total 700\n"
                "# HELP hyperframe_tx_bytes_total Bytes of the messages accepted by sendmsg().\n"
                "# TYPE hyperframe_tx_bytes_total counter\n"
                "hyperframe_tx_bytes_total 1048576\n"
                "# HELP hyperframe_tx_msgs_total Messages accepted by sendmsg().\n"
                "# TYPE hyperframe_tx_msgs_total counter\n"
                "hyperframe_tx_msgs_total 12\n");
}

TEST(RenderPrometheus, OrderDoesNotDependOnTheKernels) {
  std::vector<hf::Counter> reversed = kernel_counters();
  std::reverse(reversed.begin(), reversed.end());
  EXPECT_EQ(render(reversed), render(kernel_counters()));
}

TEST(RenderPrometheus, EveryFamilyHasHelpAndTypeBeforeItsSamples) {
  const std::string text = render(kernel_counters());
  std::istringstream lines(text);
  std::string line;
  std::string help;
  std::string type;
  while (std::getline(lines, line)) {
    if (line.starts_with("# HELP ")) {
      help = line.substr(7, line.find(' ', 7) - 7);
    } else if (line.starts_with("# TYPE ")) {
      type = line.substr(7, line.find(' ', 7) - 7);
      EXPECT_EQ(type, help) << "TYPE follows the HELP of the same family";
    } else {
      const std::string name = line.substr(0, line.find_first_of("{ "));
      EXPECT_EQ(name, type) << line;
      EXPECT_TRUE(name.starts_with("hyperframe_")) << line;
    }
  }
  EXPECT_TRUE(text.ends_with('\n'));
}

TEST(RenderPrometheus, CountersEndInTotalGaugesDoNot) {
  const std::string text = render(kernel_counters());
  EXPECT_TRUE(contains(text, "# TYPE hyperframe_tx_bytes_total counter\n"));
  EXPECT_TRUE(contains(text, "# TYPE hyperframe_peers gauge\n"));
  EXPECT_FALSE(contains(text, "hyperframe_peers_total"));
  EXPECT_FALSE(contains(text, "hyperframe_rx_mem_bytes_total"));
}

TEST(RenderPrometheus, UnknownCounterIsACounterWithAGenericHelp) {
  const std::string text = render({{"tx_new-thing", 4}});
  EXPECT_TRUE(contains(text,
                       "# HELP hyperframe_tx_new_thing_total The kernel's counter tx_new-thing.\n"
                       "# TYPE hyperframe_tx_new_thing_total counter\n"
                       "hyperframe_tx_new_thing_total 4\n"))
      << text;
}

TEST(RenderPrometheus, RepeatedNameCountsOnce) {
  const std::string text = render({{"drop_csum", 1}, {"drop_csum", 9}, {"tx_msgs", 2}});
  EXPECT_TRUE(contains(text, "hyperframe_drops_total{reason=\"csum\"} 1\n"));
  EXPECT_FALSE(contains(text, "} 9\n"));
}

TEST(RenderPrometheus, NoCountersIsJustUp) {
  EXPECT_EQ(render({}), std::string(kUpHeader) + "hyperframe_up 1\n");
}

TEST(RenderPrometheus, TargetLabelsOnEverySampleInNameOrder) {
  const std::string text =
      render({{"drop_csum", 5}, {"peers", 1}}, {{.name = "namespace", .value = "blue"}});
  EXPECT_TRUE(contains(text, "hyperframe_up{namespace=\"blue\"} 1\n")) << text;
  EXPECT_TRUE(contains(text, "hyperframe_drops_total{namespace=\"blue\",reason=\"csum\"} 5\n"));
  EXPECT_TRUE(contains(text, "hyperframe_peers{namespace=\"blue\"} 1\n"));
  const std::string after = render({{"drop_csum", 5}}, {{.name = "zone", .value = "a"}});
  EXPECT_TRUE(contains(after, "hyperframe_drops_total{reason=\"csum\",zone=\"a\"} 5\n")) << after;
}

TEST(RenderPrometheus, LabelValuesAreEscaped) {
  const std::string text =
      render({{"drop_a\"b\\c\nd", 1}}, {{.name = "namespace", .value = "x\"y"}});
  EXPECT_TRUE(
      contains(text, "hyperframe_drops_total{namespace=\"x\\\"y\",reason=\"a\\\"b\\\\c\\nd\"} 1\n"))
      << text;
}

TEST(RenderPrometheusDown, UpZeroAndNothingElse) {
  std::ostringstream out;
  hfctl::render_prometheus_down(out, "module not\nloaded", {});
  EXPECT_EQ(out.str(), "# hyperframe counters unavailable: module not loaded\n" +
                           std::string(kUpHeader) + "hyperframe_up 0\n");
}

TEST(RenderPrometheusDown, KeepsTheTargetLabels) {
  std::ostringstream out;
  const std::vector<PrometheusLabel> labels{{.name = "namespace", .value = "blue"}};
  hfctl::render_prometheus_down(out, "x", labels);
  EXPECT_TRUE(out.str().ends_with("\nhyperframe_up{namespace=\"blue\"} 0\n")) << out.str();
}

TEST(RenderPrometheusExporter, OneCounterFamilyEach) {
  std::ostringstream out;
  const std::vector<PrometheusLabel> labels{{.name = "namespace", .value = "blue"}};
  hfctl::render_prometheus_exporter(out,
                                    {.connections = 7,
                                     .requests = 6,
                                     .evicted = 5,
                                     .timed_out = 4,
                                     .renders = 3,
                                     .qdisc_dumps = 2},
                                    labels);
  const std::string text = out.str();
  for (const auto& [name, value] :
       std::vector<std::pair<std::string, int>>{{"connections", 7},
                                                {"requests", 6},
                                                {"evicted_connections", 5},
                                                {"timed_out_connections", 4},
                                                {"renders", 3},
                                                {"qdisc_dumps", 2}}) {
    const std::string family = "hyperframe_exporter_" + name + "_total";
    EXPECT_TRUE(contains(text, "# HELP " + family + " ")) << family;
    EXPECT_TRUE(contains(text, "# TYPE " + family + " counter\n")) << family;
    EXPECT_TRUE(
        contains(text, "\n" + family + "{namespace=\"blue\"} " + std::to_string(value) + "\n"))
        << text;
  }
}

TEST(EscapeLabelValue, BackslashQuoteNewline) {
  EXPECT_EQ(hfctl::escape_label_value("plain"), "plain");
  EXPECT_EQ(hfctl::escape_label_value(R"(a\b"c)"), R"(a\\b\"c)");
  EXPECT_EQ(hfctl::escape_label_value("a\nb"), "a\\nb");
  EXPECT_EQ(hfctl::escape_label_value("ünï"), "ünï") << "UTF-8 passes through";
}

TEST(EscapeHelp, BackslashAndNewlineOnly) {
  EXPECT_EQ(hfctl::escape_help(R"(a\b"c)"), R"(a\\b"c)");
  EXPECT_EQ(hfctl::escape_help("a\nb"), "a\\nb");
}

// A family keeps the type and HELP it was made with, and a label set the
// value it was first given.
TEST(AddSample, FirstTypeHelpAndValueKept) {
  hfctl::PrometheusFamilies families;
  hfctl::add_sample(families, "b_total", "counter", "B.", R"({dev="y"})", "2");
  hfctl::add_sample(families, "b_total", "gauge", "Other.", R"({dev="y"})", "9");
  hfctl::add_sample(families, "b_total", "gauge", "Other.", R"({dev="x"})", "1");
  ASSERT_EQ(families.size(), 1U);
  const hfctl::PrometheusFamily& family = families.at("b_total");
  EXPECT_EQ(family.type, "counter");
  EXPECT_EQ(family.help, "B.");
  const std::map<std::string, std::string> samples{{R"({dev="x"})", "1"}, {R"({dev="y"})", "2"}};
  EXPECT_EQ(family.samples, samples);
}

// Families in order of name, each its HELP (escaped) and TYPE, then its
// samples in order of label set.
TEST(RenderFamilies, InOrderOfNameThenLabelSet) {
  hfctl::PrometheusFamilies families;
  hfctl::add_sample(families, "b_total", "counter", "B.", R"({dev="y"})", "2");
  hfctl::add_sample(families, "b_total", "counter", "B.", R"({dev="x"})", "1");
  hfctl::add_sample(families, "a", "gauge", R"(A\n)", "", "0.5");
  std::ostringstream out;
  hfctl::render_families(out, families);
  EXPECT_EQ(out.str(),
            "# HELP a A\\\\n\n# TYPE a gauge\na 0.5\n"
            "# HELP b_total B.\n# TYPE b_total counter\n"
            "b_total{dev=\"x\"} 1\nb_total{dev=\"y\"} 2\n");
}

// Every counter the kernel names (the uapi's HF_COUNTERS(), which
// kernel/hf_net.c makes its names from, and the gauges kernel/hf_genl.c
// adds) has its own HELP and type here: a gauge added to the kernel and
// not to the exporter's table fails this test instead of going out with a
// generic HELP, or typed as a counter.
TEST(Prometheus, KnowsEveryCounterTheKernelNames) {
  auto read = [](const std::string& path) {
    std::ifstream in(path);
    EXPECT_TRUE(in.good()) << path;
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  const std::string dir = HF_KERNEL_SOURCE_DIR;
  const std::string genl = read(dir + "/hf_genl.c");
  std::vector<hf::Counter> counters;
// NOLINTNEXTLINE(cppcoreguidelines-macro-usage): expands the uapi's X-macro table
#define HF_TEST_COUNTER(e, name, help) counters.push_back({#name, 1});
  HF_COUNTERS(HF_TEST_COUNTER)
#undef HF_TEST_COUNTER
  // hf_counter_put(skb, "name", ...), or since the hfq counters share it,
  // hf_genl_counter_put(skb, HF_STATS_A_COUNTER, "name", ...).
  const std::regex gauge_name(
      R"re(hf_(?:genl_)?counter_put\(skb,\s*(?:HF_STATS_A_COUNTER,\s*)?"([a-z0-9_]+)")re");
  size_t gauges = 0;
  for (std::sregex_iterator it(genl.begin(), genl.end(), gauge_name), end; it != end; ++it) {
    counters.push_back({(*it)[1].str(), 1});
    gauges++;
  }
  ASSERT_GE(counters.size(), 40U) << "the kernel's counter names were not found";
  ASSERT_EQ(4U, gauges);
  const std::string text = render(counters);
  EXPECT_FALSE(contains(text, "The kernel's counter")) << text;
  for (const char* gauge : {"peers", "rx_mem_bytes", "rx_mem_reserved_bytes", "mem_bytes"}) {
    EXPECT_TRUE(contains(text, std::string("# TYPE hyperframe_") + gauge + " gauge\n")) << gauge;
  }
}

// A count of microseconds goes out in seconds (Prometheus' base unit),
// exactly, under a name without the abbreviation.
TEST(RenderPrometheus, MicrosecondsAsSeconds) {
  const std::vector<hf::Counter> counters{{"tx_backoff_answered_us", 2500042}};
  const std::string text = render(counters);
  EXPECT_TRUE(contains(text, "hyperframe_tx_backoff_answered_seconds_total 2.500042\n")) << text;
  EXPECT_FALSE(contains(text, "_us")) << text;
  const std::string zero = render({{"tx_backoff_answered_us", 0}});
  EXPECT_TRUE(contains(zero, "hyperframe_tx_backoff_answered_seconds_total 0.000000\n")) << zero;
}

// Two hfq qdiscs as hf::Control::qdiscs() returns them, named.
std::vector<hfctl::QdiscSample> two_qdiscs() {
  hf::QdiscInfo eth0;
  eth0.ifindex = 2;
  eth0.handle = 0x80010000;
  eth0.config.rate = 2500000;
  eth0.flows = 2;
  eth0.qlen_data = 40;
  eth0.qlen_other = 1;
  eth0.backlog = 60000;
  eth0.memory = 98304;
  eth0.counters = {{"packets_control", 10},  {"packets_data", 2000},   {"packets_other", 7},
                   {"drop_limit", 0},        {"drop_flow_limit", 1},   {"drop_control_limit", 0},
                   {"drop_horizon", 2},      {"flow_alloc_failed", 0}, {"throttled", 15},
                   {"rate_delayed", 40},     {"drop_memory_limit", 3}, {"control_foreign", 4},
                   {"control_over_share", 5}};
  hf::QdiscInfo eth1 = eth0;
  eth1.ifindex = 3;
  eth1.config.rate = 0;
  eth1.counters = {{"packets_data", 5}, {"new_counter", 9}};
  return {{.dev = "eth1", .info = eth1}, {.dev = "eth0", .info = eth0}};
}

std::string render_qdiscs(const std::vector<hfctl::QdiscSample>& qdiscs,
                          const std::vector<PrometheusLabel>& labels = {}) {
  std::ostringstream out;
  hfctl::render_prometheus_qdiscs(out, qdiscs, labels);
  return out.str();
}

TEST(RenderPrometheusQdiscs, NothingWithoutQdiscs) {
  EXPECT_EQ("", render_qdiscs({}));
}

TEST(RenderPrometheusQdiscs, BandsAndReasonsAreLabelsOfOneFamily) {
  const std::string text = render_qdiscs(two_qdiscs());
  EXPECT_TRUE(contains(text,
                       "# HELP hyperframe_qdisc_packets_total Packets hfq sent, by band.\n"
                       "# TYPE hyperframe_qdisc_packets_total counter\n"
                       "hyperframe_qdisc_packets_total{band=\"control\",dev=\"eth0\"} 10\n"
                       "hyperframe_qdisc_packets_total{band=\"data\",dev=\"eth0\"} 2000\n"
                       "hyperframe_qdisc_packets_total{band=\"data\",dev=\"eth1\"} 5\n"
                       "hyperframe_qdisc_packets_total{band=\"other\",dev=\"eth0\"} 7\n"))
      << text;
  EXPECT_TRUE(
      contains(text, "hyperframe_qdisc_drops_total{dev=\"eth0\",reason=\"flow_limit\"} 1\n"))
      << text;
  EXPECT_TRUE(contains(text, "hyperframe_qdisc_drops_total{dev=\"eth0\",reason=\"horizon\"} 2\n"))
      << text;
  EXPECT_TRUE(
      contains(text, "hyperframe_qdisc_drops_total{dev=\"eth0\",reason=\"memory_limit\"} 3\n"))
      << text;
  EXPECT_TRUE(contains(text, "hyperframe_qdisc_control_foreign_total{dev=\"eth0\"} 4\n")) << text;
  EXPECT_TRUE(contains(text, "hyperframe_qdisc_control_over_share_total{dev=\"eth0\"} 5\n"))
      << text;
  EXPECT_TRUE(contains(text, "hyperframe_qdisc_throttled_total{dev=\"eth0\"} 15\n")) << text;
  EXPECT_TRUE(contains(text, "hyperframe_qdisc_rate_delayed_total{dev=\"eth0\"} 40\n")) << text;
}

TEST(RenderPrometheusQdiscs, GaugesPerDevice) {
  const std::string text = render_qdiscs(two_qdiscs());
  EXPECT_TRUE(contains(text, "# TYPE hyperframe_qdisc_queued_packets gauge\n")) << text;
  EXPECT_TRUE(contains(text, "hyperframe_qdisc_queued_packets{band=\"data\",dev=\"eth0\"} 40\n"))
      << text;
  EXPECT_TRUE(contains(text, "hyperframe_qdisc_backlog_bytes{dev=\"eth0\"} 60000\n")) << text;
  EXPECT_TRUE(contains(text, "hyperframe_qdisc_memory_bytes{dev=\"eth0\"} 98304\n")) << text;
  EXPECT_TRUE(contains(text, "hyperframe_qdisc_flows{dev=\"eth0\"} 2\n")) << text;
  EXPECT_TRUE(contains(text, "hyperframe_qdisc_rate_bytes_per_second{dev=\"eth0\"} 2500000\n"))
      << text;
  EXPECT_TRUE(contains(text, "hyperframe_qdisc_rate_bytes_per_second{dev=\"eth1\"} 0\n")) << text;
}

TEST(RenderPrometheusQdiscs, UnknownCounterGetsItsOwnFamily) {
  const std::string text = render_qdiscs(two_qdiscs());
  EXPECT_TRUE(contains(text,
                       "# HELP hyperframe_qdisc_new_counter_total The hfq counter new_counter.\n"
                       "# TYPE hyperframe_qdisc_new_counter_total counter\n"
                       "hyperframe_qdisc_new_counter_total{dev=\"eth1\"} 9\n"))
      << text;
}

TEST(RenderPrometheusQdiscs, TargetLabelsJoinAndSortWithDev) {
  const std::string text = render_qdiscs(two_qdiscs(), {{.name = "namespace", .value = "a\"b"}});
  EXPECT_TRUE(contains(text, "hyperframe_qdisc_flows{dev=\"eth0\",namespace=\"a\\\"b\"} 2\n"))
      << text;
}

// Each family's HELP and TYPE come once, before all its samples.
TEST(RenderPrometheusQdiscs, OneHeaderPerFamily) {
  const std::string text = render_qdiscs(two_qdiscs());
  const std::regex type_line(R"(# TYPE (\S+) )");
  std::vector<std::string> seen;
  for (std::sregex_iterator it(text.begin(), text.end(), type_line), end; it != end; ++it) {
    const std::string name = (*it)[1].str();
    EXPECT_EQ(seen.end(), std::find(seen.begin(), seen.end(), name)) << name;
    seen.push_back(name);
  }
  EXPECT_EQ(13U, seen.size()) << text;
}

// A histogram as the kernel reports it: bounds 1024, 2048, +Inf, counts
// per bucket (not cumulative).
hf::Histogram frame_sizes() {
  return {.buckets = {{.le = 1024, .count = 2},
                      {.le = 2048, .count = 3},
                      {.le = hf::HistogramBucket::kInfinity, .count = 1}},
          .sum = 12000};
}

std::string render_frame_size(const hf::Histogram& histogram,
                              const std::vector<PrometheusLabel>& labels = {}) {
  std::ostringstream out;
  hfctl::render_prometheus_frame_size(out, histogram, labels);
  return out.str();
}

TEST(RenderPrometheusFrameSize, CumulativeBucketsSumAndCount) {
  EXPECT_EQ(render_frame_size(frame_sizes()),
            "# HELP hyperframe_tx_frame_size_bytes Hyperframes sent, by payload bytes (counted "
            "when the frame starts).\n"
            "# TYPE hyperframe_tx_frame_size_bytes histogram\n"
            "hyperframe_tx_frame_size_bytes_bucket{le=\"1024\"} 2\n"
            "hyperframe_tx_frame_size_bytes_bucket{le=\"2048\"} 5\n"
            "hyperframe_tx_frame_size_bytes_bucket{le=\"+Inf\"} 6\n"
            "hyperframe_tx_frame_size_bytes_sum 12000\n"
            "hyperframe_tx_frame_size_bytes_count 6\n");
}

TEST(RenderPrometheusFrameSize, InfAddedWhenTheKernelHasNone) {
  hf::Histogram histogram = frame_sizes();
  histogram.buckets.pop_back();
  const std::string text = render_frame_size(histogram);
  EXPECT_TRUE(contains(text, "hyperframe_tx_frame_size_bytes_bucket{le=\"+Inf\"} 5\n")) << text;
  EXPECT_TRUE(contains(text, "hyperframe_tx_frame_size_bytes_count 5\n")) << text;
}

TEST(RenderPrometheusFrameSize, NothingWithoutBuckets) {
  EXPECT_EQ("", render_frame_size({}));
}

TEST(RenderPrometheusFrameSize, TargetLabelsSortWithLe) {
  const std::string text = render_frame_size(frame_sizes(), {{.name = "namespace", .value = "a"}});
  EXPECT_TRUE(
      contains(text, "hyperframe_tx_frame_size_bytes_bucket{le=\"1024\",namespace=\"a\"} 2\n"))
      << text;
  EXPECT_TRUE(contains(text, "hyperframe_tx_frame_size_bytes_sum{namespace=\"a\"} 12000\n"))
      << text;
}

std::string render_devices(const std::vector<hfctl::DeviceSample>& devices,
                           const std::vector<PrometheusLabel>& labels = {}) {
  std::ostringstream out;
  hfctl::render_prometheus_devices(out, devices, labels);
  return out.str();
}

TEST(RenderPrometheusDevices, NothingWithoutDevices) {
  EXPECT_EQ("", render_devices({}));
}

TEST(RenderPrometheusDevices, OneFamilyPerCounterLabelledByDev) {
  const std::string text =
      render_devices({{.dev = "eth1", .counters = {{"tx_segs", 5}, {"drops", 1}}},
                      {.dev = "eth0", .counters = {{"tx_segs", 7}, {"drops", 0}}}},
                     {{.name = "namespace", .value = "n"}});
  EXPECT_TRUE(contains(text,
                       "# HELP hyperframe_dev_drops_total Frames received on the device and "
                       "dropped (any reason).\n"
                       "# TYPE hyperframe_dev_drops_total counter\n"
                       "hyperframe_dev_drops_total{dev=\"eth0\",namespace=\"n\"} 0\n"
                       "hyperframe_dev_drops_total{dev=\"eth1\",namespace=\"n\"} 1\n"))
      << text;
  EXPECT_TRUE(contains(text, "hyperframe_dev_tx_segs_total{dev=\"eth0\",namespace=\"n\"} 7\n"))
      << text;
}

TEST(RenderPrometheusDevices, UnknownCounterGetsAGenericHelp) {
  const std::string text = render_devices({{.dev = "other", .counters = {{"new_one", 3}}}});
  EXPECT_TRUE(contains(text,
                       "# HELP hyperframe_dev_new_one_total The device counter new_one.\n"
                       "# TYPE hyperframe_dev_new_one_total counter\n"
                       "hyperframe_dev_new_one_total{dev=\"other\"} 3\n"))
      << text;
}

}  // namespace
