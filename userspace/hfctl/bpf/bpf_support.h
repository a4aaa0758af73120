// hfctl/bpf/bpf_support.h - what hfctl's BPF commands (probe, trace) share
// around libbpf: the privilege check, the namespace the programs filter
// on, libbpf's warnings kept for error messages, and those messages.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hfctl {

// Whether the effective capabilities allow loading and attaching tracing
// programs: CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN (which implies both).
[[nodiscard]] bool bpf_privileged();

// The inode of the current network namespace (what a tracepoint's netns
// field and a net's ns.inum hold). Throws std::system_error.
[[nodiscard]] std::uint32_t current_netns_inode();

// Routes libbpf's warnings (the verifier's verdict among them) into a
// buffer of the last few lines, emptied, for bpf_load_error; its
// informational chatter is dropped.
void keep_libbpf_warnings();

// "cannot load the BPF programs of hfctl COMMAND: <errno text>" and the
// warnings kept; for EPERM, `need_privilege` alone.
[[nodiscard]] std::string bpf_load_error(std::string_view command, int error,
                                         std::string_view need_privilege);

}  // namespace hfctl
