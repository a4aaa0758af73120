// tests/hfperf/udp_transport_test.cc - hfperf's UDP transport over
// loopback: whole messages of many segments arrive intact, and a client
// that sent before its server bound the port (the ICMP port-unreachable
// then queued on its socket) still times out and can try again, where it
// once waited in a blocking read for ever.
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <vector>

#include <gtest/gtest.h>

#include "hyperframe/fd.h"
#include "transport.h"

namespace hfperf {
namespace {

using std::chrono::milliseconds;

constexpr std::size_t kSegment = 1472;

// A loopback UDP port nobody listens on (bound, read, released).
std::uint16_t free_udp_port() {
  const hf::Fd fd(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  EXPECT_TRUE(fd);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast)
  EXPECT_EQ(::bind(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  socklen_t len = sizeof(addr);
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast)
  EXPECT_EQ(::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&addr), &len), 0);
  return ntohs(addr.sin_port);
}

std::vector<std::byte> pattern(std::size_t size) {
  std::vector<std::byte> bytes(size);
  for (std::size_t i = 0; i < size; ++i) {
    bytes[i] = static_cast<std::byte>(i * 7 + i / 251);
  }
  return bytes;
}

TEST(UdpTransport, MessageOfManySegmentsArrivesWhole) {
  const auto transport = make_udp_transport(kSegment);
  const std::uint16_t port = free_udp_port();
  const auto listener = transport->listen(port);
  const auto server = listener->accept();
  ASSERT_TRUE(server);
  const auto client = transport->connect("127.0.0.1", port, milliseconds{1000});
  const auto message = pattern(200000);  // 137 segments, three GSO sends
  client->send(message);
  Buffer buffer;
  const auto length = server->recv(buffer, milliseconds{5000});
  ASSERT_TRUE(length);
  ASSERT_EQ(*length, message.size());
  EXPECT_TRUE(std::equal(message.begin(), message.end(), buffer.span().begin()));
  // The server answers its last sender.
  const auto reply = pattern(100);
  server->send(reply);
  const auto back = client->recv(buffer, milliseconds{5000});
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, reply.size());
}

TEST(UdpTransport, RefusedSendTimesOutThenWorksOnceTheServerListens) {
  const auto transport = make_udp_transport(kSegment);
  const std::uint16_t port = free_udp_port();
  const auto client = transport->connect("127.0.0.1", port, milliseconds{1000});
  Buffer buffer;
  // Nobody listens: loopback answers port unreachable, the socket holds
  // ECONNREFUSED, and recv must come back when its time is up.
  client->send(pattern(64));
  auto pending =
      std::async(std::launch::async, [&] { return client->recv(buffer, milliseconds{300}); });
  if (pending.wait_for(std::chrono::seconds{10}) != std::future_status::ready) {
    // The reader cannot be interrupted; end the run rather than hang in
    // the future's destructor.
    (void)std::fputs("FAILED: recv blocked past its timeout after a refused send\n", stderr);
    std::_Exit(EXIT_FAILURE);
  }
  EXPECT_FALSE(pending.get());

  const auto listener = transport->listen(port);
  const auto server = listener->accept();
  const auto message = pattern(5000);
  client->send(message);
  Buffer inbound;
  const auto length = server->recv(inbound, milliseconds{5000});
  ASSERT_TRUE(length);
  EXPECT_EQ(*length, message.size());
}

}  // namespace
}  // namespace hfperf
