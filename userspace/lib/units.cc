// lib/units.cc - parsing and printing of sizes, times, rates, packet counts
// and percentages with their iproute2-style suffixes.
#include "hyperframe/units.h"

#include <array>
#include <cctype>
#include <charconv>
#include <limits>
#include <numeric>
#include <span>

namespace hf {
namespace {

struct Suffix {
  std::string_view name;
  std::uint64_t scale;  // base units per one of it
};

constexpr std::uint64_t kKi = 1024;
constexpr std::uint64_t kThousand = 1000;

// Largest first: format_value() takes the first that divides exactly.
constexpr std::array kByteSuffixes{
    Suffix{"t", kKi* kKi* kKi* kKi},
    Suffix{"g", kKi* kKi* kKi},
    Suffix{"m", kKi* kKi},
    Suffix{"k", kKi},
    Suffix{"", 1},
};
constexpr std::array kUsecSuffixes{
    Suffix{"s", kThousand* kThousand},
    Suffix{"ms", kThousand},
    Suffix{"us", 1},
};
constexpr std::array kRateSuffixes{
    Suffix{"tbit", kThousand* kThousand* kThousand* kThousand},
    Suffix{"gbit", kThousand* kThousand* kThousand},
    Suffix{"mbit", kThousand* kThousand},
    Suffix{"kbit", kThousand},
    Suffix{"bit", 1},
};
constexpr std::uint64_t kBitsPerByte = 8;
// Accepted on input only: bytes per second.
constexpr std::array kByteRateSuffixes{
    Suffix{"tbps", 8 * kThousand* kThousand* kThousand* kThousand},
    Suffix{"gbps", 8 * kThousand* kThousand* kThousand},
    Suffix{"mbps", 8 * kThousand* kThousand},
    Suffix{"kbps", 8 * kThousand},
    Suffix{"bps", 8},
};

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// value * numerator / denominator, exactly, or nullopt.
std::optional<std::uint64_t> scale(std::uint64_t value, std::uint64_t numerator,
                                   std::uint64_t denominator) {
  // Reduced first, so that what fits once divided does not overflow.
  const std::uint64_t common = std::gcd(numerator, denominator);
  numerator /= common;
  denominator /= common;
  if (numerator != 0 && value > std::numeric_limits<std::uint64_t>::max() / numerator) {
    return std::nullopt;
  }
  const std::uint64_t product = value * numerator;
  if (product % denominator != 0) {
    return std::nullopt;
  }
  return product / denominator;
}

const Suffix* find_suffix(std::span<const Suffix> suffixes, std::string_view name) {
  for (const Suffix& suffix : suffixes) {
    if (suffix.name == name) {
      return &suffix;
    }
  }
  return nullptr;
}

// `number` when `suffix` is nothing or `sign`.
std::optional<std::uint64_t> with_sign(std::uint64_t number, std::string_view suffix,
                                       std::string_view sign) {
  return suffix.empty() || suffix == sign ? std::optional(number) : std::nullopt;
}

// `number` of the size `suffix` names, in bytes.
std::optional<std::uint64_t> parse_size(std::uint64_t number, std::string_view suffix) {
  if (suffix.ends_with("ib") && suffix.size() == 3) {
    suffix.remove_suffix(2);
  } else if (suffix.ends_with('b')) {
    suffix.remove_suffix(1);
  }
  const Suffix* found = find_suffix(kByteSuffixes, suffix);
  return found != nullptr ? scale(number, found->scale, 1) : std::nullopt;
}

// `number` of the time `suffix` names, in units of `base` us; bare: in them.
std::optional<std::uint64_t> parse_time(std::uint64_t number, std::string_view suffix,
                                        std::uint64_t base) {
  if (suffix.empty()) {
    return number;
  }
  const Suffix* found = find_suffix(kUsecSuffixes, suffix);
  return found != nullptr ? scale(number, found->scale, base) : std::nullopt;
}

// `number` of the rate `suffix` names, in units of `base` bit/s. A bare
// rate is bits, or (in bytes) only 0: see units.h.
std::optional<std::uint64_t> parse_rate(std::uint64_t number, std::string_view suffix,
                                        std::uint64_t base) {
  if (suffix.empty()) {
    return base == 1 || number == 0 ? std::optional(number) : std::nullopt;
  }
  const Suffix* found = find_suffix(kRateSuffixes, suffix);
  if (found == nullptr) {
    found = find_suffix(kByteRateSuffixes, suffix);
  }
  return found != nullptr ? scale(number, found->scale, base) : std::nullopt;
}

std::string format_with(std::uint64_t value, std::span<const Suffix> suffixes) {
  for (const Suffix& suffix : suffixes) {
    if (value != 0 && value % suffix.scale == 0) {
      return std::to_string(value / suffix.scale) + std::string(suffix.name);
    }
  }
  return std::to_string(value) + std::string(suffixes.back().name);
}

// A rate as tc(8) writes it, its scale in capitals: "100mbit" is "100Mbit".
std::string tc_rate(std::string text) {
  constexpr std::size_t kBit = std::string_view("bit").size();
  if (text.size() > kBit) {
    char& scale = text[text.size() - kBit - 1];  // a digit when there is none
    scale = static_cast<char>(std::toupper(static_cast<unsigned char>(scale)));
  }
  return text;
}

}  // namespace

std::string_view unit_name(Unit unit) noexcept {
  switch (unit) {
    case Unit::bytes:
      return "bytes";
    case Unit::usecs:
      return "us";
    case Unit::msecs:
      return "ms";
    case Unit::bits_per_s:
      return "bit/s";
    case Unit::bytes_per_s:
      return "bytes/s";
    case Unit::packets:
      return "packets";
    case Unit::percent:
      return "%";
    case Unit::count:
      break;
  }
  return "";
}

std::optional<std::uint64_t> parse_value(std::string_view text, Unit unit) {
  std::uint64_t number = 0;
  const char* const end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, number);
  if (error != std::errc() || stop == text.data()) {
    return std::nullopt;
  }
  const std::string suffix = lower(text.substr(static_cast<std::size_t>(stop - text.data())));

