// tests/hfctl/exporter_test.cc - unit tests of hfctl/exporter/exporter.cc: a
// real server on 127.0.0.1 (port 0) in a thread, with an injected metrics
// source, driven by plain TCP clients (slow, idle and hostile ones among them);
// the eviction order on its own; and --max-connections parsing.
#include "exporter/exporter.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "cli/cli.h"

namespace {

using namespace std::chrono_literals;

using hfctl::ExporterLimits;
using hfctl::ListenAddress;

constexpr ListenAddress kLoopback{.ipv6 = false, .address = {127, 0, 0, 1}, .port = 0};
constexpr std::string_view kMetrics = "# TYPE hyperframe_up gauge\nhyperframe_up 1\n";

// An Exporter serving in a thread until stop() or destruction.
class RunningExporter {
 public:
  // `source` makes the metrics (kMetrics when empty).
  explicit RunningExporter(ExporterLimits limits = {}, const ListenAddress& address = kLoopback,
                           hfctl::MetricsSource source = {})
      : stop_(::eventfd(0, EFD_CLOEXEC)),
        exporter_(
            address,
            [this, source = std::move(source)] {
              ++scrapes_;
              return source ? source() : std::string(kMetrics);
            },
            limits),
        thread_([this] {
          try {
            exporter_.serve(stop_.get());
          } catch (...) {
            error_ = std::current_exception();
          }
        }) {}
  RunningExporter(const RunningExporter&) = delete;
  RunningExporter& operator=(const RunningExporter&) = delete;
  RunningExporter(RunningExporter&&) = delete;
  RunningExporter& operator=(RunningExporter&&) = delete;
  ~RunningExporter() { stop(); }

  void stop() {
    if (thread_.joinable()) {
      const std::uint64_t one = 1;
      EXPECT_EQ(::write(stop_.get(), &one, sizeof(one)), static_cast<ssize_t>(sizeof(one)));
      thread_.join();
      EXPECT_EQ(error_, nullptr) << "serve() threw";
    }
  }

  [[nodiscard]] const ListenAddress& address() const { return exporter_.address(); }
  [[nodiscard]] int scrapes() const { return scrapes_; }
  [[nodiscard]] const hfctl::ExporterCounters& counters() const { return exporter_.counters(); }

