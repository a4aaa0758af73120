// tests/lib/fd_test.cc - unit tests of hf::Fd (lib/fd.cc): ownership moves
// with the object and ends in exactly one close().
#include "hyperframe/fd.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <utility>

#include <gtest/gtest.h>

namespace {

// Whether `fd` is an open descriptor of this process.
bool is_open(int fd) {
  return ::fcntl(fd, F_GETFD) != -1;
}

// Two ends of a fresh pipe, each owned by an Fd.
std::pair<hf::Fd, hf::Fd> make_pipe() {
  std::array<int, 2> ends{};
  if (::pipe2(ends.data(), O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe2 failed";
  }
  return {hf::Fd(ends[0]), hf::Fd(ends[1])};
}

TEST(Fd, DefaultOwnsNothing) {
  const hf::Fd fd;
  EXPECT_EQ(fd.get(), -1);
  EXPECT_FALSE(fd);
}

TEST(Fd, DestructionCloses) {
  int raw = -1;
  {
    auto [reader, writer] = make_pipe();
    raw = reader.get();
    EXPECT_TRUE(reader);
    EXPECT_TRUE(is_open(raw));
  }
  EXPECT_FALSE(is_open(raw));
}

TEST(Fd, MoveConstructionTransfersOwnership) {
  auto [reader, writer] = make_pipe();
  const int raw = reader.get();
  hf::Fd moved(std::move(reader));
  EXPECT_EQ(moved.get(), raw);
  EXPECT_FALSE(reader);  // NOLINT(bugprone-use-after-move,hicpp-invalid-access-moved)
  EXPECT_TRUE(is_open(raw));
}

TEST(Fd, MoveAssignmentClosesTheOldDescriptor) {
  auto [reader, writer] = make_pipe();
  const int old_raw = reader.get();
  const int new_raw = writer.get();
  reader = std::move(writer);
  EXPECT_FALSE(is_open(old_raw));
  EXPECT_EQ(reader.get(), new_raw);
  EXPECT_TRUE(is_open(new_raw));
}

TEST(Fd, ReleaseGivesUpWithoutClosing) {
  auto [reader, writer] = make_pipe();
  const int raw = reader.get();
  const int released = reader.release();
  EXPECT_EQ(released, raw);
  EXPECT_FALSE(reader);
  EXPECT_TRUE(is_open(raw));
  ::close(released);
}

TEST(Fd, ResetClosesAndAdopts) {
  auto [reader, writer] = make_pipe();
  const int old_raw = reader.get();
  const int adopted = writer.release();
  reader.reset(adopted);
  EXPECT_FALSE(is_open(old_raw));
  EXPECT_EQ(reader.get(), adopted);
  reader.reset();
  EXPECT_FALSE(reader);
  EXPECT_FALSE(is_open(adopted));
}

TEST(Fd, ResetToTheSameDescriptorKeepsItOpen) {
  auto [reader, writer] = make_pipe();
  const int raw = reader.get();
  reader.reset(raw);
  EXPECT_TRUE(is_open(raw));
}

}  // namespace
