// hyperframe/control.h - hf::Control, a client of the module's generic
// netlink family "hyperframe": configuration, counters, peers, sockets and
// hfq qdiscs of the caller's network namespace (see docs/design.md,
// "Control plane"). Attaching and detaching hfq is rtnetlink's: qdisc.h.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "hyperframe/units.h"

struct nl_sock;

namespace hf {

// One setting of the module (HF_CONFIG_A_*).
struct ConfigKey {
  std::string_view name;       // as hfctl takes it: "ack_delay"
  std::string_view json_name;  // in the base unit: "ack_delay_us"
  int attribute;               // HF_CONFIG_A_*
  Unit unit;
  bool writable;
  std::string_view help;
};

// Every setting, in the order "hfctl config show" lists them.
[[nodiscard]] std::span<const ConfigKey> config_keys() noexcept;
// The key named `name` (either spelling), or nullptr.
[[nodiscard]] const ConfigKey* find_config_key(std::string_view name) noexcept;
// Whether the kernel carries `key` as a u64 (others are u32).
[[nodiscard]] bool config_key_is_u64(const ConfigKey& key) noexcept;

struct ConfigValue {
  const ConfigKey* key = nullptr;
  std::uint64_t value = 0;  // in the key's base unit

  friend bool operator==(const ConfigValue&, const ConfigValue&) = default;
};

struct Counter {
  std::string name;
  std::uint64_t value = 0;

  friend bool operator==(const Counter&, const Counter&) = default;
};

struct PeerInfo {
  int ifindex = 0;
  std::array<std::uint8_t, 6> address{};
  std::uint32_t epoch = 0;
  std::uint32_t seg_size = 0;
  std::uint32_t frame_segs = 0;  // the frame-size controller's frame now
  // Bytes per second the module's pacing_rate and the peer's rate hint
  // come to towards the peer after the frame-size controller's cut (a
  // socket's own cap not included); 0: unpaced.
  std::uint64_t pacing_rate = 0;
  std::uint32_t credit = 0;
  std::uint32_t inflight = 0;
  std::uint32_t srtt_us = 0;
  std::uint32_t rttvar_us = 0;
  std::uint32_t min_rtt_us = 0;
  std::uint32_t rto_us = 0;
  std::uint32_t backoff = 0;
  std::uint32_t retries = 0;
  std::uint32_t tx_queued_msgs = 0;
  std::uint64_t tx_segs = 0;
  std::uint64_t retransmits = 0;
  std::uint64_t spurious = 0;
  std::uint64_t rx_segs = 0;
  std::uint64_t tx_bytes = 0;  // payload bytes of tx_segs
  std::uint64_t rx_bytes = 0;  // payload bytes of rx_segs
  std::uint64_t tx_frames = 0;
  std::uint64_t tx_msgs = 0;  // queued to the peer, all sockets
  std::uint64_t tx_msgs_delivered = 0;
  std::uint64_t tx_msgs_failed = 0;
  std::uint64_t rx_msgs = 0;  // delivered to sockets
  // Byte credit (docs/wire-format.md): what the peer's grants let us
  // send now, the time spent waiting for it, what we grant the peer
  // beyond what it sent, and what it sent that programs have not read.
  std::uint64_t credit_bytes = 0;
  std::uint64_t credit_stall_us = 0;
  std::uint64_t rx_credit = 0;
  std::uint64_t rx_unread = 0;
  // The peer's rate hint for us, bytes per second (0: none); it caps
  // pacing_rate.
  std::uint64_t rate_hint = 0;
  // Our share of the device the flow leaves by, bytes per second (0:
  // none): its hfq rate divided among its peers with data to send; it
  // caps pacing_rate too.
  std::uint64_t link_share = 0;
};

// One bucket of a histogram: the values at most `le` and above the
// previous bucket's bound (not cumulative). kInfinity: no bound.
struct HistogramBucket {
  static constexpr std::uint64_t kInfinity = ~std::uint64_t{0};
  std::uint64_t le = 0;
  std::uint64_t count = 0;

  friend bool operator==(const HistogramBucket&, const HistogramBucket&) = default;
};

struct Histogram {
  std::vector<HistogramBucket> buckets;  // in increasing order of bound
  std::uint64_t sum = 0;

  // The values counted: the sum of the buckets.
  [[nodiscard]] std::uint64_t count() const noexcept;

  friend bool operator==(const Histogram&, const Histogram&) = default;
};

// What HF_CMD_STATS_GET reports: the counters and the histogram of the
// payload bytes of the hyperframes sent.
struct Stats {
  std::vector<Counter> counters;  // in the kernel's order
  Histogram frame_size;

  friend bool operator==(const Stats&, const Stats&) = default;
};

// The counters of one device of the namespace (HF_CMD_DEV_GET); ifindex
// 0: the devices the namespace has no entry of their own for.
struct DeviceStats {
  int ifindex = 0;
  std::vector<Counter> counters;  // in the kernel's order

  friend bool operator==(const DeviceStats&, const DeviceStats&) = default;
};

struct SocketInfo {
  std::uint32_t port = 0;
  int ifindex = 0;
  std::uint64_t tx_queued = 0;
  std::uint64_t rx_queued = 0;
  std::uint64_t rx_reassembly = 0;
  std::uint64_t tx_msgs = 0;
  std::uint64_t inode = 0;
  std::uint32_t uid = 0;
  // The peers the socket last sent to or received from (at most 8, most
  // recent first) that still exist; pacing_rate includes the socket's cap.
  std::vector<PeerInfo> peers;
};

// Settings of an hfq qdisc, in base units; each is absent when not given
// (in a set_qdisc()) or not reported (by an older module).
struct QdiscConfig {
  std::optional<std::uint64_t> rate;           // bytes/s the device is paced to; 0: unpaced
  std::optional<std::uint64_t> limit;          // packets queued in all bands
  std::optional<std::uint64_t> flow_limit;     // packets queued per data flow
  std::optional<std::uint64_t> control_limit;  // packets queued in the control band
  std::optional<std::uint64_t> quantum;        // bytes a data flow sends per round
  std::optional<std::uint64_t> other_share;    // percent of the link owed to other traffic
  std::optional<std::uint64_t> horizon_ms;     // departure times further ahead are dropped
  std::optional<std::uint64_t> memory_limit;   // bytes (skb truesize) queued in all bands

