// hfctl/exporter/privileges.h - what a long-running server started by root
// gives up before it serves: the exporter reads counters through generic
// netlink, which needs no capability, so once it has entered its network
// namespace (setns needs CAP_SYS_ADMIN) and bound its socket it keeps nothing:
// another user and group, no supplementary group, no capability in any set (the
// bounding set too), no way back (no_new_privs).
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>

namespace hfctl {

inline constexpr std::string_view kDefaultUser = "nobody";

// The user (and group) to run as.
struct RunAs {
  uid_t uid = 0;
  gid_t gid = 0;
  std::string name;  // as given, for messages

  friend bool operator==(const RunAs&, const RunAs&) = default;
};

// "--user USER[:GROUP]": each a name (passwd, group) or a number. The
// group defaults to USER's primary group, which a number without a passwd
// entry does not have (then GROUP is required). Throws UsageError.
[[nodiscard]] RunAs parse_user(std::string_view text);

// Whom a server should become, given its --user option if any: USER, or
// nobody (kDefaultUser) when started with a uid of 0, or the invoking user
// without capabilities when it holds some; nullopt to stay as it is: an
// ordinary user without capabilities, or --user root (root asked for).
// Throws UsageError (from parse_user()), std::system_error.
[[nodiscard]] std::optional<RunAs> choose_run_as(const std::optional<std::string>& user);

// Whether this process could do more than an ordinary user: any of its
// uids or gids is 0, or it holds a capability (permitted, effective or
// ambient). Throws std::system_error when capget() fails.
[[nodiscard]] bool privileged();

// Becomes `who` for good, in this order: empty the capability bounding
// set and the ambient set, drop supplementary groups, set every gid and
// uid, empty every capability set, set no_new_privs; then checks that
// root cannot be regained. Drops the capabilities only when `who` is the
// current user (an unprivileged user holding some). Call it before
// starting threads: capabilities are per thread. Throws std::system_error
// ("cannot run as nobody: Operation not permitted").
void drop_privileges(const RunAs& who);

}  // namespace hfctl
