// hfctl/exporter/privileges.cc - "--user" parsing and the privileges a server
// gives up (capabilities through the raw capget/capset system calls, as
// glibc has no wrapper and libcap would be a dependency for two calls).
#include "exporter/privileges.h"

#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <system_error>
#include <vector>

#include "cli/cli.h"

namespace hfctl {
namespace {

constexpr std::string_view kHint = "hfctl exporter help";
// The most a passwd or group entry may take before a lookup gives up.
constexpr std::size_t kMaxEntryBuffer = std::size_t{1} << 20;

using CapabilitySets = std::array<__user_cap_data_struct, _LINUX_CAPABILITY_U32S_3>;

[[noreturn]] void invalid(std::string_view text, std::string_view why) {
  throw UsageError("invalid --user \"" + std::string(text) + "\": " + std::string(why),
                   std::string(kHint));
}

// A whole decimal number that is a valid uid or gid (not -1, which means
// "unchanged" to setresuid()).
std::optional<std::uint32_t> parse_id(std::string_view text) {
  std::uint32_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() ||
      value == std::numeric_limits<std::uint32_t>::max()) {
    return std::nullopt;
  }
  return value;
}

// Calls `lookup(buffer, size, result)` (a getpwnam_r-style function) with
// a growing buffer; true when it found an entry.
template <typename Lookup>
bool lookup_entry(Lookup lookup, std::vector<char>& buffer) {
  const long suggested = ::sysconf(_SC_GETPW_R_SIZE_MAX);
  buffer.resize(suggested > 0 ? static_cast<std::size_t>(suggested) : 16384);
  for (;;) {
    bool found = false;
    const int error = lookup(buffer.data(), buffer.size(), found);
    if (error == ERANGE && buffer.size() < kMaxEntryBuffer) {
      buffer.resize(buffer.size() * 2);
      continue;
    }
    if (error != 0 && error != ENOENT && error != ESRCH) {
      throw std::system_error(error, std::generic_category(), "looking up a user or group");
    }
    return error == 0 && found;
  }
}

// The passwd entry of a user name or uid: its uid and primary group.
std::optional<std::pair<uid_t, gid_t>> find_user(std::string_view user) {
  passwd entry{};
  passwd* result = nullptr;
  std::vector<char> buffer;
  const std::optional<std::uint32_t> number = parse_id(user);
  const std::string name(user);
  const bool found = lookup_entry(
      [&](char* data, std::size_t size, bool& hit) {
        const int error = number ? ::getpwuid_r(*number, &entry, data, size, &result)
                                 : ::getpwnam_r(name.c_str(), &entry, data, size, &result);
        hit = result != nullptr;
        return error;
      },
      buffer);
  if (!found) {
    return std::nullopt;
  }
  return std::pair{entry.pw_uid, entry.pw_gid};
}

std::optional<gid_t> find_group(std::string_view group) {
  if (const std::optional<std::uint32_t> number = parse_id(group)) {
    return *number;
  }
  ::group entry{};
  ::group* result = nullptr;
  std::vector<char> buffer;
  const std::string name(group);
  const bool found = lookup_entry(
      [&](char* data, std::size_t size, bool& hit) {
        const int error = ::getgrnam_r(name.c_str(), &entry, data, size, &result);
        hit = result != nullptr;
        return error;
      },
      buffer);
  if (!found) {
    return std::nullopt;
  }
  return entry.gr_gid;
}

[[noreturn]] void fail(const RunAs& who, int error, std::string_view step) {
  throw std::system_error(error, std::generic_category(),
                          "cannot run as " + who.name + " (" + std::string(step) + ")");
}

CapabilitySets get_capabilities() {
  __user_cap_header_struct header{.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  CapabilitySets sets{};
  if (::syscall(SYS_capget, &header, sets.data()) != 0) {
    throw std::system_error(errno, std::generic_category(), "capget");
  }
  return sets;
}

bool has_capability(const CapabilitySets& sets, unsigned int capability) {
  const std::size_t word = capability / 32;
  return word < sets.size() && (sets.at(word).effective & (1U << (capability % 32))) != 0;
}

bool any_capability(const CapabilitySets& sets) {
  return std::ranges::any_of(sets, [](const __user_cap_data_struct& set) {
    return set.effective != 0 || set.permitted != 0 || set.inheritable != 0;
  });
}

// Empties the bounding set (needs CAP_SETPCAP: without it the set stays,
// harmlessly so once no_new_privs forbids gaining any capability).
void drop_bounding_set(const RunAs& who, const CapabilitySets& sets) {
  if (!has_capability(sets, CAP_SETPCAP)) {
    return;
  }
  for (unsigned long capability = 0;; ++capability) {
    if (::prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0) {
      if (errno == EINVAL) {
        return;  // past the last capability this kernel knows
      }
      fail(who, errno, "capability bounding set");
    }
  }
}

}  // namespace

RunAs parse_user(std::string_view text) {
  const std::size_t colon = text.find(':');
  const std::string_view user = text.substr(0, colon);
  if (user.empty()) {
    invalid(text, "no user (USER[:GROUP])");
  }
  RunAs who{.uid = 0, .gid = 0, .name = std::string(text)};
  const std::optional<std::pair<uid_t, gid_t>> entry = find_user(user);
  const std::optional<std::uint32_t> number = parse_id(user);
  if (entry) {
    who.uid = entry->first;
    who.gid = entry->second;
  } else if (number) {
    who.uid = *number;
  } else {
    invalid(text, "no such user");
  }
  if (colon != std::string_view::npos) {
    const std::string_view group = text.substr(colon + 1);
    if (group.empty()) {
      invalid(text, "no group after ':'");
    }
    const std::optional<gid_t> gid = find_group(group);
    if (!gid) {
      invalid(text, "no such group");
    }
    who.gid = *gid;
  } else if (!entry) {
    invalid(text, "uid " + std::string(user) + " has no passwd entry: give USER:GROUP");
  }
  return who;
}

std::optional<RunAs> choose_run_as(const std::optional<std::string>& user) {
  if (user) {
    RunAs who = parse_user(*user);
    if (who.uid == 0) {
      return std::nullopt;  // root, as asked
    }
    return who;
  }
  uid_t ruid = 0;
  uid_t euid = 0;
  uid_t suid = 0;
  if (::getresuid(&ruid, &euid, &suid) != 0) {
    throw std::system_error(errno, std::generic_category(), "getresuid");
  }
  if (ruid == 0 || euid == 0 || suid == 0) {
    return parse_user(kDefaultUser);
  }
  if (privileged()) {
    return RunAs{.uid = ruid, .gid = ::getgid(), .name = "uid " + std::to_string(ruid)};
  }
  return std::nullopt;
}

bool privileged() {
  uid_t ruid = 0;
  uid_t euid = 0;
  uid_t suid = 0;
  gid_t rgid = 0;
  gid_t egid = 0;
  gid_t sgid = 0;
  if (::getresuid(&ruid, &euid, &suid) != 0 || ::getresgid(&rgid, &egid, &sgid) != 0) {
    throw std::system_error(errno, std::generic_category(), "getresuid");
  }
  if (ruid == 0 || euid == 0 || suid == 0 || rgid == 0 || egid == 0 || sgid == 0) {
    return true;
  }
  // The ambient set is a subset of the permitted one.
  return any_capability(get_capabilities());
}

void drop_privileges(const RunAs& who) {
  const CapabilitySets held = get_capabilities();
  drop_bounding_set(who, held);
  if (::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) {
    fail(who, errno, "ambient capabilities");
  }
  // An ordinary user staying who it is keeps its groups (it may not drop
  // them); anyone else starts without a supplementary group.
  const bool same_user = who.uid == ::getuid() && who.gid == ::getgid();
  if (::setgroups(0, nullptr) != 0 && !(errno == EPERM && same_user)) {
    fail(who, errno, "setgroups");
  }
  if (::setresgid(who.gid, who.gid, who.gid) != 0) {
    fail(who, errno, "setresgid");
  }
  if (::setresuid(who.uid, who.uid, who.uid) != 0) {
    fail(who, errno, "setresuid");
  }
  __user_cap_header_struct header{.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  CapabilitySets none{};
  if (::syscall(SYS_capset, &header, none.data()) != 0) {
    fail(who, errno, "capset");
  }
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    fail(who, errno, "no_new_privs");
  }
  // Check, rather than trust, that nothing is left.
  uid_t ruid = 0;
  uid_t euid = 0;
  uid_t suid = 0;
  if (::getresuid(&ruid, &euid, &suid) != 0 || ruid != who.uid || euid != who.uid ||
      suid != who.uid || any_capability(get_capabilities())) {
    fail(who, EPERM, "still privileged after dropping");
  }
  if (who.uid != 0 && ::setuid(0) == 0) {
    fail(who, EPERM, "root could be regained");
  }
}

}  // namespace hfctl
