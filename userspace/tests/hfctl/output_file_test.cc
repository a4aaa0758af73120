// tests/hfctl/output_file_test.cc - unit tests of hfctl/cli/output_file.cc:
// the file replaced whole, its mode, no temporary left behind, errors.
#include "cli/output_file.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

#include <gtest/gtest.h>

#include "support/temp_tree.h"

namespace {

using hf::testing::TempTree;

std::string contents(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::size_t entries(const std::filesystem::path& directory) {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(directory)) {
    ++count;
  }
  return count;
}

TEST(WriteFileAtomically, CreatesThenReplaces) {
  const TempTree tree;
  const std::filesystem::path file = tree.path("/hyperframe.prom");
  hfctl::write_file_atomically(file, "hyperframe_up 1\n");
  EXPECT_EQ(contents(file), "hyperframe_up 1\n");
  hfctl::write_file_atomically(file, "hyperframe_up 0\n");
  EXPECT_EQ(contents(file), "hyperframe_up 0\n");
  EXPECT_EQ(entries(tree.root()), 1U) << "no temporary file left";

  struct stat status {};
  ASSERT_EQ(::stat(file.c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777U, 0644U);
}

TEST(WriteFileAtomically, ReplacesTheInodeNotItsContents) {
  const TempTree tree;
  const std::filesystem::path file = tree.path("/hyperframe.prom");
  hfctl::write_file_atomically(file, "old\n");
  std::ifstream reader(file);  // a reader that opened the old file keeps reading it
  hfctl::write_file_atomically(file, "new\n");
  std::string line;
  std::getline(reader, line);
  EXPECT_EQ(line, "old");
  EXPECT_EQ(contents(file), "new\n");
}

TEST(WriteFileAtomically, MissingDirectoryIsASystemError) {
  const TempTree tree;
  const std::filesystem::path file = tree.path("/missing/hyperframe.prom");
  try {
    hfctl::write_file_atomically(file, "x");
    FAIL() << "wrote into a missing directory";
  } catch (const std::system_error& error) {
    EXPECT_EQ(error.code(), std::errc::no_such_file_or_directory);
    EXPECT_EQ(std::string(error.what()).rfind("cannot write " + file.string(), 0), 0U)
        << error.what();
  }
}

TEST(WriteFileAtomically, DirectoryAsTargetFailsAndLeavesNothing) {
  const TempTree tree;
  std::filesystem::create_directory(tree.path("/dir"));
  EXPECT_THROW(hfctl::write_file_atomically(tree.path("/dir"), "x"), std::system_error);
  EXPECT_EQ(entries(tree.root()), 1U) << "the temporary file is removed";
}

}  // namespace
