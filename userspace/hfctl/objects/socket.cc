// hfctl/objects/socket.cc - the "socket" object: bound hyperframe sockets
// of the network namespace, like ss(8).
#include <array>

#include "cli.h"
#include "hyperframe/control.h"
#include "objects.h"
#include "render.h"

namespace hfctl {
namespace {

void show(const Command& command, Env& env) {
  hf::Control control = hf::Control::open();
  std::vector<SocketRow> rows;
  for (const hf::SocketInfo& sock : control.sockets()) {
    rows.push_back({interface_name(sock.ifindex), sock});
  }
  render_socket_show(env.out, rows, command.options);
}

constexpr std::array kCommands{
    CommandSpec{.name = "show",
                .synopsis = "",
                .summary = "print each bound socket: port, interface, queued bytes, messages",
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
