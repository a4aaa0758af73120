// selftests/hf_libsocket.cc - libhyperframe's hf::Socket against the real
// module, for selftests/hf_libsocket.sh: two sockets in two network
// namespaces joined by veth (each with its eth0), one bound to a port on
// its interface, the other to a port on any.
//
//   hf_libsocket NS0 NS1 CASE
//
// CASE is one of
//   exchange  messages of 0 B to 3 MiB from NS0 to NS1, each answered back
//             to the sender address it came with: every byte, the length
//             and both sender addresses checked
//   truncate  messages longer than the buffer: truncated, their length
//             told, what fits intact (peeked too), the rest gone
//   dontwait  MSG_DONTWAIT on an empty socket: EAGAIN, as an error_code and
//             as an exception; a message that did arrive is taken
//   errors    the errno of refused binds and sends, both forms
// Prints "# " lines; exits 0 when every check passed, 1 when one failed,
// 2 for a usage error.
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <iostream>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "hyperframe/fd.h"
#include "hyperframe/netns.h"
#include "hyperframe/socket.h"

#include <net/if.h>

namespace {

constexpr std::uint16_t kPort0 = 7710;  // NS0's socket, bound to its eth0
constexpr std::uint16_t kPort1 = 7711;  // NS1's socket, bound to any interface
constexpr std::size_t kMiB = std::size_t{1} << 20U;

// The checks that failed so far.
int& failures() {
  static int count = 0;
  return count;
}

void fail(const std::string& what) {
  ++failures();
  std::cout << "# FAIL: " << what << std::endl;
}

// check(OK, WHAT): counts and prints a failed check.
bool check(bool ok, const std::string& what) {
  if (!ok) {
    fail(what);
  }
  return ok;
}

struct Interface {
  int ifindex = 0;
  hf::MacAddress mac{};
};

// Index and Ethernet address of `name` in the calling thread's namespace
// (sysfs would show the namespace it was mounted in).
Interface interface(const std::string& name) {
  const hf::Fd fd(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  ifreq request{};
  name.copy(static_cast<char*>(request.ifr_name), IFNAMSIZ - 1);
  Interface found;
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-vararg)
  if (!fd || ::ioctl(fd.get(), SIOCGIFINDEX, &request) != 0) {
    throw std::system_error(errno, std::generic_category(), "SIOCGIFINDEX " + name);
  }
  found.ifindex = request.ifr_ifindex;
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-vararg)
  if (::ioctl(fd.get(), SIOCGIFHWADDR, &request) != 0) {
    throw std::system_error(errno, std::generic_category(), "SIOCGIFHWADDR " + name);
  }
  std::memcpy(found.mac.data(), static_cast<const void*>(request.ifr_hwaddr.sa_data),
              found.mac.size());
  return found;
}

// The bytes of message `seq` of `size`: a xorshift stream seeded by both,
// so a message in another's place, or a segment misplaced inside one,
// shows.
std::vector<std::byte> pattern(std::size_t size, std::uint64_t seq) {
  std::vector<std::byte> data(size);
  std::uint64_t x = (seq + 1) * 0x9e3779b97f4a7c15ULL ^ size;
  x |= 1U;
  std::uint64_t word = 0;
  for (std::size_t i = 0; i < size; ++i) {
    if (i % 8 == 0) {
      x ^= x << 13U;
      x ^= x >> 7U;
      x ^= x << 17U;
      word = x;
    }
    data[i] = static_cast<std::byte>(word >> (8 * (i % 8)));
  }
  return data;
}

// Whether `got` is the start of `want`; says where it differs if not.
bool same_bytes(std::span<const std::byte> got, std::span<const std::byte> want,
                const std::string& what) {
  if (got.size() > want.size()) {
    return check(false, what + ": " + std::to_string(got.size()) + " bytes, more than sent");
  }
  const auto [bad, unused] = std::mismatch(got.begin(), got.end(), want.begin());
  static_cast<void>(unused);
  return check(bad == got.end(),
               what + ": first wrong byte at offset " + std::to_string(bad - got.begin()));
}

void same_address(const hf::Address& got, const hf::Address& want, const std::string& what) {
  check(got == want, what + ": sender " + hf::to_string(got) + ", want " + hf::to_string(want));
}

// The two ends: each socket, its namespace's eth0, and the address the
// other end reaches it at.
struct Pair {
  std::string ns0, ns1;
  Interface if0, if1;
  hf::Socket s0, s1;
  hf::Address to1;  // NS1's socket, from NS0
  hf::Address to0;  // NS0's socket, from NS1

