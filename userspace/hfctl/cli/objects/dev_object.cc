// hfctl/cli/objects/dev_object.cc - the "dev" object: the counters of each
// device of the network namespace that hyperframe traffic used.
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli.h"
#include "cli/objects.h"
#include "cli/render.h"
#include "hyperframe/control.h"

namespace hfctl {

std::vector<DeviceRow> device_rows(hf::Control& control) {
  std::vector<DeviceRow> rows;
  for (hf::DeviceStats& device : control.devices()) {
    std::string dev = interface_name(device.ifindex);
    rows.push_back({.dev = std::move(dev), .info = std::move(device)});
  }
  return rows;
}

namespace {

void show(const Command& command, Env& env) {
  hf::Control control = hf::Control::open();
  render_dev_show(env.out, device_rows(control), command.options);
}

constexpr std::array kCommands{
    CommandSpec{.name = "show",
                .synopsis = "",
                .summary = "print each device's counters: frames, segments, bytes, drops",
                .max_args = 0,
                .run = &show,
                .options = {}},
};

}  // namespace

constexpr ObjectSpec kDevObject{
    .name = "dev",
    .summary = "per-device counters of the network namespace (64-bit)",
    .commands = kCommands,
    .default_command = "show",
};

}  // namespace hfctl
