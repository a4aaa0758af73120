// hfctl/cli/objects/help_object.cc - the "help" object: "hfctl help" lists the
// objects and options; "hfctl help OBJECT" (resolved by the parser as "hfctl
// OBJECT help") shows an object's commands.
#include <array>

#include "cli/cli.h"
#include "cli/objects.h"
#include "cli/render.h"

namespace hfctl {
namespace {

void show_usage(const Command& /*command*/, Env& env) {
  render_usage(env.out, objects());
}

constexpr std::array kCommands{
    CommandSpec{.name = "",
                .synopsis = "[ OBJECT ]",
                .summary = "print the objects and options, or an object's commands",
                .max_args = 0,
                .run = &show_usage,
                .options = {}},
};

}  // namespace

constexpr ObjectSpec kHelpObject{
    .name = "help",
    .summary = "print this help, or an object's (\"hfctl help OBJECT\")",
    .commands = kCommands,
    .default_command = "",
};

}  // namespace hfctl