  Pair(std::string name0, std::string name1)
      : ns0(std::move(name0)),
        ns1(std::move(name1)),
        if0(in(ns0)),
        if1(in(ns1)),
        s0(open_in(ns0)),
        s1(open_in(ns1)) {
    s0.bind(kPort0, if0.ifindex);
    s1.bind(kPort1);
    to1 = {.ifindex = if0.ifindex, .mac = if1.mac, .port = kPort1};
    to0 = {.ifindex = if1.ifindex, .mac = if0.mac, .port = kPort0};
    // A lost message fails the case instead of hanging it.
    for (const hf::Socket* s : {&s0, &s1}) {
      const timeval timeout{.tv_sec = 60, .tv_usec = 0};
      if (::setsockopt(s->get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout)) != 0) {
        throw std::system_error(errno, std::generic_category(), "SO_RCVTIMEO");
      }
    }
  }

  static Interface in(const std::string& ns) {
    hf::enter_netns(ns);
    return interface("eth0");
  }
  static hf::Socket open_in(const std::string& ns) {
    hf::enter_netns(ns);
    return hf::Socket();
  }
};

// Sends `message` from `from` to `to` while another thread receives it on
// `at` into `buffer` with `flags`: a message larger than what the
// buffers and byte credit hold in flight needs its reader running.
hf::Received transfer(hf::Socket& from, const hf::Address& to, hf::Socket& at,
                      std::span<const std::byte> message, std::span<std::byte> buffer,
                      int flags = 0) {
  hf::Received got;
  std::exception_ptr error;
  std::thread reader([&] {
    try {
      got = at.receive(buffer, flags);
    } catch (...) {
      error = std::current_exception();
    }
  });
  try {
    const std::size_t sent = from.send_to(to, message);
    check(sent == message.size(), "send_to returned " + std::to_string(sent) + " for " +
                                      std::to_string(message.size()) + " bytes");
  } catch (...) {
    // Nothing comes: the reader's SO_RCVTIMEO ends it.
    reader.join();
    throw;
  }
  reader.join();
  if (error) {
    std::rethrow_exception(error);
  }
  return got;
}

void exchange(Pair& pair) {
  const std::array<std::size_t, 9> sizes{0,      1,           1000,         1456,    1457,
                                         100000, kMiB + 4099, 2 * kMiB + 1, 3 * kMiB};
  std::vector<std::byte> buffer(4 * kMiB);
  std::uint64_t seq = 0;
  for (const std::size_t size : sizes) {
    const std::string what = std::to_string(size) + "-byte message";
    const std::vector<std::byte> out = pattern(size, seq++);
    const auto start = std::chrono::steady_clock::now();
    const hf::Received there = transfer(pair.s0, pair.to1, pair.s1, out, buffer);
    check(there.size == size && there.length == size && !there.truncated,
          what + ": received " + std::to_string(there.size) + " of length " +
              std::to_string(there.length) + (there.truncated ? ", truncated" : ""));
    same_bytes(std::span(buffer).first(there.size), out, what);
    same_address(there.from, pair.to0, what);

    // Answered to the address it came from.
    const std::vector<std::byte> back = pattern(size, seq++);
    const hf::Received here = transfer(pair.s1, there.from, pair.s0, back, buffer);
    check(here.size == size && !here.truncated,
          what + ", answer: received " + std::to_string(here.size));
    same_bytes(std::span(buffer).first(here.size), back, what + ", answer");
    same_address(here.from, pair.to1, what + ", answer");
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start);
    std::cout << "# " << what << " there and back: " << ms.count() << " ms" << std::endl;
  }
}

// Waits up to `ms` for a message queued on `s`.
bool readable(const hf::Socket& s, int ms) {
  pollfd p{.fd = s.get(), .events = POLLIN, .revents = 0};
  return ::poll(&p, 1, ms) == 1 && (p.revents & POLLIN) != 0;
}

void expect_empty(hf::Socket& s, const std::string& what) {
  std::array<std::byte, 64> small{};
  std::error_code error;
  const hf::Received got = s.receive(small, MSG_DONTWAIT, error);
  check(error == std::errc::resource_unavailable_try_again,
        what + ": want EAGAIN, got " +
            (error ? error.message() : "a message of " + std::to_string(got.length) + " bytes"));
}