 private:
  hf::Fd stop_;
  std::atomic<int> scrapes_ = 0;
  std::exception_ptr error_;
  hfctl::Exporter exporter_;
  std::thread thread_;
};

// A connected client socket with 5 s send and receive timeouts.
hf::Fd connect_to(const ListenAddress& address) {
  hf::Fd fd(::socket(address.ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd) {
    throw std::system_error(errno, std::generic_category(), "socket");
  }
  const timeval timeout{.tv_sec = 5, .tv_usec = 0};
  ::setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  ::setsockopt(fd.get(), SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
  int result = 0;
  if (address.ipv6) {
    sockaddr_in6 in6{};
    in6.sin6_family = AF_INET6;
    in6.sin6_port = htons(address.port);
    std::memcpy(&in6.sin6_addr, address.address.data(), sizeof(in6.sin6_addr));
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the sockets API
    result = ::connect(fd.get(), reinterpret_cast<const sockaddr*>(&in6), sizeof(in6));
  } else {
    sockaddr_in in4{};
    in4.sin_family = AF_INET;
    in4.sin_port = htons(address.port);
    std::memcpy(&in4.sin_addr, address.address.data(), sizeof(in4.sin_addr));
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the sockets API
    result = ::connect(fd.get(), reinterpret_cast<const sockaddr*>(&in4), sizeof(in4));
  }
  if (result != 0) {
    throw std::system_error(errno, std::generic_category(), "connect");
  }
  return fd;
}

void send_all(const hf::Fd& fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t sent = ::send(fd.get(), bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent <= 0) {
      throw std::system_error(errno, std::generic_category(), "send");
    }
    bytes.remove_prefix(static_cast<std::size_t>(sent));
  }
}

// Everything the server sends until it closes.
std::string receive_all(const hf::Fd& fd) {
  std::string received;
  std::array<char, 4096> buffer{};
  for (;;) {
    const ssize_t got = ::recv(fd.get(), buffer.data(), buffer.size(), 0);
    if (got <= 0) {
      EXPECT_EQ(got, 0) << "the server closes after its response: "
                        << std::generic_category().message(errno);
      return received;
    }
    received.append(buffer.data(), static_cast<std::size_t>(got));
  }
}

std::string round_trip(const ListenAddress& address, std::string_view request) {
  const hf::Fd fd = connect_to(address);
  send_all(fd, request);
  return receive_all(fd);
}

// Whether `fd` has something to read (or was closed) within `timeout`.
bool readable(const hf::Fd& fd, std::chrono::milliseconds timeout) {
  pollfd polled{.fd = fd.get(), .events = POLLIN, .revents = 0};
  return ::poll(&polled, 1, static_cast<int>(timeout.count())) == 1;
}

// Polls `condition` for up to 5 s.
template <typename Condition>
bool wait_for(Condition condition) {
  const auto end = std::chrono::steady_clock::now() + 5s;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > end) {
      return false;
    }
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

int status_of(const std::string& response) {
  if (!response.starts_with("HTTP/1.1 ") || response.size() < 12) {
    ADD_FAILURE() << "no status line: " << response;
    return 0;
  }
  return std::stoi(response.substr(9, 3));
}

std::string body_of(const std::string& response) {
  const std::size_t end = response.find("\r\n\r\n");
  return end == std::string::npos ? std::string() : response.substr(end + 4);
}

bool has_header(const std::string& response, std::string_view header) {
  return response.find("\r\n" + std::string(header) + "\r\n") != std::string::npos;
}

TEST(Exporter, ServesAndStops) {
  RunningExporter server;
  const ListenAddress& address = server.address();
  EXPECT_NE(address.port, 0);

  const std::string get = round_trip(address, "GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n");
  EXPECT_EQ(status_of(get), 200) << get;
  EXPECT_TRUE(has_header(get, "Content-Type: text/plain; version=0.0.4; charset=utf-8")) << get;
  EXPECT_TRUE(has_header(get, "Content-Length: " + std::to_string(kMetrics.size()))) << get;
  EXPECT_TRUE(has_header(get, "Connection: close")) << get;
  EXPECT_EQ(body_of(get), kMetrics);

  const std::string head = round_trip(address, "HEAD /metrics HTTP/1.0\r\n\r\n");
  EXPECT_EQ(status_of(head), 200) << head;
  EXPECT_TRUE(has_header(head, "Content-Length: " + std::to_string(kMetrics.size()))) << head;
  EXPECT_EQ(body_of(head), "");

  const std::string post =
      round_trip(address, "POST /metrics HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabc");
  EXPECT_EQ(status_of(post), 405) << post;
  EXPECT_TRUE(has_header(post, "Allow: GET, HEAD")) << post;

  EXPECT_EQ(status_of(round_trip(address, "GET /nope HTTP/1.0\r\n\r\n")), 404);
  EXPECT_EQ(status_of(round_trip(address, "GET / HTTP/1.0\r\n\r\n")), 200);
  EXPECT_EQ(status_of(round_trip(address, "BREW /\r\n\r\n")), 400);

  EXPECT_EQ(server.scrapes(), 2) << "one fresh scrape per GET or HEAD of /metrics";
  server.stop();  // serve() returns: the thread joins
}

TEST(Exporter, OversizedRequestIs431) {
  RunningExporter server;
  const std::string request =
      "GET /metrics HTTP/1.1\r\nHost: t\r\nX-Big: " + std::string(hfctl::kMaxRequestSize, 'x') +
      "\r\n\r\n";
  const std::string response = round_trip(server.address(), request);
  EXPECT_EQ(status_of(response), 431) << response;
  EXPECT_EQ(server.scrapes(), 0);
}

TEST(Exporter, SlowRequestIs408AndSilentClientIsClosed) {
  RunningExporter server({.max_connections = 4, .timeout = 200ms});
  const hf::Fd slow = connect_to(server.address());
  const hf::Fd silent = connect_to(server.address());
  send_all(slow, "GET /metrics HTTP/1.1\r\n");
  EXPECT_EQ(status_of(receive_all(slow)), 408);
  EXPECT_EQ(receive_all(silent), "");
}

TEST(Exporter, AtMostMaxConnectionsWhileNoneCanBeEvicted) {
  RunningExporter server({.max_connections = 1, .timeout = 10s, .eviction_grace = 10s});
  std::optional<hf::Fd> first(connect_to(server.address()));
  const hf::Fd second = connect_to(server.address());  // waits in the backlog
  send_all(second, "GET /metrics HTTP/1.0\r\n\r\n");
  EXPECT_FALSE(readable(second, 200ms)) << "answered beyond the limit";
  first.reset();  // the server sees it close and takes the next
  const std::string response = receive_all(second);
  EXPECT_EQ(status_of(response), 200) << response;
  EXPECT_EQ(server.counters().evicted, 0U);
}

TEST(Exporter, FullSlotsEvictTheOldestIdleConnection) {
  RunningExporter server({.max_connections = 2, .timeout = 10s, .eviction_grace = 50ms});
  const hf::Fd oldest = connect_to(server.address());
  ASSERT_TRUE(wait_for([&server] { return server.counters().connections == 1; }));
  const hf::Fd younger = connect_to(server.address());
  send_all(younger, "GET /metrics HTTP/1.1\r\n");  // a partial head
  ASSERT_TRUE(wait_for([&server] { return server.counters().connections == 2; }));
  std::this_thread::sleep_for(100ms);  // past the grace of both

  const std::string response = round_trip(server.address(), "GET / HTTP/1.0\r\n\r\n");
  EXPECT_EQ(status_of(response), 200) << response;
  EXPECT_EQ(receive_all(oldest), "") << "the oldest is closed unanswered";
  EXPECT_FALSE(readable(younger, 0ms)) << "the younger one is still served";
  EXPECT_EQ(server.counters().evicted, 1U);
}

TEST(Exporter, SlowClientsDoNotStarveAScrape) {
  // Three times as many clients as slots hold connections with partial
  // heads; without eviction a scrape would wait in the backlog until
  // their 10 s ran out, twice over.
  RunningExporter server({.max_connections = 4, .timeout = 10s, .eviction_grace = 20ms});
  std::vector<hf::Fd> slow;
  for (int i = 0; i < 12; ++i) {
    slow.push_back(connect_to(server.address()));
    send_all(slow.back(), "GET /metrics HTTP/1.1\r\nX-Slow: ");
  }
  std::this_thread::sleep_for(50ms);
  const auto start = std::chrono::steady_clock::now();
  const std::string response =
      round_trip(server.address(), "GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n");
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(status_of(response), 200) << response;
  EXPECT_LT(took, 3s) << "a scrape waited for slow clients";
  EXPECT_GE(server.counters().evicted, 8U) << "12 slow clients in 4 slots, then the scrape";
}

TEST(Exporter, HeadArrivingAByteAtATime) {
  RunningExporter server({.max_connections = 1, .timeout = 10s});
  const hf::Fd fd = connect_to(server.address());
  for (const char c : std::string_view("GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n")) {
    send_all(fd, std::string_view(&c, 1));
  }
  EXPECT_EQ(status_of(receive_all(fd)), 200);
}

TEST(Exporter, EndlessHeadIs431WithoutReadingMore) {
  RunningExporter server;
  const hf::Fd fd = connect_to(server.address());
  send_all(fd, "GET /metrics HTTP/1.1\r\n");
  const std::string line = "X-Endless: " + std::string(100, 'x') + "\r\n";
  for (std::size_t sent = 0; sent < hfctl::kMaxRequestSize; sent += line.size()) {
    send_all(fd, line);
  }
  EXPECT_EQ(status_of(receive_all(fd)), 431);
  EXPECT_EQ(server.scrapes(), 0);
}

// A metrics source that blocks until released, and says when it started.
class Gate {
 public:
  std::string wait() {
    std::unique_lock lock(mutex_);
    ++entered_;
    changed_.notify_all();
    changed_.wait(lock, [this] { return open_; });
    return std::string(kMetrics);
  }
  bool entered(int times) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 5s, [this, times] { return entered_ >= times; });
  }
  void open() {
    const std::lock_guard lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int entered_ = 0;
  bool open_ = false;
};

// Opens a Gate when it goes, before the server (declared after it) stops:
// a failed assertion must not leave the renderer's thread blocked.
class GateOpener {
 public:
  explicit GateOpener(Gate& gate) : gate_(gate) {}
  GateOpener(const GateOpener&) = delete;
  GateOpener& operator=(const GateOpener&) = delete;
  GateOpener(GateOpener&&) = delete;
  GateOpener& operator=(GateOpener&&) = delete;
  ~GateOpener() { gate_.open(); }

