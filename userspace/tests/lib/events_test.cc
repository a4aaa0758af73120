// tests/lib/events_test.cc - unit tests of lib/events.cc that need no
// kernel: HF_CMD_EVENT messages built byte by byte, as the kernel lays them
// out, decoded into hf::Event; malformed ones refused; the names.
#include "hyperframe/events.h"

#include <linux/genetlink.h>
#include <linux/hyperframe.h>
#include <linux/netlink.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <system_error>
#include <vector>

#include <gtest/gtest.h>

namespace {

using Bytes = std::vector<std::uint8_t>;

// The bytes of `value`, as the kernel lays the struct out, at the end of `out`.
template <typename T>
void append(Bytes& out, const T& value) {
  std::array<std::uint8_t, sizeof(T)> raw{};
  std::memcpy(raw.data(), &value, sizeof(T));
  out.insert(out.end(), raw.begin(), raw.end());
}

// A netlink message carrying generic netlink command `cmd` and the
// attributes, each padded to 4 bytes.
class Message {
 public:
  explicit Message(std::uint8_t cmd = HF_CMD_EVENT) : cmd_(cmd) {}

  Message& attr(std::uint16_t type, const Bytes& payload) {
    nlattr nla{};
    nla.nla_len = static_cast<std::uint16_t>(NLA_HDRLEN + payload.size());
    nla.nla_type = type;
    append(attrs_, nla);
    attrs_.insert(attrs_.end(), payload.begin(), payload.end());
    attrs_.resize((attrs_.size() + 3U) & ~std::size_t{3});
    return *this;
  }
  Message& u32(std::uint16_t type, std::uint32_t value) {
    Bytes payload(sizeof(value));
    std::memcpy(payload.data(), &value, sizeof(value));
    return attr(type, payload);
  }

  [[nodiscard]] Bytes bytes() const {
    nlmsghdr nlh{};
    nlh.nlmsg_len = static_cast<std::uint32_t>(NLMSG_HDRLEN + GENL_HDRLEN + attrs_.size());
    nlh.nlmsg_type = 0x20;
    genlmsghdr genl{};
    genl.cmd = cmd_;
    genl.version = HF_GENL_VERSION;
    Bytes out;
    append(out, nlh);
    append(out, genl);
    out.insert(out.end(), attrs_.begin(), attrs_.end());
    return out;
  }

