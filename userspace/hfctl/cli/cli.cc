// hfctl/cli/cli.cc - the parsing layer of hfctl: Boost.Program_options splits
// options from words, then the words are resolved against the object table.
#include "cli/cli.h"

#include <algorithm>
#include <array>
#include <cstddef>

#include <boost/program_options.hpp>

#include "hyperframe/netns.h"
#include "hyperframe/units.h"

namespace hfctl {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kWords = "words";  // the positional OBJECT COMMAND ARGS
constexpr std::string_view kHelpObjectName = "help";
constexpr std::string_view kVersionObjectName = "version";

constexpr std::array kOptions{
    OptionSpec{'j', "json", "", "print JSON"},
    OptionSpec{'p', "pretty", "", "print indented JSON (implies -j)"},
    OptionSpec{'s', "stats", "", "print more statistics; repeat for more detail"},
    OptionSpec{'n', "netns", "NAME", "run in network namespace NAME (see ip-netns(8))"},
    OptionSpec{'V', "version", "", "print the version of hfctl and exit"},
    OptionSpec{'h', "help", "", "print this help and exit"},
};

struct Split {
  std::vector<std::string> words;
  std::optional<std::string> netns;
  int json = 0;
  int pretty = 0;
  int stats = 0;
  int help = 0;
  int version = 0;
  std::map<std::string, std::string, std::less<>> command_options;
};

std::string in_quotes(std::string_view word) {
  return '"' + std::string(word) + '"';
}

bool is_global(std::string_view long_name) {
  return std::any_of(kOptions.begin(), kOptions.end(), [long_name](const OptionSpec& option) {
    return option.long_name == long_name;
  });
}

// Every option Boost should know: the global ones, then each command's own
// (once per long name).
std::vector<OptionSpec> known_options(ObjectTable table) {
  std::vector<OptionSpec> known(kOptions.begin(), kOptions.end());
  for (const ObjectSpec* object : table) {
    for (const CommandSpec& command : object->commands) {
      for (const OptionSpec& option : command.options) {
        const bool seen = std::any_of(
            known.begin(), known.end(),
            [&option](const OptionSpec& other) { return other.long_name == option.long_name; });
        if (!seen) {
          known.push_back(option);
        }
      }
    }
  }
  return known;
}

// The options for Boost: every known one, and the positional words.
po::options_description describe_options(ObjectTable table) {
  po::options_description described;
  for (const OptionSpec& option : known_options(table)) {
    std::string names(option.long_name);
    if (option.short_name != '\0') {
      names += std::string(",") + option.short_name;
    }
    const std::string help(option.help);
    if (option.value_name.empty()) {
      described.add_options()(names.c_str(), po::bool_switch(), help.c_str());
    } else {
      described.add_options()(names.c_str(),
                              po::value<std::string>()->value_name(std::string(option.value_name)),
                              help.c_str());
    }
  }
  described.add_options()(std::string(kWords).c_str(), po::value<std::vector<std::string>>());
  return described;
}

// Runs Boost.Program_options over the arguments and counts each flag:
// Boost would reject a repeated -s, which hfctl allows.
Split split_arguments(std::span<const std::string> args, ObjectTable table) {
  const po::options_description described = describe_options(table);
  po::positional_options_description positional;
  positional.add(std::string(kWords).c_str(), -1);

  po::parsed_options parsed(&described);
  try {
    parsed = po::command_line_parser(std::vector<std::string>(args.begin(), args.end()))
                 .options(described)
                 .positional(positional)
                 .run();
  } catch (const po::error& error) {
    throw UsageError(error.what());
  }

  Split split;
  for (const po::option& option : parsed.options) {
    const std::string& key = option.string_key;
    if (key == kWords) {
      split.words.insert(split.words.end(), option.value.begin(), option.value.end());
    } else if (key == "netns") {
      if (split.netns) {
        throw UsageError("option '--netns' given more than once");
      }
      split.netns = option.value.at(0);
    } else if (key == "json") {
      ++split.json;
    } else if (key == "pretty") {
      ++split.pretty;
    } else if (key == "stats") {
      ++split.stats;
    } else if (key == "help") {
      ++split.help;
    } else if (key == "version") {
      ++split.version;
    } else if (!is_global(key)) {
      const std::string value = option.value.empty() ? "" : option.value.front();
      if (!split.command_options.emplace(key, value).second) {
        throw UsageError("option '--" + key + "' given more than once");
      }
    }
  }
  return split;
}

std::string object_names(ObjectTable table) {
  std::string names;
  for (const ObjectSpec* object : table) {
    names += (names.empty() ? "" : ", ") + std::string(object->name);
  }
  return names;
}

std::string command_names(const ObjectSpec& object) {
  std::string names;
  for (const CommandSpec& command : object.commands) {
    if (!command.name.empty()) {
      names += std::string(command.name) + ", ";
    }
  }
  return names + "help";
}

std::string help_hint(const ObjectSpec& object) {
  return "hfctl " + std::string(object.name) + " help";
}

const ObjectSpec& require_object(ObjectTable table, std::string_view name) {
  const ObjectSpec* object = find_object(table, name);
  if (object == nullptr) {
    throw UsageError("unknown object " + in_quotes(name) +
                     "; valid objects: " + object_names(table));
  }
  return *object;
}

void check_no_more(std::span<const std::string> rest, std::string_view what,
                   const ObjectSpec& object) {
  if (!rest.empty()) {
    throw UsageError(std::string(what) + ": unexpected argument " + in_quotes(rest.front()),
                     help_hint(object));
  }
}

// Resolves OBJECT COMMAND ARGS (the words after the options) against the table.
Command resolve(Options options, ObjectTable table, std::span<const std::string> words) {
  if (words.empty()) {
    throw UsageError("missing OBJECT; valid objects: " + object_names(table));
  }
  const ObjectSpec& object = require_object(table, words.front());
  std::span<const std::string> rest = words.subspan(1);

  // "hfctl help OBJECT" is "hfctl OBJECT help".
  if (object.name == kHelpObjectName && !rest.empty()) {
    const ObjectSpec& subject = require_object(table, rest.front());
    check_no_more(rest.subspan(1), "help", object);
    return Command{.options = std::move(options),
                   .object = &subject,
                   .command = nullptr,
                   .args = {},
                   .command_options = {}};
  }
  if (!rest.empty() && rest.front() == "help") {
    check_no_more(rest.subspan(1), std::string(object.name) + " help", object);
    return Command{.options = std::move(options),
                   .object = &object,
                   .command = nullptr,
                   .args = {},
                   .command_options = {}};
  }

  const CommandSpec* command = nullptr;
  if (rest.empty()) {
    command = find_command(object, object.default_command);
    if (command == nullptr) {
      throw UsageError("missing COMMAND for " + in_quotes(object.name) +
                           "; valid commands: " + command_names(object),
                       help_hint(object));
    }
  } else if ((command = find_command(object, rest.front())) != nullptr) {
    rest = rest.subspan(1);
  } else if ((command = find_command(object, "")) == nullptr) {
    throw UsageError("unknown command " + in_quotes(rest.front()) + " for object " +
                         in_quotes(object.name) + "; valid commands: " + command_names(object),
                     help_hint(object));
  }

  if (rest.size() > command->max_args) {
    std::string what(object.name);
    if (!command->name.empty()) {
      what += ' ' + std::string(command->name);
    }
    check_no_more(rest.subspan(command->max_args), what, object);
  }
  return Command{.options = std::move(options),
                 .object = &object,
                 .command = command,
                 .args = {rest.begin(), rest.end()},
                 .command_options = {}};
}

// Refuses an option the resolved command does not take.
void check_command_options(const Command& command) {
  if (command.command == nullptr) {
    return;  // help: options are irrelevant
  }
  for (const auto& [name, value] : command.command_options) {
    const std::span<const OptionSpec> allowed = command.command->options;
    const bool known =
        std::any_of(allowed.begin(), allowed.end(),
                    [&name = name](const OptionSpec& option) { return option.long_name == name; });
    if (!known) {
      std::string what(command.object->name);
      if (!command.command->name.empty()) {
        what += ' ' + std::string(command.command->name);
      }
      throw UsageError("option '--" + name + "' does not apply to " + in_quotes(what),
                       help_hint(*command.object));
    }
  }
}

}  // namespace

