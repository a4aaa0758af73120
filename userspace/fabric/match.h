// fabric/match.h - receive matching, the pure part of the provider: which
// posted receive a message goes to (tag and ignore mask, directed
// receive), and the bounded queue of messages that arrived before a
// receive matched them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <list>
#include <optional>
#include <utility>
#include <vector>

namespace hf::fabric {

// A sender, as the receiver sees it: its MAC address (48 bits) and port.
using SourceKey = std::uint64_t;
// In a receive: from any sender. No unicast sender has this key.
inline constexpr SourceKey kAnySource = ~SourceKey{0};

[[nodiscard]] constexpr SourceKey source_key(const std::array<std::uint8_t, 6>& mac,
                                             std::uint16_t port) noexcept {
  SourceKey key = 0;
  for (const std::uint8_t byte : mac) {
    key = (key << 8U) | byte;
  }
  return (key << 16U) | port;
}

// libfabric's rule: the bits of `ignore` do not take part.
[[nodiscard]] constexpr bool tag_matches(std::uint64_t tag, std::uint64_t want,
                                         std::uint64_t ignore) noexcept {
  return ((tag ^ want) & ~ignore) == 0;
}

// What a message offers to matching.
struct MatchKey {
  bool tagged = false;
  SourceKey source = 0;
  std::uint64_t tag = 0;
};

// What a receive accepts. An untagged receive takes untagged messages
// only, a tagged one tagged messages only, as libfabric keeps the two
// apart.
struct MatchSpec {
  bool tagged = false;
  SourceKey source = kAnySource;
  std::uint64_t tag = 0;
  std::uint64_t ignore = 0;

  [[nodiscard]] constexpr bool matches(const MatchKey& key) const noexcept {
    if (key.tagged != tagged) {
      return false;
    }
    if (source != kAnySource && source != key.source) {
      return false;
    }
    return !tagged || tag_matches(key.tag, tag, ignore);
  }
};

// Posted receives in the order they were posted; T has a `spec` member. A
// message goes to the first that matches it.
template <typename T>
class PostedQueue {
 public:
  void push(T item) { items_.push_back(std::move(item)); }
  // Puts back a receive taken by take(), ahead of the others.
  void push_front(T item) { items_.push_front(std::move(item)); }

  // Removes and returns the first receive matching `key`.
  [[nodiscard]] std::optional<T> take(const MatchKey& key) {
    for (auto it = items_.begin(); it != items_.end(); ++it) {
      if (it->spec.matches(key)) {
        T item = std::move(*it);
        items_.erase(it);
        return item;
      }
    }
    return std::nullopt;
  }

  // Removes and returns the first receive for which `pred` holds.
  template <typename Pred>
  [[nodiscard]] std::optional<T> take_if(Pred pred) {
    for (auto it = items_.begin(); it != items_.end(); ++it) {
      if (pred(*it)) {
        T item = std::move(*it);
        items_.erase(it);
        return item;
      }
    }
    return std::nullopt;
  }

  [[nodiscard]] std::size_t size() const noexcept { return items_.size(); }
  [[nodiscard]] bool empty() const noexcept { return items_.empty(); }

 private:
  std::list<T> items_;
};

// A message no receive was waiting for, held whole.
struct Unexpected {
  MatchKey key;
  bool has_data = false;
  std::uint64_t data = 0;
  std::vector<std::byte> payload;
};

// Messages that arrived before a matching receive, in arrival order,
// within a bound: at most max_messages of them and max_bytes of payload,
// except that an empty queue takes one message of any size (as the
// socket's own buffers do), so no message is too large to be held.
class UnexpectedQueue {
 public:
  UnexpectedQueue(std::size_t max_bytes, std::size_t max_messages) noexcept
      : max_bytes_(max_bytes), max_messages_(max_messages) {}

  // Whether a message of `bytes` may be queued now.
  [[nodiscard]] bool admits(std::size_t bytes) const noexcept {
    if (items_.empty()) {
      return true;
    }
    return items_.size() < max_messages_ && bytes_ <= max_bytes_ && bytes <= max_bytes_ - bytes_;
  }

  // Queues `message`; the caller checked admits(), unless the message is
  // local (Endpoint::deliver_local).
  void push(Unexpected message) {
    bytes_ += message.payload.size();
    items_.push_back(std::move(message));
  }

  // Removes and returns the oldest message `spec` matches.
  [[nodiscard]] std::optional<Unexpected> take(const MatchSpec& spec) {
    for (auto it = items_.begin(); it != items_.end(); ++it) {
      if (spec.matches(it->key)) {
        Unexpected message = std::move(*it);
        items_.erase(it);
        bytes_ -= message.payload.size();
        return message;
      }
    }
    return std::nullopt;
  }

  // The oldest message `spec` matches, left queued; nullptr if none.
  [[nodiscard]] const Unexpected* find(const MatchSpec& spec) const noexcept {
    for (const Unexpected& message : items_) {
      if (spec.matches(message.key)) {
        return &message;
      }
    }
    return nullptr;
  }

  [[nodiscard]] std::size_t size() const noexcept { return items_.size(); }
  [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }

 private:
  std::size_t max_bytes_;
  std::size_t max_messages_;
  std::size_t bytes_ = 0;
  std::list<Unexpected> items_;
};

}  // namespace hf::fabric
