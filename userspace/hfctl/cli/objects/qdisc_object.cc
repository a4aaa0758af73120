// hfctl/cli/objects/qdisc_object.cc - the "qdisc" object: hfq, the module's
// qdisc, at the root of the namespace's devices; attached and detached over
// rtnetlink, read and configured through the generic netlink family.
#include <array>
#include <cerrno>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli.h"
#include "cli/objects.h"
#include "cli/render.h"
#include "cli/settings.h"
#include "hyperframe/control.h"
#include "hyperframe/qdisc.h"

namespace hfctl {
namespace {

// The index of device `dev`; throws when there is none.
int require_device(const std::string& dev) {
  const int ifindex = interface_index(dev);
  if (ifindex == 0) {
    throw std::runtime_error(cannot_find_device(dev));
  }
  return ifindex;
}

// Runs `action` on device `dev`, turning a refusal of the kernel into a
// message about `dev` (and the `changes` it was asked to make).
void on_device(const std::string& dev, const hf::QdiscConfig& changes,
               const std::function<void()>& action) {
  try {
    action();
  } catch (const hf::ControlError& error) {
    throw std::runtime_error(describe_qdisc_error(error, dev, changes));
  }
}

void show(const Command& command, Env& env) {
  const QdiscArgs args = parse_qdisc_args(QdiscCommand::show, command.args);
  std::vector<QdiscRow> rows;
  if (!args.dev) {
    hf::Control control = hf::Control::open();
    for (hf::QdiscInfo& info : control.qdiscs()) {
      rows.push_back({interface_name(info.ifindex), std::move(info)});
    }
  } else {
    const int ifindex = require_device(*args.dev);
    hf::Control control = hf::Control::open();
    try {
      rows.push_back({*args.dev, control.qdisc(ifindex)});
    } catch (const hf::ControlError& error) {
      // A device whose root qdisc is not hfq has none to show.
      if (error.code().value() != ENOENT) {
        throw std::runtime_error(describe_qdisc_error(error, *args.dev));
      }
    }
  }
  render_qdisc_show(env.out, rows, command.options);
}

void attach(const Command& command, Env& /*env*/) {
  const QdiscArgs args = parse_qdisc_args(QdiscCommand::attach, command.args);
  const std::string& dev = *args.dev;
  const int ifindex = require_device(dev);
  on_device(dev, {}, [ifindex] { hf::attach_hfq(ifindex); });
  if (args.config == hf::QdiscConfig{}) {
    return;
  }
  hf::Control control = hf::Control::open();
  try {
    control.set_qdisc(ifindex, args.config);
  } catch (const hf::ControlError& error) {
    throw std::runtime_error(describe_qdisc_error(error, dev, args.config) +
                             " (hfq is attached to " + dev + ", its settings unchanged)");
  }
}

void set(const Command& command, Env& /*env*/) {
  const QdiscArgs args = parse_qdisc_args(QdiscCommand::set, command.args);
  const int ifindex = require_device(*args.dev);
  hf::Control control = hf::Control::open();
  on_device(*args.dev, args.config, [&] { control.set_qdisc(ifindex, args.config); });
}

void detach(const Command& command, Env& /*env*/) {
  const QdiscArgs args = parse_qdisc_args(QdiscCommand::detach, command.args);
  const std::string& dev = *args.dev;
  const int ifindex = require_device(dev);
  hf::Control control = hf::Control::open();
  try {
    // detach_hfq() alone would refuse another qdisc too; asking first says
    // so whatever the kernel's message.
    static_cast<void>(control.qdisc(ifindex));
    hf::detach_hfq(ifindex);
  } catch (const hf::ControlError& error) {
    if (error.code().value() == ENOENT) {
      throw std::runtime_error("the root qdisc of " + dev + " is not hfq");
    }
    throw std::runtime_error(describe_qdisc_error(error, dev));
  }
}

constexpr std::size_t kAnyNumber = std::numeric_limits<std::size_t>::max();

constexpr std::array kCommands{
    CommandSpec{.name = "show",
                .synopsis = "[ dev DEV ]",
                .summary = "print the hfq qdiscs of the namespace, or DEV's (-s: queues and "
                           "counters; -j: base units)",
                .max_args = 2,
                .run = &show,
                .options = {}},
    CommandSpec{.name = "attach",
                .synopsis = "dev DEV [ PARAM VALUE ]...",
                .summary = "put hfq at the root of DEV (tc qdisc replace dev DEV root hfq), "
                           "then set the PARAMs given",
                .max_args = kAnyNumber,
                .run = &attach,
                .options = {}},
    CommandSpec{.name = "set",
                .synopsis = "dev DEV PARAM VALUE [ PARAM VALUE ]...",
                .summary = "change the hfq at the root of DEV, all or none (needs "
                           "CAP_NET_ADMIN); PARAMs: rate (100mbit, 1gbps; 0: unpaced; else "
                           "500kbit..10tbit), limit, flow_limit, control_limit (packets), "
                           "quantum (bytes, 64k), other_share (percent), horizon (10s, 500ms), "
                           "memory_limit (bytes, 32m)",
                .max_args = kAnyNumber,
                .run = &set,
                .options = {}},
    CommandSpec{.name = "detach",
                .synopsis = "dev DEV",
                .summary = "delete the root qdisc of DEV if it is hfq",
                .max_args = 2,
                .run = &detach,
                .options = {}},
};

}  // namespace

constexpr ObjectSpec kQdiscObject{
    .name = "qdisc",
    .summary = "hfq, the module's qdisc, at the root of the namespace's devices",
    .commands = kCommands,
    .default_command = "show",
};

}  // namespace hfctl
