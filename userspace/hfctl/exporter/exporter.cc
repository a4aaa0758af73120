// hfctl/exporter/exporter.cc - the exporter's poll() loop: accept (evicting
// when full), read a request head, ask the renderer, answer, close; deadlines
// and limits enforced here. Nothing in the loop blocks: every socket is
// non-blocking and the metrics are made on the renderer's thread.
#include "exporter/exporter.h"

#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <memory>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "cli/cli.h"
#include "exporter/renderer.h"

namespace hfctl {
namespace {

using Clock = ExporterClock;

// How long accepting pauses after the process or system ran out of
// descriptors or memory (the pending connection would wake poll() at once).
constexpr std::chrono::milliseconds kAcceptPause{100};
// The most a client that got its response may keep its connection open.
constexpr std::chrono::seconds kDrainTime{1};
constexpr std::size_t kReadChunk = 4096;
// Connections taken from the backlog per turn of the loop, so that a flood
// of new ones does not keep the loop from the connections it has.
constexpr std::size_t kAcceptBatch = 16;
// Descriptors besides the connections: standard streams, the listener,
// the stop and renderer descriptors, the renderer's netlink sockets.
constexpr rlim_t kSpareDescriptors = 32;

// The rank of a phase in eviction_order(): lower goes first.
int eviction_rank(Phase phase) noexcept {
  switch (phase) {
    case Phase::closed:
    case Phase::draining:
      return 0;
    case Phase::reading:
      return 1;
    case Phase::waiting:
    case Phase::writing:
      return 2;
  }
  return 2;
}

struct Connection {
  hf::Fd fd;
  SlotState state;
  Clock::time_point deadline;
  std::string input;  // the request head so far, never over max_request
  HeadScanner scanner;
  bool head_only = false;                 // HEAD: the answer goes without its body
  Renderer::Ticket ticket = 0;            // waiting: the rendering that answers
  std::string head;                       // what goes out first: all of it, but a metrics body
  std::shared_ptr<const Rendering> body;  // then this rendering's text, if any
  std::size_t sent = 0;                   // bytes of head and body sent
};

// Whether a failed accept4() is this server's problem (throw) rather than
// one client's or a passing shortage.
bool accept_error_is_fatal(int error) {
  return error == EBADF || error == EFAULT || error == EINVAL || error == ENOTSOCK;
}

bool accept_error_is_shortage(int error) {
  return error == EMFILE || error == ENFILE || error == ENOBUFS || error == ENOMEM;
}

bool is_transient(int error) {
  return error == EAGAIN || error == EWOULDBLOCK || error == EINTR;
}

// Raises the soft limit on open files to make room for `connections`, as
// far as the hard limit allows (without room, a full server could not
// accept the connection that would evict another).
void reserve_descriptors(std::size_t connections) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) {
    return;
  }
  const rlim_t wanted = static_cast<rlim_t>(connections) + kSpareDescriptors;
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < wanted) {
    limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, limit.rlim_max);
    // Best effort: EMFILE pauses accepting instead.
    static_cast<void>(::setrlimit(RLIMIT_NOFILE, &limit));
  }
}

// One serve(): the connections and what acts on them.
class Server {
 public:
  Server(int listener, const ExporterLimits& limits, ExporterCounters& counters, Renderer& renderer)
      : listener_(listener), limits_(limits), counters_(counters), renderer_(renderer) {}

  void run(int stop_fd);

 private:
  void read_some(Connection& connection, Clock::time_point now);
  void write_some(Connection& connection);
  static void drain(Connection& connection);
  void respond(Connection& connection, const HttpResponse& response);
  void answer_metrics(Connection& connection, const std::shared_ptr<const Rendering>& rendering);
  void expire(Connection& connection);
  void expire_all(Clock::time_point now);
  void deliver();
  void serve_connection(Connection& connection, short revents);
  void accept_clients();
  [[nodiscard]] std::optional<std::size_t> victim(Clock::time_point now) const;
  [[nodiscard]] int poll_timeout(Clock::time_point now, bool accepting) const;
  void fill_polled(std::vector<pollfd>& polled, int stop_fd, bool accepting) const;

  static void close_connection(Connection& connection) {
    connection.fd.reset();
    connection.state.phase = Phase::closed;
    connection.input = {};
    connection.head = {};
    connection.body.reset();
  }

