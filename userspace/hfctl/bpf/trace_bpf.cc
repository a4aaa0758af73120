// hfctl/bpf/trace_bpf.cc - "hfctl trace", its tracing part: the checks before
// anything loads (privilege, module, tracefs, the records' layout), the BPF
// skeleton's life (RAII through a unique_ptr deleter), the live loop, and
// the sum of the per-CPU statistics and per-peer counts.
#include "bpf/trace_bpf.h"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <iterator>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <system_error>
#include <tuple>
#include <vector>

#include "bpf/bpf_support.h"
#include "cli/objects.h"
#include "cli/settings.h"
#include "cli/stop_signals.h"
#include "hf_trace.h"
#include "hf_trace_skel.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

namespace hfctl {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr std::string_view kNeedPrivilege = "hfctl trace needs root or CAP_BPF and CAP_PERFMON";

static_assert(HF_TRACE_BUCKETS == kLog2Buckets);
static_assert(static_cast<std::size_t>(HF_TRACE_EVENTS) == kTraceEvents);
static_assert(HF_TRACE_BANDS == kHfqBands.size());
static_assert(HF_TRACE_REASONS == kSizeReasons.size());

struct SkeletonDeleter {
  void operator()(hf_trace* skeleton) const noexcept { hf_trace_skel_destroy(skeleton); }
};
using Skeleton = std::unique_ptr<hf_trace, SkeletonDeleter>;

// The directory of the module's events in tracefs (its usual mount, or
// under debugfs). Throws when the module or tracefs is missing.
fs::path events_dir(const fs::path& root) {
  std::error_code ignored;
  // tracefs is root's alone (mode 700): CAP_BPF and CAP_PERFMON pass the
  // privilege check, yet cannot look inside.
  const auto exists = [](const fs::path& path) {
    std::error_code error;
    const bool found = fs::exists(path, error);
    if (error == std::errc::permission_denied) {
      throw std::runtime_error("hfctl trace needs to read tracefs (" + path.string() +
                               ": permission denied): run it as root");
    }
    return found;
  };
  if (!fs::exists(root / "sys/module/hyperframe", ignored)) {
    throw std::runtime_error(
        "the hyperframe module is not loaded (modprobe hyperframe): hfctl trace reads its "
        "tracepoints");
  }
  bool mounted = false;
  for (const char* tracefs : {"sys/kernel/tracing", "sys/kernel/debug/tracing"}) {
    const fs::path events = root / tracefs / "events";
    if (!exists(events)) {
      continue;
    }
    mounted = true;
    if (exists(events / "hyperframe")) {
      return events / "hyperframe";
    }
  }
  if (!mounted) {
    // "ip netns exec" mounts a sysfs of its own, without tracefs on it.
    throw std::runtime_error(
        "tracefs is not mounted, and hfctl trace attaches through it "
        "(mount -t tracefs nodev /sys/kernel/tracing; under \"ip netns exec\", whose "
        "sysfs has none, use \"hfctl -n NETNS trace\")");
  }
  throw std::runtime_error(
      "the loaded hyperframe module has no tracepoints (no trace system \"hyperframe\" in "
      "tracefs): load the module of this release");
}

// Refuses a module whose records the programs would misread.
void check_formats(const fs::path& events) {
  for (const TraceEventFormat& expected : trace_event_formats()) {
    const fs::path file = events / std::string(expected.event) / "format";
    std::ifstream in(file);
    if (!in) {
      throw std::runtime_error("hfctl trace: the module has no tracepoint " +
                               std::string(expected.event) + " (" + file.string() +
                               "): load the module of this release");
    }
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const std::vector<TraceField> fields = parse_trace_format(text);
    const std::string mismatch = trace_format_mismatch(expected, fields);
    if (!mismatch.empty()) {
      throw std::runtime_error("hfctl trace cannot read the module's " +
                               std::string(expected.event) + " records (" + mismatch +
                               "): hfctl and the module are of different releases");
    }
  }
}

std::size_t possible_cpus() {
  const int cpus = libbpf_num_possible_cpus();
  if (cpus <= 0) {
    throw std::system_error(-cpus, std::generic_category(), "trace: counting CPUs");
  }
  return static_cast<std::size_t>(cpus);
}

void add(TraceCounts& into, const hf_trace_stats& from) {
  add_counts(into.events, from.events);
  into.xmit_segs += from.xmit_segs;
  into.xmit_bytes += from.xmit_bytes;
  into.recv_segs += from.recv_segs;
  into.recv_bytes += from.recv_bytes;
  into.deliver_bytes += from.deliver_bytes;
  into.stalls_zero_window += from.stalls_zero_window;
  into.frame_changes += from.frame_changes;
  into.rate_cuts += from.rate_cuts;
  add_counts(into.size_reasons, from.size_reasons);
  add_counts(into.hfq_enqueued, from.hfq_enqueued);
  add_counts(into.hfq_dequeued, from.hfq_dequeued);
  into.peers_untracked += from.peers_untracked;
  add_counts(into.xmit_bytes_hist, from.xmit_bytes_hist);
  add_counts(into.recv_bytes_hist, from.recv_bytes_hist);
  std::size_t band = 0;
  for (const auto& hist : from.sojourn_ns_hist) {
    add_counts(into.sojourn_ns_hist.at(band++), hist);
  }
  add_counts(into.latency_ns_hist, from.latency_ns_hist);
  add_counts(into.msg_bytes_hist, from.msg_bytes_hist);
}

// One peer's per-CPU counts added up; the frame size and rate of the CPU
// that saw the controller's last change, the hint of the one that saw the
// receiver's last.
TracePeer sum_peer(const hf_trace_peer_key& key, std::span<const hf_trace_peer> per_cpu) {
  TracePeer peer;
  peer.ifindex = key.ifindex;
  std::copy(std::begin(key.addr), std::end(key.addr), peer.addr.begin());
  peer.dev = interface_name(key.ifindex);
  __u64 latest = 0;
  __u64 latest_hint = 0;
  for (const hf_trace_peer& cpu : per_cpu) {
    peer.tx_frames += cpu.tx_frames;
    peer.tx_segs += cpu.tx_segs;
    peer.tx_bytes += cpu.tx_bytes;
    peer.rx_frames += cpu.rx_frames;
    peer.rx_segs += cpu.rx_segs;
    peer.rx_bytes += cpu.rx_bytes;
    peer.retransmits += cpu.retransmits;
    peer.grants += cpu.grants;
    peer.stalls += cpu.stalls;
    peer.msgs += cpu.msgs;
    peer.msg_bytes += cpu.msg_bytes;
    peer.size_changes += cpu.size_changes;
    if (cpu.size_ns > latest) {
      latest = cpu.size_ns;
      peer.frame_segs = cpu.frame_segs;
      peer.rate = cpu.rate;
    }
    peer.rate_hints += cpu.rate_hints;
    if (cpu.hint_ns > latest_hint) {
      latest_hint = cpu.hint_ns;
      peer.rate_hint = cpu.rate_hint;
    }
  }
  return peer;
}

// What the programs counted so far.
TraceCounts read_counts(const hf_trace* skeleton) {
  const std::size_t cpus = possible_cpus();
  TraceCounts counts;
  std::vector<hf_trace_stats> stats(cpus);
  const __u32 zero = 0;
  if (bpf_map_lookup_elem(hf_trace_skel_stats_fd(skeleton), &zero, stats.data()) != 0) {
    throw std::system_error(errno, std::generic_category(), "trace: reading the statistics");
  }
  for (const hf_trace_stats& cpu : stats) {
    add(counts, cpu);
  }

  const int peers_fd = hf_trace_skel_peers_fd(skeleton);
  std::vector<hf_trace_peer> values(cpus);
  hf_trace_peer_key key{};
  hf_trace_peer_key previous{};
  bool first = true;
  int error = 0;
  while ((error = bpf_map_get_next_key(peers_fd, first ? nullptr : &previous, &key)) == 0) {
    // Nothing deletes peers, so every key found has its value.
    if (bpf_map_lookup_elem(peers_fd, &key, values.data()) == 0) {
      counts.peers.push_back(sum_peer(key, values));
    }
    previous = key;
    first = false;
  }
  if (error != -ENOENT) {
    throw std::system_error(-error, std::generic_category(), "trace: reading the peers");
  }
  __u64 missed = 0;
  error = hf_trace_skel_missed(skeleton, &missed);
  if (error != 0) {
    throw std::system_error(-error, std::generic_category(), "trace: reading the programs' misses");
  }
  counts.missed = missed;
  std::sort(counts.peers.begin(), counts.peers.end(), [](const TracePeer& a, const TracePeer& b) {
    return std::tie(a.dev, a.ifindex, a.addr) < std::tie(b.dev, b.ifindex, b.addr);
  });
  return counts;
}

double seconds_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

}  // namespace

