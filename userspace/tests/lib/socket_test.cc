// tests/lib/socket_test.cc - unit tests of hf::Socket (lib/socket.cc):
// ownership of the descriptor, the errors socket(2) failures become,
// hf::Address and its text form, and the message calls as far as a host
// without the module can take them (an AF_UNIX datagram pair stands in
// for a hyperframe socket; the guest's hf_libsocket.sh runs them for real).
#include "hyperframe/socket.h"

#include <fcntl.h>
#include <linux/hyperframe.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "hyperframe/sysfs.h"

#include <net/if.h>

namespace {

bool module_loaded() {
  return std::filesystem::exists(HF_SYSFS_FAMILY);
}

TEST(Socket, OwnsAnOpenCloseOnExecDescriptor) {
  // AF_UNIX stands in for a family every kernel has.
  const hf::Socket socket(hf::Family{AF_UNIX}, SOCK_DGRAM, 0);
  ASSERT_TRUE(socket.fd());
  EXPECT_EQ(socket.address_family(), AF_UNIX);
  EXPECT_EQ(::fcntl(socket.get(), F_GETFD), FD_CLOEXEC);
}

TEST(Socket, ReleaseEmptiesTheSocket) {
  hf::Socket socket(hf::Family{AF_UNIX}, SOCK_DGRAM, 0);
  const int raw = socket.get();
  const hf::Fd fd = socket.release();
  EXPECT_EQ(fd.get(), raw);
  EXPECT_FALSE(socket.fd());
}

TEST(Socket, FailureNamesTheCallAndCarriesErrno) {
  if (module_loaded()) {
    GTEST_SKIP() << "the hyperframe module is loaded here";
  }
  try {
    const hf::Socket socket(hf::Family{AF_HYPERFRAME}, SOCK_RDM, 0);
    FAIL() << "socket() succeeded without the module";
  } catch (const std::system_error& error) {
    EXPECT_EQ(error.code(), std::errc::address_family_not_supported);
    EXPECT_EQ(std::string(error.what()),
              "socket(AF_HYPERFRAME, SOCK_RDM): Address family not supported by protocol");
  }
}

TEST(Socket, FailureShowsAnUnusualTypeAndProtocol) {
  try {
    const hf::Socket socket(hf::Family{AF_UNIX}, 77, 5);
    FAIL() << "socket() accepted type 77";
  } catch (const std::system_error& error) {
    EXPECT_EQ(std::string(error.what()).rfind("socket(AF_HYPERFRAME, 77, 5): ", 0), 0U)
        << error.what();
  }
}

TEST(Socket, DefaultFamilyComesFromTheModule) {
  if (module_loaded()) {
    const hf::Socket socket;
    EXPECT_EQ(socket.address_family(), hf::family());
    return;
  }
  try {
    const hf::Socket socket;
    FAIL() << "Socket() succeeded without the module";
  } catch (const std::system_error& error) {
    EXPECT_EQ(error.code(), std::errc::address_family_not_supported);
    EXPECT_NE(std::string(error.what()).find("hyperframe module not loaded"), std::string::npos);
  }
}

// Two connected AF_UNIX datagram sockets, taken over as hf::Sockets.
std::pair<hf::Socket, hf::Socket> unix_pair() {
  std::array<int, 2> ends{};
  if (::socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, ends.data()) != 0) {
    ADD_FAILURE() << "socketpair failed";
  }
  return {hf::Socket(hf::Fd(ends[0]), hf::Family{AF_UNIX}),
          hf::Socket(hf::Fd(ends[1]), hf::Family{AF_UNIX})};
}

std::vector<std::byte> bytes(std::string_view text) {
  std::vector<std::byte> out(text.size());
  std::memcpy(out.data(), text.data(), text.size());
  return out;
}

std::string text_of(std::span<const std::byte> data) {
  return {reinterpret_cast<const char*>(data.data()),  // NOLINT(*-reinterpret-cast)
          data.size()};
}

const hf::Address kPeer{.ifindex = 3, .mac = {0x02, 0x00, 0x00, 0xab, 0xcd, 0x0e}, .port = 7000};

