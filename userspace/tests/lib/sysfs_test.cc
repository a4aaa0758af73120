// tests/lib/sysfs_test.cc - unit tests of lib/sysfs.cc: module_dir(),
// under_root() and family(), against a fake sysfs tree.
#include "hyperframe/sysfs.h"

#include <linux/hyperframe.h>

#include <string>
#include <system_error>

#include <gtest/gtest.h>

#include "support/temp_tree.h"

namespace {

using hf::testing::TempTree;

constexpr const char* kFamily = "/sys/module/hyperframe/parameters/family";

// The error family(root) throws, or a default error_code if it returns.
std::system_error family_error(const TempTree& tree) {
  try {
    static_cast<void>(hf::family(tree.root()));
  } catch (const std::system_error& error) {
    return error;
  }
  ADD_FAILURE() << "family() did not throw";
  return {std::error_code()};
}

TEST(ModuleDir, IsTheParentOfTheParametersDirectory) {
  EXPECT_EQ(hf::module_dir(), "/sys/module/hyperframe");
  EXPECT_EQ(hf::module_dir() / "parameters" / "family", HF_SYSFS_FAMILY);
}

TEST(UnderRoot, SlashChangesNothing) {
  EXPECT_EQ(hf::under_root("/", "/sys/module"), "/sys/module");
}

TEST(UnderRoot, PrefixesAnotherRoot) {
  EXPECT_EQ(hf::under_root("/tmp/x", "/sys/module"), "/tmp/x/sys/module");
}

TEST(Family, ReadsTheDecimalTheKernelPrinted) {
  const TempTree tree;
  tree.write(kFamily, "18\n");
  EXPECT_EQ(hf::family(tree.root()), 18);
}

TEST(Family, AcceptsAValueWithoutNewline) {
  const TempTree tree;
  tree.write(kFamily, "27");
  EXPECT_EQ(hf::family(tree.root()), 27);
}

TEST(Family, MissingFileMeansModuleNotLoaded) {
  const TempTree tree;
  const std::system_error error = family_error(tree);
  EXPECT_EQ(error.code(), std::errc::address_family_not_supported);
  EXPECT_EQ(std::string(error.what()),
            "hyperframe module not loaded (load hyperframe.ko first): "
            "Address family not supported by protocol");
}

TEST(Family, RejectsGarbage) {
  const TempTree tree;
  for (const char* garbage : {"", "\n", "abc\n", "18x\n", " 18\n", "18\n\n", "0x12\n", "+18\n",
                              "1 8", "99999999999999999999999\n"}) {
    tree.write(kFamily, garbage);
    const std::system_error error = family_error(tree);
    EXPECT_EQ(error.code(), std::errc::invalid_argument) << '"' << garbage << '"';
    EXPECT_NE(std::string(error.what()).find("parameters/family: expected an address family"),
              std::string::npos)
        << error.what();
  }
}

TEST(Family, RejectsNumbersOutsideTheFamilyRange) {
  const TempTree tree;
  for (const char* value : {"0\n", "-1\n", "65535\n", "46\n"}) {
    tree.write(kFamily, value);
    EXPECT_EQ(family_error(tree).code(), std::errc::invalid_argument) << value;
  }
}

TEST(Family, QuotesTheBadValueReadably) {
  const TempTree tree;
  tree.write(kFamily, "x\"\x01\n");
  const std::string what = family_error(tree).what();
  EXPECT_NE(what.find(R"(found "x\x22\x01")"), std::string::npos) << what;
}

TEST(Family, UnreadableFileIsAnErrorNamingThePath) {
  const TempTree tree;
  // A directory where the attribute should be: open() works, read() fails.
  std::filesystem::create_directories(tree.path(kFamily));
  const std::system_error error = family_error(tree);
  EXPECT_EQ(error.code(), std::errc::is_a_directory);
  EXPECT_NE(std::string(error.what()).find(tree.path(kFamily).string()), std::string::npos);
}

}  // namespace
