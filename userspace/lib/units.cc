// lib/units.cc - parsing and printing of sizes, times and rates with their
// iproute2-style suffixes.
#include "hyperframe/units.h"

#include <array>
#include <cctype>
#include <charconv>
#include <limits>
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

std::string format_with(std::uint64_t value, std::span<const Suffix> suffixes) {
  for (const Suffix& suffix : suffixes) {
    if (value != 0 && value % suffix.scale == 0) {
      return std::to_string(value / suffix.scale) + std::string(suffix.name);
    }
  }
  return std::to_string(value) + std::string(suffixes.back().name);
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
      return suffix.empty() ? std::optional(number) : std::nullopt;
    case Unit::bytes: {
      std::string_view name = suffix;
      if (name.ends_with("ib") && name.size() == 3) {
        name.remove_suffix(2);
      } else if (name.ends_with('b')) {
        name.remove_suffix(1);
      }
      const Suffix* found = find_suffix(kByteSuffixes, name);
      return found != nullptr ? scale(number, found->scale, 1) : std::nullopt;
    }
    case Unit::usecs:
    case Unit::msecs: {
      const std::uint64_t base = unit == Unit::msecs ? kThousand : 1;
      if (suffix.empty()) {
        return number;
      }
      const Suffix* found = find_suffix(kUsecSuffixes, suffix);
      return found != nullptr ? scale(number, found->scale, base) : std::nullopt;
    }
    case Unit::bits_per_s: {
      if (suffix.empty()) {
        return number;
      }
      const Suffix* found = find_suffix(kRateSuffixes, suffix);
      if (found == nullptr) {
        found = find_suffix(kByteRateSuffixes, suffix);
      }
      return found != nullptr ? scale(number, found->scale, 1) : std::nullopt;
    }
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
    case Unit::count:
      break;
  }
  return std::to_string(value);
}

}  // namespace hf
