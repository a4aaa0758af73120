// tests/lib/qdisc_test.cc - unit tests of lib/qdisc.cc that need no kernel:
// the table of hfq's settings, which hfctl parses, sends and prints by.
#include "hyperframe/qdisc.h"

#include <linux/hyperframe.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "hyperframe/control.h"

namespace {

TEST(QdiscParams, EveryWritableAttributeOnceInItsOrder) {
  std::vector<int> attributes;
  std::set<std::string_view> names;
  std::vector<std::optional<std::uint64_t> hf::QdiscConfig::*> members;
  for (const hf::QdiscParam& param : hf::qdisc_params()) {
    SCOPED_TRACE(param.name);
    attributes.push_back(param.attribute);
    EXPECT_TRUE(names.insert(param.name).second);
    EXPECT_TRUE(param.name == param.json_name || names.insert(param.json_name).second);
    EXPECT_EQ(std::count(members.begin(), members.end(), param.member), 0)
        << "two settings in one field";
    members.push_back(param.member);
    EXPECT_FALSE(param.help.empty());
    EXPECT_EQ(hf::find_qdisc_param(param.name), &param);
    EXPECT_EQ(hf::find_qdisc_param(param.json_name), &param);
  }
  EXPECT_EQ(attributes,
            (std::vector<int>{HF_QDISC_A_RATE, HF_QDISC_A_LIMIT, HF_QDISC_A_FLOW_LIMIT,
                              HF_QDISC_A_CONTROL_LIMIT, HF_QDISC_A_QUANTUM, HF_QDISC_A_OTHER_SHARE,
                              HF_QDISC_A_HORIZON_MS, HF_QDISC_A_MEMORY_LIMIT}));
  EXPECT_EQ(hf::find_qdisc_param("handle"), nullptr) << "read-only";
  EXPECT_EQ(hf::find_qdisc_param("dev"), nullptr);
}

TEST(QdiscParams, OnlyTheRateIs64Bit) {
  for (const hf::QdiscParam& param : hf::qdisc_params()) {
    EXPECT_EQ(param.max, param.attribute == HF_QDISC_A_RATE
                             ? std::numeric_limits<std::uint64_t>::max()
                             : std::numeric_limits<std::uint32_t>::max())
        << param.name;
  }
}

TEST(QdiscParams, UnitsAndSpellings) {
  const auto unit = [](std::string_view name) { return hf::find_qdisc_param(name)->unit; };
  EXPECT_EQ(unit("rate"), hf::Unit::bytes_per_s);
  EXPECT_EQ(unit("limit"), hf::Unit::packets);
  EXPECT_EQ(unit("flow_limit"), hf::Unit::packets);
  EXPECT_EQ(unit("control_limit"), hf::Unit::packets);
  EXPECT_EQ(unit("quantum"), hf::Unit::bytes);
  EXPECT_EQ(unit("other_share"), hf::Unit::percent);
  EXPECT_EQ(unit("horizon"), hf::Unit::msecs);
  EXPECT_EQ(hf::find_qdisc_param("horizon_ms"), hf::find_qdisc_param("horizon"));
}

TEST(QdiscParams, MembersAreTheNamedFields) {
  hf::QdiscConfig config;
  config.*hf::find_qdisc_param("rate")->member = 1;
  config.*hf::find_qdisc_param("horizon")->member = 2;
  EXPECT_EQ(config.rate, 1U);
  EXPECT_EQ(config.horizon_ms, 2U);
  EXPECT_EQ(config.limit, std::nullopt);
}

TEST(HfqKind, IsWhatTheModuleRegisters) {
  EXPECT_EQ(hf::kHfqKind, "hfq");
}

}  // namespace
