// tests/lib/module_info_test.cc - unit tests of lib/module_info.cc:
// find_module_info() and module_info() against fake sysfs trees.
#include "hyperframe/module_info.h"

#include <string>
#include <system_error>

#include <gtest/gtest.h>

#include "support/temp_tree.h"

namespace {

using hf::testing::TempTree;

constexpr const char* kVersion = "/sys/module/hyperframe/version";
constexpr const char* kEthertype = "/sys/module/hyperframe/parameters/ethertype";
constexpr const char* kRefcnt = "/sys/module/hyperframe/refcnt";

std::system_error module_info_error(const TempTree& tree) {
  try {
    static_cast<void>(hf::find_module_info(tree.root()));
  } catch (const std::system_error& error) {
    return error;
  }
  ADD_FAILURE() << "find_module_info() did not throw";
  return {std::error_code()};
}

TEST(FindModuleInfo, ReadsEveryAttribute) {
  const TempTree tree;
  tree.write_loaded_module();
  tree.write(kVersion, "0.3.1\n");
  tree.write(kRefcnt, "2\n");
  const auto info = hf::find_module_info(tree.root());
  ASSERT_TRUE(info);
  EXPECT_EQ(*info,
            (hf::ModuleInfo{.version = "0.3.1", .family = 18, .ethertype = 0x88b5, .refcount = 2}));
}

TEST(FindModuleInfo, VersionAndEthertypeAreOptional) {
  const TempTree tree;
  tree.write_loaded_module();
  tree.remove(kEthertype);
  const auto info = hf::find_module_info(tree.root());
  ASSERT_TRUE(info);
  EXPECT_EQ(*info,
            (hf::ModuleInfo{
                .version = std::nullopt, .family = 18, .ethertype = std::nullopt, .refcount = 0}));
}

TEST(FindModuleInfo, NotLoadedIsNullopt) {
  const TempTree tree;
  EXPECT_FALSE(hf::find_module_info(tree.root()));
}

TEST(FindModuleInfo, AcceptsHexEthertype) {
  const TempTree tree;
  tree.write_loaded_module();
  tree.write(kEthertype, "0x88B6\n");
  EXPECT_EQ(hf::find_module_info(tree.root())->ethertype, 0x88b6);
}

TEST(FindModuleInfo, RejectsBadEthertype) {
  const TempTree tree;
  tree.write_loaded_module();
  for (const char* garbage : {"65536\n", "0x10000\n", "-1\n", "0x\n", "0x-5\n", "ip\n"}) {
    tree.write(kEthertype, garbage);
    const std::system_error error = module_info_error(tree);
    EXPECT_EQ(error.code(), std::errc::invalid_argument) << garbage;
    EXPECT_NE(std::string(error.what()).find("parameters/ethertype: expected an EtherType"),
              std::string::npos)
        << error.what();
  }
}

TEST(FindModuleInfo, RefcountMayBeMinusOneWhileUnloading) {
  const TempTree tree;
  tree.write_loaded_module();
  tree.write(kRefcnt, "-1\n");
  EXPECT_EQ(hf::find_module_info(tree.root())->refcount, -1);
}

TEST(FindModuleInfo, MissingRefcountIsAnError) {
  const TempTree tree;
  tree.write_loaded_module();
  tree.remove(kRefcnt);
  const std::system_error error = module_info_error(tree);
  EXPECT_EQ(error.code(), std::errc::no_such_file_or_directory);
  EXPECT_NE(std::string(error.what()).find("refcnt"), std::string::npos);
}

TEST(FindModuleInfo, RejectsBadRefcount) {
  const TempTree tree;
  tree.write_loaded_module();
  tree.write(kRefcnt, "many\n");
  EXPECT_EQ(module_info_error(tree).code(), std::errc::invalid_argument);
}

TEST(FindModuleInfo, RejectsBadFamily) {
  const TempTree tree;
  tree.write_loaded_module();
  tree.write("/sys/module/hyperframe/parameters/family", "AF_HYPERFRAME\n");
  EXPECT_EQ(module_info_error(tree).code(), std::errc::invalid_argument);
}

TEST(ModuleInfo, ReturnsWhatFindModuleInfoFound) {
  const TempTree tree;
  tree.write_loaded_module();
  EXPECT_EQ(hf::module_info(tree.root()), *hf::find_module_info(tree.root()));
}

TEST(ModuleInfo, NotLoadedThrowsTheFamilyError) {
  const TempTree tree;
  try {
    static_cast<void>(hf::module_info(tree.root()));
    FAIL() << "module_info() did not throw";
  } catch (const std::system_error& error) {
    EXPECT_EQ(error.code(), std::errc::address_family_not_supported);
    EXPECT_NE(std::string(error.what()).find("load hyperframe.ko first"), std::string::npos);
  }
}

}  // namespace
