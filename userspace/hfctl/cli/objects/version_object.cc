// hfctl/cli/objects/version_object.cc - the "version" object (also -V): the
// version of hfctl, set by the build (HF_VERSION).
#include <array>
#include <string_view>

#include "cli/cli.h"
#include "cli/objects.h"
#include "cli/render.h"

namespace hfctl {
namespace {

constexpr std::string_view kVersion = HFCTL_VERSION;

void show_version(const Command& command, Env& env) {
  render_version(env.out, kVersion, command.options);
}

constexpr std::array kCommands{
    CommandSpec{.name = "",
                .synopsis = "",
                .summary = "print the version of hfctl",
                .max_args = 0,
                .run = &show_version,
                .options = {}},
};

}  // namespace

constexpr ObjectSpec kVersionObject{
    .name = "version",
    .summary = "print the version of hfctl",
    .commands = kCommands,
    .default_command = "",
};

}  // namespace hfctl
