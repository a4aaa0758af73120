// lib/attribute.cc - private to libhyperframe: whole-file reads of sysfs
// attributes and strict parsing of their values (see attribute.h).
#include "attribute.h"

#include <fcntl.h>
#include <linux/hyperframe.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <memory>
#include <string>
#include <system_error>

#include "hyperframe/fd.h"
#include "hyperframe/sysfs.h"

namespace hf::detail {
namespace {

// A sysfs attribute is at most a page; anything much larger is not one.
constexpr std::size_t kMaxAttributeBytes = std::size_t{64} * 1024;
// How much of a malformed value an error message quotes.
constexpr std::size_t kMaxQuotedBytes = 40;

// `text` fit for an error message: quoted, non-printable bytes as \xNN,
// long values cut short.
std::string quote_for_message(std::string_view text) {
  constexpr std::string_view kHex = "0123456789abcdef";
  std::string quoted = "\"";
  for (const char c : text.substr(0, kMaxQuotedBytes)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7f || c == '"' || c == '\\') {
      quoted += "\\x";
      quoted += kHex[byte >> 4U];
      quoted += kHex[byte & 0xfU];
    } else {
      quoted += c;
    }
  }
  quoted += text.size() > kMaxQuotedBytes ? "\"..." : "\"";
  return quoted;
}

}  // namespace

std::optional<std::string> read_attribute(const std::filesystem::path& path) {
  const Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) {
    const int error = errno;
    if (error == ENOENT) {
      return std::nullopt;
    }
    throw std::system_error(error, std::generic_category(), path.string());
  }
  std::string text;
  std::array<char, 4096> buffer{};
  for (;;) {
    const ssize_t n = ::read(fd.get(), buffer.data(), buffer.size());
    if (n < 0) {
      const int error = errno;
      if (error == EINTR) {
        continue;
      }
      throw std::system_error(error, std::generic_category(), path.string());
    }
    if (n == 0) {
      return text;
    }
    text.append(buffer.data(), static_cast<std::size_t>(n));
    if (text.size() > kMaxAttributeBytes) {
      throw std::system_error(std::make_error_code(std::errc::file_too_large), path.string());
    }
  }
}

std::string_view strip_newline(std::string_view text) noexcept {
  if (text.ends_with('\n')) {
    text.remove_suffix(1);
  }
  return text;
}

std::optional<std::int64_t> parse_integer(std::string_view text, std::int64_t min, std::int64_t max,
                                          Base base) noexcept {
  text = strip_newline(text);
  int radix = 10;
  if (base == Base::decimal_or_hex && (text.starts_with("0x") || text.starts_with("0X"))) {
    radix = 16;
    text.remove_prefix(2);
    if (text.starts_with('-')) {
      return std::nullopt;
    }
  }
  if (text.empty()) {
    return std::nullopt;
  }
  const char* const last = std::to_address(text.end());
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), last, value, radix);
  if (error != std::errc{} || end != last || value < min || value > max) {
    return std::nullopt;
  }
  return value;
}

void throw_malformed(const std::filesystem::path& path, std::string_view expected,
                     std::string_view text) {
  throw std::system_error(std::make_error_code(std::errc::invalid_argument),
                          path.string() + ": expected " + std::string(expected) + ", found " +
                              quote_for_message(strip_newline(text)));
}

void throw_not_loaded() {
  throw std::system_error(std::make_error_code(std::errc::address_family_not_supported),
                          "hyperframe module not loaded (load hyperframe.ko first)");
}

std::optional<int> read_family(const std::filesystem::path& root) {
  const std::filesystem::path path = under_root(root, HF_SYSFS_FAMILY);
  const std::optional<std::string> text = read_attribute(path);
  if (!text) {
    return std::nullopt;
  }
  // The kernel refuses families at or above AF_MAX, and 0 is AF_UNSPEC.
  const auto value = parse_integer(*text, 1, AF_MAX - 1);
  if (!value) {
    throw_malformed(path, "an address family number (1-" + std::to_string(AF_MAX - 1) + ")", *text);
  }
  return static_cast<int>(*value);
}

}  // namespace hf::detail
