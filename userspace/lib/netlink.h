// lib/netlink.h - private to libhyperframe: netlink requests over libnl,
// shared by the generic netlink client (control.cc, qdisc.cc) and the
// rtnetlink one (qdisc.cc): sockets with extended acks, one request and
// its replies, kernel errors as ControlError, and the reading of replies.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hyperframe/control.h"

struct nl_msg;
struct nl_sock;
struct nlattr;
struct nlmsghdr;

namespace hf::detail {

void free_msg(nl_msg* msg) noexcept;
void free_sock(nl_sock* sock) noexcept;
using MsgPtr = std::unique_ptr<nl_msg, decltype(&free_msg)>;
using SockPtr = std::unique_ptr<nl_sock, decltype(&free_sock)>;

[[noreturn]] void throw_errno(int error, const std::string& what);

// A libnl error code (negative NLE_*) as the closest errno.
[[nodiscard]] int nl_to_errno(int nl_error);

// A socket of netlink `protocol` (NETLINK_GENERIC, NETLINK_ROUTE), connected,
// asking for extended acks, without automatic acks (requests that want one
// set NLM_F_ACK). Throws std::system_error.
[[nodiscard]] SockPtr open_socket(int protocol);

// The id of the generic netlink family "hyperframe" as `sock` sees it.
// Throws std::system_error: "load hyperframe.ko first" when it is not
// registered, the errno of any other failure.
[[nodiscard]] int resolve_family(nl_sock* sock);

// Sends `request` (complete but for port and sequence number) and feeds each
// reply to `on_reply`; returns when the kernel acked, finished the dump or
// failed. `header_len` is the length of the family's header (GENL_HDRLEN,
// sizeof(tcmsg)) before the request's attributes, to tell which attribute an
// error blames. Throws ControlError for an error the kernel returned
// ("<context>: <extack>"), std::system_error for any other failure, and what
// `on_reply` throws.
void exchange(nl_sock* sock, nl_msg* request, int header_len,
              const std::function<void(nlmsghdr*)>& on_reply, const std::string& context);

// One command to the generic netlink `family`: a request with NLM_F_ACK, or
// with `dump` NLM_F_DUMP, whose attributes `fill` (if set) adds; see exchange().
void genl_transact(nl_sock* sock, int family, std::uint8_t cmd, bool dump,
                   const std::function<void(nl_msg*)>& fill,
                   const std::function<void(nlmsghdr*)>& on_reply, const std::string& context);

// The attributes of a generic netlink reply, indexed by type (0..maxattr);
// later duplicates win. Throws std::system_error (EPROTO) on a malformed reply.
[[nodiscard]] std::vector<nlattr*> parse_reply(nlmsghdr* nlh, int maxattr,
                                               const std::string& context);

// The value of attribute `type` of a parsed reply; 0 when absent or short.
[[nodiscard]] std::uint32_t get_u32(nlattr** tb, int type);
[[nodiscard]] std::uint64_t get_u64(nlattr** tb, int type);
// An unsigned attribute of any width (u16, u32, u64). Throws
// std::system_error (EPROTO) naming it `name` for any other length.
[[nodiscard]] std::uint64_t get_uint(nlattr* nla, std::string_view name,
                                     const std::string& context);

// Calls `on_nest` with each top-level attribute of type `type` of a generic
// netlink reply, in order.
void for_each_of_type(nlmsghdr* nlh, int type, const std::function<void(nlattr*)>& on_nest);

// Every attribute of type `type` of a generic netlink reply that is a nest
// of HF_COUNTER_A_*, in order. Throws std::system_error (EPROTO) for a
// nest without a name or a value.
[[nodiscard]] std::vector<Counter> parse_counters(nlmsghdr* nlh, int type,
                                                  const std::string& context);

// Every attribute of type `type` of a generic netlink reply that is a nest
// of HF_BUCKET_A_*, in order, as a histogram (sum left 0). Throws
// std::system_error (EPROTO) for a nest without a bound or a count, or
// bounds out of increasing order.
[[nodiscard]] Histogram parse_histogram(nlmsghdr* nlh, int type, const std::string& context);

}  // namespace hf::detail
