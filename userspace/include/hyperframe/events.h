// hyperframe/events.h - hf::EventSubscriber, a listener of the events the
// module multicasts to the group "events" of its generic netlink family
// (HF_CMD_EVENT, uapi/linux/hyperframe.h): peers created and removed, flows
// given up, reset, restarted and backed off on congestion, in the caller's
// network namespace (see
// docs/design.md, "Control plane").
#pragma once

#include <linux/hyperframe.h>

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <system_error>

struct nl_sock;

namespace hf {

// HF_EVENT_A_TYPE. A newer module may send a type not listed here: Event
// keeps its number, and event_type_name() has no name for it.
enum class EventType : std::uint32_t {
  peer_up = HF_EVENT_PEER_UP,
  peer_down = HF_EVENT_PEER_DOWN,
  retry_limit = HF_EVENT_RETRY_LIMIT,
  flow_reset = HF_EVENT_FLOW_RESET,
  epoch = HF_EVENT_EPOCH,
  backoff = HF_EVENT_BACKOFF,
};

// HF_EVENT_A_REASON of a peer_down.
enum class PeerDownReason : std::uint32_t {
  idle = HF_EVENT_REASON_IDLE,
  device = HF_EVENT_REASON_DEVICE,
  netns = HF_EVENT_REASON_NETNS,
  evicted = HF_EVENT_REASON_EVICTED,
};

// HF_EVENT_A_SIGN of a backoff: the congestion sign the sender answered.
enum class CongestionSign : std::uint32_t {
  loss = HF_EVENT_SIGN_LOSS,
  delay = HF_EVENT_SIGN_DELAY,
  notice = HF_EVENT_SIGN_NOTICE,
};

// The unit of Event::rate_scale: the whole pacing rate.
inline constexpr std::uint32_t kRateScaleOne = HF_RATE_SCALE_ONE;

// One event. Each optional is present when the kernel sent the attribute:
// see enum hf_event_type for which type carries which.
struct Event {
  EventType type{};
  int ifindex = 0;                          // the peer's interface
  std::array<std::uint8_t, 6> address{};    // the peer's Ethernet address
  std::optional<std::uint32_t> error;       // errno the messages failed with
  std::optional<std::uint32_t> epoch;       // the flow it is about
  std::optional<std::uint32_t> messages;    // messages it failed
  std::optional<PeerDownReason> reason;     // why a peer went down
  std::optional<CongestionSign> sign;       // what a backoff answered
  std::optional<std::uint32_t> rate_scale;  // pacing rate kept, in 1/kRateScaleOne
  std::optional<std::uint32_t> frame_segs;  // hyperframe size after a backoff

  friend bool operator==(const Event&, const Event&) = default;
};

// "peer_up", "peer_down", "retry_limit", "flow_reset", "epoch", "backoff";
// "" for a type this library does not know.
[[nodiscard]] std::string_view event_type_name(EventType type) noexcept;
// "idle", "device", "netns", "evicted"; "" for a reason this library does
// not know.
[[nodiscard]] std::string_view peer_down_reason_name(PeerDownReason reason) noexcept;
// "loss", "delay", "notice"; "" for a sign this library does not know.
[[nodiscard]] std::string_view congestion_sign_name(CongestionSign sign) noexcept;

// Decodes one HF_CMD_EVENT message as the kernel sends it: the netlink
// header, the generic netlink header, the attributes. Attributes it does
// not know are skipped. Throws std::system_error (EPROTO) for a message
// that is truncated, is not HF_CMD_EVENT, lacks HF_EVENT_A_TYPE or has an
// attribute of the wrong size.
[[nodiscard]] Event decode_event(std::span<const std::uint8_t> message);

// Thrown by EventSubscriber::next_event() when events were lost: the
// socket's receive buffer overflowed (ENOBUFS). The subscriber stays
// usable; the next call returns the events that came after.
class EventsLost : public std::system_error {
 public:
  EventsLost();
};

// A member of the group "events" in the network namespace of the calling
// thread at open(). Move-only; leaves the group and closes its socket when
// it goes.
class EventSubscriber {
 public:
  // Throws std::system_error: errc::address_family_not_supported with
  // "hyperframe module not loaded (load hyperframe.ko first)" when the
  // family is not registered, ENOENT when it has no group "events" (an
  // older module), or the errno of a failed socket call.
  [[nodiscard]] static EventSubscriber open();

  EventSubscriber(EventSubscriber&& other) noexcept;
  EventSubscriber& operator=(EventSubscriber&& other) noexcept;
  EventSubscriber(const EventSubscriber&) = delete;
  EventSubscriber& operator=(const EventSubscriber&) = delete;
  ~EventSubscriber();

  // The socket: readable when an event may be waiting, for a caller that
  // polls it with other descriptors.
  [[nodiscard]] int fd() const noexcept;

  // The next event, in the order the kernel sent them. Blocks until one
  // arrives or, when `stop_fd` is not -1, until `stop_fd` is readable:
  // then std::nullopt (`stop_fd` is not read). Messages that are not
  // events of the family are skipped. Throws EventsLost (ENOBUFS) when
  // events were lost, std::system_error for any other failure.
  [[nodiscard]] std::optional<Event> next_event(int stop_fd = -1);

 private:
  struct SockDeleter {
    void operator()(nl_sock* sock) const noexcept;
  };
  EventSubscriber(std::unique_ptr<nl_sock, SockDeleter> sock, int family) noexcept;

  // Receives one datagram and queues the events it holds.
  void receive();

  std::unique_ptr<nl_sock, SockDeleter> sock_;
  int family_ = 0;
  std::deque<Event> pending_;
};

}  // namespace hf