  int listener_;
  const ExporterLimits& limits_;
  ExporterCounters& counters_;
  Renderer& renderer_;
  std::vector<Connection> connections_;
  Clock::time_point accept_resume_{};  // accepting pauses until then
};

// Sends what the socket takes now; once all is sent, shuts down writing and
// drains, so that unread request bytes do not turn the close into a reset
// that could destroy the response in flight.
void Server::write_some(Connection& connection) {
  for (;;) {
    std::string_view rest;
    if (connection.sent < connection.head.size()) {
      rest = std::string_view(connection.head).substr(connection.sent);
    } else if (connection.body &&
               connection.sent - connection.head.size() < connection.body->text.size()) {
      rest =
          std::string_view(connection.body->text).substr(connection.sent - connection.head.size());
    } else {
      break;
    }
    const ssize_t sent = ::send(connection.fd.get(), rest.data(), rest.size(), MSG_NOSIGNAL);
    if (sent < 0) {
      if (errno == EINTR) {
        continue;
      }
      if (errno != EAGAIN && errno != EWOULDBLOCK) {
        close_connection(connection);
      }
      return;
    }
    connection.sent += static_cast<std::size_t>(sent);
  }
  ::shutdown(connection.fd.get(), SHUT_WR);
  connection.state.phase = Phase::draining;
  connection.deadline = Clock::now() + std::min<Clock::duration>(limits_.timeout, kDrainTime);
  connection.head = {};
  connection.body.reset();
}

void Server::respond(Connection& connection, const HttpResponse& response) {
  connection.head =
      serialize(response, connection.head_only, http_date(std::chrono::system_clock::now()));
  connection.body.reset();
  connection.sent = 0;
  connection.input = {};
  connection.state.phase = Phase::writing;
  connection.deadline = Clock::now() + limits_.timeout;
  write_some(connection);
}

void Server::answer_metrics(Connection& connection,
                            const std::shared_ptr<const Rendering>& rendering) {
  if (rendering->error) {
    respond(connection, error_response(500, *rendering->error));
    return;
  }
  connection.head = serialize_head(metrics_response(), rendering->text.size(),
                                   http_date(std::chrono::system_clock::now()));
  if (!connection.head_only) {
    connection.body = rendering;
  }
  connection.sent = 0;
  connection.state.phase = Phase::writing;
  connection.deadline = Clock::now() + limits_.timeout;
  write_some(connection);
}

void Server::read_some(Connection& connection, Clock::time_point now) {
  std::array<char, kReadChunk> buffer{};
  // While reading, the input is under max_request (a head is refused at
  // max_request), so there is always room for one byte more.
  const std::size_t room =
      std::clamp<std::size_t>(limits_.max_request - connection.input.size(), 1, buffer.size());
  const ssize_t got = ::recv(connection.fd.get(), buffer.data(), room, 0);
  if (got < 0) {
    if (!is_transient(errno)) {
      close_connection(connection);
    }
    return;
  }
  if (got == 0) {
    close_connection(connection);  // the client left before finishing its request
    return;
  }
  connection.input.append(buffer.data(), static_cast<std::size_t>(got));
  const std::size_t end = connection.scanner.scan(connection.input);
  if (end == 0) {
    if (connection.input.size() >= limits_.max_request) {
      respond(connection, error_response(ParseResult{
                              .status = ParseStatus::too_large, .request = {}, .error = {}}));
    }
    return;
  }
  ++counters_.requests;
  const ParseResult parsed =
      parse_http_request(std::string_view(connection.input).substr(0, end), limits_.max_request);
  if (parsed.status != ParseStatus::complete) {
    respond(connection, error_response(parsed));
    return;
  }
  connection.head_only = parsed.request.method == "HEAD";
  const Route routed = route(parsed.request);
  if (!routed.metrics) {
    respond(connection, routed.response);
    return;
  }
  connection.input = {};
  connection.ticket = renderer_.request();
  connection.state.phase = Phase::waiting;
  connection.deadline = now + limits_.timeout;
}

void Server::drain(Connection& connection) {
  std::array<char, kReadChunk> buffer{};
  const ssize_t got = ::recv(connection.fd.get(), buffer.data(), buffer.size(), 0);
  if (got == 0 || (got < 0 && !is_transient(errno))) {
    close_connection(connection);
  }
}

