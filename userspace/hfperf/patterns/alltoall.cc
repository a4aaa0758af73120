// hfperf/patterns/alltoall.cc - a2a: every node runs
//   hfperf a2a --rank R --nodes A0,A1,... --bytes M --rounds K
// and, in each round, sends M bytes to every other node (to rank R+1
// first, then R+2, ..., wrapping) and receives M bytes from each.
//
// Design notes:
//  1. Receiving runs in its own threads (one per incoming TCP connection,
//     one for hf's single socket), started before any send, so a node
//     blocked sending never stops its peers: no deadlock however small the
//     socket buffers.
//  2. Start: a hello handshake with every peer (retried until the peer
//     listens, up to --wait), so no message goes to a closed port.
//  3. A round at a node lasts from the start of its first send of the round
//     until it has both returned from its last send and received the
//     round's message from every peer. Round r + 1 starts when round r
//     ends; there is no global barrier, so nodes drift by at most a round,
//     as the layers of a model exchanging activations do.
//  4. The report gives the node's own round times (p50/p99/max) and the
//     list of them, so a script can take each round's maximum across nodes.
#include <condition_variable>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>

#include "cpu.h"
#include "patterns/patterns.h"

namespace hfperf {
namespace {

class Inbox {
 public:
  Inbox(std::uint64_t rounds, unsigned peers, std::uint64_t bytes)
      : received_(rounds, 0), done_at_(rounds), peers_(peers), bytes_(bytes) {}

  // Receives on `conn` until it closes or every round is in.
  void serve(Connection& conn) {
    Buffer buffer(bytes_);
    for (;;) {
      const auto length = conn.recv(buffer);
      if (!length) {
        return;
      }
      const auto header = decode(buffer.span(*length));
      if (!header) {
        continue;
      }
      if (header->type == MsgType::hello) {
        Header reply;
        reply.type = MsgType::hello_ack;
        reply.flow = header->flow;
        send_header(conn, reply);
        continue;
      }
      if (header->type != MsgType::data) {
        continue;
      }
      if (*length != bytes_ || header->round >= received_.size()) {
        fail(std::make_exception_ptr(std::system_error(
            std::make_error_code(std::errc::protocol_error),
            "a2a: rank " + std::to_string(header->rank) + " sent " + std::to_string(*length) +
                " bytes for round " + std::to_string(header->round) + "; want " +
                std::to_string(bytes_) + " bytes and a round below " +
                std::to_string(received_.size()))));
        return;
      }
      const std::lock_guard lock(mutex_);
      total_ += *length;
      if (++received_.at(header->round) == peers_) {
        done_at_.at(header->round) = Clock::now();
        cv_.notify_all();
      }
    }
  }

  void fail(std::exception_ptr error) {
    const std::lock_guard lock(mutex_);
    if (!error_) {
      error_ = std::move(error);
    }
    cv_.notify_all();
  }

  // Waits until round `round` is complete; when it was.
  Clock::time_point wait(std::uint64_t round, std::chrono::milliseconds limit) {
    std::unique_lock lock(mutex_);
    const bool done =
        cv_.wait_for(lock, limit, [&] { return error_ || received_.at(round) >= peers_; });
    if (error_) {
      std::rethrow_exception(error_);
    }
    if (!done) {
      throw std::system_error(std::make_error_code(std::errc::timed_out),
                              "a2a: round " + std::to_string(round) +
                                  " incomplete: " + std::to_string(received_.at(round)) + " of " +
                                  std::to_string(peers_) + " messages");
    }
    return done_at_.at(round);
  }

  std::uint64_t total() {
    const std::lock_guard lock(mutex_);
    return total_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<unsigned> received_;
  std::vector<Clock::time_point> done_at_;
  unsigned peers_;
  std::uint64_t bytes_;
  std::uint64_t total_ = 0;
  std::exception_ptr error_;
};

}  // namespace

Report run_alltoall(const Config& config, Transport& transport) {
  const auto nodes = static_cast<unsigned>(config.nodes.size());
  const unsigned peers = nodes - 1;
  Report report;
  report.mode = mode_name(config.mode);
  report.transport = kind_name(transport.kind());
  report.peer = config.nodes.at(config.rank);

  // Receivers first (design note 1). Detached: they may still be blocked
  // in recv when the report is done, and end with the process.
  auto inbox = std::make_shared<Inbox>(config.rounds, peers, config.bytes);
  std::shared_ptr<Listener> listener = transport.listen(config.port);
  const unsigned incoming = transport.connectionless() ? 1 : peers;
  std::thread([listener, inbox, incoming]() {
    try {
      for (unsigned i = 0; i < incoming; ++i) {
        std::shared_ptr<Connection> conn = listener->accept();
        std::thread([conn, inbox]() {
          try {
            inbox->serve(*conn);
          } catch (...) {
            inbox->fail(std::current_exception());
          }
        }).detach();
      }
    } catch (...) {
      inbox->fail(std::current_exception());
    }
  }).detach();

  // Outgoing connections, rank + 1 first; then the handshake (note 2).
  std::vector<std::unique_ptr<Connection>> out;
  for (unsigned i = 1; i < nodes; ++i) {
    const auto& address = config.nodes.at((config.rank + i) % nodes);
    out.push_back(transport.connect(address, config.port, config.wait));
    handshake(*out.back(), new_flow_id(), config.wait, address);
  }

  Rounds rounds;
  rounds.rank = config.rank;
  rounds.nodes = nodes;
  rounds.bytes_per_peer = config.bytes;
  rounds.rounds_asked = config.rounds;
  rounds.bytes_expected = config.rounds * peers * config.bytes;
  Buffer message(config.bytes);
  for (std::size_t i = 0; i < config.bytes; ++i) {
    message.span()[i] = static_cast<std::byte>(i * 131 + config.rank);
  }
  Header header;
  header.type = MsgType::data;
  header.rank = static_cast<std::uint16_t>(config.rank);
  header.flow = config.rank;
  const auto limit = std::max<std::chrono::milliseconds>(config.wait, std::chrono::seconds(60));
  const Snapshot before = take_snapshot(config.device);
  const auto start = Clock::now();
  for (std::uint64_t round = 0; round < config.rounds; ++round) {
    const auto begun = Clock::now();
    header.round = static_cast<std::uint32_t>(round);
    for (auto& conn : out) {
      header.seq = round;
      encode(header, message.span());
      conn->send(message.span(config.bytes));
      rounds.bytes_sent += config.bytes;
    }
    const auto sent = Clock::now();
    const auto received = inbox->wait(round, limit);
    rounds.round_seconds.push_back(seconds_between(begun, std::max(sent, received)));
    ++rounds.rounds_done;
  }
  rounds.seconds = seconds_between(start, Clock::now());
  rounds.usage = take_snapshot(config.device) - before;
  rounds.bytes_received = inbox->total();
  rounds.round = summarize(rounds.round_seconds);
  report.rounds = rounds;
  return report;
}

}  // namespace hfperf
