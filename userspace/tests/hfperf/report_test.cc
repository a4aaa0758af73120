// tests/hfperf/report_test.cc - the table and the JSON of a run.
#include "report.h"

#include <sstream>

#include <gtest/gtest.h>

namespace hfperf {
namespace {

Report pair_report() {
  Report r;
  r.mode = "pair";
  r.transport = "hf";
  r.peer = "02:00:00:00:00:02";
  Measurement m;
  m.size = 65536;
  m.messages = 16;
  m.bytes = 1 << 20;
  m.bytes_asked = 1 << 20;
  m.sent = 16;
  m.seconds = 0.5;
  m.latency = summarize({0.001, 0.002, 0.003});
  m.usage.self_cpu = 0.25;
  m.usage.system_cpu = 0.5;
  m.usage.tx_packets = 700;
  m.usage.rx_packets = 20;
  r.sizes.push_back(m);
  r.server_bytes = 1 << 20;
  r.server_messages = 16;
  return r;
}

std::string json_of(const Report& r) {
  std::ostringstream out;
  write_json(out, r);
  return out.str();
}

TEST(format_rate, units) {
  EXPECT_EQ(format_rate(9.41e9), "9.41 Gbit/s");
  EXPECT_EQ(format_rate(812e6), "812.0 Mbit/s");
  EXPECT_EQ(format_rate(1500), "1.5 kbit/s");
  EXPECT_EQ(format_rate(0), "0 bit/s");
}

TEST(format_seconds, units) {
  EXPECT_EQ(format_seconds(12.5e-6), "12.5us");
  EXPECT_EQ(format_seconds(3.2e-3), "3.20ms");
  EXPECT_EQ(format_seconds(1.5), "1.50s");
}

TEST(write_json, pair) {
  const std::string json = json_of(pair_report());
  EXPECT_EQ(json.back(), '\n');
  EXPECT_NE(json.find(R"("mode":"pair")"), std::string::npos);
  EXPECT_NE(json.find(R"("size":65536)"), std::string::npos);
  EXPECT_NE(json.find(R"("bytes":1048576)"), std::string::npos);
  EXPECT_NE(json.find(R"("goodput_bps":16777216)"), std::string::npos);
  EXPECT_NE(json.find(R"("msg_rate":32)"), std::string::npos);
  EXPECT_NE(json.find(R"("p50":2000)"), std::string::npos);
  EXPECT_NE(json.find(R"("tx_packets_per_mib":700)"), std::string::npos);
  EXPECT_NE(json.find(R"("server_bytes":1048576)"), std::string::npos);
  EXPECT_EQ(json.find("alltoall"), std::string::npos);
}

TEST(write_json, alltoall_and_flows) {
  Report r;
  r.mode = "a2a";
  r.transport = "tcp";
  Rounds rounds;
  rounds.nodes = 3;
  rounds.rounds_asked = 2;
  rounds.rounds_done = 2;
  rounds.round_seconds = {0.001, 0.003};
  rounds.round = summarize(rounds.round_seconds);
  r.rounds = rounds;
  r.flows.push_back({.id = 1, .bytes = 300, .messages = 3, .first_bytes = 200, .seconds = 1});
  r.jain = 1.0;
  const std::string json = json_of(r);
  EXPECT_NE(json.find(R"("rounds_done":2)"), std::string::npos);
  EXPECT_NE(json.find(R"("rounds_us":[1000,3000])"), std::string::npos);
  EXPECT_NE(json.find(R"("jain":1)"), std::string::npos);
  EXPECT_NE(json.find(R"("goodput_bps":800)"), std::string::npos);
}

// The server's clock starts when the first message has arrived: its bytes
// are not part of the goodput (a flow of 2 messages read as twice its rate).
TEST(write_json, flow_goodput_leaves_out_the_first_message) {
  Report r;
  r.mode = "server";
  r.transport = "hf";
  r.flows.push_back({.id = 1, .bytes = 1000, .messages = 2, .first_bytes = 500, .seconds = 1});
  r.flows.push_back({.id = 2, .bytes = 100, .messages = 1, .first_bytes = 100, .seconds = 0});
  EXPECT_DOUBLE_EQ(flow_goodput(r.flows[0]), 4000);
  EXPECT_DOUBLE_EQ(flow_goodput(r.flows[1]), 0);
  const std::string json = json_of(r);
  EXPECT_NE(json.find(R"("first_bytes":500,"seconds":1,"goodput_bps":4000)"), std::string::npos);
}

TEST(render_table, pair) {
  const std::string table = render_table(pair_report());
  EXPECT_NE(table.find("hfperf pair over hf to 02:00:00:00:00:02"), std::string::npos);
  EXPECT_NE(table.find("64k"), std::string::npos);
  EXPECT_NE(table.find("16.8 Mbit/s"), std::string::npos);
  EXPECT_NE(table.find("2.00ms"), std::string::npos);
  EXPECT_NE(table.find("receiver counted 1m in 16 messages"), std::string::npos);
}

TEST(render_table, mixed_and_flows) {
  Report r;
  r.mode = "mixed";
  r.transport = "tcp";
  r.rtt = summarize({50e-6, 60e-6});
  r.flows.push_back({.id = 0xab, .bytes = 1000, .messages = 2, .first_bytes = 500, .seconds = 1});
  r.jain = 0.5;
  const std::string table = render_table(r);
  EXPECT_NE(table.find("ping-pong under load: 2 round trips, p50 50.0us"), std::string::npos);
  EXPECT_NE(table.find("Jain's fairness index 0.500"), std::string::npos);
  EXPECT_NE(table.find("ab"), std::string::npos);
}

}  // namespace
}  // namespace hfperf