// A connection past its deadline: a partial request gets 408, one waiting
// for its metrics 503, anything else is closed.
void Server::expire(Connection& connection) {
  switch (connection.state.phase) {
    case Phase::reading:
      ++counters_.timed_out;
      if (!connection.input.empty()) {
        respond(connection, error_response(408, "the request head took too long"));
        return;
      }
      break;
    case Phase::waiting:
      ++counters_.timed_out;
      respond(connection, error_response(503, "the metrics took too long"));
      return;
    case Phase::writing:
      ++counters_.timed_out;
      break;
    case Phase::draining:
    case Phase::closed:
      break;
  }
  close_connection(connection);
}

void Server::expire_all(Clock::time_point now) {
  for (Connection& connection : connections_) {
    if (connection.state.phase != Phase::closed && connection.deadline <= now) {
      expire(connection);
    }
  }
  std::erase_if(connections_, [](const Connection& connection) {
    return connection.state.phase == Phase::closed;
  });
}

// Answers every connection waiting for the rendering that finished.
void Server::deliver() {
  const std::optional<Renderer::Result> result = renderer_.collect();
  if (!result) {
    return;
  }
  for (Connection& connection : connections_) {
    if (connection.state.phase == Phase::waiting && connection.ticket <= result->ticket) {
      answer_metrics(connection, result->rendering);
    }
  }
}

// One step of a connection poll() found ready. Every step is
// non-blocking, so acting on the phase the connection has now (a
// rendering may have moved it on since poll()) is safe.
void Server::serve_connection(Connection& connection, short revents) {
  switch (connection.state.phase) {
    case Phase::reading:
      read_some(connection, Clock::now());
      break;
    case Phase::waiting:
      // Polled for nothing: only an error or hang-up wakes it.
      if ((revents & (POLLERR | POLLHUP | POLLNVAL)) != 0) {
        close_connection(connection);
      }
      break;
    case Phase::writing:
      write_some(connection);
      break;
    case Phase::draining:
      drain(connection);
      break;
    case Phase::closed:
      break;
  }
}

// The connection to evict for a newcomer, once every slot is taken.
std::optional<std::size_t> Server::victim(Clock::time_point now) const {
  std::vector<SlotState> slots;
  slots.reserve(connections_.size());
  for (const Connection& connection : connections_) {
    slots.push_back(connection.state);
  }
  return choose_eviction(slots, now, limits_.eviction_grace);
}

