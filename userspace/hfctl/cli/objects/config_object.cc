// hfctl/cli/objects/config_object.cc - the "config" object: the module's
// settings through the generic netlink family; each network namespace has its
// own.
#include <array>
#include <limits>

#include "cli/cli.h"
#include "cli/objects.h"
#include "cli/render.h"
#include "cli/settings.h"
#include "hyperframe/control.h"

namespace hfctl {
namespace {

void show(const Command& command, Env& env) {
  hf::Control control = hf::Control::open();
  render_config_show(env.out, control.config(), command.options);
}

void set(const Command& command, Env& /*env*/) {
  const std::vector<hf::ConfigValue> changes = parse_config_changes(command.args);
  hf::Control control = hf::Control::open();
  try {
    control.set_config(changes);
  } catch (const hf::ControlError& error) {
    throw std::runtime_error(describe_set_error(error, changes));
  }
}

constexpr std::array kCommands{
    CommandSpec{.name = "show",
                .synopsis = "",
                .summary = "print every setting, in human units (-j: base units)",
                .max_args = 0,
                .run = &show,
                .options = {}},
    CommandSpec{.name = "set",
                .synopsis = "KEY VALUE [ KEY VALUE ]...",
                .summary = "change settings, all or none (needs CAP_NET_ADMIN); keys below",
                .max_args = std::numeric_limits<std::size_t>::max(),
                .run = &set,
                .options = {}},
};

}  // namespace

constexpr ObjectSpec kConfigObject{
    .name = "config",
    .summary = "the network namespace's settings (apply to new messages and peers)",
    .commands = kCommands,
    .default_command = "show",
    .keys = &hf::config_keys,
};

}  // namespace hfctl
