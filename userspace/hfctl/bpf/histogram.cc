// hfctl/bpf/histogram.cc - log2 histograms and human units (histogram.h).
#include "bpf/histogram.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace hfctl {
namespace {

constexpr double kKiB = 1024.0;
constexpr double kBitsPerByte = 8.0;

// `value` printed with formats[i], after division by 1000^i, for the
// first i at which it stays below 1000 (the last format takes the rest):
// the ladder of decimal units every human_* below climbs.
template <std::size_t N>
std::string decimal_units(double value, const std::array<const char*, N>& formats) {
  double scale = 1.0;
  std::size_t step = 0;
  while (step + 1 < N && value >= scale * 1e3) {
    scale *= 1e3;
    ++step;
  }
  std::array<char, 32> text{};
  static_cast<void>(std::snprintf(text.data(), text.size(), formats.at(step), value / scale));
  return text.data();
}

// A bucket bound in the histogram's unit.
std::string label(std::uint64_t value, HistUnit unit) {
  switch (unit) {
    case HistUnit::ns:
      return human_ns(static_cast<double>(value));
    case HistUnit::count:
      return std::to_string(value);
    case HistUnit::bytes:
      break;
  }
  return power_of_two(value);
}

}  // namespace

std::uint64_t bucket_low(std::size_t i) noexcept {
  return i == 0 ? 0 : std::uint64_t{1} << std::min<std::size_t>(i, 63);
}

std::uint64_t bucket_high(std::size_t i) noexcept {
  if (i + 1 >= kLog2Buckets) {
    return std::numeric_limits<std::uint64_t>::max();
  }
  return (std::uint64_t{1} << (i + 1)) - 1;
}

std::uint64_t hist_total(const Log2Histogram& hist) noexcept {
  std::uint64_t total = 0;
  for (const std::uint64_t count : hist) {
    total += count;
  }
  return total;
}

std::uint64_t hist_quantile(const Log2Histogram& hist, double q) noexcept {
  const std::uint64_t total = hist_total(hist);
  if (total == 0) {
    return 0;
  }
  q = std::clamp(q, 0.0, 1.0);
  // The rank of the sample wanted, 1-based: at least the first.
  const auto rank = std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(total))));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < hist.size(); ++i) {
    seen += hist.at(i);
    if (seen >= rank) {
      return bucket_high(i);
    }
  }
  return bucket_high(hist.size() - 1);
}

double per_second(std::uint64_t count, double seconds) noexcept {
  return seconds > 0 ? static_cast<double>(count) / seconds : 0.0;
}

double average(std::uint64_t total, std::uint64_t count) noexcept {
  return count > 0 ? static_cast<double>(total) / static_cast<double>(count) : 0.0;
}

std::string human_bytes(double bytes) {
  constexpr std::array<std::string_view, 5> kUnits{"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t unit = 0;
  while (bytes >= kKiB && unit + 1 < kUnits.size()) {
    bytes /= kKiB;
    ++unit;
  }
  std::array<char, 32> text{};
  const bool whole = unit == 0 || std::fabs(bytes - std::round(bytes)) < 0.05 || bytes >= 100;
  static_cast<void>(std::snprintf(text.data(), text.size(), whole ? "%.0f %s" : "%.1f %s", bytes,
                                  std::string(kUnits.at(unit)).c_str()));
  return text.data();
}

std::string human_count(double count) {
  return decimal_units(count, std::array{"%.0f", "%.1fk", "%.1fM"});
}

std::string human_bitrate(double bytes_per_second) {
  return decimal_units(bytes_per_second * kBitsPerByte,
                       std::array{"%.0f bit/s", "%.1f kbit/s", "%.1f Mbit/s", "%.2f Gbit/s"});
}

std::string human_ns(double ns) {
  return decimal_units(ns, std::array{"%.0f ns", "%.1f us", "%.1f ms", "%.2f s"});
}

std::string power_of_two(std::uint64_t value) {
  constexpr std::uint64_t kK = 1024;
  if (value >= kK * kK && value % (kK * kK) == 0) {
    return std::to_string(value / (kK * kK)) + "M";
  }
  if (value >= kK && value % kK == 0) {
    return std::to_string(value / kK) + "K";
  }
  return std::to_string(value);
}

void render_hist_text(std::ostream& out, std::string_view title, const Log2Histogram& hist,
                      HistUnit unit) {
  const std::uint64_t most = *std::max_element(hist.begin(), hist.end());
  if (most == 0) {
    return;
  }
  constexpr std::uint64_t kBarWidth = 40;
  out << title << ":\n";
  for (std::size_t i = 0; i < hist.size(); ++i) {
    if (hist.at(i) == 0) {
      continue;
    }
    const std::string range = "[" + label(bucket_low(i), unit) + ", " +
                              (i + 1 < hist.size() ? label(bucket_high(i) + 1, unit) : "inf") + ")";
    const auto bar = static_cast<std::size_t>((hist.at(i) * kBarWidth + most - 1) / most);
    // Times read "[1.0 ms, 2.1 ms)": a wider column than sizes' "[2K, 4K)".
    const int width = unit == HistUnit::ns ? 18 : 12;
    std::array<char, 64> line{};
    static_cast<void>(std::snprintf(line.data(), line.size(), "  %-*s %12llu ", width,
                                    range.c_str(), static_cast<unsigned long long>(hist.at(i))));
    out << line.data() << std::string(bar, '#') << "\n";
  }
}

void hist_json(hf::JsonWriter& json, std::string_view name, const Log2Histogram& hist) {
  json.key(name).begin_array();
  for (std::size_t i = 0; i < hist.size(); ++i) {
    if (hist.at(i) == 0) {
      continue;
    }
    json.begin_object()
        .member("min", bucket_low(i))
        .member("max", bucket_high(i))
        .member("count", hist.at(i))
        .end_object();
  }
  json.end_array();
}

}  // namespace hfctl
