// tests/hfperf/cpu_test.cc - /proc/stat parsing and snapshot arithmetic.
#include "cpu.h"

#include <gtest/gtest.h>

namespace hfperf {
namespace {

TEST(parse_proc_stat, aggregate_line) {
  const auto cpu = parse_proc_stat(
      "cpu  100 10 50 1000 20 5 5 10 0 0\ncpu0 50 5 25 500 10 2 2 5 0 0\nintr 1\n", 100);
  ASSERT_TRUE(cpu.has_value());
  EXPECT_DOUBLE_EQ(cpu->busy, 1.8);    // 100+10+50+5+5+10 = 180 ticks
  EXPECT_DOUBLE_EQ(cpu->total, 12.0);  // + 1000 + 20
}

TEST(parse_proc_stat, missing) {
  EXPECT_FALSE(parse_proc_stat("cpu0 1 2 3\n", 100).has_value());
  EXPECT_FALSE(parse_proc_stat("", 100).has_value());
}

TEST(snapshot_difference, counters) {
  Snapshot before;
  before.self_cpu = 1;
  before.system.busy = 10;
  before.tx_packets = 100;
  before.rx_packets = 50;
  Snapshot after = before;
  after.self_cpu = 1.5;
  after.system.busy = 12;
  after.tx_packets = 160;
  after.rx_packets = 55;
  const Usage u = after - before;
  EXPECT_DOUBLE_EQ(u.self_cpu, 0.5);
  EXPECT_DOUBLE_EQ(u.system_cpu, 2);
  EXPECT_EQ(u.tx_packets, 60U);
  EXPECT_EQ(u.rx_packets, 5U);
  Snapshot no_device;
  EXPECT_FALSE((no_device - no_device).tx_packets.has_value());
}

TEST(take_snapshot, own_cpu_and_loopback) {
  const Snapshot snap = take_snapshot("lo");
  EXPECT_GE(snap.self_cpu, 0);
  EXPECT_GT(snap.system.total, 0);
  EXPECT_TRUE(snap.tx_packets.has_value());
  EXPECT_FALSE(take_snapshot("").tx_packets.has_value());
}

}  // namespace
}  // namespace hfperf
