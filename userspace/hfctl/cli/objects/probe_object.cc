// hfctl/cli/objects/probe_object.cc - the "probe" object: measure first. Counts
// what a device transmits and receives (skbs, wire packets, their sizes) and
// how deep its qdisc gets (and when), for any traffic, with BPF and without the
// module; then says in plain words whether larger frames would help.
#include <array>
#include <limits>

#include "bpf/probe.h"
#include "bpf/probe_bpf.h"
#include "cli/cli.h"
#include "cli/objects.h"

namespace hfctl {
namespace {

void probe(const Command& command, Env& env) {
  const ProbeArgs args = parse_probe_args(command.args);
  render_probe(env.out, run_probe(args, env.root, env.err), command.options);
}

constexpr std::array kCommands{
    CommandSpec{.name = "",
                .synopsis = "dev DEV [ duration DURATION ] [ interval INTERVAL ] [ ethertype "
                            "ETHERTYPE | [ proto { tcp | udp } ] [ src ADDR ] [ dst ADDR ] "
                            "[ sport PORT ] [ dport PORT ] [ port PORT ] ]",
                .summary = "measure DEV's traffic for DURATION (default 5s): skb and wire packet "
                           "sizes and rates, qdisc depth at enqueue and dequeue and per INTERVAL "
                           "(default DURATION / 20), and a verdict (needs root, or CAP_BPF and "
                           "CAP_PERFMON, and kernel BTF; not the module)",
                .max_args = std::numeric_limits<std::size_t>::max(),
                .run = &probe,
                .options = {}},
};

}  // namespace

constexpr ObjectSpec kProbeObject{
    .name = "probe",
    .summary = "measure first: would this device's traffic gain from larger frames?",
    .commands = kCommands,
    .default_command = "",
};

}  // namespace hfctl
