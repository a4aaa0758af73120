// hfctl/cli/objects/trace_object.cc - the "trace" object: the module's
// tracepoints, counted by BPF programs in this namespace. A live screen on a
// terminal, refreshed every interval; a report (or -j, one JSON object) when
// the trace ends.
#include <unistd.h>

#include <array>
#include <limits>

#include "bpf/trace.h"
#include "bpf/trace_bpf.h"
#include "cli/cli.h"
#include "cli/objects.h"

namespace hfctl {
namespace {

// Clears a terminal and homes the cursor, as top(1) redraws.
constexpr std::string_view kClearScreen = "\x1b[H\x1b[2J";

void trace(const Command& command, Env& env) {
  const TraceArgs args = parse_trace_args(command.args);
  const bool live = !command.options.json && isatty(STDOUT_FILENO) == 1;
  std::function<void(const TraceReport&)> screen;
  if (live) {
    screen = [&env, &command](const TraceReport& report) {
      env.out << kClearScreen;
      render_trace(env.out, report, command.options);
      env.out.flush();
    };
  }
  const TraceReport report = run_trace(args, env.root, env.err, screen);
  if (live) {
    env.out << kClearScreen;
  }
  render_trace(env.out, report, command.options);
}

constexpr std::array kCommands{
    CommandSpec{.name = "",
                .synopsis = "[ dev DEV ] [ duration DURATION ] [ interval INTERVAL ]",
                .summary = "count the module's tracepoints in this namespace (on DEV only, if "
                           "given) until DURATION or Ctrl-C: events, frame sizes, hfq sojourn, "
                           "message latency, per-peer rate and frame size; live on a terminal, "
                           "every INTERVAL (default 1s) (needs root: BPF and tracefs)",
                .max_args = std::numeric_limits<std::size_t>::max(),
                .run = &trace,
                .options = {}},
};

}  // namespace

constexpr ObjectSpec kTraceObject{
    .name = "trace",
    .summary = "watch the module's frames through its tracepoints (BPF)",
    .commands = kCommands,
    .default_command = "",
};

}  // namespace hfctl
