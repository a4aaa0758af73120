// hfctl/bpf/probe_bpf.cc - "hfctl probe", its measuring part: the BPF
// skeleton's life (open, configure, load, attach, detach, destroy; RAII
// through unique_ptr deleters), the checks that turn the kernel's refusals
// into messages, and the sum of the per-CPU statistics.
#include "bpf/probe_bpf.h"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <iterator>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "bpf/bpf_support.h"
#include "cli/objects.h"
#include "cli/settings.h"
#include "cli/stop_signals.h"
#include "hf_probe.h"
#include "hf_probe_skel.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

namespace hfctl {
namespace {

constexpr std::string_view kNeedPrivilege = "hfctl probe needs root or CAP_BPF and CAP_PERFMON";

struct SkeletonDeleter {
  void operator()(hf_probe* skeleton) const noexcept { hf_probe_skel_destroy(skeleton); }
};
using Skeleton = std::unique_ptr<hf_probe, SkeletonDeleter>;

struct BtfDeleter {
  void operator()(btf* types) const noexcept { btf__free(types); }
};
using Btf = std::unique_ptr<btf, BtfDeleter>;

// Whether the running kernel has tracepoint `name` as a BTF-typed one.
bool has_tracepoint(const btf* types, const std::string& name) {
  return types != nullptr &&
         btf__find_by_name_kind(types, ("btf_trace_" + name).c_str(), BTF_KIND_TYPEDEF) >= 0;
}

static_assert(HF_PROBE_BUCKETS == kLog2Buckets);

void add(DirectionCounts& into, const hf_probe_dir& from) {
  into.skbs += from.skbs;
  into.bytes += from.bytes;
  into.gso_skbs += from.gso_skbs;
  into.packets += from.packets;
  into.wire_bytes += from.wire_bytes;
  into.max_skb = std::max<std::uint64_t>(into.max_skb, from.max_skb);
  add_counts(into.skb_hist, from.skb_hist);
  add_counts(into.packet_hist, from.packet_hist);
}

static_assert(HF_PROBE_SLOTS == kProbeMaxIntervals);

void add(QueueCounts& into, const hf_probe_queue& from) {
  into.samples += from.samples;
  into.max_backlog = std::max<std::uint64_t>(into.max_backlog, from.max_backlog);
  into.max_qlen = std::max<std::uint64_t>(into.max_qlen, from.max_qlen);
  add_counts(into.backlog_hist, from.backlog_hist);
  add_counts(into.qlen_hist, from.qlen_hist);
}

// The deepest of every CPU's.
void add(QueueInterval& into, const hf_probe_slot& from) {
  into.samples += from.samples;
  into.max_backlog = std::max<std::uint64_t>(into.max_backlog, from.max_backlog);
  into.max_qlen = std::max<std::uint64_t>(into.max_qlen, from.max_qlen);
}

// The filter and the time series, as the programs' .rodata takes them.
hf_probe_config make_config(const ProbeArgs& args, int ifindex, bool dequeue, bool enqueue) {
  hf_probe_config config{};
  config.ifindex = static_cast<__u32>(ifindex);
  config.netns = current_netns_inode();
  config.ethertype = args.ethertype.value_or(0);
  config.ipproto = args.ip_proto.value_or(0);
  config.port = args.port.value_or(0);
  config.sport = args.sport.value_or(0);
  config.dport = args.dport.value_or(0);
  const IpAddress* family = args.src ? &*args.src : args.dst ? &*args.dst : nullptr;
  config.addr_len = family != nullptr ? static_cast<__u8>(family->size) : 0;
  config.has_src = args.src.has_value();
  config.has_dst = args.dst.has_value();
  if (args.src) {
    std::ranges::copy(args.src->view(), std::begin(config.src));
  }
  if (args.dst) {
    std::ranges::copy(args.dst->view(), std::begin(config.dst));
  }
  config.interval_ns = static_cast<__u64>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(probe_interval(args)).count());
  config.slots = static_cast<__u32>(probe_intervals(args));
  config.dequeue = dequeue;
  config.enqueue = enqueue;
  return config;
}

// CLOCK_MONOTONIC, the clock of bpf_ktime_get_ns().
__u64 monotonic_ns() {
  timespec now{};
  if (clock_gettime(CLOCK_MONOTONIC, &now) != 0) {
    throw std::system_error(errno, std::generic_category(), "probe: clock_gettime");
  }
  constexpr __u64 kNsPerSecond = 1000000000;
  return static_cast<__u64>(now.tv_sec) * kNsPerSecond + static_cast<__u64>(now.tv_nsec);
}

}  // namespace

