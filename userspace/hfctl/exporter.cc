// hfctl/exporter.cc - the exporter's poll() loop: accept, read a request
// head, answer, close; deadlines and limits enforced here.
#include "exporter.h"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "cli.h"

namespace hfctl {
namespace {

using Clock = std::chrono::steady_clock;

// How long accepting pauses after the process or system ran out of
// descriptors or memory (the pending connection would wake poll() at once).
constexpr std::chrono::milliseconds kAcceptPause{100};
// The most a client that got its response may keep its connection open.
constexpr std::chrono::seconds kDrainTime{1};
constexpr std::size_t kReadChunk = 4096;

enum class Phase {
  reading,   // the request head is arriving
  writing,   // the response is going out
  draining,  // sent and shut down for writing: discarding until the client closes
  closed,
};

struct Connection {
  hf::Fd fd;
  Phase phase = Phase::reading;
  std::string input;
  std::string output;
  std::size_t sent = 0;
  Clock::time_point deadline;
};

void close_connection(Connection& connection) {
  connection.fd.reset();
  connection.phase = Phase::closed;
}

// Sends what the socket takes now; once all is sent, shuts down writing and
// drains, so that unread request bytes do not turn the close into a reset
// that could destroy the response in flight.
void write_some(Connection& connection, const ExporterLimits& limits) {
  while (connection.sent < connection.output.size()) {
    const std::string_view rest = std::string_view(connection.output).substr(connection.sent);
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
  connection.phase = Phase::draining;
  connection.deadline = Clock::now() + std::min<Clock::duration>(limits.timeout, kDrainTime);
}

void start_response(Connection& connection, const HttpResponse& response, bool head_only,
                    const ExporterLimits& limits) {
  connection.output = serialize(response, head_only, http_date(std::chrono::system_clock::now()));
  connection.sent = 0;
  connection.phase = Phase::writing;
  connection.deadline = Clock::now() + limits.timeout;
  write_some(connection, limits);
}

void read_some(Connection& connection, const ExporterLimits& limits, const MetricsSource& metrics) {
  std::array<char, kReadChunk> buffer{};
  // While reading, the input is under max_request (parsing says too_large
  // at max_request), so there is always room for one byte more.
  const std::size_t room =
      std::clamp<std::size_t>(limits.max_request - connection.input.size(), 1, buffer.size());
  const ssize_t got = ::recv(connection.fd.get(), buffer.data(), room, 0);
  if (got < 0) {
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
      close_connection(connection);
    }
    return;
  }
  if (got == 0) {
    close_connection(connection);  // the client left before finishing its request
    return;
  }
  connection.input.append(buffer.data(), static_cast<std::size_t>(got));
  const ParseResult parsed = parse_http_request(connection.input, limits.max_request);
  if (parsed.status == ParseStatus::incomplete) {
    return;
  }
  if (parsed.status != ParseStatus::complete) {
    start_response(connection, error_response(parsed), false, limits);
    return;
  }
  start_response(connection, respond(parsed.request, metrics), parsed.request.method == "HEAD",
                 limits);
}

void drain(Connection& connection) {
  std::array<char, kReadChunk> buffer{};
  const ssize_t got = ::recv(connection.fd.get(), buffer.data(), buffer.size(), 0);
  if (got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
    close_connection(connection);
  }
}

// A connection past its deadline: a partial request gets 408, anything
// else is closed.
void expire(Connection& connection, const ExporterLimits& limits) {
  if (connection.phase == Phase::reading && !connection.input.empty()) {
    start_response(connection, error_response(408, "the request head took too long"), false,
                   limits);
    return;
  }
  close_connection(connection);
}

// Whether a failed accept4() is this server's problem (throw) rather than
// one client's or a passing shortage.
bool accept_error_is_fatal(int error) {
  return error == EBADF || error == EFAULT || error == EINVAL || error == ENOTSOCK;
}

bool accept_error_is_shortage(int error) {
  return error == EMFILE || error == ENFILE || error == ENOBUFS || error == ENOMEM;
}

// Milliseconds poll() may sleep: until the nearest deadline, or the end of
// a pause in accepting; -1 for none.
int poll_timeout(const std::vector<Connection>& connections, Clock::time_point accept_resume,
                 Clock::time_point now) {
  Clock::time_point nearest = Clock::time_point::max();
  if (accept_resume > now) {
    nearest = accept_resume;
  }
  for (const Connection& connection : connections) {
    nearest = std::min(nearest, connection.deadline);
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

// Closes, or answers with 408, every connection past its deadline.
void expire_all(std::vector<Connection>& connections, const ExporterLimits& limits,
                Clock::time_point now) {
  for (Connection& connection : connections) {
    if (connection.deadline <= now) {
      expire(connection, limits);
    }
  }
  std::erase_if(connections,
                [](const Connection& connection) { return connection.phase == Phase::closed; });
}

// One step of a connection poll() found ready.
void serve_connection(Connection& connection, const ExporterLimits& limits,
                      const MetricsSource& metrics) {
  switch (connection.phase) {
    case Phase::reading:
      read_some(connection, limits, metrics);
      break;
    case Phase::writing:
      write_some(connection, limits);
      break;
    case Phase::draining:
      drain(connection);
      break;
    case Phase::closed:
      break;
  }
}

// Takes pending connections while there is room.
void accept_clients(int listener, std::vector<Connection>& connections,
                    const ExporterLimits& limits, Clock::time_point& accept_resume) {
  const Clock::time_point now = Clock::now();
  while (connections.size() < limits.max_connections) {
    hf::Fd client(::accept4(listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
    if (!client) {
      const int error = errno;
      if (error == EAGAIN || error == EWOULDBLOCK) {
        return;
      }
      if (accept_error_is_fatal(error)) {
        throw std::system_error(error, std::generic_category(), "exporter: accept");
      }
      if (accept_error_is_shortage(error)) {
        accept_resume = now + kAcceptPause;
        return;
      }
      continue;  // that client's trouble (ECONNABORTED, network errors): the next one
    }
    connections.push_back({.fd = std::move(client),
                           .phase = Phase::reading,
                           .input = {},
                           .output = {},
                           .sent = 0,
                           .deadline = now + limits.timeout});
  }
}

}  // namespace

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

Exporter::Exporter(const ListenAddress& address, MetricsSource metrics, ExporterLimits limits)
    : listener_(open_listener(address)),
      address_(local_address(listener_.get())),
      metrics_(std::move(metrics)),
      limits_(limits) {}

void Exporter::serve(int stop_fd) {
  std::vector<Connection> connections;
  std::vector<pollfd> polled;
  Clock::time_point accept_resume{};  // accepting pauses until then
  for (;;) {
    const Clock::time_point now = Clock::now();
    expire_all(connections, limits_, now);

    const bool accepting = connections.size() < limits_.max_connections && accept_resume <= now;
    polled.clear();
    polled.push_back({.fd = stop_fd, .events = POLLIN, .revents = 0});
    polled.push_back({.fd = accepting ? listener_.get() : -1, .events = POLLIN, .revents = 0});
    for (const Connection& connection : connections) {
      const short events = connection.phase == Phase::writing ? POLLOUT : POLLIN;
      polled.push_back({.fd = connection.fd.get(), .events = events, .revents = 0});
    }
    if (::poll(polled.data(), polled.size(), poll_timeout(connections, accept_resume, now)) < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw std::system_error(errno, std::generic_category(), "exporter: poll");
    }
    if (polled[0].revents != 0) {
      return;  // stopped; the connections close as they go
    }
    for (std::size_t i = 0; i < connections.size(); ++i) {
      if (polled[i + 2].revents != 0) {
        serve_connection(connections[i], limits_, metrics_);
      }
    }
    if ((polled[1].revents & POLLIN) != 0) {
      accept_clients(listener_.get(), connections, limits_, accept_resume);
    }
  }
}

}  // namespace hfctl
