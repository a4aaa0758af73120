// tests/hfctl/scrape_test.cc - unit tests of hfctl/scrape.cc: the target
// labels, and a scrape of this host (up 0 without the module, up 1 with).
#include "scrape.h"

#include <string>

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

}  // namespace