 private:
  Gate& gate_;
};

TEST(Exporter, RenderingDoesNotBlockServingAndIsShared) {
  Gate gate;
  RunningExporter server({.max_connections = 8, .timeout = 10s}, kLoopback,
                         [&gate] { return gate.wait(); });
  const GateOpener opener(gate);
  const std::string get = "GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n";
  const hf::Fd first = connect_to(server.address());
  send_all(first, get);
  ASSERT_TRUE(gate.entered(1));
  // The rendering is stuck: the server still answers what needs no metrics.
  EXPECT_EQ(status_of(round_trip(server.address(), "GET / HTTP/1.0\r\n\r\n")), 200);
  const hf::Fd second = connect_to(server.address());
  const hf::Fd third = connect_to(server.address());
  send_all(second, get);
  send_all(third, get);
  ASSERT_TRUE(wait_for([&server] { return server.counters().requests == 4; }));
  gate.open();
  for (const hf::Fd* fd : {&first, &second, &third}) {
    const std::string response = receive_all(*fd);
    EXPECT_EQ(status_of(response), 200) << response;
    EXPECT_EQ(body_of(response), kMetrics);
  }
  EXPECT_EQ(server.scrapes(), 1) << "requests during a rendering share it";
  EXPECT_EQ(server.counters().renders, 1U);
}

TEST(Exporter, MetricsLateAre503) {
  Gate gate;
  RunningExporter server({.max_connections = 4, .timeout = 200ms}, kLoopback,
                         [&gate] { return gate.wait(); });
  const GateOpener opener(gate);  // the renderer's thread ends once its rendering does
  const std::string response =
      round_trip(server.address(), "GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n");
  EXPECT_EQ(status_of(response), 503) << response;
  EXPECT_EQ(server.counters().timed_out, 1U);
}

TEST(Exporter, FailingSourceIs500) {
  RunningExporter server({}, kLoopback, []() -> std::string { throw std::runtime_error("boom"); });
  const std::string response =
      round_trip(server.address(), "GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n");
  EXPECT_EQ(status_of(response), 500) << response;
  EXPECT_EQ(body_of(response), "500 Internal Server Error: boom\n");
}

TEST(Exporter, Ipv6Loopback) {
  const ListenAddress loopback6{
      .ipv6 = true, .address = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, .port = 0};
  try {
    static_cast<void>(hfctl::open_listener(loopback6));
  } catch (const std::system_error& error) {
    GTEST_SKIP() << "no IPv6 loopback here: " << error.what();
  }
  RunningExporter server({}, loopback6);
  EXPECT_TRUE(server.address().ipv6);
  EXPECT_EQ(status_of(round_trip(server.address(), "GET /metrics HTTP/1.1\r\nHost: [::1]\r\n\r\n")),
            200);
}

TEST(Exporter, BadAddressFailsAtConstruction) {
  // 192.0.2.1 (TEST-NET-1) is no address of this host.
  const ListenAddress elsewhere{.ipv6 = false, .address = {192, 0, 2, 1}, .port = 0};
  EXPECT_THROW(hfctl::Exporter(elsewhere, [] { return std::string(); }), std::system_error);
}

hfctl::SlotState slot(hfctl::Phase phase, std::chrono::milliseconds accepted) {
  return {.phase = phase, .accepted = hfctl::ExporterClock::time_point(accepted)};
}

TEST(EvictionOrder, AnsweredThenReadingThenTheRestOldestFirst) {
  using hfctl::Phase;
  EXPECT_TRUE(hfctl::eviction_order(slot(Phase::draining, 9ms), slot(Phase::reading, 1ms)));
  EXPECT_TRUE(hfctl::eviction_order(slot(Phase::reading, 9ms), slot(Phase::waiting, 1ms)));
  EXPECT_TRUE(hfctl::eviction_order(slot(Phase::reading, 9ms), slot(Phase::writing, 1ms)));
  EXPECT_TRUE(hfctl::eviction_order(slot(Phase::reading, 1ms), slot(Phase::reading, 2ms)));
  EXPECT_FALSE(hfctl::eviction_order(slot(Phase::reading, 2ms), slot(Phase::reading, 1ms)));
  EXPECT_TRUE(hfctl::eviction_order(slot(Phase::waiting, 1ms), slot(Phase::writing, 2ms)));
  EXPECT_FALSE(hfctl::eviction_order(slot(Phase::reading, 1ms), slot(Phase::reading, 1ms)));
}

TEST(ChooseEviction, OldestOutsideTheGrace) {
  using hfctl::Phase;
  const auto now = hfctl::ExporterClock::time_point(1000ms);
  const std::vector<hfctl::SlotState> slots{
      slot(Phase::waiting, 100ms), slot(Phase::reading, 500ms), slot(Phase::reading, 300ms),
      slot(Phase::reading, 950ms),  // in its grace
  };
  EXPECT_EQ(hfctl::choose_eviction(slots, now, 100ms), 2U);
  EXPECT_EQ(hfctl::choose_eviction(slots, now, 0ms), 2U);
  EXPECT_EQ(hfctl::choose_eviction(slots, now, 800ms), 0U) << "readers in their grace";
  EXPECT_EQ(hfctl::choose_eviction(slots, now, 1000ms), std::nullopt) << "all in their grace";
  EXPECT_EQ(hfctl::choose_eviction({}, now, 0ms), std::nullopt);
}

TEST(ChooseEviction, AnsweredGoFirstEvenInTheirGrace) {
  using hfctl::Phase;
  const auto now = hfctl::ExporterClock::time_point(1000ms);
  const std::vector<hfctl::SlotState> slots{slot(Phase::reading, 0ms),
                                            slot(Phase::draining, 999ms)};
  EXPECT_EQ(hfctl::choose_eviction(slots, now, 100ms), 1U);
}

TEST(ParseMaxConnections, Range) {
  EXPECT_EQ(hfctl::parse_max_connections("1"), 1U);
  EXPECT_EQ(hfctl::parse_max_connections("16"), 16U);
  EXPECT_EQ(hfctl::parse_max_connections("1024"), 1024U);
  for (const char* text : {"0", "1025", "", "-1", "4x", " 4", "99999999999999999999999"}) {
    EXPECT_THROW(static_cast<void>(hfctl::parse_max_connections(text)), hfctl::UsageError) << text;
  }
}

}  // namespace
