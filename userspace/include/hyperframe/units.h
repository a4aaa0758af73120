// hyperframe/units.h - human units in and out, as iproute2 writes them:
// sizes ("64k", "1m"; powers of 1024), times ("250us", "2ms", "1s"),
// rates ("10gbit", "100mbit"; powers of 1000, bits per second), packet
// counts ("1000p") and percentages ("10%").
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
  // Bytes per second, in the suffixes of bits_per_s (which must come to
  // whole bytes); a bare number must be 0, as it would be bytes to
  // hfctl's JSON and bits to tc(8). Printed as tc prints a rate: "100Mbit".
  bytes_per_s,
  packets,  // a plain number, or with "p" after it; printed with the "p"
  percent,  // a plain number, or with "%" after it; printed with the "%"
};

// The base unit's name, for messages: "bytes", "us", "ms", "bit/s",
// "bytes/s", "packets", "%" or "".
[[nodiscard]] std::string_view unit_name(Unit unit) noexcept;

// Parses `text` as a value in `unit`, in the base unit. Returns std::nullopt
// when it is not a number with a suffix `unit` accepts, when it does not
// come to a whole number of base units (e.g. "1500us" as msecs), or when
// it overflows 64 bits.
[[nodiscard]] std::optional<std::uint64_t> parse_value(std::string_view text, Unit unit);

// Formats `value` (in the base unit) with the largest suffix that divides it
// exactly: 65536 bytes is "64k", 250 us is "250us", 2000 ms is "2s",
// 10000000000 bit/s is "10gbit", 12500000 bytes/s is "100Mbit". Counts are
// plain numbers; packets "1000p", percentages "10%".
[[nodiscard]] std::string format_value(std::uint64_t value, Unit unit);

}  // namespace hf
