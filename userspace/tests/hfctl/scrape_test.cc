// tests/hfctl/scrape_test.cc - unit tests of hfctl/exporter/scrape.cc: the
// target labels, --cache-ms, the qdisc cache with a fake dump and clock, and a
// scrape of this host (up 0 without the module, up 1 with).
#include "exporter/scrape.h"

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

TEST(TargetLabels, NamespaceOnlyWithNetns) {
  EXPECT_TRUE(hfctl::target_labels({}).empty());
  hfctl::Options options;
  options.netns = "blue";
  const std::vector<hfctl::PrometheusLabel> labels = hfctl::target_labels(options);
  ASSERT_EQ(labels.size(), 1U);
  EXPECT_EQ(labels[0].name, "namespace");
  EXPECT_EQ(labels[0].value, "blue");
}

using namespace std::chrono_literals;
using hfctl::QdiscCache;

TEST(ParseCacheMs, Range) {
  EXPECT_EQ(hfctl::parse_cache_ms("0"), 0ms);
  EXPECT_EQ(hfctl::parse_cache_ms("1000"), 1000ms);
  EXPECT_EQ(hfctl::parse_cache_ms("600000"), hfctl::kMaxQdiscCache);
  for (const char* text : {"", "-1", "600001", "1s", " 1", "1 ", "99999999999999999999999"}) {
    EXPECT_THROW(static_cast<void>(hfctl::parse_cache_ms(text)), hfctl::UsageError) << text;
  }
}

// A dump that counts its calls and names its result after the count.
struct FakeDump {
  int calls = 0;
  std::vector<hfctl::QdiscSample> operator()() {
    ++calls;
    return {{.dev = "eth" + std::to_string(calls), .info = {}}};
  }
};

TEST(QdiscCache, DumpsOncePerMaxAge) {
  FakeDump dump;
  const QdiscCache::Dump call = [&dump] { return dump(); };
  QdiscCache cache(1000ms);
  const QdiscCache::Clock::time_point start{10s};
  EXPECT_EQ(cache.get(call, start).at(0).dev, "eth1");
  EXPECT_EQ(cache.get(call, start + 999ms).at(0).dev, "eth1") << "reused";
  EXPECT_EQ(dump.calls, 1);
  EXPECT_EQ(cache.get(call, start + 1000ms).at(0).dev, "eth2") << "as old as max_age: dumped";
  EXPECT_EQ(cache.get(call, start + 1500ms).at(0).dev, "eth2");
  EXPECT_EQ(dump.calls, 2);
  EXPECT_EQ(cache.dumps(), 2U);
}

TEST(QdiscCache, ZeroDumpsEveryTime) {
  FakeDump dump;
  QdiscCache cache(0ms);
  const QdiscCache::Clock::time_point now{10s};
  for (int i = 1; i <= 3; ++i) {
    EXPECT_EQ(cache.get([&dump] { return dump(); }, now).at(0).dev, "eth" + std::to_string(i));
  }
  EXPECT_EQ(cache.dumps(), 3U);
}

TEST(QdiscCache, FailureAndInvalidateForget) {
  FakeDump dump;
  QdiscCache cache(1000ms);
  const QdiscCache::Clock::time_point now{10s};
  static_cast<void>(cache.get([&dump] { return dump(); }, now));
  cache.invalidate();
  EXPECT_EQ(cache.get([&dump] { return dump(); }, now).at(0).dev, "eth2") << "dumped again";
  EXPECT_THROW(
      static_cast<void>(cache.get(
          []() -> std::vector<hfctl::QdiscSample> { throw std::runtime_error("gone"); }, now + 2s)),
      std::runtime_error);
  EXPECT_EQ(cache.get([&dump] { return dump(); }, now + 2s).at(0).dev, "eth3")
      << "nothing kept from a failed dump";
  EXPECT_EQ(cache.dumps(), 4U) << "the failed dump counts: it took RTNL too";
}

TEST(ScrapePrometheus, UpIsZeroOrOneAndNeverThrows) {
  const std::vector<hfctl::PrometheusLabel> labels{{.name = "namespace", .value = "t"}};
  const std::string text = hfctl::scrape_prometheus(labels);
  const bool down = text.find("\nhyperframe_up{namespace=\"t\"} 0\n") != std::string::npos;
  const bool up = text.find("\nhyperframe_up{namespace=\"t\"} 1\n") != std::string::npos;
  EXPECT_NE(down, up) << text;
  if (down) {
    EXPECT_EQ(text.rfind("# hyperframe counters unavailable: ", 0), 0U) << text;
    EXPECT_TRUE(text.ends_with("hyperframe_up{namespace=\"t\"} 0\n")) << "no other samples";
  }
}

TEST(ScrapePrometheus, WithACacheDumpsOnceWhenUp) {
  QdiscCache cache(60s);
  const std::string cached = hfctl::scrape_prometheus({}, &cache);
  const bool up = cached.find("\nhyperframe_up 1\n") != std::string::npos;
  // Up, the qdiscs were dumped once; down, the cache was emptied unused.
  EXPECT_EQ(cache.dumps(), up ? 1U : 0U) << cached;
  EXPECT_NE(cached.find("\nhyperframe_up "), std::string::npos) << cached;
}

}  // namespace
