// lib/events.cc - hf::EventSubscriber over libnl-genl-3: the family and its
// group "events" resolved by name, membership, and a receive loop that
// decodes each HF_CMD_EVENT message into an hf::Event (decode_event(), by
// hand: the attributes are a handful of fixed-size values).
#include "hyperframe/events.h"

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "attribute.h"
#include "netlink.h"

#include <netlink/genl/ctrl.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

namespace hf {
namespace {

constexpr std::size_t kNlmsgHeader = NLMSG_HDRLEN;
constexpr std::size_t kGenlHeader = GENL_HDRLEN;
constexpr std::size_t kNlaHeader = NLA_HDRLEN;
// What the socket may queue before events are lost (the kernel caps it at
// net.core.rmem_max).
constexpr int kReceiveBuffer = 1 << 20;
// One datagram: the kernel sends each event alone, well under a page.
constexpr std::size_t kDatagramBytes = std::size_t{16} * 1024;

[[noreturn]] void malformed(const std::string& what) {
  detail::throw_errno(EPROTO, "malformed event: " + what);
}

std::size_t align4(std::size_t length) {
  return (length + 3U) & ~std::size_t{3};
}

std::uint32_t read_u32(std::span<const std::uint8_t> payload, std::string_view name) {
  std::uint32_t value = 0;
  if (payload.size() != sizeof(value)) {
    malformed(std::string(name) + " of " + std::to_string(payload.size()) + " bytes");
  }
  std::memcpy(&value, payload.data(), sizeof(value));
  return value;
}

}  // namespace

std::string_view event_type_name(EventType type) noexcept {
  switch (type) {
    case EventType::peer_up:
      return "peer_up";
    case EventType::peer_down:
      return "peer_down";
    case EventType::retry_limit:
      return "retry_limit";
    case EventType::flow_reset:
      return "flow_reset";
    case EventType::epoch:
      return "epoch";
    case EventType::backoff:
      return "backoff";
  }
  return "";
}

std::string_view peer_down_reason_name(PeerDownReason reason) noexcept {
  switch (reason) {
    case PeerDownReason::idle:
      return "idle";
    case PeerDownReason::device:
      return "device";
    case PeerDownReason::netns:
      return "netns";
    case PeerDownReason::evicted:
      return "evicted";
  }
  return "";
}

std::string_view congestion_sign_name(CongestionSign sign) noexcept {
  switch (sign) {
    case CongestionSign::loss:
      return "loss";
    case CongestionSign::delay:
      return "delay";
    case CongestionSign::notice:
      return "notice";
  }
  return "";
}

Event decode_event(std::span<const std::uint8_t> message) {
  nlmsghdr nlh{};
  genlmsghdr genl{};
  if (message.size() < kNlmsgHeader + kGenlHeader) {
    malformed(std::to_string(message.size()) + " bytes");
  }
  std::memcpy(&nlh, message.data(), sizeof(nlh));
  if (nlh.nlmsg_len < kNlmsgHeader + kGenlHeader || nlh.nlmsg_len > message.size()) {
    malformed("length " + std::to_string(nlh.nlmsg_len) + " in " + std::to_string(message.size()) +
              " bytes");
  }
  std::memcpy(&genl, message.subspan(kNlmsgHeader).data(), sizeof(genl));
  if (genl.cmd != HF_CMD_EVENT) {
    malformed("command " + std::to_string(genl.cmd));
  }

  Event event;
  bool typed = false;
  std::span<const std::uint8_t> attrs =
      message.subspan(kNlmsgHeader + kGenlHeader, nlh.nlmsg_len - kNlmsgHeader - kGenlHeader);
  while (attrs.size() >= kNlaHeader) {
    nlattr nla{};
    std::memcpy(&nla, attrs.data(), sizeof(nla));
    if (nla.nla_len < kNlaHeader || nla.nla_len > attrs.size()) {
      malformed("attribute length " + std::to_string(nla.nla_len));
    }
    const std::span<const std::uint8_t> payload =
        attrs.subspan(kNlaHeader, nla.nla_len - kNlaHeader);
    switch (nla.nla_type & NLA_TYPE_MASK) {
      case HF_EVENT_A_TYPE:
        event.type = static_cast<EventType>(read_u32(payload, "type"));
        typed = true;
        break;
      case HF_EVENT_A_IFINDEX:
        event.ifindex = static_cast<int>(read_u32(payload, "ifindex"));
        break;
      case HF_EVENT_A_ADDR:
        if (payload.size() != event.address.size()) {
          malformed("address of " + std::to_string(payload.size()) + " bytes");
        }
        std::copy(payload.begin(), payload.end(), event.address.begin());
        break;
      case HF_EVENT_A_ERRNO:
        event.error = read_u32(payload, "errno");
        break;
      case HF_EVENT_A_EPOCH:
        event.epoch = read_u32(payload, "epoch");
        break;
      case HF_EVENT_A_MSGS:
        event.messages = read_u32(payload, "messages");
        break;
      case HF_EVENT_A_REASON:
        event.reason = static_cast<PeerDownReason>(read_u32(payload, "reason"));
        break;
      case HF_EVENT_A_SIGN:
        event.sign = static_cast<CongestionSign>(read_u32(payload, "sign"));
        break;
      case HF_EVENT_A_RATE_SCALE:
        event.rate_scale = read_u32(payload, "rate scale");
        break;
      case HF_EVENT_A_FRAME_SEGS:
        event.frame_segs = read_u32(payload, "frame segments");
        break;
      default:
        break;  // added by a newer module
    }
    attrs = attrs.subspan(std::min(align4(nla.nla_len), attrs.size()));
  }
  if (!typed) {
    malformed("no type");
  }
  return event;
}

EventsLost::EventsLost()
    : std::system_error(ENOBUFS, std::generic_category(),
                        "events lost: the receive buffer overflowed") {}

void EventSubscriber::SockDeleter::operator()(nl_sock* sock) const noexcept {
  nl_socket_free(sock);
}

EventSubscriber::EventSubscriber(std::unique_ptr<nl_sock, SockDeleter> sock, int family) noexcept
    : sock_(std::move(sock)), family_(family) {}
EventSubscriber::EventSubscriber(EventSubscriber&&) noexcept = default;
EventSubscriber& EventSubscriber::operator=(EventSubscriber&&) noexcept = default;
EventSubscriber::~EventSubscriber() = default;

EventSubscriber EventSubscriber::open() {
  std::unique_ptr<nl_sock, SockDeleter> sock(detail::open_socket(NETLINK_GENERIC).release());
  const int family = detail::resolve_family(sock.get());
  const int group = genl_ctrl_resolve_grp(sock.get(), HF_GENL_NAME, HF_GENL_MCGRP_EVENTS);
  if (group < 0) {
    detail::throw_errno(detail::nl_to_errno(group),
                        "resolving the multicast group " HF_GENL_MCGRP_EVENTS " of " HF_GENL_NAME
                        " (a module without events?)");
  }
  // Events carry sequence number 0: nothing to match them against.
  nl_socket_disable_seq_check(sock.get());
  int err = nl_socket_set_buffer_size(sock.get(), kReceiveBuffer, 0);
  if (err < 0) {
    detail::throw_errno(detail::nl_to_errno(err), "setting the receive buffer");
  }
  err = nl_socket_add_membership(sock.get(), group);
  if (err < 0) {
    detail::throw_errno(detail::nl_to_errno(err),
                        "joining the multicast group " HF_GENL_MCGRP_EVENTS);
  }
  return {std::move(sock), family};
}

int EventSubscriber::fd() const noexcept {
  return nl_socket_get_fd(sock_.get());
}

void EventSubscriber::receive() {
  std::vector<std::uint8_t> buffer(kDatagramBytes);
  sockaddr_nl from{};
  iovec iov{.iov_base = buffer.data(), .iov_len = buffer.size()};
  msghdr header{};
  header.msg_name = &from;
  header.msg_namelen = sizeof(from);
  header.msg_iov = &iov;
  header.msg_iovlen = 1;
  const ssize_t received = ::recvmsg(fd(), &header, MSG_DONTWAIT);
  if (received < 0) {
    const int error = errno;
    if (error == EINTR || error == EAGAIN) {
      return;
    }
    if (error == ENOBUFS) {
      throw EventsLost();
    }
    detail::throw_errno(error, "receiving events");
  }
  if ((static_cast<unsigned int>(header.msg_flags) & MSG_TRUNC) != 0) {
    throw EventsLost();  // a datagram larger than any event: its content is gone
  }
  if (from.nl_pid != 0) {
    return;  // not from the kernel
  }
  std::span<const std::uint8_t> rest(buffer.data(), static_cast<std::size_t>(received));
  while (rest.size() >= kNlmsgHeader + kGenlHeader) {
    nlmsghdr nlh{};
    genlmsghdr genl{};
    std::memcpy(&nlh, rest.data(), sizeof(nlh));
    if (nlh.nlmsg_len < kNlmsgHeader || nlh.nlmsg_len > rest.size()) {
      break;
    }
    std::memcpy(&genl, rest.subspan(kNlmsgHeader).data(), sizeof(genl));
    if (nlh.nlmsg_type == family_ && nlh.nlmsg_len >= kNlmsgHeader + kGenlHeader &&
        genl.cmd == HF_CMD_EVENT) {
      pending_.push_back(decode_event(rest.first(nlh.nlmsg_len)));
    }
    rest = rest.subspan(std::min(align4(nlh.nlmsg_len), rest.size()));
  }
}

std::optional<Event> EventSubscriber::next_event(int stop_fd) {
  while (pending_.empty()) {
    std::array<pollfd, 2> fds{pollfd{.fd = fd(), .events = POLLIN, .revents = 0},
                              pollfd{.fd = stop_fd, .events = POLLIN, .revents = 0}};
    const nfds_t count = stop_fd >= 0 ? 2 : 1;
    if (::poll(fds.data(), count, -1) < 0) {
      const int error = errno;
      if (error == EINTR) {
        continue;
      }
      detail::throw_errno(error, "waiting for events");
    }
    if (stop_fd >= 0 && fds[1].revents != 0) {
      return std::nullopt;
    }
    if (fds[0].revents != 0) {
      receive();
    }
  }
  Event event = pending_.front();
  pending_.pop_front();
  return event;
}

}  // namespace hf
