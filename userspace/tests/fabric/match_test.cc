// tests/fabric/match_test.cc - receive matching and the unexpected queue
// (fabric/match.h).
#include "match.h"

#include <cstdint>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

namespace hf::fabric {
namespace {

constexpr SourceKey kA = source_key({2, 0, 0, 0, 0, 1}, 7000);
constexpr SourceKey kB = source_key({2, 0, 0, 0, 0, 2}, 7000);

Unexpected message(bool tagged, SourceKey source, std::uint64_t tag, std::size_t bytes) {
  Unexpected m;
  m.key = MatchKey{.tagged = tagged, .source = source, .tag = tag};
  m.payload.resize(bytes);
  return m;
}

TEST(FabricMatch, TagMatchingHonoursTheIgnoreMask) {
  EXPECT_TRUE(tag_matches(0x1234, 0x1234, 0));
  EXPECT_FALSE(tag_matches(0x1235, 0x1234, 0));
  EXPECT_TRUE(tag_matches(0x1235, 0x1234, 0xf));
  EXPECT_TRUE(tag_matches(0xdead0000beefULL, 0x0000beefULL, 0xffffffff00000000ULL));
  EXPECT_FALSE(tag_matches(0x10, 0x00, 0x0f));
  EXPECT_TRUE(tag_matches(0, ~0ULL, ~0ULL));
}

TEST(FabricMatch, SourceKeysTellSendersApart) {
  EXPECT_NE(kA, kB);
  EXPECT_NE(source_key({2, 0, 0, 0, 0, 1}, 7000), source_key({2, 0, 0, 0, 0, 1}, 7001));
  EXPECT_NE(source_key({0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 0xfffe), kAnySource);
}

TEST(FabricMatch, TaggedAndUntaggedNeverMeet) {
  const MatchSpec untagged{.tagged = false, .source = kAnySource, .tag = 0, .ignore = ~0ULL};
  const MatchSpec tagged{.tagged = true, .source = kAnySource, .tag = 0, .ignore = ~0ULL};
  EXPECT_TRUE(untagged.matches({.tagged = false, .source = kA, .tag = 0}));
  EXPECT_FALSE(untagged.matches({.tagged = true, .source = kA, .tag = 0}));
  EXPECT_TRUE(tagged.matches({.tagged = true, .source = kA, .tag = 99}));
  EXPECT_FALSE(tagged.matches({.tagged = false, .source = kA, .tag = 0}));
}

TEST(FabricMatch, DirectedReceiveTakesOnlyItsSource) {
  const MatchSpec from_a{.tagged = true, .source = kA, .tag = 5, .ignore = 0};
  EXPECT_TRUE(from_a.matches({.tagged = true, .source = kA, .tag = 5}));
  EXPECT_FALSE(from_a.matches({.tagged = true, .source = kB, .tag = 5}));
  EXPECT_FALSE(from_a.matches({.tagged = true, .source = kA, .tag = 6}));
}

struct Recv {
  MatchSpec spec;
  int id = 0;
};

TEST(FabricMatch, PostedReceivesMatchInPostingOrder) {
  PostedQueue<Recv> posted;
  posted.push({.spec = {.tagged = true, .source = kB, .tag = 1, .ignore = 0}, .id = 1});
  posted.push({.spec = {.tagged = true, .source = kAnySource, .tag = 1, .ignore = 0}, .id = 2});
  posted.push({.spec = {.tagged = true, .source = kAnySource, .tag = 0, .ignore = ~0ULL}, .id = 3});
  // From A with tag 1: not the directed one (B), the first wildcard.
  std::optional<Recv> got = posted.take({.tagged = true, .source = kA, .tag = 1});
  ASSERT_TRUE(got);
  EXPECT_EQ(got->id, 2);
  got = posted.take({.tagged = true, .source = kA, .tag = 1});
  ASSERT_TRUE(got);
  EXPECT_EQ(got->id, 3);
  EXPECT_FALSE(posted.take({.tagged = true, .source = kA, .tag = 1}));
  EXPECT_FALSE(posted.take({.tagged = false, .source = kB, .tag = 0}));
  got = posted.take({.tagged = true, .source = kB, .tag = 1});
  ASSERT_TRUE(got);
  EXPECT_EQ(got->id, 1);
  EXPECT_TRUE(posted.empty());
}

TEST(FabricMatch, PushFrontPutsAReceiveBackAhead) {
  PostedQueue<Recv> posted;
  const MatchSpec any{.tagged = false, .source = kAnySource, .tag = 0, .ignore = 0};
  posted.push({.spec = any, .id = 1});
  posted.push({.spec = any, .id = 2});
  std::optional<Recv> got = posted.take({.tagged = false, .source = kA, .tag = 0});
  ASSERT_TRUE(got);
  posted.push_front(*got);
  got = posted.take({.tagged = false, .source = kA, .tag = 0});
  ASSERT_TRUE(got);
  EXPECT_EQ(got->id, 1);
  EXPECT_TRUE(posted.take_if([](const Recv& r) { return r.id == 2; }));
  EXPECT_TRUE(posted.empty());
}

TEST(FabricMatch, UnexpectedMessagesComeOutOldestFirst) {
  UnexpectedQueue queue(1 << 20, 16);
  queue.push(message(true, kA, 7, 10));
  queue.push(message(true, kB, 7, 20));
  queue.push(message(true, kA, 7, 30));
  const MatchSpec from_a{.tagged = true, .source = kA, .tag = 7, .ignore = 0};
  const Unexpected* first = queue.find(from_a);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->payload.size(), 10U);
  EXPECT_EQ(queue.size(), 3U);  // find() leaves it queued
  std::optional<Unexpected> got = queue.take(from_a);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->payload.size(), 10U);
  got = queue.take(from_a);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->payload.size(), 30U);
  EXPECT_FALSE(queue.take(from_a));
  EXPECT_EQ(queue.size(), 1U);
  EXPECT_EQ(queue.bytes(), 20U);
}

TEST(FabricMatch, UnexpectedQueueKeepsItsBounds) {
  UnexpectedQueue queue(100, 3);
  EXPECT_TRUE(queue.admits(1000));  // empty: one message of any size
  queue.push(message(false, kA, 0, 60));
  EXPECT_TRUE(queue.admits(40));
  EXPECT_FALSE(queue.admits(41));  // bytes
  queue.push(message(false, kA, 0, 20));
  queue.push(message(false, kA, 0, 0));
  EXPECT_FALSE(queue.admits(0));  // messages
  const MatchSpec any{.tagged = false, .source = kAnySource, .tag = 0, .ignore = 0};
  ASSERT_TRUE(queue.take(any));
  EXPECT_EQ(queue.bytes(), 20U);
  EXPECT_TRUE(queue.admits(80));
  EXPECT_FALSE(queue.admits(81));
}

TEST(FabricMatch, AnOversizedMessageHeldAloneBlocksTheRest) {
  UnexpectedQueue queue(100, 10);
  queue.push(message(false, kA, 0, 500));
  EXPECT_FALSE(queue.admits(0));
  EXPECT_EQ(queue.bytes(), 500U);
  const MatchSpec any{.tagged = false, .source = kAnySource, .tag = 0, .ignore = 0};
  ASSERT_TRUE(queue.take(any));
  EXPECT_TRUE(queue.admits(100));
}

}  // namespace
}  // namespace hf::fabric
