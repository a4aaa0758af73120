// hyperframe/units.h - human units in and out, as iproute2 writes them:
// sizes ("64k", "1m"; powers of 1024), times ("250us", "2ms", "1s") and
// rates ("10gbit", "100mbit"; powers of 1000, bits per second).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hf {

// What a number counts; the base unit is the one a bare number means.
enum class Unit {
  count,       // a plain number
  bytes,       // k, m, g, t suffixes (1024-based), optionally followed by "b"
  usecs,       // microseconds; us, ms, s suffixes
  msecs,       // milliseconds; us, ms, s suffixes (must come to whole ms)
  bits_per_s,  // bit, kbit, mbit, gbit, tbit (1000-based); bps, kbps, ... bytes/s
};

// The base unit's name, for messages: "bytes", "us", "ms", "bit/s" or "".
[[nodiscard]] std::string_view unit_name(Unit unit) noexcept;

// Parses `text` as a value in `unit`, in the base unit. Returns std::nullopt
// when it is not a number with a suffix `unit` accepts, when it does not
// come to a whole number of base units (e.g. "1500us" as msecs), or when
// it overflows 64 bits.
[[nodiscard]] std::optional<std::uint64_t> parse_value(std::string_view text, Unit unit);

// Formats `value` (in the base unit) with the largest suffix that divides it
// exactly: 65536 bytes is "64k", 250 us is "250us", 2000 ms is "2s",
// 10000000000 bit/s is "10gbit". Counts are plain numbers.
[[nodiscard]] std::string format_value(std::uint64_t value, Unit unit);

}  // namespace hf