  friend bool operator==(const QdiscConfig&, const QdiscConfig&) = default;
};

// One writable setting of the hfq qdisc (HF_QDISC_A_*).
struct QdiscParam {
  std::string_view name;       // as hfctl takes it: "horizon"
  std::string_view json_name;  // in the base unit, the attribute's name: "horizon_ms"
  int attribute;               // HF_QDISC_A_*
  Unit unit;
  std::uint64_t max;                                  // what the attribute's width holds
  std::optional<std::uint64_t> QdiscConfig::*member;  // where QdiscConfig holds it
  std::string_view help;
};

// Every writable setting of hfq, in the order "hfctl qdisc show" lists them.
[[nodiscard]] std::span<const QdiscParam> qdisc_params() noexcept;
// The setting named `name` (either spelling), or nullptr.
[[nodiscard]] const QdiscParam* find_qdisc_param(std::string_view name) noexcept;

// The hfq qdisc at the root of a device (HF_CMD_QDISC_GET).
struct QdiscInfo {
  int ifindex = 0;
  std::uint32_t handle = 0;  // major:minor in the upper:lower 16 bits
  QdiscConfig config;
  std::uint32_t flows = 0;  // data flows with packets queued
  std::uint32_t qlen_control = 0;
  std::uint32_t qlen_data = 0;
  std::uint32_t qlen_other = 0;
  std::uint32_t backlog = 0;      // bytes queued
  std::uint32_t memory = 0;       // truesize of what is queued (memory_limit's measure)
  std::vector<Counter> counters;  // in the kernel's order

  friend bool operator==(const QdiscInfo&, const QdiscInfo&) = default;
};

// The accepted range of a value the kernel refused.
struct ValueRange {
  std::uint64_t min = 0;
  std::uint64_t max = 0;
};

// An error the kernel returned. code() is its errno; what() is
// "<context>: <extack message>: <strerror>" (no extack message: without
// it). attribute() is the type of the attribute it blamed, range() that
// attribute's accepted range, when the kernel said.
class ControlError : public std::system_error {
 public:
  ControlError(std::error_code code, const std::string& context, std::string extack,
               std::optional<int> attribute, std::optional<ValueRange> range);

  [[nodiscard]] const std::string& extack() const noexcept { return extack_; }
  [[nodiscard]] std::optional<int> attribute() const noexcept { return attribute_; }
  [[nodiscard]] std::optional<ValueRange> range() const noexcept { return range_; }

 private:
  std::string extack_;
  std::optional<int> attribute_;
  std::optional<ValueRange> range_;
};

// A connection to the family, in the network namespace of the calling
// thread at open(). Move-only; closes its socket when it goes.
class Control {
 public:
  // Throws std::system_error: errc::address_family_not_supported with
  // "hyperframe module not loaded (load hyperframe.ko first)" when the
  // family is not registered, or the errno of a failed socket call.
  [[nodiscard]] static Control open();

  Control(Control&& other) noexcept;
  Control& operator=(Control&& other) noexcept;
  Control(const Control&) = delete;
  Control& operator=(const Control&) = delete;
  ~Control();

  // Every setting, in config_keys() order. Throws ControlError.
  [[nodiscard]] std::vector<ConfigValue> config();
  // Applies `changes` all together, or none of them. Throws ControlError
  // (EPERM without CAP_NET_ADMIN; EINVAL with the range for a bad value).
  void set_config(std::span<const ConfigValue> changes);
  // The namespace's counters, in the kernel's order.
  [[nodiscard]] std::vector<Counter> stats();
  // The counters and the frame size histogram, read together.
  [[nodiscard]] Stats read_stats();
  // The counters of each device hyperframe traffic used, by ifindex.
  [[nodiscard]] std::vector<DeviceStats> devices();
  [[nodiscard]] std::vector<PeerInfo> peers();
  [[nodiscard]] std::vector<SocketInfo> sockets();

  // The hfq qdisc at the root of device `ifindex`. Throws ControlError:
  // ENODEV for no such device, ENOENT when its root qdisc is not hfq.
  [[nodiscard]] QdiscInfo qdisc(int ifindex);
  // Every device of the namespace whose root qdisc is hfq, by ifindex.
  [[nodiscard]] std::vector<QdiscInfo> qdiscs();
  // Applies the settings `changes` holds to the hfq at the root of device
  // `ifindex`, all together or none. Throws ControlError: ENODEV, ENOENT
  // as qdisc(); EPERM without CAP_NET_ADMIN over the namespace; EINVAL
  // (or ERANGE) with the blamed attribute and its range for a bad value.
  void set_qdisc(int ifindex, const QdiscConfig& changes);

 private:
  struct SockDeleter {
    void operator()(nl_sock* sock) const noexcept;
  };
  Control(std::unique_ptr<nl_sock, SockDeleter> sock, int family) noexcept;

  std::unique_ptr<nl_sock, SockDeleter> sock_;
  int family_ = 0;
};

}  // namespace hf