TraceReport run_trace(const TraceArgs& args, const fs::path& root, std::ostream& status,
                      const std::function<void(const TraceReport&)>& screen) {
  if (!bpf_privileged()) {
    throw std::runtime_error(std::string(kNeedPrivilege));
  }
  check_formats(events_dir(root));
  std::int32_t ifindex = 0;
  if (args.dev) {
    ifindex = interface_index(*args.dev);
    if (ifindex == 0) {
      throw std::runtime_error(cannot_find_device(*args.dev));
    }
  }

  keep_libbpf_warnings();
  const hf_trace_config config{.netns = current_netns_inode(), .ifindex = ifindex};
  int error = 0;
  const Skeleton skeleton(hf_trace_skel_load(&config, &error));
  if (!skeleton) {
    throw std::runtime_error(bpf_load_error("trace", -error, kNeedPrivilege));
  }

  // Signals first: a Ctrl-C once attached ends the trace, with a report.
  const StopSignals stop("trace");
  error = hf_trace_skel_attach(skeleton.get());
  if (error != 0) {
    throw std::runtime_error(bpf_load_error("trace", -error, kNeedPrivilege));
  }
  TraceReport report;
  report.args = args;
  report.netns = config.netns;
  const auto start = Clock::now();
  status << "hfctl trace: " << trace_listening(args) << std::endl;
  const auto end = args.duration ? start + *args.duration : Clock::time_point::max();
  auto window = start;
  auto next_screen = start + args.interval;
  for (auto now = start; now < end; now = Clock::now()) {
    if (screen && now >= next_screen) {
      report.window_start = std::move(report.totals);
      report.totals = read_counts(skeleton.get());
      report.seconds = seconds_between(start, now);
      report.window_seconds = seconds_between(window, now);
      report.live = true;
      screen(report);
      window = now;
      next_screen = now + args.interval;
    }
    const auto wake = screen ? std::min(end, next_screen) : end;
    pollfd fd{.fd = stop.fd(), .events = POLLIN, .revents = 0};
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(wake - now);
    constexpr std::int64_t kMaxPollMs = 1000L * 3600;
    const int ready =
        poll(&fd, 1, static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, kMaxPollMs)));
    if (ready > 0) {
      break;
    }
    if (ready < 0 && errno != EINTR) {
      throw std::system_error(errno, std::generic_category(), "trace: poll");
    }
  }
  hf_trace_skel_detach(skeleton.get());
  const auto stopped = Clock::now();
  report.totals = read_counts(skeleton.get());
  report.window_start = TraceCounts{};
  report.seconds = seconds_between(start, stopped);
  report.window_seconds = report.seconds;
  report.live = false;
  return report;
}

}  // namespace hfctl
