// tests/support/temp_tree.h - TempTree, a scratch directory that unit tests
// pass as the "root" of libhyperframe and hfctl (fake sysfs, fake
// /run/netns); removed with everything in it when the TempTree goes.
#pragma once

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace hf::testing {

class TempTree {
 public:
  TempTree() {
    std::string pattern = (std::filesystem::temp_directory_path() / "hftest.XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
    }
    root_ = pattern;
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;
  TempTree(TempTree&&) = delete;
  TempTree& operator=(TempTree&&) = delete;
  ~TempTree() {
    std::error_code ignored;
    std::filesystem::remove_all(root_, ignored);
  }

  // The directory that stands for "/".
  [[nodiscard]] const std::filesystem::path& root() const noexcept { return root_; }

  // The absolute path `absolute` inside the tree.
  [[nodiscard]] std::filesystem::path path(const std::filesystem::path& absolute) const {
    return root_ / absolute.relative_path();
  }

  // Creates the file `absolute` (and its directories) holding `contents`.
  void write(const std::filesystem::path& absolute, std::string_view contents) const {
    const std::filesystem::path file = path(absolute);
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << contents;
    if (!out.flush()) {
      throw std::runtime_error("cannot write " + file.string());
    }
  }

  void remove(const std::filesystem::path& absolute) const {
    std::filesystem::remove(path(absolute));
  }

  // A loaded hyperframe module as sysfs shows it: family 18, EtherType
  // 0x88b5 (printed in decimal, as a ushort parameter is), refcnt 0, no
  // version attribute.
  void write_loaded_module() const {
    write("/sys/module/hyperframe/parameters/family", "18\n");
    write("/sys/module/hyperframe/parameters/ethertype", "34997\n");
    write("/sys/module/hyperframe/refcnt", "0\n");
  }

 private:
  std::filesystem::path root_;
};

}  // namespace hf::testing