TEST(Mac, FormatsLowerCaseWithLeadingZeros) {
  EXPECT_EQ(hf::format_mac({0x02, 0x00, 0x00, 0xab, 0xcd, 0x0e}), "02:00:00:ab:cd:0e");
  EXPECT_EQ(hf::format_mac({}), "00:00:00:00:00:00");
  EXPECT_EQ(hf::format_mac({0xff, 0xff, 0xff, 0xff, 0xff, 0xff}), "ff:ff:ff:ff:ff:ff");
}

TEST(Mac, ParsesEitherCaseAndShortGroups) {
  EXPECT_EQ(hf::parse_mac("02:00:00:ab:cd:0e"), kPeer.mac);
  EXPECT_EQ(hf::parse_mac("02:0:0:AB:Cd:e"), kPeer.mac);
  for (const hf::MacAddress& mac :
       {hf::MacAddress{}, kPeer.mac, hf::MacAddress{1, 2, 3, 4, 5, 0xff}}) {
    EXPECT_EQ(hf::parse_mac(hf::format_mac(mac)), mac);
  }
}

TEST(Mac, RefusesAnythingElse) {
  for (const char* text :
       {"", "02:00:00:ab:cd", "02:00:00:ab:cd:0e:", "02:00:00:ab:cd:0e:01", "002:00:00:ab:cd:0e",
        "02:00:00:ab:cd:0g", "02-00-00-ab-cd-0e", "02:00::ab:cd:0e", " 02:00:00:ab:cd:0e",
        "02:00:00:ab:cd:0e ", "0x2:00:00:ab:cd:0e"}) {
    EXPECT_EQ(hf::parse_mac(text), std::nullopt) << text;
  }
}

TEST(Address, ConvertsToAndFromSockaddr) {
  const sockaddr_hf addr = kPeer.to_sockaddr(27);
  EXPECT_EQ(addr.shf_family, 27);
  EXPECT_EQ(addr.shf_port, 7000);
  EXPECT_EQ(addr.shf_ifindex, 3);
  EXPECT_TRUE(std::equal(kPeer.mac.begin(), kPeer.mac.end(), std::begin(addr.shf_addr)));
  EXPECT_EQ(addr.shf_zero[0], 0);
  EXPECT_EQ(addr.shf_zero[1], 0);
  EXPECT_EQ(hf::Address::from_sockaddr(addr), kPeer);
  EXPECT_EQ(hf::Address::from_sockaddr(hf::Address{}.to_sockaddr(18)), hf::Address{});
}

TEST(Address, TextFormLikeAZonedLinkLocalAddress) {
  EXPECT_EQ(hf::to_string(kPeer), "[02:00:00:ab:cd:0e%3]:7000");
  EXPECT_EQ(hf::to_string(hf::Address{.ifindex = 0, .mac = kPeer.mac, .port = 65535}),
            "[02:00:00:ab:cd:0e]:65535");
  EXPECT_EQ(hf::parse_address("[02:00:00:ab:cd:0e%3]:7000"), kPeer);
  EXPECT_EQ(hf::parse_address("[02:0:0:AB:CD:E%3]:7000"), kPeer);
  EXPECT_EQ(hf::parse_address("[02:00:00:ab:cd:0e]:0"),
            (hf::Address{.ifindex = 0, .mac = kPeer.mac, .port = 0}));
  const hf::Address big{.ifindex = 0x7fffffff, .mac = {1, 2, 3, 4, 5, 6}, .port = 1};
  EXPECT_EQ(hf::parse_address(hf::to_string(big)), big);
}

TEST(Address, ZoneMayNameTheInterface) {
  const auto lo = static_cast<int>(::if_nametoindex("lo"));
  if (lo == 0) {
    GTEST_SKIP() << "no loopback interface here";
  }
  EXPECT_EQ(hf::parse_address("[02:00:00:ab:cd:0e%lo]:7000").ifindex, lo);
  try {
    static_cast<void>(hf::parse_address("[02:00:00:ab:cd:0e%hfnosuch0]:7000"));
    FAIL() << "an interface that does not exist was accepted";
  } catch (const std::system_error& error) {
    EXPECT_EQ(error.code(), std::errc::no_such_device);
    EXPECT_EQ(std::string(error.what()),
              "hf address \"[02:00:00:ab:cd:0e%hfnosuch0]:7000\": interface hfnosuch0: " +
                  error.code().message());
  }
}