void truncate(Pair& pair) {
  // 5000 bytes for 1000: a peek says so and leaves it; the read takes it.
  const std::vector<std::byte> out = pattern(5000, 1);
  std::vector<std::byte> buffer(1000);
  hf::Received got = transfer(pair.s0, pair.to1, pair.s1, out, buffer, MSG_PEEK);
  check(got.truncated && got.size == 1000 && got.length == 5000,
        "peek of 5000 bytes into 1000: size " + std::to_string(got.size) + " length " +
            std::to_string(got.length) + (got.truncated ? "" : ", not truncated"));
  same_bytes(std::span(buffer).first(got.size), out, "peek of 5000 bytes");
  std::fill(buffer.begin(), buffer.end(), std::byte{0});
  got = pair.s1.receive(buffer, MSG_DONTWAIT);
  check(got.truncated && got.size == 1000 && got.length == 5000,
        "5000 bytes into 1000: size " + std::to_string(got.size) + " length " +
            std::to_string(got.length) + (got.truncated ? "" : ", not truncated"));
  same_bytes(std::span(buffer).first(got.size), out, "5000 bytes into 1000");
  same_address(got.from, pair.to0, "5000 bytes into 1000");
  expect_empty(pair.s1, "after a truncated message");

  // Above 1 MiB into 64 KiB.
  const std::vector<std::byte> big = pattern(2 * kMiB + 3, 2);
  buffer.assign(std::size_t{64} * 1024, std::byte{0});
  got = transfer(pair.s0, pair.to1, pair.s1, big, buffer);
  check(got.truncated && got.size == buffer.size() && got.length == big.size(),
        "2 MiB + 3 into 64 KiB: size " + std::to_string(got.size) + " length " +
            std::to_string(got.length) + (got.truncated ? "" : ", not truncated"));
  same_bytes(std::span(buffer).first(got.size), big, "2 MiB + 3 into 64 KiB");
  same_address(got.from, pair.to0, "2 MiB + 3 into 64 KiB");
  expect_empty(pair.s1, "after a truncated 2 MiB message");

  // Exactly the buffer: whole. Then one byte over, the other way.
  const std::vector<std::byte> exact = pattern(buffer.size(), 3);
  got = transfer(pair.s0, pair.to1, pair.s1, exact, buffer);
  check(!got.truncated && got.size == exact.size() && got.length == exact.size(),
        "a message the size of the buffer: size " + std::to_string(got.size) +
            (got.truncated ? ", truncated" : ""));
  same_bytes(std::span(buffer).first(got.size), exact, "a message the size of the buffer");
  const std::vector<std::byte> over = pattern(buffer.size() + 1, 4);
  got = transfer(pair.s1, pair.to0, pair.s0, over, buffer);
  check(got.truncated && got.size == buffer.size() && got.length == over.size(),
        "one byte over the buffer: size " + std::to_string(got.size) + " length " +
            std::to_string(got.length) + (got.truncated ? "" : ", not truncated"));
  same_address(got.from, pair.to1, "one byte over the buffer");
  expect_empty(pair.s0, "after a message one byte over");
}

void dontwait(Pair& pair) {
  std::vector<std::byte> buffer(4096);
  std::error_code error = std::make_error_code(std::errc::io_error);
  const auto start = std::chrono::steady_clock::now();
  hf::Received got = pair.s1.receive(buffer, MSG_DONTWAIT, error);
  const auto waited = std::chrono::steady_clock::now() - start;
  check(error == std::errc::resource_unavailable_try_again,
        "empty socket, MSG_DONTWAIT: " + (error ? error.message() : std::string("no error")));
  check(got.size == 0 && got.length == 0 && !got.truncated && got.from == hf::Address{},
        "a failed receive returns an empty Received");
  check(waited < std::chrono::seconds(1), "MSG_DONTWAIT waited");
  try {
    got = pair.s1.receive(buffer, MSG_DONTWAIT);
    fail("receive(MSG_DONTWAIT) on an empty socket returned " + std::to_string(got.size));
  } catch (const std::system_error& e) {
    check(e.code() == std::errc::resource_unavailable_try_again,
          std::string("the exception carries ") + e.code().message());
    check(std::string(e.what()).rfind("recvmsg(AF_HYPERFRAME, 4096-byte buffer): ", 0) == 0,
          std::string("the exception names the call: ") + e.what());
    std::cout << "# " << e.what() << std::endl;
  }

  // A message that arrived is taken without waiting, then it is empty again.
  const std::vector<std::byte> out = pattern(3000, 5);
  error = std::make_error_code(std::errc::io_error);
  const std::size_t sent = pair.s0.send_to(pair.to1, out, MSG_DONTWAIT, error);
  check(!error && sent == out.size(), "send_to(MSG_DONTWAIT): " + error.message());
  check(readable(pair.s1, 10000), "the message never became readable");
  got = pair.s1.receive(buffer, MSG_DONTWAIT, error);
  check(!error && got.size == out.size() && !got.truncated,
        "receive(MSG_DONTWAIT) of a queued message: " +
            (error ? error.message() : std::to_string(got.size) + " bytes"));
  same_bytes(std::span(buffer).first(got.size), out, "MSG_DONTWAIT message");
  same_address(got.from, pair.to0, "MSG_DONTWAIT message");
  expect_empty(pair.s1, "after the queued message");
}

