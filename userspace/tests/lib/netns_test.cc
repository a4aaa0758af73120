// tests/lib/netns_test.cc - unit tests of lib/netns.cc: namespace names,
// their paths, and the errors of entering one that cannot be entered.
#include "hyperframe/netns.h"

#include <string>
#include <system_error>

#include <gtest/gtest.h>

#include "support/temp_tree.h"

namespace {

using hf::testing::TempTree;

std::system_error enter_error(std::string_view name, const TempTree& tree) {
  try {
    hf::enter_netns(name, tree.root());
  } catch (const std::system_error& error) {
    return error;
  }
  ADD_FAILURE() << "enter_netns() did not throw";
  return {std::error_code()};
}

TEST(ValidNetnsName, AcceptsOrdinaryNames) {
  EXPECT_TRUE(hf::valid_netns_name("blue"));
  EXPECT_TRUE(hf::valid_netns_name("ns-1.a_b"));
  EXPECT_TRUE(hf::valid_netns_name(std::string(255, 'x')));
}

TEST(ValidNetnsName, RejectsPathsAndSpecialNames) {
  EXPECT_FALSE(hf::valid_netns_name(""));
  EXPECT_FALSE(hf::valid_netns_name("."));
  EXPECT_FALSE(hf::valid_netns_name(".."));
  EXPECT_FALSE(hf::valid_netns_name("a/b"));
  EXPECT_FALSE(hf::valid_netns_name(std::string_view("a\0b", 3)));
  EXPECT_FALSE(hf::valid_netns_name(std::string(256, 'x')));
}

TEST(NetnsPath, IsUnderRunNetns) {
  EXPECT_EQ(hf::netns_path("blue"), "/run/netns/blue");
  EXPECT_EQ(hf::netns_path("blue", "/tmp/r"), "/tmp/r/run/netns/blue");
}

TEST(NetnsPath, RejectsInvalidNames) {
  EXPECT_THROW(static_cast<void>(hf::netns_path("../etc")), std::system_error);
}

TEST(EnterNetns, MissingNamespaceIsReadable) {
  const TempTree tree;
  const std::system_error error = enter_error("blue", tree);
  EXPECT_EQ(error.code(), std::errc::no_such_file_or_directory);
  const std::string expected = "cannot open network namespace \"blue\" (" +
                               tree.path("/run/netns/blue").string() +
                               "): No such file or directory";
  EXPECT_EQ(std::string(error.what()), expected);
}

TEST(EnterNetns, FileThatIsNoNamespaceIsRefused) {
  const TempTree tree;
  tree.write("/run/netns/blue", "");
  const std::system_error error = enter_error("blue", tree);
  EXPECT_EQ(error.code(), std::errc::invalid_argument);
  EXPECT_EQ(std::string(error.what()).rfind("cannot enter network namespace \"blue\"", 0), 0U);
}

TEST(EnterNetns, InvalidNameIsRefusedBeforeOpening) {
  const TempTree tree;
  EXPECT_EQ(enter_error("..", tree).code(), std::errc::invalid_argument);
}

}  // namespace