ProbeResult run_probe(const ProbeArgs& args, const std::filesystem::path& root,
                      std::ostream& status) {
  std::error_code ignored;
  if (!std::filesystem::exists(root / "sys/kernel/btf/vmlinux", ignored)) {
    throw std::runtime_error(
        "hfctl probe needs the kernel's BTF, and /sys/kernel/btf/vmlinux is missing "
        "(a kernel built with CONFIG_DEBUG_INFO_BTF=y)");
  }
  const int ifindex = interface_index(args.dev);
  if (ifindex == 0) {
    throw std::runtime_error(cannot_find_device(args.dev));
  }
  if (!bpf_privileged()) {
    throw std::runtime_error(std::string(kNeedPrivilege));
  }

  keep_libbpf_warnings();
  const Btf kernel_types(btf__load_vmlinux_btf());
  const bool have_dequeue = has_tracepoint(kernel_types.get(), "qdisc_dequeue");
  const bool have_enqueue = has_tracepoint(kernel_types.get(), "qdisc_enqueue");

  const hf_probe_config config = make_config(args, ifindex, have_dequeue, have_enqueue);
  int error = 0;
  const Skeleton skeleton(hf_probe_skel_load(&config, &error));
  if (!skeleton) {
    throw std::runtime_error(bpf_load_error("probe", -error, kNeedPrivilege));
  }

  // Signals first: a Ctrl-C once attached ends the probe early, with a report.
  const StopSignals stop("probe");
  error = hf_probe_skel_attach(skeleton.get());
  if (error != 0) {
    throw std::runtime_error(bpf_load_error("probe", -error, kNeedPrivilege));
  }
  const auto start = std::chrono::steady_clock::now();
  hf_probe_skel_start(skeleton.get(), monotonic_ns());
  status << "hfctl probe: " << probe_listening(args) << std::endl;
  const auto end = start + args.duration;
  for (auto now = start; now < end; now = std::chrono::steady_clock::now()) {
    pollfd fd{.fd = stop.fd(), .events = POLLIN, .revents = 0};
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(end - now);
    const int ready = poll(&fd, 1, static_cast<int>(left.count()));
    if (ready > 0) {
      break;
    }
    if (ready < 0 && errno != EINTR) {
      throw std::system_error(errno, std::generic_category(), "probe: poll");
    }
  }
  hf_probe_skel_detach(skeleton.get());
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;

  const int cpus = libbpf_num_possible_cpus();
  if (cpus <= 0) {
    throw std::system_error(-cpus, std::generic_category(), "probe: counting CPUs");
  }
  std::vector<hf_probe_stats> per_cpu(static_cast<std::size_t>(cpus));
  const __u32 key = 0;
  if (bpf_map_lookup_elem(hf_probe_skel_stats_fd(skeleton.get()), &key, per_cpu.data()) != 0) {
    throw std::system_error(errno, std::generic_category(), "probe: reading the statistics");
  }

  ProbeResult result{.args = args,
                     .seconds = elapsed.count(),
                     .tx = {},
                     .rx = {},
                     .dequeue = {},
                     .enqueue = {},
                     .interval = probe_interval(args),
                     .series = {}};
  if (have_dequeue) {
    result.dequeue.emplace();
  }
  if (have_enqueue) {
    result.enqueue.emplace();
  }
  if (have_dequeue || have_enqueue) {
    // The intervals the run reached: all of them, unless it was stopped.
    const auto ran = std::chrono::duration_cast<std::chrono::milliseconds>(elapsed);
    const auto reached = static_cast<std::size_t>((ran.count() + result.interval.count() - 1) /
                                                  result.interval.count());
    result.series.resize(std::clamp<std::size_t>(reached, 1, probe_intervals(args)));
  }
  for (const hf_probe_stats& cpu : per_cpu) {
    add(result.tx, cpu.dir[HF_PROBE_TX]);
    add(result.rx, cpu.dir[HF_PROBE_RX]);
    if (result.dequeue) {
      add(*result.dequeue, cpu.queue[HF_PROBE_DEQUEUE]);
    }
    if (result.enqueue) {
      add(*result.enqueue, cpu.queue[HF_PROBE_ENQUEUE]);
    }
    const std::span<const hf_probe_slot> slots(cpu.series);
    for (std::size_t i = 0; i < result.series.size(); ++i) {
      add(result.series[i], slots[i]);
    }
  }
  return result;
}

}  // namespace hfctl
