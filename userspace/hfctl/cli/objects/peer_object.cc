// hfctl/cli/objects/peer_object.cc - the "peer" object: the remote interfaces
// the network namespace holds state for.
#include <array>

#include "cli/cli.h"
#include "cli/objects.h"
#include "cli/render.h"
#include "hyperframe/control.h"

namespace hfctl {
namespace {

void show(const Command& command, Env& env) {
  hf::Control control = hf::Control::open();
  std::vector<PeerRow> rows;
  for (const hf::PeerInfo& peer : control.peers()) {
    rows.push_back({interface_name(peer.ifindex), peer});
  }
  render_peer_show(env.out, rows, command.options);
}

constexpr std::array kCommands{
    CommandSpec{.name = "show",
                .synopsis = "",
                .summary = "print each peer: round trip, timeout, segments (-s: more)",
                .max_args = 0,
                .run = &show,
                .options = {}},
};

}  // namespace

constexpr ObjectSpec kPeerObject{
    .name = "peer",
    .summary = "peers of the network namespace",
    .commands = kCommands,
    .default_command = "show",
};

}  // namespace hfctl
