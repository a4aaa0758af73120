// hfperf/cpu.cc - getrusage, /proc/stat and interface counters.
#include "cpu.h"

#include <sys/resource.h>
#include <unistd.h>

#include <array>
#include <fstream>
#include <sstream>

namespace hfperf {
namespace {

double seconds(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::optional<std::uint64_t> read_counter(const std::string& device, const char* name) {
  const auto text = read_file("/sys/class/net/" + device + "/statistics/" + name);
  if (!text) {
    return std::nullopt;
  }
  try {
    return std::stoull(*text);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<std::uint64_t> delta(std::optional<std::uint64_t> after,
                                   std::optional<std::uint64_t> before) {
  if (!after || !before) {
    return std::nullopt;
  }
  return *after - *before;
}

}  // namespace

std::optional<SystemCpu> parse_proc_stat(std::string_view text, double ticks_per_second) {
  std::istringstream lines{std::string(text)};
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    if (name != "cpu") {
      continue;
    }
    // user nice system idle iowait irq softirq steal
    std::array<double, 8> v{};
    for (auto& field : v) {
      if (!(fields >> field)) {
        field = 0;
      }
    }
    SystemCpu cpu;
    cpu.busy = (v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / ticks_per_second;
    cpu.total = cpu.busy + (v[3] + v[4]) / ticks_per_second;
    return cpu;
  }
  return std::nullopt;
}

Snapshot take_snapshot(const std::string& device) {
  Snapshot snap;
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) == 0) {
    snap.self_cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime);
  }
  if (const auto text = read_file("/proc/stat")) {
    if (const auto cpu = parse_proc_stat(*text, static_cast<double>(sysconf(_SC_CLK_TCK)))) {
      snap.system = *cpu;
    }
  }
  if (!device.empty()) {
    snap.tx_packets = read_counter(device, "tx_packets");
    snap.rx_packets = read_counter(device, "rx_packets");
  }
  return snap;
}

Usage operator-(const Snapshot& after, const Snapshot& before) {
  Usage usage;
  usage.self_cpu = after.self_cpu - before.self_cpu;
  usage.system_cpu = after.system.busy - before.system.busy;
  usage.tx_packets = delta(after.tx_packets, before.tx_packets);
  usage.rx_packets = delta(after.rx_packets, before.rx_packets);
  return usage;
}

}  // namespace hfperf
