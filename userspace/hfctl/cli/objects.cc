// hfctl/cli/objects.cc - the table of hfctl's objects, and lookups in it.
#include "cli/objects.h"

#include <algorithm>
#include <array>

#include <net/if.h>

namespace hfctl {

ObjectTable objects() noexcept {
  // One entry per object, in the order help lists them.
  static constexpr std::array kObjects{
      &kConfigObject,  &kDevObject,   &kExporterObject, &kHelpObject,  &kModuleObject,
      &kMonitorObject, &kPeerObject,  &kProbeObject,    &kQdiscObject, &kSocketObject,
      &kStatsObject,   &kTraceObject, &kVersionObject,
  };
  return kObjects;
}

const ObjectSpec* find_object(ObjectTable table, std::string_view name) noexcept {
  const auto found = std::find_if(table.begin(), table.end(), [name](const ObjectSpec* object) {
    return object->name == name;
  });
  return found == table.end() ? nullptr : *found;
}

const CommandSpec* find_command(const ObjectSpec& object, std::string_view name) noexcept {
  const auto found =
      std::find_if(object.commands.begin(), object.commands.end(),
                   [name](const CommandSpec& command) { return command.name == name; });
  return found == object.commands.end() ? nullptr : &*found;
}

std::string interface_name(int ifindex) {
  std::array<char, IF_NAMESIZE> name{};
  if (ifindex <= 0 || if_indextoname(static_cast<unsigned int>(ifindex), name.data()) == nullptr) {
    return "";
  }
  return name.data();
}

int interface_index(const std::string& name) {
  return static_cast<int>(if_nametoindex(name.c_str()));
}

}  // namespace hfctl
