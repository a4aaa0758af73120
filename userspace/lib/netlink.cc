// lib/netlink.cc - private to libhyperframe: netlink requests over libnl
// (see netlink.h); kernel errors are turned into ControlError with the
// extended ack (the message, the blamed attribute and its policy range).
//
// libnl is a C API; the casts and pointer walks it needs stay in this file
// and in the callers' reply parsing.
#include "netlink.h"

#include <linux/genetlink.h>
#include <linux/hyperframe.h>
#include <linux/netlink.h>
#include <sys/socket.h>

#include <array>
#include <cerrno>
#include <exception>
#include <optional>
#include <system_error>
#include <utility>

#include "attribute.h"

#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

namespace hf::detail {
namespace {

void free_cb(nl_cb* cb) noexcept {
  nl_cb_put(cb);
}
using CbPtr = std::unique_ptr<nl_cb, decltype(&free_cb)>;

// One request in flight and what came back.
struct Transaction {
  std::function<void(nlmsghdr*)> on_reply;  // one reply message
  const nlmsghdr* request = nullptr;
  int header_len = 0;  // the family header before the request's attributes
  bool done = false;
  int error = 0;
  std::string extack;
  std::optional<int> attribute;
  std::optional<ValueRange> range;
  std::exception_ptr failure;
};

Transaction& transaction(void* arg) {
  return *static_cast<Transaction*>(arg);
}

int on_valid(nl_msg* msg, void* arg) {
  Transaction& t = transaction(arg);
  try {
    t.on_reply(nlmsg_hdr(msg));
  } catch (...) {
    t.failure = std::current_exception();
    t.done = true;
    return NL_STOP;
  }
  return NL_OK;
}

int on_done(nl_msg* /*msg*/, void* arg) {
  transaction(arg).done = true;
  return NL_STOP;
}

// The attribute of the request that starts `offset` bytes into it.
std::optional<int> attribute_at(const Transaction& t, std::uint32_t offset) {
  if (t.request == nullptr) {
    return std::nullopt;
  }
  // NOLINTBEGIN(cppcoreguidelines-pro-type-reinterpret-cast,cppcoreguidelines-pro-bounds-pointer-arithmetic)
  const auto* base = reinterpret_cast<const char*>(t.request);
  auto* head = nlmsg_attrdata(t.request, t.header_len);
  int remaining = nlmsg_attrlen(t.request, t.header_len);
  const nlattr* nla = nullptr;
  nla_for_each_attr(nla, head, remaining, remaining) {
    if (reinterpret_cast<const char*>(nla) - base == static_cast<std::ptrdiff_t>(offset)) {
      return nla_type(nla);
    }
  }
  // NOLINTEND(cppcoreguidelines-pro-type-reinterpret-cast,cppcoreguidelines-pro-bounds-pointer-arithmetic)
  return std::nullopt;
}

// Reads the extended ack TLVs after an error (NLM_F_ACK_TLVS).
void parse_extack(Transaction& t, nlmsgerr* error) {
  // NOLINTBEGIN(cppcoreguidelines-pro-type-reinterpret-cast,cppcoreguidelines-pro-bounds-pointer-arithmetic)
  const auto* nlh =
      reinterpret_cast<const nlmsghdr*>(reinterpret_cast<const char*>(error) - NLMSG_HDRLEN);
  if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) == 0) {
    return;
  }
  std::size_t offset = sizeof(*error);
  if ((nlh->nlmsg_flags & NLM_F_CAPPED) == 0) {
    offset += error->msg.nlmsg_len - NLMSG_HDRLEN;
  }
  const std::size_t payload = nlh->nlmsg_len - NLMSG_HDRLEN;
  if (offset >= payload) {
    return;
  }
  auto* tlvs = reinterpret_cast<nlattr*>(reinterpret_cast<char*>(error) + NLMSG_ALIGN(offset));
  // NOLINTEND(cppcoreguidelines-pro-type-reinterpret-cast,cppcoreguidelines-pro-bounds-pointer-arithmetic)
  std::array<nlattr*, NLMSGERR_ATTR_MAX + 1> tb{};
  if (nla_parse(tb.data(), NLMSGERR_ATTR_MAX, tlvs, static_cast<int>(payload - NLMSG_ALIGN(offset)),
                nullptr) < 0) {
    return;
  }
  if (tb[NLMSGERR_ATTR_MSG] != nullptr) {
    t.extack = nla_get_string(tb[NLMSGERR_ATTR_MSG]);
  }
  if (tb[NLMSGERR_ATTR_OFFS] != nullptr) {
    t.attribute = attribute_at(t, nla_get_u32(tb[NLMSGERR_ATTR_OFFS]));
  }
  if (tb[NLMSGERR_ATTR_POLICY] != nullptr) {
    std::array<nlattr*, NL_POLICY_TYPE_ATTR_MAX + 1> policy{};
    if (nla_parse_nested(policy.data(), NL_POLICY_TYPE_ATTR_MAX, tb[NLMSGERR_ATTR_POLICY],
                         nullptr) == 0 &&
        policy[NL_POLICY_TYPE_ATTR_MIN_VALUE_U] != nullptr &&
        policy[NL_POLICY_TYPE_ATTR_MAX_VALUE_U] != nullptr) {
      t.range = ValueRange{nla_get_u64(policy[NL_POLICY_TYPE_ATTR_MIN_VALUE_U]),
                           nla_get_u64(policy[NL_POLICY_TYPE_ATTR_MAX_VALUE_U])};
    }
  }
}

