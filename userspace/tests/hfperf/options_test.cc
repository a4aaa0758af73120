// tests/hfperf/options_test.cc - hfperf's command line.
#include "options.h"

#include <stdexcept>

#include <gtest/gtest.h>

namespace hfperf {
namespace {

Config parse(std::vector<std::string> args) {
  args.insert(args.begin(), "hfperf");
  const Parsed parsed = parse_command_line(args);
  EXPECT_TRUE(parsed.config.has_value());
  return parsed.config.value_or(Config{});
}

TEST(parse_sizes, units) {
  EXPECT_EQ(parse_sizes("4k,64k,1m,64m"),
            (std::vector<std::uint64_t>{4096, 65536, 1048576, 67108864}));
  EXPECT_EQ(parse_sizes("100"), (std::vector<std::uint64_t>{100}));
  EXPECT_THROW((void)parse_sizes(""), std::invalid_argument);
  EXPECT_THROW((void)parse_sizes("4x"), std::invalid_argument);
}

TEST(split_list, drops_empty) {
  EXPECT_EQ(split_list("a,,b,"), (std::vector<std::string>{"a", "b"}));
}

TEST(auto_window, bounds) {
  EXPECT_EQ(auto_window(64), 1024U);
  EXPECT_EQ(auto_window(1 << 20), 16U);
  EXPECT_EQ(auto_window(64 << 20), 2U);
}

TEST(parse_command_line, pair) {
  const Config c = parse({"pair", "-t", "tcp", "--peer", "198.18.0.2", "--sizes", "4k,1m",
                          "--bytes", "8m", "-j", "--port", "7000"});
  EXPECT_EQ(c.mode, Mode::pair);
  EXPECT_EQ(c.transport, Kind::tcp);
  EXPECT_EQ(c.peer, "198.18.0.2");
  EXPECT_EQ(c.sizes, (std::vector<std::uint64_t>{4096, 1048576}));
  EXPECT_EQ(c.bytes, 8U << 20);
  EXPECT_TRUE(c.json);
  EXPECT_EQ(c.port, 7000);
}

TEST(parse_command_line, mixed_defaults) {
  const Config c = parse({"mixed", "-t", "hf", "-d", "eth0", "--peer", "02:00:00:00:00:01"});
  EXPECT_EQ(c.sizes, (std::vector<std::uint64_t>{1 << 20}));
  EXPECT_EQ(c.duration, std::chrono::seconds(2));
  EXPECT_EQ(c.ping_size, 64U);
}

TEST(parse_command_line, alltoall) {
  const Config c = parse({"a2a", "-t", "tcp", "--rank", "1", "--nodes", "a,b,c", "--bytes", "256k",
                          "--rounds", "5", "--duration", "250ms"});
  EXPECT_EQ(c.mode, Mode::alltoall);
  EXPECT_EQ(c.rank, 1U);
  EXPECT_EQ(c.nodes.size(), 3U);
  EXPECT_EQ(c.bytes, 256U << 10);
  EXPECT_EQ(c.rounds, 5U);
}

TEST(parse_command_line, errors) {
  const std::vector<std::vector<std::string>> bad{
      {"hfperf", "pair", "-t", "tcp"},                                   // no --peer
      {"hfperf", "pair", "-t", "hf", "--peer", "x"},                     // hf without --dev
      {"hfperf", "pair", "-t", "sctp", "--peer", "x"},                   // unknown transport
      {"hfperf", "dance"},                                               // unknown mode
      {"hfperf", "pair", "-t", "tcp", "--peer", "x", "--sizes", "16"},   // below the header
      {"hfperf", "pair", "-t", "tcp", "--peer", "x", "--sizes", "65m"},  // above 64m
      {"hfperf", "a2a", "-t", "tcp", "--rank", "3", "--nodes", "a,b,c"},
      {"hfperf", "server", "-t", "tcp", "--port", "0"},
      {"hfperf", "server", "--bogus"},
  };
  for (const auto& args : bad) {
    EXPECT_THROW((void)parse_command_line(args), std::invalid_argument) << args.at(1);
  }
}

TEST(parse_command_line, help) {
  const Parsed parsed = parse_command_line({"hfperf", "--help"});
  EXPECT_FALSE(parsed.config.has_value());
  EXPECT_EQ(parsed.status, 0);
  EXPECT_NE(parsed.text.find("usage: hfperf MODE"), std::string::npos);
  EXPECT_EQ(parse_command_line({"hfperf"}).status, 2);
}

}  // namespace
}  // namespace hfperf
