// hfctl/cli/objects.h - the dispatch table of hfctl: every OBJECT, its
// COMMANDs, their help text and the handler that executes each.
//
// Adding an object: define its ObjectSpec in objects/<name>_object.cc
// (commands, handlers calling the library then a render_*() function),
// declare it below, and add it to the table in objects.cc. Parsing, help
// text and dispatch all follow from the table.
#pragma once

#include <cstddef>
#include <filesystem>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hf {
class Control;
struct ConfigKey;
}  // namespace hf

namespace hfctl {

struct Command;
struct DeviceRow;

// What a handler runs against: where output goes, where a command that runs
// for a while says what it is doing, and the directory that stands for "/"
// (a scratch tree in tests).
struct Env {
  std::ostream& out;
  std::ostream& err;
  std::filesystem::path root;
};

// Executes a parsed command; reports failure by throwing (std::system_error
// for errors from the system, UsageError for bad arguments).
using Handler = void (*)(const Command& command, Env& env);

// An option: a global one (cli.cc) or one of a command's own.
struct OptionSpec {
  char short_name;  // '\0' for none
  std::string_view long_name;
  std::string_view value_name;  // "" for a flag
  std::string_view help;
};

struct CommandSpec {
  std::string_view name;      // "" for an object that runs directly ("hfctl version")
  std::string_view synopsis;  // its ARGS, for the usage text; "" when none
  std::string_view summary;   // one line for the help text
  std::size_t max_args = 0;   // more ARGS than this is a usage error
  Handler run = nullptr;
  // Options only this command takes ("hfctl exporter --listen ADDRESS");
  // they may appear anywhere on the line, as the global ones do.
  std::span<const OptionSpec> options = {};
};

struct ObjectSpec {
  std::string_view name;
  std::string_view summary;
  std::span<const CommandSpec> commands;
  std::string_view default_command;  // run when COMMAND is omitted ("" is the direct command)
  // The keys its "set" takes, listed by its help; null when it has none.
  std::span<const hf::ConfigKey> (*keys)() noexcept = nullptr;
};

using ObjectTable = std::span<const ObjectSpec* const>;

// The objects hfctl knows, in the order help lists them.
[[nodiscard]] ObjectTable objects() noexcept;

[[nodiscard]] const ObjectSpec* find_object(ObjectTable table, std::string_view name) noexcept;
[[nodiscard]] const CommandSpec* find_command(const ObjectSpec& object,
                                              std::string_view name) noexcept;

// One per file in objects/.
extern const ObjectSpec kConfigObject;
extern const ObjectSpec kDevObject;
extern const ObjectSpec kExporterObject;
extern const ObjectSpec kHelpObject;
extern const ObjectSpec kModuleObject;
extern const ObjectSpec kMonitorObject;
extern const ObjectSpec kPeerObject;
extern const ObjectSpec kProbeObject;
extern const ObjectSpec kQdiscObject;
extern const ObjectSpec kSocketObject;
extern const ObjectSpec kStatsObject;
extern const ObjectSpec kTraceObject;
extern const ObjectSpec kVersionObject;

// The name of interface `ifindex` in the current namespace; "" for 0 or
// an interface that is gone.
[[nodiscard]] std::string interface_name(int ifindex);
// The index of interface `name` in the current namespace; 0 when there is
// none.
[[nodiscard]] int interface_index(const std::string& name);

// The counters of each device of the namespace (hf::Control::devices())
// with its name (objects/dev_object.cc).
[[nodiscard]] std::vector<DeviceRow> device_rows(hf::Control& control);

}  // namespace hfctl
