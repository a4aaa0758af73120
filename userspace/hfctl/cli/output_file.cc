// hfctl/cli/output_file.cc - write to a temporary file, fsync, rename.
#include "cli/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <string>
#include <system_error>

#include "hyperframe/fd.h"

namespace hfctl {
namespace {

constexpr mode_t kMode = 0644;

[[noreturn]] void fail(int error, const std::filesystem::path& path) {
  throw std::system_error(error, std::generic_category(), "cannot write " + path.string());
}

// Removes the temporary file unless it was renamed into place.
class TempFile {
 public:
  explicit TempFile(std::string path) : path_(std::move(path)) {}
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  TempFile(TempFile&&) = delete;
  TempFile& operator=(TempFile&&) = delete;
  ~TempFile() {
    if (!kept_) {
      ::unlink(path_.c_str());
    }
  }
  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  void keep() noexcept { kept_ = true; }

 private:
  std::string path_;
  bool kept_ = false;
};

}  // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
  if (!path.has_filename()) {
    fail(EISDIR, path);
  }
  const std::filesystem::path directory = path.parent_path();
  std::string pattern = (directory / ("." + path.filename().string() + ".XXXXXX")).string();
  const hf::Fd fd(::mkostemp(pattern.data(), O_CLOEXEC));
  if (!fd) {
    fail(errno, path);
  }
  TempFile temp(pattern);

  while (!contents.empty()) {
    const ssize_t written = ::write(fd.get(), contents.data(), contents.size());
    if (written < 0) {
      if (errno == EINTR) {
        continue;
      }
      fail(errno, path);
    }
    contents.remove_prefix(static_cast<std::size_t>(written));
  }
  if (::fchmod(fd.get(), kMode) != 0 || ::fsync(fd.get()) != 0) {
    fail(errno, path);
  }
  if (std::rename(temp.path().c_str(), path.c_str()) != 0) {
    fail(errno, path);
  }
  temp.keep();
}

}  // namespace hfctl