std::optional<std::string> Command::option(std::string_view long_name) const {
  const auto found = command_options.find(long_name);
  if (found == command_options.end()) {
    return std::nullopt;
  }
  return found->second;
}

std::span<const OptionSpec> option_specs() noexcept {
  return kOptions;
}

Command parse(std::span<const std::string> args, ObjectTable table) {
  Split split = split_arguments(args, table);
  Options options{.json = split.json > 0 || split.pretty > 0,
                  .pretty = split.pretty > 0,
                  .stats = split.stats,
                  .netns = std::move(split.netns)};
  if (options.netns && !hf::valid_netns_name(*options.netns)) {
    throw UsageError("invalid network namespace name " + in_quotes(*options.netns));
  }

  if (split.help > 0) {
    // -h alone is "hfctl help"; -h with an OBJECT is "hfctl OBJECT help".
    if (split.words.empty()) {
      return resolve(std::move(options), table, std::array{std::string(kHelpObjectName)});
    }
    return Command{.options = std::move(options),
                   .object = &require_object(table, split.words.front()),
                   .command = nullptr,
                   .args = {},
                   .command_options = {}};
  }
  if (split.version > 0) {
    return resolve(std::move(options), table, std::array{std::string(kVersionObjectName)});
  }
  Command command = resolve(std::move(options), table, split.words);
  command.command_options = std::move(split.command_options);
  check_command_options(command);
  return command;
}

void parse_pairs(std::span<const std::string> args, std::string_view hint,
                 const std::function<bool(const std::string&, const std::string&)>& take) {
  std::vector<std::string_view> seen;
  for (std::size_t i = 0; i < args.size(); i += 2) {
    const std::string& key = args[i];
    if (i + 1 >= args.size()) {
      throw UsageError("\"" + key + "\" needs a value", std::string(hint));
    }
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      throw UsageError("\"" + key + "\" given twice", std::string(hint));
    }
    if (!take(key, args[i + 1])) {
      throw UsageError("unknown argument \"" + key + "\"", std::string(hint));
    }
    seen.emplace_back(key);
  }
}

std::chrono::milliseconds parse_duration_arg(std::string_view text, std::string_view hint) {
  const bool bare = !text.empty() && std::all_of(text.begin(), text.end(),
                                                 [](char c) { return c >= '0' && c <= '9'; });
  // A bare number is seconds, as timeout(1) takes it.
  const std::optional<std::uint64_t> ms =
      bare ? hf::parse_value(std::string(text) + "s", hf::Unit::msecs)
           : hf::parse_value(text, hf::Unit::msecs);
  constexpr std::uint64_t kMaxMs = 24ULL * 3600 * 1000;
  if (!ms || *ms == 0 || *ms > kMaxMs) {
    throw UsageError("invalid duration \"" + std::string(text) + "\" (5s, 500ms; at most 24h)",
                     std::string(hint));
  }
  return std::chrono::milliseconds(static_cast<std::int64_t>(*ms));
}

}  // namespace hfctl
