// tests/lib/socket_test.cc - unit tests of hf::Socket (lib/socket.cc):
// ownership of the descriptor and the errors socket(2) failures become.
#include "hyperframe/socket.h"

#include <fcntl.h>
#include <linux/hyperframe.h>

#include <filesystem>
#include <string>
#include <system_error>

#include <gtest/gtest.h>

#include "hyperframe/sysfs.h"

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

}  // namespace
