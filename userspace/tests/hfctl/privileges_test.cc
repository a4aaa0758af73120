// tests/hfctl/privileges_test.cc - unit tests of hfctl/exporter/privileges.cc:
// --user parsed against this host's passwd and group, whom a server
// becomes, and (as root, in a child process) the privileges dropped for
// good.
#include "exporter/privileges.h"

#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <system_error>

#include <gtest/gtest.h>

#include "cli/cli.h"

namespace {

using hfctl::RunAs;

// The uid and primary gid of `name` on this host.
std::optional<std::pair<uid_t, gid_t>> passwd_of(const char* name) {
  const passwd* entry = ::getpwnam(name);  // NOLINT(concurrency-mt-unsafe): single-threaded test
  if (entry == nullptr) {
    return std::nullopt;
  }
  return std::pair{entry->pw_uid, entry->pw_gid};
}

TEST(ParseUser, NamesAndNumbers) {
  EXPECT_EQ(hfctl::parse_user("root"), (RunAs{.uid = 0, .gid = 0, .name = "root"}));
  EXPECT_EQ(hfctl::parse_user("0"), (RunAs{.uid = 0, .gid = 0, .name = "0"}))
      << "a uid with a passwd entry takes its group";
  EXPECT_EQ(hfctl::parse_user("0:12345"), (RunAs{.uid = 0, .gid = 12345, .name = "0:12345"}));
  EXPECT_EQ(hfctl::parse_user("12345678:87654321"),
            (RunAs{.uid = 12345678, .gid = 87654321, .name = "12345678:87654321"}))
      << "numbers need no entry when both are given";
  EXPECT_EQ(hfctl::parse_user("root:root").gid, 0U);
  if (const auto nobody = passwd_of("nobody")) {
    const RunAs who = hfctl::parse_user("nobody");
    EXPECT_EQ(who.uid, nobody->first);
    EXPECT_EQ(who.gid, nobody->second);
  }
}

TEST(ParseUser, Refused) {
  for (const char* text :
       {"", ":0", "0:", "no-such-user-hf", "root:no-such-group-hf", "4294967295", "0:4294967295",
        "99999999999", "-1", "12345678" /* no passwd entry, no group */}) {
    EXPECT_THROW(static_cast<void>(hfctl::parse_user(text)), hfctl::UsageError) << text;
  }
}

TEST(ChooseRunAs, RootAskedForStays) {
  EXPECT_EQ(hfctl::choose_run_as("root"), std::nullopt);
  EXPECT_EQ(hfctl::choose_run_as("0"), std::nullopt);
  EXPECT_EQ(hfctl::choose_run_as("12345678:12345678"),
            (RunAs{.uid = 12345678, .gid = 12345678, .name = "12345678:12345678"}));
}

TEST(ChooseRunAs, DefaultFollowsWhoStarted) {
  const std::optional<RunAs> who = hfctl::choose_run_as(std::nullopt);
  if (::getuid() == 0 || ::geteuid() == 0) {
    ASSERT_TRUE(who.has_value());
    EXPECT_EQ(who->name, "nobody") << "root serves as nobody";
  } else if (hfctl::privileged()) {
    ASSERT_TRUE(who.has_value());
    EXPECT_EQ(who->uid, ::getuid()) << "capabilities go, the user stays";
  } else {
    EXPECT_EQ(who, std::nullopt) << "nothing to give up";
  }
}

// Runs `body` in a child process; its exit status (0 for success).
int in_child(const std::function<int()>& body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    int status = 99;
    try {
      status = body();
    } catch (...) {
      status = 98;
    }
    ::_exit(status);
  }
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
    return -1;
  }
  return WEXITSTATUS(status);
}

// Whether every capability set of this thread is empty.
bool no_capabilities() {
  __user_cap_header_struct header{.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  std::array<__user_cap_data_struct, _LINUX_CAPABILITY_U32S_3> sets{};
  if (::syscall(SYS_capget, &header, sets.data()) != 0) {
    return false;
  }
  return std::ranges::all_of(sets, [](const __user_cap_data_struct& set) {
    return set.effective == 0 && set.permitted == 0 && set.inheritable == 0;
  });
}

TEST(DropPrivileges, RootBecomesNobodyForGood) {
  if (::geteuid() != 0) {
    GTEST_SKIP() << "needs root";
  }
  const int status = in_child([] {
    hfctl::drop_privileges({.uid = 65534, .gid = 65534, .name = "65534:65534"});
    uid_t ruid = 0;
    uid_t euid = 0;
    uid_t suid = 0;
    gid_t rgid = 0;
    gid_t egid = 0;
    gid_t sgid = 0;
    if (::getresuid(&ruid, &euid, &suid) != 0 || ruid != 65534 || euid != 65534 || suid != 65534) {
      return 1;
    }
    if (::getresgid(&rgid, &egid, &sgid) != 0 || rgid != 65534 || egid != 65534 || sgid != 65534) {
      return 2;
    }
    if (::getgroups(0, nullptr) != 0) {
      return 3;
    }
    if (!no_capabilities()) {
      return 4;
    }
    if (::prctl(PR_CAPBSET_READ, CAP_NET_ADMIN, 0, 0, 0) != 0 ||
        ::prctl(PR_CAPBSET_READ, CAP_SYS_ADMIN, 0, 0, 0) != 0) {
      return 5;
    }
    if (::prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1) {
      return 6;
    }
    if (::setuid(0) == 0 || hfctl::privileged()) {
      return 7;
    }
    return 0;
  });
  EXPECT_EQ(status, 0) << "1 uids, 2 gids, 3 groups, 4 capabilities, 5 bounding set, "
                          "6 no_new_privs, 7 root regained";
}

TEST(DropPrivileges, AnOrdinaryUserCannotSwitch) {
  if (::geteuid() != 0) {
    GTEST_SKIP() << "needs root to become an ordinary user first";
  }
  const int status = in_child([] {
    hfctl::drop_privileges({.uid = 65534, .gid = 65534, .name = "65534:65534"});
    try {
      hfctl::drop_privileges({.uid = 1, .gid = 1, .name = "daemon"});
      return 1;
    } catch (const std::system_error& error) {
      if (error.code().value() != EPERM ||
          std::string(error.what()).find("cannot run as daemon") == std::string::npos) {
        return 2;
      }
    }
    // Staying who it is works: nothing left to drop.
    hfctl::drop_privileges({.uid = 65534, .gid = 65534, .name = "65534:65534"});
    return 0;
  });
  EXPECT_EQ(status, 0) << "1 switched, 2 another error";
}

}  // namespace
