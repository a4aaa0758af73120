// hfctl/bpf/bpf_support.cc - privilege, namespace and libbpf's warnings for
// hfctl's BPF commands (bpf_support.h).
#include "bpf/bpf_support.h"

#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <deque>
#include <sstream>
#include <system_error>

#include <bpf/libbpf.h>

namespace hfctl {
namespace {

constexpr std::size_t kWarningsKept = 12;

std::deque<std::string>& libbpf_warnings() {
  thread_local std::deque<std::string> warnings;
  return warnings;
}

int libbpf_print(libbpf_print_level level, const char* format, va_list args) {
  if (level != LIBBPF_WARN) {
    return 0;
  }
  // va_list is an array type: each use below decays it, as C intends.
  va_list copy;
  va_copy(copy, args);  // NOLINT(cppcoreguidelines-pro-bounds-array-to-pointer-decay)
  const int n =
      std::vsnprintf(nullptr, 0, format,
                     copy);  // NOLINT(cppcoreguidelines-pro-bounds-array-to-pointer-decay)
  va_end(copy);              // NOLINT(cppcoreguidelines-pro-bounds-array-to-pointer-decay)
  if (n <= 0) {
    return n;
  }
  std::string text(static_cast<std::size_t>(n) + 1, '\0');
  static_cast<void>(
      std::vsnprintf(text.data(), text.size(), format,
                     args));  // NOLINT(cppcoreguidelines-pro-bounds-array-to-pointer-decay)
  text.resize(static_cast<std::size_t>(n));
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) {
      libbpf_warnings().push_back(line);
    }
  }
  while (libbpf_warnings().size() > kWarningsKept) {
    libbpf_warnings().pop_front();
  }
  return n;
}

}  // namespace

bool bpf_privileged() {
  __user_cap_header_struct header{.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  std::array<__user_cap_data_struct, _LINUX_CAPABILITY_U32S_3> data{};
  if (syscall(SYS_capget, &header, data.data()) != 0) {
    return geteuid() == 0;
  }
  const auto has = [&data](unsigned int cap) {
    return (data.at(cap / 32).effective & (1U << (cap % 32))) != 0;
  };
  return has(CAP_SYS_ADMIN) || (has(CAP_BPF) && has(CAP_PERFMON));
}

std::uint32_t current_netns_inode() {
  struct stat st {};
  if (stat("/proc/self/ns/net", &st) != 0) {
    throw std::system_error(errno, std::generic_category(), "/proc/self/ns/net");
  }
  return static_cast<std::uint32_t>(st.st_ino);
}

void keep_libbpf_warnings() {
  libbpf_warnings().clear();
  libbpf_set_print(libbpf_print);
}

std::string bpf_load_error(std::string_view command, int error, std::string_view need_privilege) {
  if (error == EPERM) {
    return std::string(need_privilege);
  }
  std::string message = "cannot load the BPF programs of hfctl " + std::string(command) + ": " +
                        std::system_category().message(error);
  for (const std::string& line : libbpf_warnings()) {
    message += "\n  " + line;
  }
  return message;
}

}  // namespace hfctl
