// hfctl/cli/run.h - the execution layer of hfctl: parse, enter the network
// namespace, dispatch to the object's handler, and turn every error into a
// message on the error stream and an exit status.
#pragma once

#include <filesystem>
#include <ostream>
#include <span>
#include <string>

#include "cli/cli.h"
#include "cli/objects.h"

namespace hfctl {

inline constexpr int kExitSuccess = 0;
inline constexpr int kExitFailure = 1;  // the system said no: "hfctl: <what>: <strerror>"
inline constexpr int kExitUsage = 2;    // the command line is wrong

// Runs a parsed command: enters -n's namespace, then the command's handler
// (or prints the object's help). Throws what the handler throws.
void execute(const Command& command, Env& env);

// The whole of hfctl: `args` are argv[1..]; output goes to `out`, errors to
// `err`; `root` stands for "/" (sysfs, /run/netns). Returns the exit status.
[[nodiscard]] int run(std::span<const std::string> args, std::ostream& out, std::ostream& err,
                      const std::filesystem::path& root = "/");

}  // namespace hfctl
