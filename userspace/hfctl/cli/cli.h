// hfctl/cli/cli.h - the parsing layer of hfctl: the command line in, a Command
// value out. Pure: no I/O and no system calls; every problem with the
// command line is a UsageError.
//
//   hfctl [ OPTIONS ] OBJECT { COMMAND | help } [ ARGS ]
//   hfctl help [ OBJECT ]
//
// OPTIONS are the global ones (option_specs()) and the resolved command's
// own (CommandSpec::options); either kind may appear anywhere before "--".
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/objects.h"

namespace hfctl {

// The global options. Options may appear anywhere before "--".
struct Options {
  bool json = false;                 // -j, or implied by -p
  bool pretty = false;               // -p
  int stats = 0;                     // how many times -s was given
  std::optional<std::string> netns;  // -n NAME

  friend bool operator==(const Options&, const Options&) = default;
};

// A command line, resolved against an object table.
struct Command {
  Options options;
  const ObjectSpec* object = nullptr;    // never null after parse()
  const CommandSpec* command = nullptr;  // null: print the object's help
  std::vector<std::string> args;
  // The command's own options that were given, by long name; a flag's
  // value is "".
  std::map<std::string, std::string, std::less<>> command_options;

  // The value of the command's option `long_name`, if given.
  [[nodiscard]] std::optional<std::string> option(std::string_view long_name) const;
};

// A command line hfctl cannot run. what() says why; hint() is the command
// that shows the relevant help ("hfctl help", "hfctl module help").
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message, std::string hint = "hfctl help")
      : std::runtime_error(message), hint_(std::move(hint)) {}
  [[nodiscard]] const std::string& hint() const noexcept { return hint_; }

 private:
  std::string hint_;
};

// The global options, as parsed and as listed by help.
[[nodiscard]] std::span<const OptionSpec> option_specs() noexcept;

// Parses the arguments after argv[0] against `table`. -h/--help makes the
// command help (of OBJECT, if one is named); -V/--version makes it
// "version". Throws UsageError.
[[nodiscard]] Command parse(std::span<const std::string> args, ObjectTable table = objects());

// A command's "KEY VALUE ..." arguments: calls take(key, value) for each
// pair; take returns false for a key it does not know. Throws UsageError
// (with `hint`) for a key without a value, given twice, or unknown.
void parse_pairs(std::span<const std::string> args, std::string_view hint,
                 const std::function<bool(const std::string&, const std::string&)>& take);

// A DURATION argument: "5s", "500ms", or a bare number of seconds, as
// timeout(1) takes it; above 0, at most 24 h. Throws UsageError with `hint`.
[[nodiscard]] std::chrono::milliseconds parse_duration_arg(std::string_view text,
                                                           std::string_view hint);

}  // namespace hfctl
