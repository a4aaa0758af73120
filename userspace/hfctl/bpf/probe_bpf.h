// hfctl/bpf/probe_bpf.h - "hfctl probe", its measuring part: loads the BPF
// programs of bpf/hf_probe.bpf.c (through their libbpf skeleton), attaches
// them to a device for a while, and returns what they counted.
#pragma once

#include <filesystem>
#include <ostream>

#include "bpf/probe.h"

namespace hfctl {

// Measures the device args.dev of the current network namespace for
// args.duration, or until SIGINT or SIGTERM, counted from when its
// programs are attached, which it then tells `status` (probe_listening()).
// `root` stands for "/" when looking for the kernel's BTF. Throws
// std::runtime_error with a message a person can act on: no BTF, no such
// device, no privilege (root, or CAP_BPF and CAP_PERFMON), or the programs
// did not load.
[[nodiscard]] ProbeResult run_probe(const ProbeArgs& args, const std::filesystem::path& root,
                                    std::ostream& status);

}  // namespace hfctl
