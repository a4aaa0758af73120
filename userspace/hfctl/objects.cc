// hfctl/objects.cc - the table of hfctl's objects, and lookups in it.
#include "objects.h"

#include <algorithm>
#include <array>

namespace hfctl {

ObjectTable objects() noexcept {
  // One entry per object, in the order help lists them.
  static constexpr std::array kObjects{
      &kHelpObject,
      &kModuleObject,
      &kVersionObject,
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

}  // namespace hfctl
