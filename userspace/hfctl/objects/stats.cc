// hfctl/objects/stats.cc - the "stats" object: the counters of the
// network namespace hfctl runs in (-n NETNS for another).
#include <array>

#include "cli.h"
#include "hyperframe/control.h"
#include "objects.h"
#include "render.h"

namespace hfctl {
namespace {

void show(const Command& command, Env& env) {
  hf::Control control = hf::Control::open();
  render_stats_show(env.out, control.stats(), command.options);
}

constexpr std::array kCommands{
    CommandSpec{.name = "show",
                .synopsis = "",
                .summary = "print the namespace's counters (-s: with malformed frames by reason)",
                .max_args = 0,
                .run = &show},
};

}  // namespace

constexpr ObjectSpec kStatsObject{
    .name = "stats",
    .summary = "counters of the network namespace (64-bit, never reset)",
    .commands = kCommands,
    .default_command = "show",
};

}  // namespace hfctl