 private:
  std::uint8_t cmd_;
  Bytes attrs_;
};

Bytes address() {
  return {0x02, 0x00, 0x00, 0x00, 0x00, 0x2a};
}

// The attributes every event carries: type, interface, address.
Message peer_event(std::uint32_t type) {
  Message message;
  message.u32(HF_EVENT_A_TYPE, type).u32(HF_EVENT_A_IFINDEX, 3).attr(HF_EVENT_A_ADDR, address());
  return message;
}

hf::Event decode(const Message& message) {
  const Bytes bytes = message.bytes();
  return hf::decode_event(bytes);
}

// The errno decode_event() throws, or 0.
int decode_error(const Bytes& bytes) {
  try {
    static_cast<void>(hf::decode_event(bytes));
  } catch (const std::system_error& error) {
    EXPECT_NE(std::string(error.what()).find("malformed event"), std::string::npos) << error.what();
    return error.code().value();
  }
  return 0;
}

TEST(DecodeEvent, PeerUp) {
  const hf::Event event = decode(peer_event(HF_EVENT_PEER_UP));
  hf::Event want;
  want.type = hf::EventType::peer_up;
  want.ifindex = 3;
  want.address = {0x02, 0x00, 0x00, 0x00, 0x00, 0x2a};
  EXPECT_EQ(event, want);
  EXPECT_FALSE(event.error || event.epoch || event.messages || event.reason);
}

TEST(DecodeEvent, PeerDownWithItsReasonAndFailures) {
  const hf::Event idle =
      decode(peer_event(HF_EVENT_PEER_DOWN).u32(HF_EVENT_A_REASON, HF_EVENT_REASON_IDLE));
  EXPECT_EQ(idle.type, hf::EventType::peer_down);
  EXPECT_EQ(idle.reason, hf::PeerDownReason::idle);
  EXPECT_FALSE(idle.messages) << "an idle peer fails nothing, and says so by omission";

  const hf::Event device = decode(peer_event(HF_EVENT_PEER_DOWN)
                                      .u32(HF_EVENT_A_ERRNO, ENETDOWN)
                                      .u32(HF_EVENT_A_MSGS, 2)
                                      .u32(HF_EVENT_A_REASON, HF_EVENT_REASON_DEVICE));
  EXPECT_EQ(device.reason, hf::PeerDownReason::device);
  EXPECT_EQ(device.error, ENETDOWN);
  EXPECT_EQ(device.messages, 2U);
}

TEST(DecodeEvent, RetryLimitFlowResetAndEpoch) {
  const hf::Event limit = decode(peer_event(HF_EVENT_RETRY_LIMIT)
                                     .u32(HF_EVENT_A_ERRNO, EHOSTUNREACH)
                                     .u32(HF_EVENT_A_EPOCH, 0x1234)
                                     .u32(HF_EVENT_A_MSGS, 3));
  EXPECT_EQ(limit.type, hf::EventType::retry_limit);
  EXPECT_EQ(limit.error, EHOSTUNREACH);
  EXPECT_EQ(limit.epoch, 0x1234U);
  EXPECT_EQ(limit.messages, 3U);
  EXPECT_FALSE(limit.reason);

  const hf::Event reset = decode(peer_event(HF_EVENT_FLOW_RESET)
                                     .u32(HF_EVENT_A_ERRNO, ECONNRESET)
                                     .u32(HF_EVENT_A_EPOCH, 7)
                                     .u32(HF_EVENT_A_MSGS, 0));
  EXPECT_EQ(reset.type, hf::EventType::flow_reset);
  EXPECT_EQ(reset.error, ECONNRESET);
  EXPECT_EQ(reset.messages, 0U) << "present, though zero";

  const hf::Event epoch = decode(peer_event(HF_EVENT_EPOCH).u32(HF_EVENT_A_EPOCH, 0xbeef));
  EXPECT_EQ(epoch.type, hf::EventType::epoch);
  EXPECT_EQ(epoch.epoch, 0xbeefU);
}

TEST(DecodeEvent, BackoffWithItsSignAndState) {
  const hf::Event backoff = decode(peer_event(HF_EVENT_BACKOFF)
                                       .u32(HF_EVENT_A_EPOCH, 0x77)
                                       .u32(HF_EVENT_A_SIGN, HF_EVENT_SIGN_LOSS)
                                       .u32(HF_EVENT_A_RATE_SCALE, 717)
                                       .u32(HF_EVENT_A_FRAME_SEGS, 16));
  EXPECT_EQ(backoff.type, hf::EventType::backoff);
  EXPECT_EQ(backoff.epoch, 0x77U);
  EXPECT_EQ(backoff.sign, hf::CongestionSign::loss);
  EXPECT_EQ(backoff.rate_scale, 717U);
  EXPECT_EQ(backoff.frame_segs, 16U);
  EXPECT_FALSE(backoff.messages);
  EXPECT_FALSE(decode(peer_event(HF_EVENT_PEER_UP)).sign);
}

TEST(DecodeEvent, UnknownTypesAndAttributesOfANewerModulePass) {
  const hf::Event event = decode(peer_event(42).u32(HF_EVENT_A_MAX + 1, 9).u32(HF_EVENT_A_MSGS, 1));
  EXPECT_EQ(static_cast<std::uint32_t>(event.type), 42U);
  EXPECT_EQ(event.messages, 1U);
  EXPECT_EQ(hf::event_type_name(event.type), "");
}

TEST(DecodeEvent, AttributeOrderDoesNotMatter) {
  Message message;
  message.attr(HF_EVENT_A_ADDR, address())
      .u32(HF_EVENT_A_EPOCH, 5)
      .u32(HF_EVENT_A_IFINDEX, 3)
      .u32(HF_EVENT_A_TYPE, HF_EVENT_EPOCH);
  EXPECT_EQ(decode(message), decode(peer_event(HF_EVENT_EPOCH).u32(HF_EVENT_A_EPOCH, 5)));
}

TEST(DecodeEvent, TrailingBytesBeyondTheMessageAreNotItsOwn) {
  Bytes bytes = peer_event(HF_EVENT_PEER_UP).bytes();
  const hf::Event event = hf::decode_event(bytes);
  bytes.insert(bytes.end(), {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff});
  EXPECT_EQ(hf::decode_event(bytes), event);
}

TEST(DecodeEvent, MalformedIsEproto) {
  EXPECT_EQ(decode_error({}), EPROTO) << "empty";
  const Bytes whole = peer_event(HF_EVENT_PEER_UP).bytes();
  EXPECT_EQ(decode_error(Bytes(whole.begin(), whole.end() - 4)), EPROTO) << "cut short";
  EXPECT_EQ(decode_error(Message(HF_CMD_STATS_GET).u32(HF_EVENT_A_TYPE, 1).bytes()), EPROTO)
      << "not an event";
  EXPECT_EQ(decode_error(Message().u32(HF_EVENT_A_IFINDEX, 3).bytes()), EPROTO) << "no type";
  EXPECT_EQ(decode_error(peer_event(HF_EVENT_PEER_UP).attr(HF_EVENT_A_EPOCH, {1, 2}).bytes()),
            EPROTO)
      << "a u32 of two bytes";
  EXPECT_EQ(
      decode_error(Message().u32(HF_EVENT_A_TYPE, 1).attr(HF_EVENT_A_ADDR, {1, 2, 3}).bytes()),
      EPROTO)
      << "a three-byte address";

  Bytes lying = peer_event(HF_EVENT_PEER_UP).bytes();
  lying.at(NLMSG_HDRLEN + GENL_HDRLEN) = 0xf0;  // the first attribute's length, low byte
  EXPECT_EQ(decode_error(lying), EPROTO) << "an attribute longer than the message";
}

TEST(EventNames, EveryTypeAndReason) {
  EXPECT_EQ(hf::event_type_name(hf::EventType::peer_up), "peer_up");
  EXPECT_EQ(hf::event_type_name(hf::EventType::peer_down), "peer_down");
  EXPECT_EQ(hf::event_type_name(hf::EventType::retry_limit), "retry_limit");
  EXPECT_EQ(hf::event_type_name(hf::EventType::flow_reset), "flow_reset");
  EXPECT_EQ(hf::event_type_name(hf::EventType::epoch), "epoch");
  EXPECT_EQ(hf::event_type_name(hf::EventType::backoff), "backoff");
  EXPECT_EQ(hf::event_type_name(static_cast<hf::EventType>(HF_EVENT_UNSPEC)), "");
  EXPECT_EQ(hf::peer_down_reason_name(hf::PeerDownReason::idle), "idle");
  EXPECT_EQ(hf::peer_down_reason_name(hf::PeerDownReason::device), "device");
  EXPECT_EQ(hf::peer_down_reason_name(hf::PeerDownReason::netns), "netns");
  EXPECT_EQ(hf::peer_down_reason_name(hf::PeerDownReason::evicted), "evicted");
  EXPECT_EQ(hf::peer_down_reason_name(static_cast<hf::PeerDownReason>(99)), "");
  EXPECT_EQ(hf::congestion_sign_name(hf::CongestionSign::loss), "loss");
  EXPECT_EQ(hf::congestion_sign_name(hf::CongestionSign::delay), "delay");
  EXPECT_EQ(hf::congestion_sign_name(hf::CongestionSign::notice), "notice");
  EXPECT_EQ(hf::congestion_sign_name(static_cast<hf::CongestionSign>(0)), "");
}

TEST(EventsLost, IsEnobufs) {
  const hf::EventsLost lost;
  EXPECT_EQ(lost.code(), std::error_code(ENOBUFS, std::generic_category()));
}

}  // namespace
