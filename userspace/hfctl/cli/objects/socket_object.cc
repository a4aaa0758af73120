// hfctl/cli/objects/socket_object.cc - the "socket" object: bound hyperframe
// sockets of the network namespace, like ss(8).
#include <array>

#include "cli/cli.h"
#include "cli/objects.h"
#include "cli/render.h"
#include "hyperframe/control.h"

namespace hfctl {
namespace {

void show(const Command& command, Env& env) {
  hf::Control control = hf::Control::open();
  std::vector<SocketRow> rows;
  for (hf::SocketInfo& sock : control.sockets()) {
    SocketRow row{.dev = interface_name(sock.ifindex), .info = {}, .peers = {}};
    for (const hf::PeerInfo& peer : sock.peers) {
      row.peers.push_back({interface_name(peer.ifindex), peer});
    }
    row.info = std::move(sock);
    rows.push_back(std::move(row));
  }
  render_socket_show(env.out, rows, command.options);
}

constexpr std::array kCommands{
    CommandSpec{.name = "show",
                .synopsis = "",
                .summary = "print each bound socket: port, interface, queued bytes, messages, "
                           "and the peers it last talked to",
                .max_args = 0,
                .run = &show,
                .options = {}},
};

}  // namespace

constexpr ObjectSpec kSocketObject{
    .name = "socket",
    .summary = "bound sockets of the network namespace",
    .commands = kCommands,
    .default_command = "show",
};

}  // namespace hfctl