  switch (unit) {
    case Unit::count:
      return with_sign(number, suffix, "");
    case Unit::bytes:
      return parse_size(number, suffix);
    case Unit::usecs:
      return parse_time(number, suffix, 1);
    case Unit::msecs:
      return parse_time(number, suffix, kThousand);
    case Unit::bits_per_s:
      return parse_rate(number, suffix, 1);
    case Unit::bytes_per_s:
      return parse_rate(number, suffix, kBitsPerByte);
    case Unit::packets:
      return with_sign(number, suffix, "p");
    case Unit::percent:
      return with_sign(number, suffix, "%");
  }
  return std::nullopt;
}

std::string format_value(std::uint64_t value, Unit unit) {
  switch (unit) {
    case Unit::bytes:
      return format_with(value, kByteSuffixes);
    case Unit::usecs:
      return format_with(value, kUsecSuffixes);
    case Unit::msecs:
      if (value <= std::numeric_limits<std::uint64_t>::max() / kThousand) {
        return format_with(value * kThousand, kUsecSuffixes);
      }
      return std::to_string(value) + "ms";
    case Unit::bits_per_s:
      return format_with(value, kRateSuffixes);
    case Unit::bytes_per_s:
      if (value <= std::numeric_limits<std::uint64_t>::max() / kBitsPerByte) {
        return tc_rate(format_with(value * kBitsPerByte, kRateSuffixes));
      }
      return std::to_string(value) + "bps";
    case Unit::packets:
      return std::to_string(value) + "p";
    case Unit::percent:
      return std::to_string(value) + "%";
    case Unit::count:
      break;
  }
  return std::to_string(value);
}

}  // namespace hf