TEST(Address, MalformedTextIsInvalidArgument) {
  for (const char* text :
       {"", "02:00:00:ab:cd:0e:7000", "[02:00:00:ab:cd:0e]",
        "[02:00:00:ab:cd:0e]:", "[02:00:00:ab:cd:0e]:65536", "[02:00:00:ab:cd:0e]:-1",
        "[02:00:00:ab:cd:0e]:7000x", "[02:00:00:ab:cd:0e%]:7000", "[02:00:00:ab:cd%3]:7000",
        "[02:00:00:ab:cd:0e%3x]:7000", "[02:00:00:ab:cd:0e%2147483648]:7000",
        "02:00:00:ab:cd:0e]:7000", "[02:00:00:ab:cd:0e%3]:70 00"}) {
    try {
      static_cast<void>(hf::parse_address(text));
      ADD_FAILURE() << "accepted " << text;
    } catch (const std::system_error& error) {
      EXPECT_EQ(error.code(), std::errc::invalid_argument) << text;
      EXPECT_EQ(
          std::string(error.what()).rfind("hf address \"" + std::string(text) + "\" (want ", 0), 0U)
          << error.what();
    }
  }
}

TEST(Socket, AdoptsADescriptor) {
  auto [left, right] = unix_pair();
  const int raw = left.get();
  const hf::Socket adopted(left.release(), hf::Family{AF_UNIX});
  EXPECT_EQ(adopted.get(), raw);
  EXPECT_EQ(adopted.address_family(), AF_UNIX);
}

TEST(Socket, ReceiveReturnsTheMessageAndItsLength) {
  auto [left, right] = unix_pair();
  const std::vector<std::byte> out = bytes("hello, world");
  ASSERT_EQ(::send(left.get(), out.data(), out.size(), 0), static_cast<ssize_t>(out.size()));
  std::array<std::byte, 64> in{};
  const hf::Received got = right.receive(in);
  EXPECT_EQ(got.size, out.size());
  EXPECT_EQ(got.length, out.size());
  EXPECT_FALSE(got.truncated);
  EXPECT_EQ(text_of(std::span(in).first(got.size)), "hello, world");
  EXPECT_EQ(got.from, hf::Address{}) << "no hyperframe sender on AF_UNIX";
}

TEST(Socket, ReceiveReportsTruncation) {
  auto [left, right] = unix_pair();
  const std::vector<std::byte> out = bytes("0123456789abcdef");
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(::send(left.get(), out.data(), out.size(), 0), static_cast<ssize_t>(out.size()));
  }
  std::array<std::byte, 10> in{};
  // Peeking at it leaves it queued, truncated or not.
  hf::Received got = right.receive(in, MSG_PEEK);
  EXPECT_TRUE(got.truncated);
  EXPECT_EQ(got.size, 10U);
  EXPECT_EQ(got.length, 16U);

  got = right.receive(in);
  EXPECT_TRUE(got.truncated);
  EXPECT_EQ(got.size, 10U);
  EXPECT_EQ(got.length, 16U);
  EXPECT_EQ(text_of(in), "0123456789");

  // The rest of a truncated message is gone: the next one is whole.
  std::array<std::byte, 16> exact{};
  got = right.receive(exact);
  EXPECT_FALSE(got.truncated) << "a message that fills the buffer exactly";
  EXPECT_EQ(got.size, 16U);
  EXPECT_EQ(text_of(exact), "0123456789abcdef");

  got = right.receive(std::span<std::byte>());
  EXPECT_TRUE(got.truncated);
  EXPECT_EQ(got.size, 0U);
  EXPECT_EQ(got.length, 16U);
}

TEST(Socket, EmptySocketWithDontWaitIsEagain) {
  auto [left, right] = unix_pair();
  std::array<std::byte, 8> in{};
  std::error_code error = std::make_error_code(std::errc::io_error);
  const hf::Received got = right.receive(in, MSG_DONTWAIT, error);
  EXPECT_EQ(error, std::errc::resource_unavailable_try_again);
  EXPECT_EQ(got.size, 0U);
  EXPECT_EQ(got.length, 0U);
  try {
    static_cast<void>(right.receive(in, MSG_DONTWAIT));
    FAIL() << "receive() on an empty socket returned";
  } catch (const std::system_error& error) {
    EXPECT_EQ(error.code(), std::errc::resource_unavailable_try_again);
    EXPECT_EQ(std::string(error.what()),
              "recvmsg(AF_HYPERFRAME, 8-byte buffer): " + error.code().message());
  }
  // A success clears what the caller's error_code held.
  ASSERT_EQ(::send(left.get(), "x", 1, 0), 1);
  EXPECT_EQ(right.receive(in, MSG_DONTWAIT, error).size, 1U);
  EXPECT_FALSE(error);
}