int on_error(sockaddr_nl* /*who*/, nlmsgerr* error, void* arg) {
  Transaction& t = transaction(arg);
  t.error = -error->error;
  t.done = true;
  parse_extack(t, error);
  return NL_STOP;
}

}  // namespace

void free_msg(nl_msg* msg) noexcept {
  nlmsg_free(msg);
}

void free_sock(nl_sock* sock) noexcept {
  nl_socket_free(sock);
}

void throw_errno(int error, const std::string& what) {
  throw std::system_error(error, std::generic_category(), what);
}

int nl_to_errno(int nl_error) {
  switch (-nl_error) {
    case NLE_NOMEM:
      return ENOMEM;
    case NLE_PERM:
      return EPERM;
    case NLE_INVAL:
    case NLE_RANGE:
      return EINVAL;
    case NLE_OBJ_NOTFOUND:
      return ENOENT;
    default:
      return EIO;
  }
}

SockPtr open_socket(int protocol) {
  SockPtr sock(nl_socket_alloc(), &free_sock);
  if (!sock) {
    throw_errno(ENOMEM, "nl_socket_alloc");
  }
  const int err = nl_connect(sock.get(), protocol);
  if (err < 0) {
    throw_errno(nl_to_errno(err), protocol == NETLINK_GENERIC ? "connecting to generic netlink"
                                                              : "connecting to rtnetlink");
  }
  // Errors then carry the message, the attribute and its range.
  const int one = 1;
  if (setsockopt(nl_socket_get_fd(sock.get()), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) !=
      0) {
    throw_errno(errno, "setsockopt(NETLINK_EXT_ACK)");
  }
  nl_socket_disable_auto_ack(sock.get());
  return sock;
}

int resolve_family(nl_sock* sock) {
  const int family = genl_ctrl_resolve(sock, HF_GENL_NAME);
  if (family == -NLE_OBJ_NOTFOUND) {
    throw_not_loaded();
  }
  if (family < 0) {
    throw_errno(nl_to_errno(family), "resolving the generic netlink family " HF_GENL_NAME);
  }
  return family;
}

void exchange(nl_sock* sock, nl_msg* request, int header_len,
              const std::function<void(nlmsghdr*)>& on_reply, const std::string& context) {
  CbPtr cb(nl_cb_alloc(NL_CB_DEFAULT), &free_cb);
  if (!cb) {
    throw_errno(ENOMEM, context);
  }
  Transaction t;
  t.on_reply = on_reply;
  t.request = nlmsg_hdr(request);
  t.header_len = header_len;
  nl_cb_set(cb.get(), NL_CB_VALID, NL_CB_CUSTOM, &on_valid, &t);
  nl_cb_set(cb.get(), NL_CB_FINISH, NL_CB_CUSTOM, &on_done, &t);
  nl_cb_set(cb.get(), NL_CB_ACK, NL_CB_CUSTOM, &on_done, &t);
  nl_cb_err(cb.get(), NL_CB_CUSTOM, &on_error, &t);

  int err = nl_send_auto(sock, request);
  if (err < 0) {
    throw_errno(nl_to_errno(err), context);
  }
  while (!t.done) {
    err = nl_recvmsgs(sock, cb.get());
    if (err < 0 && !t.done) {
      throw_errno(nl_to_errno(err), context);
    }
  }
  if (t.failure) {
    std::rethrow_exception(t.failure);
  }
  if (t.error != 0) {
    throw ControlError(std::error_code(t.error, std::generic_category()), context,
                       std::move(t.extack), t.attribute, t.range);
  }
}

