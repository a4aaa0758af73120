// hfctl/cli/objects/monitor_object.cc - the "monitor" object: the events of the
// network namespace's peers and flows (the generic netlink group
// "events"), one line each as they happen, until SIGINT or SIGTERM. Like
// ip-monitor(8): nothing is printed before the first event, and every
// line is flushed at once, for a reader at the other end of a pipe.
#include <array>
#include <cerrno>
#include <optional>
#include <ostream>
#include <system_error>

#include "cli/cli.h"
#include "cli/objects.h"
#include "cli/render.h"
#include "cli/stop_signals.h"
#include "hyperframe/events.h"

namespace hfctl {
namespace {

// Each line leaves at once; a reader that went away ends the monitor.
void flush(std::ostream& out) {
  errno = 0;
  out.flush();
  if (!out) {
    const int error = errno != 0 ? errno : EIO;
    throw std::system_error(error, std::generic_category(), "write error");
  }
}

void monitor(const Command& command, Env& env) {
  // Signals first: one that comes once subscribed must end the loop.
  const StopSignals stop("monitor");
  hf::EventSubscriber events = hf::EventSubscriber::open();
  for (;;) {
    std::optional<hf::Event> event;
    try {
      event = events.next_event(stop.fd());
    } catch (const hf::EventsLost&) {
      render_events_lost(env.out, command.options);
      flush(env.out);
      continue;
    }
    if (!event) {
      return;
    }
    render_event(env.out, EventRow{.dev = interface_name(event->ifindex), .event = *event},
                 command.options);
    flush(env.out);
  }
}

constexpr std::array kCommands{
    CommandSpec{.name = "",
                .synopsis = "",
                .summary = "print each event of the namespace's peers and flows until SIGINT or "
                           "SIGTERM",
                .max_args = 0,
                .run = &monitor,
                .options = {}},
};

}  // namespace

constexpr ObjectSpec kMonitorObject{
    .name = "monitor",
    .summary = "print the events of the namespace's peers and flows as they happen",
    .commands = kCommands,
    .default_command = "",
};

}  // namespace hfctl
