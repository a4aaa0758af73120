// tests/hfctl/settings_test.cc - unit tests of hfctl/settings.cc: "config
// set" arguments, and the messages for refusals.
#include "settings.h"

#include <linux/hyperframe.h>

#include <cerrno>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli.h"

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

}  // namespace