// Takes pending connections: while there is room, or a connection to make
// room of. A new connection is read at once: its request is often there.
void Server::accept_clients() {
  for (std::size_t taken = 0; taken < kAcceptBatch; ++taken) {
    const Clock::time_point now = Clock::now();
    std::optional<std::size_t> evict;
    if (connections_.size() >= limits_.max_connections) {
      evict = victim(now);
      if (!evict) {
        return;
      }
    }
    hf::Fd client(::accept4(listener_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
    if (!client) {
      const int error = errno;
      if (error == EAGAIN || error == EWOULDBLOCK) {
        return;
      }
      if (accept_error_is_fatal(error)) {
        throw std::system_error(error, std::generic_category(), "exporter: accept");
      }
      if (accept_error_is_shortage(error)) {
        accept_resume_ = now + kAcceptPause;
        return;
      }
      continue;  // that client's trouble (ECONNABORTED, network errors): the next one
    }
    if (evict) {
      connections_.erase(connections_.begin() + static_cast<std::ptrdiff_t>(*evict));
      ++counters_.evicted;
    }
    ++counters_.connections;
    Connection& connection = connections_.emplace_back();
    connection.fd = std::move(client);
    connection.state = {.phase = Phase::reading, .accepted = now};
    connection.deadline = now + limits_.timeout;
    read_some(connection, now);
    if (connection.state.phase == Phase::closed) {
      connections_.pop_back();
    }
  }
}

// Milliseconds poll() may sleep: until the nearest deadline, the end of a
// pause in accepting, or (full and nobody to evict) the end of the
// youngest connections' grace; -1 for none.
int Server::poll_timeout(Clock::time_point now, bool accepting) const {
  Clock::time_point nearest = Clock::time_point::max();
  if (accept_resume_ > now) {
    nearest = accept_resume_;
  }
  for (const Connection& connection : connections_) {
    nearest = std::min(nearest, connection.deadline);
    if (!accepting && accept_resume_ <= now) {
      nearest = std::min(nearest, connection.state.accepted + limits_.eviction_grace);
    }
  }
  if (nearest == Clock::time_point::max()) {
    return -1;
  }
  if (nearest <= now) {
    return 0;
  }
  const auto wait = std::chrono::ceil<std::chrono::milliseconds>(nearest - now);
  return static_cast<int>(std::min<std::chrono::milliseconds::rep>(wait.count(), 60'000));
}

// What poll() watches: the stop descriptor, the listener (or nothing
// while not accepting), the renderer, then each connection in order.
constexpr std::size_t kFirstConnection = 3;

void Server::fill_polled(std::vector<pollfd>& polled, int stop_fd, bool accepting) const {
  polled.clear();
  polled.push_back({.fd = stop_fd, .events = POLLIN, .revents = 0});
  polled.push_back({.fd = accepting ? listener_ : -1, .events = POLLIN, .revents = 0});
  polled.push_back({.fd = renderer_.fd(), .events = POLLIN, .revents = 0});
  for (const Connection& connection : connections_) {
    short events = POLLIN;
    if (connection.state.phase == Phase::writing) {
      events = POLLOUT;
    } else if (connection.state.phase == Phase::waiting) {
      events = 0;  // until its rendering is collected
    }
    polled.push_back({.fd = connection.fd.get(), .events = events, .revents = 0});
  }
}

void Server::run(int stop_fd) {
  std::vector<pollfd> polled;
  for (;;) {
    const Clock::time_point now = Clock::now();
    expire_all(now);
    const bool accepting =
        accept_resume_ <= now &&
        (connections_.size() < limits_.max_connections || victim(now).has_value());
    fill_polled(polled, stop_fd, accepting);
    if (::poll(polled.data(), polled.size(), poll_timeout(now, accepting)) < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw std::system_error(errno, std::generic_category(), "exporter: poll");
    }
    if (polled[0].revents != 0) {
      return;  // stopped; the connections close as they go
    }
    if ((polled[2].revents & POLLIN) != 0) {
      deliver();
    }
    for (std::size_t i = 0; i < connections_.size(); ++i) {
      const short revents = polled[i + kFirstConnection].revents;
      if (revents != 0) {
        serve_connection(connections_[i], revents);
      }
    }
    if ((polled[1].revents & POLLIN) != 0) {
      std::erase_if(connections_, [](const Connection& connection) {
        return connection.state.phase == Phase::closed;
      });
      accept_clients();
    }
  }
}

}  // namespace

bool eviction_order(const SlotState& left, const SlotState& right) noexcept {
  const int left_rank = eviction_rank(left.phase);
  const int right_rank = eviction_rank(right.phase);
  if (left_rank != right_rank) {
    return left_rank < right_rank;
  }
  return left.accepted < right.accepted;
}

std::optional<std::size_t> choose_eviction(std::span<const SlotState> slots,
                                           ExporterClock::time_point now,
                                           std::chrono::milliseconds grace) {
  std::optional<std::size_t> chosen;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const SlotState& slot = slots[i];
    const bool answered = slot.phase == Phase::draining || slot.phase == Phase::closed;
    if (!answered && now - slot.accepted < grace) {
      continue;
    }
    if (!chosen || eviction_order(slot, slots[*chosen])) {
      chosen = i;
    }
  }
  return chosen;
}

std::size_t parse_max_connections(std::string_view text) {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value == 0 ||
      value > kMaxMaxConnections) {
    throw UsageError("invalid --max-connections \"" + std::string(text) +
                         "\": a whole number from 1 to " + std::to_string(kMaxMaxConnections),
                     "hfctl exporter help");
  }
  return value;
}

Exporter::Exporter(const ListenAddress& address, MetricsSource metrics, ExporterLimits limits,
                   ExporterCounters* counters)
    : listener_(open_listener(address)),
      address_(local_address(listener_.get())),
      metrics_(std::move(metrics)),
      limits_(limits),
      counters_(counters != nullptr ? counters : &own_counters_) {
  reserve_descriptors(limits_.max_connections);
}

void Exporter::serve(int stop_fd) {
  Renderer renderer([this] {
    ++counters_->renders;
    return metrics_();
  });
  Server server(listener_.get(), limits_, *counters_, renderer);
  server.run(stop_fd);
}

}  // namespace hfctl
