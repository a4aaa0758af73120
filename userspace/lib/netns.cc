// lib/netns.cc - entering a named network namespace (/run/netns/NAME).
#include "hyperframe/netns.h"

#include <fcntl.h>
#include <sched.h>

#include <cerrno>
#include <climits>
#include <string>
#include <system_error>

#include "hyperframe/fd.h"
#include "hyperframe/sysfs.h"

namespace hf {
namespace {

std::string describe(std::string_view name, const std::filesystem::path& path) {
  return "network namespace \"" + std::string(name) + "\" (" + path.string() + ")";
}

}  // namespace

bool valid_netns_name(std::string_view name) noexcept {
  constexpr std::string_view kForbidden("/\0", 2);
  return !name.empty() && name.size() <= NAME_MAX && name != "." && name != ".." &&
         name.find_first_of(kForbidden) == std::string_view::npos;
}

std::filesystem::path netns_path(std::string_view name, const std::filesystem::path& root) {
  if (!valid_netns_name(name)) {
    throw std::system_error(std::make_error_code(std::errc::invalid_argument),
                            "invalid network namespace name \"" + std::string(name) + "\"");
  }
  return under_root(root, "/run/netns") / name;
}

void enter_netns(std::string_view name, const std::filesystem::path& root) {
  const std::filesystem::path path = netns_path(name, root);
  const Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) {
    throw std::system_error(errno, std::generic_category(), "cannot open " + describe(name, path));
  }
  if (::setns(fd.get(), CLONE_NEWNET) != 0) {
    throw std::system_error(errno, std::generic_category(), "cannot enter " + describe(name, path));
  }
}

}  // namespace hf