TEST(Socket, ClosedSocketErrorsNameTheCall) {
  hf::Socket socket(hf::Family{AF_UNIX}, SOCK_DGRAM, 0);
  { const hf::Fd closed = socket.release(); }
  const std::vector<std::byte> out = bytes("abc");
  std::array<std::byte, 4> in{};

  std::error_code error;
  EXPECT_EQ(socket.send_to(kPeer, out, 0, error), 0U);
  EXPECT_EQ(error, std::errc::bad_file_descriptor);
  error.clear();
  static_cast<void>(socket.receive(in, 0, error));
  EXPECT_EQ(error, std::errc::bad_file_descriptor);
  error.clear();
  socket.bind(7000, 0, error);
  EXPECT_EQ(error, std::errc::bad_file_descriptor);
  error.clear();
  static_cast<void>(socket.local_address(error));
  EXPECT_EQ(error, std::errc::bad_file_descriptor);

  const std::string ebadf = std::make_error_code(std::errc::bad_file_descriptor).message();
  const auto what = [](auto&& call) {
    try {
      call();
    } catch (const std::system_error& error) {
      EXPECT_EQ(error.code(), std::errc::bad_file_descriptor);
      return std::string(error.what());
    }
    return std::string("(no exception)");
  };
  EXPECT_EQ(what([&] { socket.send_to(kPeer, out); }),
            "sendmsg(AF_HYPERFRAME, [02:00:00:ab:cd:0e%3]:7000, 3 bytes): " + ebadf);
  EXPECT_EQ(what([&] { static_cast<void>(socket.receive(in, MSG_DONTWAIT)); }),
            "recvmsg(AF_HYPERFRAME, 4-byte buffer): " + ebadf);
  EXPECT_EQ(what([&] { socket.bind(7000); }), "bind(AF_HYPERFRAME, port 7000): " + ebadf);
  EXPECT_EQ(what([&] { socket.bind(7000, 2); }),
            "bind(AF_HYPERFRAME, port 7000, ifindex 2): " + ebadf);
  EXPECT_EQ(what([&] { static_cast<void>(socket.local_address()); }),
            "getsockname(AF_HYPERFRAME): " + ebadf);
  EXPECT_EQ(what([&] { static_cast<void>(socket.info()); }),
            "getsockopt(AF_HYPERFRAME, HF_INFO): " + ebadf);
  EXPECT_EQ(what([&] { static_cast<void>(socket.peer_info(kPeer)); }),
            "getsockopt(AF_HYPERFRAME, HF_PEER_INFO, [02:00:00:ab:cd:0e%3]:7000): " + ebadf);
  error.clear();
  EXPECT_EQ(socket.info(error).hfi_version, 0U);
  EXPECT_EQ(error, std::errc::bad_file_descriptor);
}

TEST(Socket, AddressOfAnotherFamilyIsTheKernelsToRefuse) {
  // A UDP socket taken for a hyperframe one: the kernel refuses the
  // sockaddr_hf as it refuses any foreign address, and the errno comes back.
  hf::Socket socket(hf::Fd(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)),
                    hf::Family{AF_HYPERFRAME});
  ASSERT_TRUE(socket.fd());
  std::error_code error;
  socket.bind(7000, 0, error);
  EXPECT_EQ(error, std::errc::address_family_not_supported);
  EXPECT_EQ(socket.send_to(kPeer, bytes("x"), MSG_DONTWAIT, error), 0U);
  EXPECT_EQ(error, std::errc::address_family_not_supported);
  EXPECT_EQ(socket.local_address(error), hf::Address{}) << "an AF_INET name is no hf address";
  EXPECT_FALSE(error);
  static_cast<void>(socket.info(error));
  EXPECT_TRUE(error) << "no SOL_HYPERFRAME on a UDP socket";
}

}  // namespace
