// tests/hfctl/listener_test.cc - unit tests of hfctl/exporter/listener.cc:
// --listen addresses accepted and refused, their text, and a real listening
// socket.
#include "exporter/listener.h"

#include <string>

#include <gtest/gtest.h>

#include "cli/cli.h"

namespace {

using hfctl::ListenAddress;
using hfctl::parse_listen_address;

std::string error_of(std::string_view text) {
  try {
    static_cast<void>(parse_listen_address(text));
  } catch (const hfctl::UsageError& error) {
    EXPECT_EQ(error.hint(), "hfctl exporter help");
    return error.what();
  }
  ADD_FAILURE() << "accepted " << text;
  return "";
}

TEST(ParseListenAddress, Ipv4) {
  const ListenAddress address = parse_listen_address("127.0.0.1:9477");
  EXPECT_FALSE(address.ipv6);
  EXPECT_EQ(address.port, 9477);
  EXPECT_EQ(address.address[0], 127);
  EXPECT_EQ(address.address[3], 1);
  EXPECT_EQ(hfctl::to_string(address), "127.0.0.1:9477");
  EXPECT_EQ(hfctl::to_string(parse_listen_address("0.0.0.0:1")), "0.0.0.0:1");
  EXPECT_EQ(parse_listen_address("10.1.2.3:65535").port, 65535);
}

TEST(ParseListenAddress, Ipv6InBrackets) {
  const ListenAddress address = parse_listen_address("[::1]:9477");
  EXPECT_TRUE(address.ipv6);
  EXPECT_EQ(address.port, 9477);
  EXPECT_EQ(address.address[15], 1);
  EXPECT_EQ(hfctl::to_string(address), "[::1]:9477");
  EXPECT_EQ(hfctl::to_string(parse_listen_address("[::]:80")), "[::]:80");
  EXPECT_EQ(hfctl::to_string(parse_listen_address("[2001:DB8:0::1]:80")), "[2001:db8::1]:80");
  EXPECT_EQ(hfctl::to_string(parse_listen_address("[::ffff:10.0.0.1]:80")), "[::ffff:10.0.0.1]:80");
}

TEST(ParseListenAddress, TheDefaultParses) {
  EXPECT_EQ(hfctl::to_string(parse_listen_address(hfctl::kDefaultListenAddress)), "127.0.0.1:9477");
}

TEST(ParseListenAddress, MissingPort) {
  for (const char* text : {"127.0.0.1", "127.0.0.1:", "[::1]", "[::1]:"}) {
    EXPECT_NE(error_of(text).find("missing port"), std::string::npos) << text;
  }
}

TEST(ParseListenAddress, PortOutOfRange) {
  for (const char* text :
       {"127.0.0.1:0", "127.0.0.1:65536", "[::1]:0", "[::1]:65536", "127.0.0.1:99999999999",
        "127.0.0.1:-1", "127.0.0.1:+80", "127.0.0.1:80x", "127.0.0.1: 80"}) {
    EXPECT_NE(error_of(text).find("port must be a number from 1 to 65535"), std::string::npos)
        << text;
  }
}

TEST(ParseListenAddress, BadIpv6) {
  EXPECT_NE(error_of("[::1:9477").find("missing ']'"), std::string::npos);
  EXPECT_NE(error_of("[::1]9477").find("expected ':PORT'"), std::string::npos);
  EXPECT_NE(error_of("::1:9477").find("in brackets"), std::string::npos);
  for (const char* text :
       {"[:::1]:80", "[1.2.3.4]:80", "[fe80::1%eth0]:80", "[]:80", "[12345::]:80", "[::g]:80"}) {
    const std::string error = error_of(text);
    EXPECT_TRUE(error.find("not a literal IPv6") != std::string::npos ||
                error.find("missing address") != std::string::npos)
        << text << ": " << error;
  }
}

TEST(ParseListenAddress, BadIpv4AndHostNames) {
  for (const char* text : {"localhost:9477", "1.2.3:80", "1.2.3.256:80", "01.2.3.4:80"}) {
    EXPECT_NE(error_of(text).find("not a literal IPv4 address"), std::string::npos) << text;
  }
  EXPECT_NE(error_of(":9477").find("missing address"), std::string::npos);
  EXPECT_NE(error_of("").find("missing port"), std::string::npos);
}

TEST(OpenListener, PortZeroTakesAFreePort) {
  const hf::Fd fd = hfctl::open_listener({.ipv6 = false, .address = {127, 0, 0, 1}, .port = 0});
  ASSERT_TRUE(fd);
  const ListenAddress bound = hfctl::local_address(fd.get());
  EXPECT_FALSE(bound.ipv6);
  EXPECT_NE(bound.port, 0);
  EXPECT_EQ(bound.address[0], 127);
}

TEST(OpenListener, PortInUseIsASystemError) {
  const hf::Fd first = hfctl::open_listener({.ipv6 = false, .address = {127, 0, 0, 1}, .port = 0});
  const ListenAddress taken = hfctl::local_address(first.get());
  try {
    static_cast<void>(hfctl::open_listener(taken));
    FAIL() << "bound twice";
  } catch (const std::system_error& error) {
    EXPECT_EQ(error.code(), std::errc::address_in_use);
    EXPECT_EQ(std::string(error.what()).rfind("cannot listen on " + hfctl::to_string(taken), 0), 0U)
        << error.what();
  }
}

}  // namespace
