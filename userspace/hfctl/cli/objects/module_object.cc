// hfctl/cli/objects/module_object.cc - the "module" object: what the loaded
// hyperframe kernel module says about itself in sysfs.
#include <array>

#include "cli/cli.h"
#include "cli/objects.h"
#include "cli/render.h"
#include "hyperframe/module_info.h"

namespace hfctl {
namespace {

void show(const Command& command, Env& env) {
  render_module_show(env.out, hf::module_info(env.root), command.options);
}

constexpr std::array kCommands{
    CommandSpec{.name = "show",
                .synopsis = "",
                .summary = "print the family, EtherType and reference count of the module",
                .max_args = 0,
                .run = &show,
                .options = {}},
};

}  // namespace

constexpr ObjectSpec kModuleObject{
    .name = "module",
    .summary = "the loaded hyperframe kernel module",
    .commands = kCommands,
    .default_command = "show",
};

}  // namespace hfctl
