// hfctl/bpf/trace_bpf.h - "hfctl trace", its tracing part: checks that the
// module's trace records are the ones bpf/hf_trace.bpf.c reads, loads and
// attaches those programs (through their libbpf skeleton), and reads what
// they counted, live and at the end.
#pragma once

#include <filesystem>
#include <functional>
#include <ostream>

#include "bpf/trace.h"

namespace hfctl {

// Traces the module's events in the current network namespace (on
// args.dev only, if given) for args.duration, or until SIGINT or SIGTERM,
// counted from when its programs are attached, which it then tells
// `status` (trace_listening()). Every args.interval it calls `screen`
// with the totals so far and the rates over that interval, if `screen` is
// set. Returns the final report (rates over the whole run). `root` stands
// for "/" when looking for the module and tracefs. Throws
// std::runtime_error with a message a person can act on: no privilege
// (root, or CAP_BPF and CAP_PERFMON), no module, no tracefs, a module
// whose records differ, no such device.
[[nodiscard]] TraceReport run_trace(const TraceArgs& args, const std::filesystem::path& root,
                                    std::ostream& status,
                                    const std::function<void(const TraceReport&)>& screen);

}  // namespace hfctl
