// lib/control.cc - hf::Control over libnl-genl-3: opening the "hyperframe"
// generic netlink family, its configuration, counters, peers and sockets
// parsed into plain structs (the hfq qdisc's commands are in qdisc.cc; the
// request machinery and ControlError's extended ack in netlink.cc).
#include "hyperframe/control.h"

#include <linux/hyperframe.h>
#include <linux/netlink.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "attribute.h"
#include "netlink.h"

#include <netlink/attr.h>
#include <netlink/netlink.h>

namespace hf {
namespace {

using detail::get_u32;
using detail::get_u64;

// clang-format off
constexpr std::array kConfigKeys{
    ConfigKey{"ethertype", "ethertype", HF_CONFIG_A_ETHERTYPE, Unit::count, false,
              "EtherType of hyperframe frames (module parameter)"},
    ConfigKey{"max_msg", "max_msg", HF_CONFIG_A_MAX_MSG, Unit::bytes, true,
              "largest message sent or accepted"},
    ConfigKey{"max_peers", "max_peers", HF_CONFIG_A_MAX_PEERS, Unit::count, true,
              "peers one namespace may hold"},
    ConfigKey{"frame_segs", "frame_segs", HF_CONFIG_A_FRAME_SEGS, Unit::count, true,
              "wire segments in a new flow's first hyperframe"},
    ConfigKey{"frame_min_segs", "frame_min_segs", HF_CONFIG_A_FRAME_MIN_SEGS, Unit::count, true,
              "smallest hyperframe in wire segments (at most frame_segs)"},
    ConfigKey{"frame_max", "frame_max_bytes", HF_CONFIG_A_FRAME_MAX_BYTES, Unit::bytes, true,
              "largest hyperframe, payload bytes"},
    ConfigKey{"frame_delay_pct", "frame_delay_pct", HF_CONFIG_A_FRAME_DELAY_PCT, Unit::count,
              true, "round trip above the least by this percent is congestion (0: never)"},
    ConfigKey{"pacing_rate", "pacing_rate", HF_CONFIG_A_PACING_RATE, Unit::bytes_per_s, true,
              "every socket's pacing cap (100mbit, 10gbit); SO_MAX_PACING_RATE may lower it (0: none)"},
    ConfigKey{"mem_limit", "mem_limit", HF_CONFIG_A_MEM_LIMIT, Unit::bytes, true,
              "reassembly memory one namespace may hold"},
    ConfigKey{"peer_idle", "peer_idle_ms", HF_CONFIG_A_PEER_IDLE_MS, Unit::msecs, true,
              "an idle peer is reclaimed after this long"},
    ConfigKey{"flow_reset", "flow_reset_ms", HF_CONFIG_A_FLOW_RESET_MS, Unit::msecs, true,
              "a sender idle this long starts a new epoch"},
    ConfigKey{"ack_delay", "ack_delay_us", HF_CONFIG_A_ACK_DELAY_US, Unit::usecs, true,
              "longest an ACK waits for company"},
    ConfigKey{"max_inflight", "max_inflight", HF_CONFIG_A_MAX_INFLIGHT, Unit::count, true,
              "receiver queue entries per peer: segments, or trains carried whole"},
    ConfigKey{"credit_initial", "credit_initial", HF_CONFIG_A_CREDIT_INITIAL, Unit::bytes, true,
              "bytes a sender sends before its first grant; the same on every node"},
    ConfigKey{"credit_budget", "credit_budget", HF_CONFIG_A_CREDIT_BUDGET, Unit::bytes, true,
              "bytes granted all active senders together beyond what programs read"},
    ConfigKey{"rx_sched", "rx_sched", HF_CONFIG_A_RX_SCHED, Unit::count, true,
              "1: the receiver schedules its link with grants and rates (0: off)"},
    ConfigKey{"link_rate", "link_rate", HF_CONFIG_A_LINK_RATE, Unit::bytes_per_s, true,
              "our link's rate where the device's hfq has none (50mbit; 0: unknown)"},
    ConfigKey{"unsched_bytes", "unsched_bytes", HF_CONFIG_A_UNSCHED_BYTES, Unit::bytes, true,
              "rx_sched: bytes before a first grant (0: one bandwidth-delay product)"},
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

}  // namespace

std::span<const ConfigKey> config_keys() noexcept {
  return kConfigKeys;
}

bool config_key_is_u64(const ConfigKey& key) noexcept {
  return key.attribute == HF_CONFIG_A_MEM_LIMIT || key.attribute == HF_CONFIG_A_PACING_RATE ||
         key.attribute == HF_CONFIG_A_LINK_RATE;
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
  std::unique_ptr<nl_sock, SockDeleter> sock(detail::open_socket(NETLINK_GENERIC).release());
  const int family = detail::resolve_family(sock.get());
  return {std::move(sock), family};
}

std::vector<ConfigValue> Control::config() {
  const std::string context = "reading the configuration";
  std::vector<ConfigValue> values;
  detail::genl_transact(
      sock_.get(), family_, HF_CMD_CONFIG_GET, false, nullptr,
      [&values, &context](nlmsghdr* nlh) {
        std::vector<nlattr*> tb = detail::parse_reply(nlh, HF_CONFIG_A_MAX, context);
        for (const ConfigKey& key : kConfigKeys) {
          nlattr* nla = tb.at(static_cast<std::size_t>(key.attribute));
          if (nla == nullptr) {
            continue;  // an older module
          }
          values.push_back({&key, detail::get_uint(nla, key.json_name, context)});
        }
      },
      context);
  return values;
}

void Control::set_config(std::span<const ConfigValue> changes) {
  const std::string context = "changing the configuration";
  detail::genl_transact(
      sock_.get(), family_, HF_CMD_CONFIG_SET, false,
      [changes, &context](nl_msg* msg) {
        for (const ConfigValue& change : changes) {
          const int err = config_key_is_u64(*change.key)
                              ? nla_put_u64(msg, change.key->attribute, change.value)
                              : nla_put_u32(msg, change.key->attribute,
                                            static_cast<std::uint32_t>(change.value));
          if (err < 0) {
            detail::throw_errno(ENOMEM, context);
          }
        }
      },
      [](nlmsghdr* /*nlh*/) {}, context);
}

std::uint64_t Histogram::count() const noexcept {
  std::uint64_t total = 0;
  for (const HistogramBucket& bucket : buckets) {
    total += bucket.count;
  }
  return total;
}

std::vector<Counter> Control::stats() {
  return read_stats().counters;
}

Stats Control::read_stats() {
  const std::string context = "reading the counters";
  Stats stats;
  detail::genl_transact(
      sock_.get(), family_, HF_CMD_STATS_GET, false, nullptr,
      [&stats, &context](nlmsghdr* nlh) {
        stats.counters = detail::parse_counters(nlh, HF_STATS_A_COUNTER, context);
        stats.frame_size = detail::parse_histogram(nlh, HF_STATS_A_FRAME_SIZE_BUCKET, context);
        std::vector<nlattr*> tb = detail::parse_reply(nlh, HF_STATS_A_MAX, context);
        stats.frame_size.sum = get_u64(tb.data(), HF_STATS_A_FRAME_SIZE_SUM);
      },
      context);
  return stats;
}

std::vector<DeviceStats> Control::devices() {
  const std::string context = "listing the devices' counters";
  std::vector<DeviceStats> devices;
  detail::genl_transact(
      sock_.get(), family_, HF_CMD_DEV_GET, true, nullptr,
      [&devices, &context](nlmsghdr* nlh) {
        std::vector<nlattr*> tb = detail::parse_reply(nlh, HF_DEV_A_MAX, context);
        devices.push_back({.ifindex = static_cast<int>(get_u32(tb.data(), HF_DEV_A_IFINDEX)),
                           .counters = detail::parse_counters(nlh, HF_DEV_A_COUNTER, context)});
      },
      context);
  return devices;
}

namespace {

// A peer from its HF_PEER_A_* attributes, parsed into `tb`.
PeerInfo decode_peer(nlattr** tb) {
  PeerInfo peer{.ifindex = static_cast<int>(get_u32(tb, HF_PEER_A_IFINDEX)),
                .epoch = get_u32(tb, HF_PEER_A_EPOCH),
                .seg_size = get_u32(tb, HF_PEER_A_SEG_SIZE),
                .frame_segs = get_u32(tb, HF_PEER_A_FRAME_SEGS),
                .pacing_rate = get_u64(tb, HF_PEER_A_PACING_RATE),
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
                .rx_segs = get_u64(tb, HF_PEER_A_RX_SEGS),
                .tx_bytes = get_u64(tb, HF_PEER_A_TX_BYTES),
                .rx_bytes = get_u64(tb, HF_PEER_A_RX_BYTES),
                .tx_frames = get_u64(tb, HF_PEER_A_TX_FRAMES),
                .tx_msgs = get_u64(tb, HF_PEER_A_TX_MSGS),
                .tx_msgs_delivered = get_u64(tb, HF_PEER_A_TX_MSGS_DELIVERED),
                .tx_msgs_failed = get_u64(tb, HF_PEER_A_TX_MSGS_FAILED),
                .rx_msgs = get_u64(tb, HF_PEER_A_RX_MSGS),
                .credit_bytes = get_u64(tb, HF_PEER_A_CREDIT_BYTES),
                .credit_stall_us = get_u64(tb, HF_PEER_A_CREDIT_STALL_US),
                .rx_credit = get_u64(tb, HF_PEER_A_RX_CREDIT),
                .rx_unread = get_u64(tb, HF_PEER_A_RX_UNREAD),
                .rate_hint = get_u64(tb, HF_PEER_A_RATE_HINT),
                .link_share = get_u64(tb, HF_PEER_A_LINK_SHARE)};
  nlattr* addr = tb[HF_PEER_A_ADDR];  // NOLINT(cppcoreguidelines-pro-bounds-pointer-arithmetic)
  if (addr != nullptr && nla_len(addr) == static_cast<int>(peer.address.size())) {
    std::memcpy(peer.address.data(), nla_data(addr), peer.address.size());
  }
  return peer;
}

}  // namespace

std::vector<PeerInfo> Control::peers() {
  const std::string context = "listing the peers";
  std::vector<PeerInfo> peers;
  detail::genl_transact(
      sock_.get(), family_, HF_CMD_PEER_GET, true, nullptr,
      [&peers, &context](nlmsghdr* nlh) {
        std::vector<nlattr*> v = detail::parse_reply(nlh, HF_PEER_A_MAX, context);
        peers.push_back(decode_peer(v.data()));
      },
      context);
  return peers;
}

std::vector<SocketInfo> Control::sockets() {
  const std::string context = "listing the sockets";
  std::vector<SocketInfo> sockets;
  detail::genl_transact(
      sock_.get(), family_, HF_CMD_SOCKET_GET, true, nullptr,
      [&sockets, &context](nlmsghdr* nlh) {
        std::vector<nlattr*> v = detail::parse_reply(nlh, HF_SOCKET_A_MAX, context);
        nlattr** tb = v.data();
        std::vector<PeerInfo> peers;
        detail::for_each_of_type(nlh, HF_SOCKET_A_PEER, [&peers, &context](nlattr* nest) {
          std::array<nlattr*, HF_PEER_A_MAX + 1> ptb{};
          if (nla_parse_nested(ptb.data(), HF_PEER_A_MAX, nest, nullptr) < 0) {
            detail::throw_errno(EPROTO, context + ": malformed socket peer");
          }
          peers.push_back(decode_peer(ptb.data()));
        });
        sockets.push_back({.port = get_u32(tb, HF_SOCKET_A_PORT),
                           .ifindex = static_cast<int>(get_u32(tb, HF_SOCKET_A_IFINDEX)),
                           .tx_queued = get_u64(tb, HF_SOCKET_A_TX_QUEUED),
                           .rx_queued = get_u64(tb, HF_SOCKET_A_RX_QUEUED),
                           .rx_reassembly = get_u64(tb, HF_SOCKET_A_RX_REASSEMBLY),
                           .tx_msgs = get_u64(tb, HF_SOCKET_A_TX_MSGS),
                           .inode = get_u64(tb, HF_SOCKET_A_INODE),
                           .uid = get_u32(tb, HF_SOCKET_A_UID),
                           .peers = std::move(peers)});
      },
      context);
  return sockets;
}

}  // namespace hf
