// hfperf/cpu.h - the resource counters hfperf reads around a measurement:
// its own CPU time (getrusage), the machine's busy CPU time (/proc/stat),
// and an interface's packet counters (/sys/class/net/DEV/statistics).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hfperf {

// CPU seconds spent by the whole machine, from the "cpu" line of /proc/stat.
struct SystemCpu {
  double busy = 0;   // user + nice + system + irq + softirq + steal
  double total = 0;  // busy + idle + iowait
};

// Parses the aggregate "cpu ..." line of /proc/stat (`text` is the whole
// file or that line), with `ticks_per_second` jiffies a second. nullopt if
// there is no such line.
[[nodiscard]] std::optional<SystemCpu> parse_proc_stat(std::string_view text,
                                                       double ticks_per_second);

// One reading of everything; take one before and one after, then diff.
struct Snapshot {
  double self_cpu = 0;                      // this process, user + system seconds
  SystemCpu system;                         // zero if /proc/stat could not be read
  std::optional<std::uint64_t> tx_packets;  // of the device, if one was named and readable
  std::optional<std::uint64_t> rx_packets;
};

// Reads the counters now; `device` empty means no interface counters.
[[nodiscard]] Snapshot take_snapshot(const std::string& device);

// What happened between two snapshots.
struct Usage {
  double self_cpu = 0;    // seconds
  double system_cpu = 0;  // busy seconds, all CPUs
  std::optional<std::uint64_t> tx_packets;
  std::optional<std::uint64_t> rx_packets;
};

[[nodiscard]] Usage operator-(const Snapshot& after, const Snapshot& before);

}  // namespace hfperf