void genl_transact(nl_sock* sock, int family, std::uint8_t cmd, bool dump,
                   const std::function<void(nl_msg*)>& fill,
                   const std::function<void(nlmsghdr*)>& on_reply, const std::string& context) {
  MsgPtr msg(nlmsg_alloc(), &free_msg);
  if (!msg) {
    throw_errno(ENOMEM, context);
  }
  const int flags = NLM_F_REQUEST | (dump ? NLM_F_DUMP : NLM_F_ACK);
  if (genlmsg_put(msg.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, flags, cmd, HF_GENL_VERSION) ==
      nullptr) {
    throw_errno(ENOMEM, context);
  }
  if (fill) {
    fill(msg.get());
  }
  exchange(sock, msg.get(), GENL_HDRLEN, on_reply, context);
}

std::vector<nlattr*> parse_reply(nlmsghdr* nlh, int maxattr, const std::string& context) {
  std::vector<nlattr*> tb(static_cast<std::size_t>(maxattr) + 1);
  if (genlmsg_parse(nlh, 0, tb.data(), maxattr, nullptr) < 0) {
    throw_errno(EPROTO, context + ": malformed reply");
  }
  return tb;
}

std::uint32_t get_u32(nlattr** tb, int type) {
  nlattr* nla = tb[type];  // NOLINT(cppcoreguidelines-pro-bounds-pointer-arithmetic)
  return nla != nullptr && nla_len(nla) >= 4 ? nla_get_u32(nla) : 0;
}

std::uint64_t get_u64(nlattr** tb, int type) {
  nlattr* nla = tb[type];  // NOLINT(cppcoreguidelines-pro-bounds-pointer-arithmetic)
  return nla != nullptr && nla_len(nla) >= 8 ? nla_get_u64(nla) : 0;
}

std::uint64_t get_uint(nlattr* nla, std::string_view name, const std::string& context) {
  switch (nla_len(nla)) {
    case 2:
      return nla_get_u16(nla);
    case 4:
      return nla_get_u32(nla);
    case 8:
      return nla_get_u64(nla);
    default:
      throw_errno(EPROTO, context + ": bad " + std::string(name));
  }
}

void for_each_of_type(nlmsghdr* nlh, int type, const std::function<void(nlattr*)>& on_nest) {
  auto* genl = static_cast<genlmsghdr*>(nlmsg_data(nlh));
  nlattr* nla = nullptr;
  int remaining = 0;
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast,cppcoreguidelines-pro-bounds-pointer-arithmetic)
  nla_for_each_attr(nla, genlmsg_attrdata(genl, 0), genlmsg_attrlen(genl, 0), remaining) {
    if (nla_type(nla) == type) {
      on_nest(nla);
    }
  }
}

std::vector<Counter> parse_counters(nlmsghdr* nlh, int type, const std::string& context) {
  std::vector<Counter> counters;
  for_each_of_type(nlh, type, [&](nlattr* nla) {
    std::array<nlattr*, HF_COUNTER_A_MAX + 1> tb{};
    if (nla_parse_nested(tb.data(), HF_COUNTER_A_MAX, nla, nullptr) < 0 ||
        tb[HF_COUNTER_A_NAME] == nullptr || tb[HF_COUNTER_A_VALUE] == nullptr) {
      throw_errno(EPROTO, context + ": malformed counter");
    }
    counters.push_back(
        {nla_get_string(tb[HF_COUNTER_A_NAME]), get_u64(tb.data(), HF_COUNTER_A_VALUE)});
  });
  return counters;
}

Histogram parse_histogram(nlmsghdr* nlh, int type, const std::string& context) {
  Histogram histogram;
  for_each_of_type(nlh, type, [&](nlattr* nla) {
    std::array<nlattr*, HF_BUCKET_A_MAX + 1> tb{};
    if (nla_parse_nested(tb.data(), HF_BUCKET_A_MAX, nla, nullptr) < 0 ||
        tb[HF_BUCKET_A_LE] == nullptr || tb[HF_BUCKET_A_COUNT] == nullptr) {
      throw_errno(EPROTO, context + ": malformed histogram bucket");
    }
    const HistogramBucket bucket{.le = get_u64(tb.data(), HF_BUCKET_A_LE),
                                 .count = get_u64(tb.data(), HF_BUCKET_A_COUNT)};
    if (!histogram.buckets.empty() && bucket.le <= histogram.buckets.back().le) {
      throw_errno(EPROTO, context + ": histogram bounds out of order");
    }
    histogram.buckets.push_back(bucket);
  });
  return histogram;
}

}  // namespace hf::detail
