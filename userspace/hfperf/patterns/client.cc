// hfperf/patterns/client.cc - the client steps every sending mode uses:
// the hello handshake, the acknowledged bulk loop that measures goodput
// and per-message latency, and the closing fin exchange.
//
// Latency, precisely: for each data message, the time from just before
// its send call starts to the moment the sender has read the receiver's
// ack, which the receiver sends once it has read the whole message. With
// a window of W messages in flight this includes queueing behind up to
// W - 1 earlier messages (use --window 1 for the unloaded figure).
// Goodput counts acknowledged bytes over the time from the first send to
// the last ack.
#include <array>
#include <deque>
#include <random>
#include <system_error>
#include <thread>

#include "cpu.h"
#include "patterns/patterns.h"

namespace hfperf {
namespace {

constexpr std::chrono::milliseconds kTry{200};
constexpr std::chrono::milliseconds kReliableAckTimeout{60000};
// udp: how long the sender waits for any ack before counting everything
// in flight as lost. Generous, as a megabyte takes most of a second in an
// emulated guest.
constexpr std::chrono::milliseconds kUnreliableAckTimeout{5000};

bool is_transient(const std::system_error& error) {
  const int code = error.code().value();
  return code == ECONNREFUSED || code == EHOSTUNREACH || code == ECONNRESET;
}

}  // namespace

std::uint64_t new_flow_id() {
  std::random_device random;
  return (static_cast<std::uint64_t>(random()) << 32) ^ random();
}

void send_header(Connection& conn, const Header& header) {
  std::array<std::byte, kHeaderSize> message{};
  encode(header, message);
  conn.send(message);
}

void handshake(Connection& conn, std::uint64_t flow, std::chrono::milliseconds wait,
               const std::string& peer) {
  const auto deadline = Clock::now() + wait;
  Buffer buffer(4096);
  Header hello;
  hello.type = MsgType::hello;
  hello.flow = flow;
  while (Clock::now() < deadline) {
    try {
      send_header(conn, hello);
      const auto until = Clock::now() + kTry;
      while (Clock::now() < until) {
        const auto length = conn.recv(buffer, kTry);
        if (!length) {
          break;
        }
        const auto header = decode(buffer.span(*length));
        if (header && header->type == MsgType::hello_ack && header->flow == flow) {
          conn.clear_errors();
          return;
        }
      }
    } catch (const std::system_error& error) {
      if (!is_transient(error)) {
        throw;
      }
      conn.clear_errors();
      std::this_thread::sleep_for(kTry / 4);
    }
  }
  throw std::system_error(std::make_error_code(std::errc::timed_out),
                          "no hfperf listening at " + peer);
}

std::optional<std::pair<std::uint64_t, std::uint64_t>> finish(Connection& conn, std::uint64_t flow,
                                                              bool last, bool reliable) {
  Buffer buffer(4096);
  Header fin;
  fin.type = MsgType::fin;
  fin.flow = flow;
  fin.flags = last ? kLast : 0;
  const int tries = reliable ? 1 : 5;
  for (int i = 0; i < tries; ++i) {
    send_header(conn, fin);
    const auto deadline = Clock::now() + (reliable ? kReliableAckTimeout : kUnreliableAckTimeout);
    while (Clock::now() < deadline) {
      const auto length = conn.recv(buffer, reliable ? kReliableAckTimeout : kUnreliableAckTimeout);
      if (!length) {
        break;
      }
      const auto header = decode(buffer.span(*length));
      if (header && header->type == MsgType::fin_ack && header->flow == flow) {
        return std::pair{header->value, header->count};
      }
    }
  }
  return std::nullopt;
}

namespace {

// The state of one bulk run: the messages in flight and what came back.
class Bulk {
 public:
  Bulk(Connection& conn, const BulkSpec& spec)
      : conn_(conn),
        spec_(spec),
        message_(spec.size),
        reply_(4096),
        ack_timeout_(spec.reliable ? kReliableAckTimeout : kUnreliableAckTimeout) {
    m_.size = spec.size;
    m_.bytes_asked = spec.bytes;
    for (std::size_t i = 0; i < spec.size; ++i) {
      message_.span()[i] = static_cast<std::byte>(i * 131 + spec.size * 7);
    }
  }

  Measurement run(std::uint64_t& seq) {
    const Snapshot before = take_snapshot(spec_.device);
    const auto start = Clock::now();
    const auto until = start + spec_.duration;
    Header header;
    header.type = MsgType::data;
    header.flags = kWantAck;
    header.flow = spec_.flow;
    while (!finished(until)) {
      header.seq = seq++;
      encode(header, message_.span());
      const auto sent = Clock::now();
      conn_.send(message_.span(spec_.size));
      pending_.push_back({header.seq, sent});
      ++m_.sent;
      while (pending_.size() >= spec_.window) {
        settle();
      }
    }
    while (!pending_.empty()) {
      settle();
    }
    m_.seconds = seconds_between(start, Clock::now());
    m_.usage = take_snapshot(spec_.device) - before;
    m_.latency = summarize(std::move(latencies_));
    return m_;
  }

 private:
  struct Pending {
    std::uint64_t seq;
    Clock::time_point sent;
  };

  [[nodiscard]] bool finished(Clock::time_point until) const {
    if (spec_.stop != nullptr && spec_.stop->load()) {
      return true;
    }
    return spec_.bytes > 0 ? m_.sent * spec_.size >= spec_.bytes : Clock::now() >= until;
  }

  // Reads one reply and settles what it acknowledges. Acks come in order,
  // so an ack for a later message means the earlier ones were lost (udp);
  // no reply for the whole timeout loses everything in flight (udp) or is
  // an error (reliable transports).
  void settle() {
    const auto length = conn_.recv(reply_, ack_timeout_);
    const auto now = Clock::now();
    if (!length) {
      if (spec_.reliable) {
        throw std::system_error(std::make_error_code(std::errc::timed_out),
                                "no acknowledgement from the receiver");
      }
      m_.lost += pending_.size();
      pending_.clear();
      return;
    }
    const auto header = decode(reply_.span(*length));
    if (!header || header->type != MsgType::ack || header->flow != spec_.flow) {
      return;  // e.g. a late hello_ack
    }
    while (!pending_.empty() && pending_.front().seq < header->seq) {
      ++m_.lost;
      pending_.pop_front();
    }
    if (!pending_.empty() && pending_.front().seq == header->seq) {
      latencies_.push_back(seconds_between(pending_.front().sent, now));
      pending_.pop_front();
      ++m_.messages;
      m_.bytes += spec_.size;
    }
  }

  Connection& conn_;
  const BulkSpec& spec_;
  Buffer message_;
  Buffer reply_;
  std::chrono::milliseconds ack_timeout_;
  std::deque<Pending> pending_;
  std::vector<double> latencies_;
  Measurement m_;
};

}  // namespace

Measurement run_bulk(Connection& conn, const BulkSpec& spec, std::uint64_t& seq) {
  return Bulk(conn, spec).run(seq);
}

}  // namespace hfperf