void expect_errno(const std::error_code& got, std::errc want, const std::string& what) {
  check(got == want, what + ": want " + std::make_error_code(want).message() + ", got " +
                         (got ? got.message() : std::string("success")));
}

void errors(Pair& pair) {
  const std::vector<std::byte> one = pattern(1, 6);
  std::error_code error;
  hf::Address bad = pair.to1;
  bad.ifindex = 4242;
  pair.s0.send_to(bad, one, 0, error);
  expect_errno(error, std::errc::no_such_device, "send to ifindex 4242");
  try {
    pair.s0.send_to(bad, one);
    fail("send to ifindex 4242 did not throw");
  } catch (const std::system_error& e) {
    const std::string want = "sendmsg(AF_HYPERFRAME, [" + hf::format_mac(bad.mac) +
                             "%4242]:7711, 1 bytes): " + e.code().message();
    check(e.code() == std::errc::no_such_device && e.what() == want,
          std::string("exception: ") + e.what() + ", want " + want);
  }
  bad = pair.to1;
  bad.port = 0;
  pair.s0.send_to(bad, one, 0, error);
  expect_errno(error, std::errc::invalid_argument, "send to port 0");
  bad = pair.to1;
  bad.mac[0] |= 1U;
  pair.s0.send_to(bad, one, 0, error);
  expect_errno(error, std::errc::invalid_argument, "send to a multicast address");

  // Ports are the namespace's, whatever the interface.
  hf::Socket other = Pair::open_in(pair.ns0);
  other.bind(kPort0, 0, error);
  expect_errno(error, std::errc::address_in_use, "bind to a port taken");
  other.bind(kPort0 + 2, 4242, error);
  expect_errno(error, std::errc::no_such_device, "bind to ifindex 4242");
  try {
    other.bind(kPort0, pair.if0.ifindex);
    fail("bind to a port taken did not throw");
  } catch (const std::system_error& e) {
    const std::string want = "bind(AF_HYPERFRAME, port 7710, ifindex " +
                             std::to_string(pair.if0.ifindex) + "): " + e.code().message();
    check(e.code() == std::errc::address_in_use && e.what() == want,
          std::string("exception: ") + e.what() + ", want " + want);
  }
  const hf::Address local = pair.s0.local_address();
  check(local == hf::Address{.ifindex = pair.if0.ifindex, .mac = {}, .port = kPort0},
        "local address " + hf::to_string(local));
  // The refused sends left nothing behind: a good one still goes.
  std::vector<std::byte> buffer(16);
  const hf::Received got = transfer(pair.s0, pair.to1, pair.s1, one, buffer);
  check(got.size == 1 && !got.truncated, "a send after the refused ones");
}

}  // namespace

int main(int argc, char** argv) {
  const std::span<char*> arguments(argv, argc > 0 ? static_cast<std::size_t>(argc) : 0);
  const std::vector<std::string_view> args(arguments.begin() + (arguments.empty() ? 0 : 1),
                                           arguments.end());
  if (args.size() != 3) {
    std::cerr << "usage: hf_libsocket NS0 NS1 exchange|truncate|dontwait|errors\n";
    return 2;
  }
  const std::string_view name = args[2];
  void (*run)(Pair&) = nullptr;
  if (name == "exchange") {
    run = &exchange;
  } else if (name == "truncate") {
    run = &truncate;
  } else if (name == "dontwait") {
    run = &dontwait;
  } else if (name == "errors") {
    run = &errors;
  } else {
    std::cerr << "hf_libsocket: unknown case " << name << "\n";
    return 2;
  }
  try {
    Pair pair{std::string(args[0]), std::string(args[1])};
    run(pair);
  } catch (const std::exception& e) {
    fail(std::string("exception: ") + e.what());
  }
  return failures() == 0 ? 0 : 1;
}
