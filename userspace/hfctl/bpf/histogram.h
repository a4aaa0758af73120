// hfctl/bpf/histogram.h - the log2 histograms hfctl's BPF programs fill in
// (probe's and trace's): bucket bounds, totals, quantiles, their text and
// JSON rendering; and the human units both commands print numbers in.
// Pure functions, no system calls.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "hyperframe/json.h"

namespace hfctl {

// A log2 histogram: bucket 0 holds 0 and 1, bucket i holds [2^i, 2^(i+1)),
// the last bucket everything from 2^(kLog2Buckets-1) up.
inline constexpr std::size_t kLog2Buckets = 32;
using Log2Histogram = std::array<std::uint64_t, kLog2Buckets>;

// Adds counts a BPF program filled in (a C array of any unsigned 64-bit
// type: buckets, events, bands) into `into`, element by element.
template <typename Count, std::size_t N>
// NOLINTNEXTLINE(cppcoreguidelines-avoid-c-arrays,modernize-avoid-c-arrays): the BPF side's arrays
void add_counts(std::array<std::uint64_t, N>& into, const Count (&from)[N]) {
  const std::span<const Count, N> counts(from);
  for (std::size_t i = 0; i < N; ++i) {
    into.at(i) += counts[i];
  }
}

// The smallest and largest value bucket `i` holds.
[[nodiscard]] std::uint64_t bucket_low(std::size_t i) noexcept;
[[nodiscard]] std::uint64_t bucket_high(std::size_t i) noexcept;
// Samples in the histogram.
[[nodiscard]] std::uint64_t hist_total(const Log2Histogram& hist) noexcept;
// The upper bound of the bucket holding the q-th quantile (0 < q <= 1) of
// the samples; 0 for an empty histogram.
[[nodiscard]] std::uint64_t hist_quantile(const Log2Histogram& hist, double q) noexcept;

// count / seconds, and total / count; 0 where the divisor is 0.
[[nodiscard]] double per_second(std::uint64_t count, double seconds) noexcept;
[[nodiscard]] double average(std::uint64_t total, std::uint64_t count) noexcept;

// "1.4 KiB", "64 KiB", "512 B".
[[nodiscard]] std::string human_bytes(double bytes);
// "950", "12.3k", "1.2M".
[[nodiscard]] std::string human_count(double count);
// A time in nanoseconds: "850 ns", "12.3 us", "4.1 ms", "1.20 s".
[[nodiscard]] std::string human_ns(double ns);
// A rate in bytes per second, shown in bits: "950 bit/s", "12.3 Mbit/s".
[[nodiscard]] std::string human_bitrate(double bytes_per_second);
// A bucket bound as a compact power of two: "512", "2K", "64K", "1M".
[[nodiscard]] std::string power_of_two(std::uint64_t value);

// How a histogram's bucket bounds read: sizes (power_of_two) or times.
enum class HistUnit { bytes, count, ns };

// "TITLE:" then a line per non-empty bucket: its range, its count and a
// bar scaled to the fullest bucket. Nothing for an empty histogram.
void render_hist_text(std::ostream& out, std::string_view title, const Log2Histogram& hist,
                      HistUnit unit = HistUnit::bytes);
// "NAME": [{"min","max","count"}...], the non-empty buckets.
void hist_json(hf::JsonWriter& json, std::string_view name, const Log2Histogram& hist);

}  // namespace hfctl
