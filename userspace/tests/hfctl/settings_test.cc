// tests/hfctl/settings_test.cc - unit tests of hfctl/cli/settings.cc: "config
// set" and "qdisc" arguments, and the messages for refusals.
#include "cli/settings.h"

#include <linux/hyperframe.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/cli.h"

namespace {

using hfctl::parse_config_changes;
using hfctl::UsageError;

std::vector<hf::ConfigValue> parse(const std::vector<std::string>& args) {
  return parse_config_changes(args);
}

// The message parse() throws, or "" if it does not.
std::string refusal(const std::vector<std::string>& args) {
  try {
    static_cast<void>(parse(args));
  } catch (const UsageError& error) {
    EXPECT_EQ(error.hint(), "hfctl config help");
    return error.what();
  }
  return "";
}

const hf::ConfigKey& key(std::string_view name) {
  const hf::ConfigKey* found = hf::find_config_key(name);
  EXPECT_NE(found, nullptr) << name;
  return *found;
}

TEST(ConfigKeys, NamesAreUniqueAndFoundBothWays) {
  for (const hf::ConfigKey& k : hf::config_keys()) {
    EXPECT_EQ(hf::find_config_key(k.name), &k);
    EXPECT_EQ(hf::find_config_key(k.json_name), &k);
  }
  EXPECT_EQ(hf::find_config_key("nope"), nullptr);
  EXPECT_FALSE(key("ethertype").writable);
  EXPECT_FALSE(key("rto_granularity").writable);
  EXPECT_TRUE(key("ack_delay").writable);
}

// The keys come from the uapi's HF_CONFIG_KEYS(): one per attribute of the
// family's CONFIG commands, each with the width the kernel puts it in.
TEST(ConfigKeys, OnePerAttributeWithItsWidth) {
  std::vector<int> attributes;
  for (const hf::ConfigKey& k : hf::config_keys()) {
    attributes.push_back(k.attribute);
  }
  std::sort(attributes.begin(), attributes.end());
  std::vector<int> every;
  for (int attribute = HF_CONFIG_A_ETHERTYPE; attribute <= HF_CONFIG_A_MAX; ++attribute) {
    every.push_back(attribute);
  }
  EXPECT_EQ(attributes, every);
  EXPECT_TRUE(hf::config_key_is_u64(key("mem_limit")));
  EXPECT_FALSE(hf::config_key_is_u64(key("ethertype")));
  EXPECT_FALSE(hf::config_key_is_u64(key("retry_limit")));
  EXPECT_EQ(key("frame_max").json_name, "frame_max_bytes");
  EXPECT_EQ(key("peer_idle").unit, hf::Unit::msecs);
}

TEST(ParseConfigChanges, TakesPairsInHumanUnits) {
  const auto changes =
      parse({"ack_delay", "250us", "mem_limit", "1g", "peer_idle", "10s", "max_inflight", "64"});
  ASSERT_EQ(changes.size(), 4U);
  EXPECT_EQ(changes[0], (hf::ConfigValue{&key("ack_delay"), 250}));
  EXPECT_EQ(changes[1], (hf::ConfigValue{&key("mem_limit"), 1073741824}));
  EXPECT_EQ(changes[2], (hf::ConfigValue{&key("peer_idle"), 10000}));
  EXPECT_EQ(changes[3], (hf::ConfigValue{&key("max_inflight"), 64}));
}

TEST(ParseConfigChanges, TakesTheJsonSpellingToo) {
  const auto changes = parse({"ack_delay_us", "300"});
  ASSERT_EQ(changes.size(), 1U);
  EXPECT_EQ(changes[0], (hf::ConfigValue{&key("ack_delay"), 300}));
}

TEST(ParseConfigChanges, RefusesBadCommandLines) {
  EXPECT_NE(refusal({}).find("missing KEY VALUE"), std::string::npos);
  EXPECT_NE(refusal({"ack_delay"}).find("missing VALUE for \"ack_delay\""), std::string::npos);
  const std::string unknown = refusal({"frobs", "1"});
  EXPECT_NE(unknown.find("unknown config key \"frobs\""), std::string::npos);
  EXPECT_NE(unknown.find("max_inflight"), std::string::npos) << "lists the keys: " << unknown;
  EXPECT_NE(refusal({"ethertype", "1"}).find("ethertype is read-only"), std::string::npos);
  EXPECT_NE(refusal({"max_msg", "1m", "max_msg", "2m"}).find("given more than once"),
            std::string::npos);
  EXPECT_NE(refusal({"ack_delay", "fast"}).find("bad value \"fast\" for ack_delay"),
            std::string::npos);
  EXPECT_NE(refusal({"peer_idle", "1500us"}).find("whole number of ms"), std::string::npos);
  EXPECT_NE(refusal({"max_peers", "4294967296"}).find("above 4294967295"), std::string::npos);
  EXPECT_EQ(refusal({"mem_limit", "4294967296"}), "");
  EXPECT_EQ(refusal({"pacing_rate", "1tbit"}), "") << "125e9 bytes/s: the kernel's range";
  EXPECT_NE(refusal({"pacing_rate", "1000"}).find("with its unit"), std::string::npos);
}

TEST(ParseConfigChanges, PacingRateInRateUnits) {
  const auto changes = parse({"pacing_rate", "100mbit"});
  ASSERT_EQ(changes.size(), 1U);
  EXPECT_EQ(changes[0], (hf::ConfigValue{&key("pacing_rate"), 12500000}));
  EXPECT_TRUE(hf::config_key_is_u64(key("pacing_rate")));
  EXPECT_FALSE(hf::config_key_is_u64(key("max_inflight")));
}

TEST(DescribeSetError, NamesTheKeyAndRangeInItsUnits) {
  const auto changes = parse({"max_msg", "2g", "ack_delay", "2s"});
  const hf::ControlError error(std::error_code(ERANGE, std::generic_category()),
                               "changing the configuration", "integer out of range",
                               HF_CONFIG_A_ACK_DELAY_US, hf::ValueRange{0, 1000000});
  EXPECT_EQ(hfctl::describe_set_error(error, changes),
            "bad value 2s for ack_delay: accepted range 0us..1s");
}

TEST(DescribeSetError, FallsBackToTheKernelsMessage) {
  const auto changes = parse({"rto_min", "30ms"});
  const hf::ControlError error(std::error_code(EINVAL, std::generic_category()),
                               "changing the configuration", "rto_min_us <= ... does not hold",
                               std::nullopt, std::nullopt);
  EXPECT_EQ(hfctl::describe_set_error(error, changes), error.what());
  EXPECT_NE(std::string(error.what()).find("does not hold"), std::string::npos);
}

TEST(DescribeSetError, SaysWhatPermissionIsMissing) {
  const auto changes = parse({"max_peers", "10"});
  const hf::ControlError error(std::error_code(EPERM, std::generic_category()),
                               "changing the configuration", "", std::nullopt, std::nullopt);
  const std::string message = hfctl::describe_set_error(error, changes);
  EXPECT_NE(message.find("CAP_NET_ADMIN"), std::string::npos) << message;
  EXPECT_NE(message.find("Operation not permitted"), std::string::npos) << message;
}

TEST(DescribeSetError, QuotesTheKernelOnALimitAboveTheInitialNamespace) {
  const auto changes = parse({"mem_limit", "1g"});
  const hf::ControlError error(std::error_code(EPERM, std::generic_category()),
                               "changing the configuration",
                               "mem_limit above the initial namespace's needs CAP_NET_ADMIN there",
                               std::nullopt, std::nullopt);
  EXPECT_EQ(hfctl::describe_set_error(error, changes),
            "changing the configuration: mem_limit above the initial namespace's needs "
            "CAP_NET_ADMIN there: Operation not permitted");
}

using hfctl::QdiscArgs;
using hfctl::QdiscCommand;

QdiscArgs qdisc_args(QdiscCommand command, const std::vector<std::string>& args) {
  return hfctl::parse_qdisc_args(command, args);
}

// The message parse_qdisc_args() throws, or "" if it does not.
std::string qdisc_refusal(QdiscCommand command, const std::vector<std::string>& args) {
  try {
    static_cast<void>(qdisc_args(command, args));
  } catch (const UsageError& error) {
    EXPECT_EQ(error.hint(), "hfctl qdisc help");
    return error.what();
  }
  return "";
}

// The value `param` comes to, given as `text` to "qdisc set".
std::optional<std::uint64_t> qdisc_value(const std::string& param, const std::string& text) {
  const hf::QdiscParam* found = hf::find_qdisc_param(param);
  EXPECT_NE(found, nullptr) << param;
  return qdisc_args(QdiscCommand::set, {"dev", "eth0", param, text}).config.*found->member;
}

TEST(ParseQdiscArgs, EveryParameterInItsUnits) {
  const QdiscArgs args = qdisc_args(
      QdiscCommand::set,
      {"dev", "veth0", "rate", "100mbit", "limit", "10000", "flow_limit", "1000", "control_limit",
       "1000p", "quantum", "3028", "other_share", "10%", "horizon", "10s", "memory_limit", "32m"});
  EXPECT_EQ(args.dev, "veth0");
  const hf::QdiscConfig expected{.rate = 12500000,
                                 .limit = 10000,
                                 .flow_limit = 1000,
                                 .control_limit = 1000,
                                 .quantum = 3028,
                                 .other_share = 10,
                                 .horizon_ms = 10000,
                                 .memory_limit = 32U << 20};
  EXPECT_EQ(args.config, expected);
}

TEST(ParseQdiscArgs, RateInBitsOrBytesPerSecond) {
  EXPECT_EQ(qdisc_value("rate", "100mbit"), 12500000U);
  EXPECT_EQ(qdisc_value("rate", "10gbit"), 1250000000U);
  EXPECT_EQ(qdisc_value("rate", "10Gbit"), 1250000000U);
  EXPECT_EQ(qdisc_value("rate", "1gbps"), 1000000000U) << "bps: bytes";
  EXPECT_EQ(qdisc_value("rate", "0"), 0U) << "unpaced";
  EXPECT_EQ(qdisc_value("rate", "40tbit"), 5000000000000U) << "beyond 32 bits";
}

TEST(ParseQdiscArgs, SizesTimesAndPercentages) {
  EXPECT_EQ(qdisc_value("quantum", "64k"), 65536U);
  EXPECT_EQ(qdisc_value("quantum", "3028b"), 3028U);
  EXPECT_EQ(qdisc_value("horizon", "500ms"), 500U);
  EXPECT_EQ(qdisc_value("horizon", "2s"), 2000U);
  EXPECT_EQ(qdisc_value("horizon", "250"), 250U) << "a bare number is ms";
  EXPECT_EQ(qdisc_value("horizon_ms", "250"), 250U);
  EXPECT_EQ(qdisc_value("other_share", "10"), 10U);
  EXPECT_EQ(qdisc_value("other_share", "25%"), 25U);
  EXPECT_EQ(qdisc_value("limit", "4294967295"), 4294967295U);
  EXPECT_EQ(qdisc_value("memory_limit", "64k"), 65536U);
  EXPECT_EQ(qdisc_value("memory_limit", "1g"), 1U << 30);
}

TEST(ParseQdiscArgs, DevMayStandAnywhere) {
  const QdiscArgs args =
      qdisc_args(QdiscCommand::attach, {"rate", "1gbit", "dev", "eth1", "quantum", "64k"});
  EXPECT_EQ(args.dev, "eth1");
  EXPECT_EQ(args.config.rate, 125000000U);
  EXPECT_EQ(args.config.quantum, 65536U);
  EXPECT_EQ(args.config.limit, std::nullopt);
}

TEST(ParseQdiscArgs, WhatEachCommandTakes) {
  EXPECT_EQ(qdisc_args(QdiscCommand::show, {}), QdiscArgs{});
  EXPECT_EQ(qdisc_args(QdiscCommand::show, {"dev", "lo"}).dev, "lo");
  EXPECT_EQ(qdisc_args(QdiscCommand::attach, {"dev", "lo"}),
            (QdiscArgs{.dev = "lo", .config = {}}));
  EXPECT_EQ(qdisc_args(QdiscCommand::detach, {"dev", "lo"}).dev, "lo");
  EXPECT_EQ(qdisc_args(QdiscCommand::show, {"dev", ""}).dev, "") << "looked up, not dropped";
}

TEST(ParseQdiscArgs, RefusesBadCommandLines) {
  EXPECT_EQ(qdisc_refusal(QdiscCommand::set, {"rate", "1gbit"}), "qdisc set: missing dev DEV");
  EXPECT_EQ(qdisc_refusal(QdiscCommand::attach, {}), "qdisc attach: missing dev DEV");
  EXPECT_EQ(qdisc_refusal(QdiscCommand::detach, {}), "qdisc detach: missing dev DEV");
  EXPECT_EQ(qdisc_refusal(QdiscCommand::set, {"dev", "eth0"}),
            "qdisc set: missing PARAM VALUE; parameters: rate, limit, flow_limit, "
            "control_limit, quantum, other_share, horizon, memory_limit");
  EXPECT_EQ(qdisc_refusal(QdiscCommand::set, {"dev"}), R"(qdisc set: missing DEV after "dev")");
  EXPECT_EQ(qdisc_refusal(QdiscCommand::set, {"dev", "eth0", "rate"}),
            R"(qdisc set: missing VALUE after "rate")");
  EXPECT_EQ(qdisc_refusal(QdiscCommand::set, {"dev", "eth0", "speed", "1"}),
            R"(qdisc set: unknown parameter "speed"; parameters: rate, limit, flow_limit, )"
            R"(control_limit, quantum, other_share, horizon, memory_limit)");
  EXPECT_EQ(qdisc_refusal(QdiscCommand::set, {"dev", "eth0", "handle", "1"})
                .rfind(R"(qdisc set: unknown parameter "handle")", 0),
            0U)
      << "read-only";
  EXPECT_EQ(qdisc_refusal(QdiscCommand::show, {"rate", "1gbit"}),
            R"(qdisc show: unexpected argument "rate" (it takes only dev DEV))");
  EXPECT_EQ(qdisc_refusal(QdiscCommand::detach, {"dev", "eth0", "limit", "1"}),
            R"(qdisc detach: unexpected argument "limit" (it takes only dev DEV))");
  EXPECT_EQ(qdisc_refusal(QdiscCommand::set, {"dev", "a", "limit", "1", "dev", "b"}),
            "qdisc set: dev given more than once");
  EXPECT_EQ(qdisc_refusal(QdiscCommand::set, {"dev", "a", "limit", "1", "limit", "2"}),
            "qdisc set: limit given more than once");
  EXPECT_EQ(qdisc_refusal(QdiscCommand::set, {"dev", "a", "horizon", "1", "horizon_ms", "2"}),
            "qdisc set: horizon given more than once");
}

TEST(ParseQdiscArgs, RefusesValuesNotInTheUnits) {
  const auto bad = [](const std::string& param, const std::string& text) {
    return qdisc_refusal(QdiscCommand::set, {"dev", "eth0", param, text});
  };
  EXPECT_EQ(bad("rate", "fast"),
            R"(bad value "fast" for rate: expected a rate with its unit, in whole bytes/s )"
            "(kbit, mbit, gbit, tbit: 1000-based bit/s; kbps, mbps, gbps: bytes/s), or 0");
  EXPECT_NE(bad("rate", "1000").find("expected a rate with its unit"), std::string::npos)
      << "a bare rate is ambiguous";
  EXPECT_NE(bad("rate", "12bit").find("whole bytes/s"), std::string::npos);
  EXPECT_EQ(bad("limit", "1k"), R"(bad value "1k" for limit: expected a whole number of packets)");
  EXPECT_EQ(bad("flow_limit", "-1"),
            R"(bad value "-1" for flow_limit: expected a whole number of packets)");
  EXPECT_EQ(bad("control_limit", "4294967296"),
            R"(bad value "4294967296" for control_limit: above 4294967295)");
  EXPECT_EQ(bad("quantum", "1ms"),
            R"(bad value "1ms" for quantum: expected a size in bytes (suffixes k, m, g: )"
            "1024-based)");
  EXPECT_EQ(bad("quantum", "4g"), R"(bad value "4g" for quantum: above 4294967295)");
  EXPECT_EQ(bad("other_share", "ten"),
            R"(bad value "ten" for other_share: expected a whole percentage (10 or 10%))");
  EXPECT_EQ(bad("horizon", "1500us"),
            R"(bad value "1500us" for horizon: expected a whole number of ms (suffixes ms, s))");
  EXPECT_EQ(bad("horizon", "10m"),
            R"(bad value "10m" for horizon: expected a whole number of ms (suffixes ms, s))");
}

hf::ControlError kernel_error(int code, std::string extack = "",
                              std::optional<int> attribute = std::nullopt,
                              std::optional<hf::ValueRange> range = std::nullopt) {
  return {std::error_code(code, std::generic_category()), "changing the hfq qdisc",
          std::move(extack), attribute, range};
}

TEST(DescribeQdiscError, NamesTheDeviceAndWhatToDo) {
  EXPECT_EQ(hfctl::describe_qdisc_error(kernel_error(ENODEV), "veth9"),
            R"(cannot find device "veth9")");
  EXPECT_EQ(hfctl::describe_qdisc_error(kernel_error(ENOENT), "veth0"),
            "no hfq qdisc at the root of veth0 (attach one with: hfctl qdisc attach dev veth0)");
  EXPECT_EQ(hfctl::describe_qdisc_error(kernel_error(EPERM), "veth0"),
            "changing qdiscs needs CAP_NET_ADMIN over the network namespace (run as root): "
            "Operation not permitted");
}

TEST(DescribeQdiscError, NamesTheParameterAndRangeInItsUnits) {
  const hf::QdiscConfig changes =
      qdisc_args(QdiscCommand::set, {"dev", "eth0", "other_share", "100", "quantum", "128"}).config;
  EXPECT_EQ(hfctl::describe_qdisc_error(
                kernel_error(ERANGE, "integer out of range", HF_QDISC_A_OTHER_SHARE, {{1, 99}}),
                "eth0", changes),
            "bad value 100% for other_share: accepted range 1%..99%");
  EXPECT_EQ(
      hfctl::describe_qdisc_error(
          kernel_error(EINVAL, "quantum below 256 bytes", HF_QDISC_A_QUANTUM), "eth0", changes),
      "bad value 128 for quantum: quantum below 256 bytes");
}

TEST(DescribeQdiscError, ARefusedRateSaysZeroIsUnpaced) {
  const hf::QdiscConfig changes =
      qdisc_args(QdiscCommand::set, {"dev", "eth0", "rate", "8bit", "memory_limit", "1k"}).config;
  EXPECT_EQ(hfctl::describe_qdisc_error(
                kernel_error(ERANGE, "rate must be 0 (unpaced) or 500 kbit/s to 10 Tbit/s",
                             HF_QDISC_A_RATE, {{62500, 1250000000000}}),
                "eth0", changes),
            "bad value 8bit for rate: accepted range 500Kbit..10Tbit (or 0: unpaced)");
  EXPECT_EQ(hfctl::describe_qdisc_error(kernel_error(ERANGE, "integer out of range",
                                                     HF_QDISC_A_MEMORY_LIMIT, {{65536, 1U << 30}}),
                                        "eth0", changes),
            "bad value 1k for memory_limit: accepted range 64k..1g");
}

TEST(DescribeQdiscError, FallsBackToTheKernelsMessage) {
  const hf::ControlError blamed_other =
      kernel_error(EINVAL, "flow_limit above limit", HF_QDISC_A_LIMIT);
  EXPECT_EQ(hfctl::describe_qdisc_error(blamed_other, "eth0", {}), blamed_other.what())
      << "the blamed attribute was not among the changes";
  const hf::ControlError unblamed = kernel_error(EBUSY, "device busy");
  EXPECT_EQ(hfctl::describe_qdisc_error(unblamed, "eth0"), unblamed.what());
  EXPECT_NE(std::string(unblamed.what()).find("changing the hfq qdisc: device busy"),
            std::string::npos);
}

}  // namespace
