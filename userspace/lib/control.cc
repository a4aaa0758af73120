// lib/control.cc - hf::Control over libnl-genl-3: requests to the
// "hyperframe" generic netlink family, replies parsed into plain structs,
// and kernel errors turned into ControlError with the extended ack (the
// message, the blamed attribute and its policy range).
//
// libnl is a C API; the casts and pointer walks it needs stay in this file.
#include "hyperframe/control.h"

#include <linux/genetlink.h>
#include <linux/hyperframe.h>
#include <linux/netlink.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <functional>
#include <utility>

#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

namespace hf {
namespace {

// clang-format off
constexpr std::array kConfigKeys{
    ConfigKey{"ethertype", "ethertype", HF_CONFIG_A_ETHERTYPE, Unit::count, false,
              "EtherType of hyperframe frames (module parameter)"},
    ConfigKey{"max_msg", "max_msg", HF_CONFIG_A_MAX_MSG, Unit::bytes, true,
              "largest message sent or accepted"},
    ConfigKey{"max_peers", "max_peers", HF_CONFIG_A_MAX_PEERS, Unit::count, true,
              "peers one namespace may hold"},
    ConfigKey{"frame_segs", "frame_segs", HF_CONFIG_A_FRAME_SEGS, Unit::count, true,
              "wire segments per hyperframe"},
    ConfigKey{"mem_limit", "mem_limit", HF_CONFIG_A_MEM_LIMIT, Unit::bytes, true,
              "reassembly memory one namespace may hold"},
    ConfigKey{"peer_idle", "peer_idle_ms", HF_CONFIG_A_PEER_IDLE_MS, Unit::msecs, true,
              "an idle peer is reclaimed after this long"},
    ConfigKey{"flow_reset", "flow_reset_ms", HF_CONFIG_A_FLOW_RESET_MS, Unit::msecs, true,
              "a sender idle this long starts a new epoch"},
    ConfigKey{"ack_delay", "ack_delay_us", HF_CONFIG_A_ACK_DELAY_US, Unit::usecs, true,
              "longest an ACK waits for company"},
    ConfigKey{"max_inflight", "max_inflight", HF_CONFIG_A_MAX_INFLIGHT, Unit::count, true,
              "wire segments in flight per peer"},
    ConfigKey{"rto_min", "rto_min_us", HF_CONFIG_A_RTO_MIN_US, Unit::usecs, true,
              "least retransmission timeout"},
    ConfigKey{"rto_max", "rto_max_us", HF_CONFIG_A_RTO_MAX_US, Unit::usecs, true,
              "greatest retransmission timeout, backoff included"},
    ConfigKey{"rto_initial", "rto_initial_us", HF_CONFIG_A_RTO_INITIAL_US, Unit::usecs, true,
              "retransmission timeout before the first sample"},
    ConfigKey{"rto_granularity", "rto_granularity_us", HF_CONFIG_A_RTO_GRANULARITY_US,
              Unit::usecs, false, "timer granularity (one jiffy)"},
    ConfigKey{"rto_max_backoff", "rto_max_backoff", HF_CONFIG_A_RTO_MAX_BACKOFF, Unit::count,
              true, "doublings of the timeout, at most"},
    ConfigKey{"retry_limit", "retry_limit", HF_CONFIG_A_RETRY_LIMIT, Unit::count, true,
              "timeouts in a row before a peer is unreachable (255: no limit)"},
};
// clang-format on

void free_msg(nl_msg* msg) noexcept {
  nlmsg_free(msg);
}
void free_cb(nl_cb* cb) noexcept {
  nl_cb_put(cb);
}
using MsgPtr = std::unique_ptr<nl_msg, decltype(&free_msg)>;
using CbPtr = std::unique_ptr<nl_cb, decltype(&free_cb)>;

[[noreturn]] void throw_errno(int error, const std::string& what) {
  throw std::system_error(error, std::generic_category(), what);
}

// A libnl error code (negative NLE_*) as the closest errno.
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

// One request in flight and what came back.
struct Transaction {
  std::function<void(nlmsghdr*)> on_reply;  // one reply message
  const nlmsghdr* request = nullptr;
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
std::optional<int> attribute_at(const nlmsghdr* request, std::uint32_t offset) {
  if (request == nullptr) {
    return std::nullopt;
  }
  // NOLINTBEGIN(cppcoreguidelines-pro-type-reinterpret-cast,cppcoreguidelines-pro-bounds-pointer-arithmetic)
  const auto* base = reinterpret_cast<const char*>(request);
  auto* head = genlmsg_attrdata(static_cast<const genlmsghdr*>(nlmsg_data(request)), 0);
  int remaining = genlmsg_attrlen(static_cast<const genlmsghdr*>(nlmsg_data(request)), 0);
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
    t.attribute = attribute_at(t.request, nla_get_u32(tb[NLMSGERR_ATTR_OFFS]));
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

// The attributes of a reply, indexed by type (0..maxattr); later
// duplicates win. Throws std::system_error (EPROTO) on a malformed reply.
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

}  // namespace

std::span<const ConfigKey> config_keys() noexcept {
  return kConfigKeys;
}

const ConfigKey* find_config_key(std::string_view name) noexcept {
  const auto* found = std::find_if(kConfigKeys.begin(), kConfigKeys.end(), [name](const auto& key) {
    return key.name == name || key.json_name == name;
  });
  return found == kConfigKeys.end() ? nullptr : &*found;
}

ControlError::ControlError(std::error_code code, const std::string& context, std::string extack,
                           std::optional<int> attribute, std::optional<ValueRange> range)
    : std::system_error(code, extack.empty() ? context : context + ": " + extack),
      extack_(std::move(extack)),
      attribute_(attribute),
      range_(range) {}

void Control::SockDeleter::operator()(nl_sock* sock) const noexcept {
  nl_socket_free(sock);
}

Control::Control(std::unique_ptr<nl_sock, SockDeleter> sock, int family) noexcept
    : sock_(std::move(sock)), family_(family) {}
Control::Control(Control&&) noexcept = default;
Control& Control::operator=(Control&&) noexcept = default;
Control::~Control() = default;

Control Control::open() {
  std::unique_ptr<nl_sock, SockDeleter> sock(nl_socket_alloc());
  if (!sock) {
    throw_errno(ENOMEM, "nl_socket_alloc");
  }
  int err = genl_connect(sock.get());
  if (err < 0) {
    throw_errno(nl_to_errno(err), "connecting to generic netlink");
  }
  // Errors then carry the message, the attribute and its range.
  const int one = 1;
  if (setsockopt(nl_socket_get_fd(sock.get()), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) !=
      0) {
    throw_errno(errno, "setsockopt(NETLINK_EXT_ACK)");
  }
  nl_socket_disable_auto_ack(sock.get());
  err = genl_ctrl_resolve(sock.get(), HF_GENL_NAME);
  if (err < 0) {
    if (err == -NLE_OBJ_NOTFOUND) {
      throw std::system_error(std::make_error_code(std::errc::address_family_not_supported),
                              "hyperframe module not loaded (load hyperframe.ko first)");
    }
    throw_errno(nl_to_errno(err), "resolving the generic netlink family " HF_GENL_NAME);
  }
  return {std::move(sock), err};
}

namespace {

// Sends a request built by `fill` and feeds each reply's attributes to
// `on_reply`; returns when the kernel acked, finished the dump or failed.
void transact(nl_sock* sock, int family, std::uint8_t cmd, bool dump,
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
  CbPtr cb(nl_cb_alloc(NL_CB_DEFAULT), &free_cb);
  if (!cb) {
    throw_errno(ENOMEM, context);
  }
  Transaction t;
  t.on_reply = on_reply;
  t.request = nlmsg_hdr(msg.get());
  nl_cb_set(cb.get(), NL_CB_VALID, NL_CB_CUSTOM, &on_valid, &t);
  nl_cb_set(cb.get(), NL_CB_FINISH, NL_CB_CUSTOM, &on_done, &t);
  nl_cb_set(cb.get(), NL_CB_ACK, NL_CB_CUSTOM, &on_done, &t);
  nl_cb_err(cb.get(), NL_CB_CUSTOM, &on_error, &t);

  int err = nl_send_auto(sock, msg.get());
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

}  // namespace

std::vector<ConfigValue> Control::config() {
  const std::string context = "reading the configuration";
  std::vector<ConfigValue> values;
  transact(
      sock_.get(), family_, HF_CMD_CONFIG_GET, false, nullptr,
      [&values, &context](nlmsghdr* nlh) {
        std::vector<nlattr*> tb = parse_reply(nlh, HF_CONFIG_A_MAX, context);
        for (const ConfigKey& key : kConfigKeys) {
          nlattr* nla = tb.at(static_cast<std::size_t>(key.attribute));
          if (nla == nullptr) {
            continue;  // an older module
          }
          std::uint64_t value = 0;
          switch (nla_len(nla)) {
            case 2:
              value = nla_get_u16(nla);
              break;
            case 4:
              value = nla_get_u32(nla);
              break;
            case 8:
              value = nla_get_u64(nla);
              break;
            default:
              throw_errno(EPROTO, context + ": bad " + std::string(key.json_name));
          }
          values.push_back({&key, value});
        }
      },
      context);
  return values;
}

void Control::set_config(std::span<const ConfigValue> changes) {
  const std::string context = "changing the configuration";
  transact(
      sock_.get(), family_, HF_CMD_CONFIG_SET, false,
      [changes, &context](nl_msg* msg) {
        for (const ConfigValue& change : changes) {
          const int err = change.key->attribute == HF_CONFIG_A_MEM_LIMIT
                              ? nla_put_u64(msg, change.key->attribute, change.value)
                              : nla_put_u32(msg, change.key->attribute,
                                            static_cast<std::uint32_t>(change.value));
          if (err < 0) {
            throw_errno(ENOMEM, context);
          }
        }
      },
      [](nlmsghdr* /*nlh*/) {}, context);
}

std::vector<Counter> Control::stats() {
  const std::string context = "reading the counters";
  std::vector<Counter> counters;
  transact(
      sock_.get(), family_, HF_CMD_STATS_GET, false, nullptr,
      [&counters, &context](nlmsghdr* nlh) {
        auto* genl = static_cast<genlmsghdr*>(nlmsg_data(nlh));
        nlattr* nla = nullptr;
        int remaining = 0;
        // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast,cppcoreguidelines-pro-bounds-pointer-arithmetic)
        nla_for_each_attr(nla, genlmsg_attrdata(genl, 0), genlmsg_attrlen(genl, 0), remaining) {
          if (nla_type(nla) != HF_STATS_A_COUNTER) {
            continue;
          }
          std::array<nlattr*, HF_COUNTER_A_MAX + 1> tb{};
          if (nla_parse_nested(tb.data(), HF_COUNTER_A_MAX, nla, nullptr) < 0 ||
              tb[HF_COUNTER_A_NAME] == nullptr || tb[HF_COUNTER_A_VALUE] == nullptr) {
            throw_errno(EPROTO, context + ": malformed counter");
          }
          counters.push_back(
              {nla_get_string(tb[HF_COUNTER_A_NAME]), get_u64(tb.data(), HF_COUNTER_A_VALUE)});
        }
      },
      context);
  return counters;
}

std::vector<PeerInfo> Control::peers() {
  const std::string context = "listing the peers";
  std::vector<PeerInfo> peers;
  transact(
      sock_.get(), family_, HF_CMD_PEER_GET, true, nullptr,
      [&peers, &context](nlmsghdr* nlh) {
        std::vector<nlattr*> v = parse_reply(nlh, HF_PEER_A_MAX, context);
        nlattr** tb = v.data();
        PeerInfo peer{.ifindex = static_cast<int>(get_u32(tb, HF_PEER_A_IFINDEX)),
                      .epoch = get_u32(tb, HF_PEER_A_EPOCH),
                      .seg_size = get_u32(tb, HF_PEER_A_SEG_SIZE),
                      .credit = get_u32(tb, HF_PEER_A_CREDIT),
                      .inflight = get_u32(tb, HF_PEER_A_INFLIGHT),
                      .srtt_us = get_u32(tb, HF_PEER_A_SRTT_US),
                      .rttvar_us = get_u32(tb, HF_PEER_A_RTTVAR_US),
                      .min_rtt_us = get_u32(tb, HF_PEER_A_MIN_RTT_US),
                      .rto_us = get_u32(tb, HF_PEER_A_RTO_US),
                      .backoff = get_u32(tb, HF_PEER_A_BACKOFF),
                      .retries = get_u32(tb, HF_PEER_A_RETRIES),
                      .tx_queued_msgs = get_u32(tb, HF_PEER_A_TX_QUEUED_MSGS),
                      .tx_segs = get_u64(tb, HF_PEER_A_TX_SEGS),
                      .retransmits = get_u64(tb, HF_PEER_A_RETRANSMITS),
                      .spurious = get_u64(tb, HF_PEER_A_SPURIOUS),
                      .rx_segs = get_u64(tb, HF_PEER_A_RX_SEGS)};
        nlattr* addr = v.at(HF_PEER_A_ADDR);
        if (addr != nullptr && nla_len(addr) == static_cast<int>(peer.address.size())) {
          std::memcpy(peer.address.data(), nla_data(addr), peer.address.size());
        }
        peers.push_back(peer);
      },
      context);
  return peers;
}

std::vector<SocketInfo> Control::sockets() {
  const std::string context = "listing the sockets";
  std::vector<SocketInfo> sockets;
  transact(
      sock_.get(), family_, HF_CMD_SOCKET_GET, true, nullptr,
      [&sockets, &context](nlmsghdr* nlh) {
        std::vector<nlattr*> v = parse_reply(nlh, HF_SOCKET_A_MAX, context);
        nlattr** tb = v.data();
        sockets.push_back({.port = get_u32(tb, HF_SOCKET_A_PORT),
                           .ifindex = static_cast<int>(get_u32(tb, HF_SOCKET_A_IFINDEX)),
                           .tx_queued = get_u64(tb, HF_SOCKET_A_TX_QUEUED),
                           .rx_queued = get_u64(tb, HF_SOCKET_A_RX_QUEUED),
                           .rx_reassembly = get_u64(tb, HF_SOCKET_A_RX_REASSEMBLY),
                           .tx_msgs = get_u64(tb, HF_SOCKET_A_TX_MSGS),
                           .inode = get_u64(tb, HF_SOCKET_A_INODE),
                           .uid = get_u32(tb, HF_SOCKET_A_UID)});
      },
      context);
  return sockets;
}

}  // namespace hf
