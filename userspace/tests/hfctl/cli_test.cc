// tests/hfctl/cli_test.cc - unit tests of hfctl/cli/cli.cc: command lines that
// parse into the right Command, and command lines that are usage errors.
#include "cli/cli.h"

#include <array>
#include <initializer_list>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

using hfctl::Command;
using hfctl::UsageError;

Command parse(std::initializer_list<const char*> words) {
  const std::vector<std::string> args(words.begin(), words.end());
  return hfctl::parse(args);
}

// The UsageError parse() throws, or a placeholder if it does not throw.
UsageError usage_error(std::initializer_list<const char*> words) {
  try {
    static_cast<void>(parse(words));
  } catch (const UsageError& error) {
    return error;
  }
  ADD_FAILURE() << "no usage error";
  return UsageError("(none)", "(none)");
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

TEST(Parse, ObjectAndCommand) {
  const Command command = parse({"module", "show"});
  EXPECT_EQ(command.object, &hfctl::kModuleObject);
  ASSERT_NE(command.command, nullptr);
  EXPECT_EQ(command.command->name, "show");
  EXPECT_TRUE(command.args.empty());
  EXPECT_EQ(command.options, hfctl::Options{});
}

TEST(Parse, OmittedCommandIsTheDefault) {
  const Command command = parse({"module"});
  ASSERT_NE(command.command, nullptr);
  EXPECT_EQ(command.command->name, "show");
}

TEST(Parse, JsonAndPretty) {
  EXPECT_TRUE(parse({"-j", "module", "show"}).options.json);
  EXPECT_TRUE(parse({"--json", "module"}).options.json);
  const hfctl::Options pretty = parse({"-p", "module"}).options;
  EXPECT_TRUE(pretty.json) << "-p implies -j";
  EXPECT_TRUE(pretty.pretty);
  EXPECT_TRUE(parse({"-jp", "module"}).options.pretty);
  EXPECT_TRUE(parse({"-j", "-j", "module"}).options.json) << "repeats are harmless";
}

TEST(Parse, StatsCountsRepeats) {
  EXPECT_EQ(parse({"module"}).options.stats, 0);
  EXPECT_EQ(parse({"-s", "module"}).options.stats, 1);
  EXPECT_EQ(parse({"-s", "-s", "module"}).options.stats, 2);
  EXPECT_EQ(parse({"-sss", "module"}).options.stats, 3);
  EXPECT_EQ(parse({"--stats", "-s", "module"}).options.stats, 2);
}

TEST(Parse, Netns) {
  EXPECT_EQ(parse({"-n", "blue", "module"}).options.netns, "blue");
  EXPECT_EQ(parse({"-nblue", "module"}).options.netns, "blue");
  EXPECT_EQ(parse({"--netns", "blue", "module"}).options.netns, "blue");
  EXPECT_EQ(parse({"--netns=blue", "module"}).options.netns, "blue");
  EXPECT_EQ(parse({"module"}).options.netns, std::nullopt);
}

TEST(Parse, OptionsAfterTheObject) {
  const Command command = parse({"module", "show", "-j"});
  EXPECT_TRUE(command.options.json);
  EXPECT_EQ(command.command->name, "show");
}

TEST(Parse, HelpAtEveryLevel) {
  for (const auto& words : {std::vector<std::string>{"help"}, {"-h"}, {"--help"}}) {
    const Command command = hfctl::parse(words);
    EXPECT_EQ(command.object, &hfctl::kHelpObject);
    EXPECT_NE(command.command, nullptr) << "top-level help runs the help object";
  }
  for (const auto& words : {std::vector<std::string>{"module", "help"},
                            {"help", "module"},
                            {"-h", "module"},
                            {"module", "-h"},
                            {"module", "show", "--help"}}) {
    const Command command = hfctl::parse(words);
    EXPECT_EQ(command.object, &hfctl::kModuleObject);
    EXPECT_EQ(command.command, nullptr) << "object help";
  }
}

TEST(Parse, Version) {
  for (const auto& words :
       {std::vector<std::string>{"version"}, {"-V"}, {"--version"}, {"-V", "module", "show"}}) {
    const Command command = hfctl::parse(words);
    EXPECT_EQ(command.object, &hfctl::kVersionObject);
    EXPECT_NE(command.command, nullptr);
  }
}

TEST(Parse, DoubleDashEndsOptions) {
  const UsageError error = usage_error({"module", "show", "--", "-j"});
  EXPECT_TRUE(contains(error.what(), R"(unexpected argument "-j")")) << error.what();
}

TEST(ParseError, MissingObject) {
  const UsageError error = usage_error({});
  EXPECT_TRUE(
      contains(error.what(),
               "missing OBJECT; valid objects: config, dev, exporter, help, module, monitor, "
               "peer, probe, qdisc, socket, stats, trace, version"))
      << error.what();
  EXPECT_EQ(error.hint(), "hfctl help");
}

TEST(ParseError, UnknownObjectIsNamedWithTheValidOnes) {
  const UsageError error = usage_error({"bogus"});
  EXPECT_EQ(std::string(error.what()),
            R"(unknown object "bogus"; valid objects: config, dev, exporter, help, module, )"
            R"(monitor, peer, probe, qdisc, socket, stats, trace, version)");
  EXPECT_EQ(error.hint(), "hfctl help");
  EXPECT_TRUE(contains(usage_error({"help", "bogus"}).what(), R"("bogus")"));
  EXPECT_TRUE(contains(usage_error({"-h", "bogus"}).what(), R"("bogus")"));
}

TEST(ParseError, UnknownCommandIsNamedWithTheValidOnes) {
  const UsageError error = usage_error({"module", "frob"});
  EXPECT_EQ(std::string(error.what()),
            R"(unknown command "frob" for object "module"; valid commands: show, help)");
  EXPECT_EQ(error.hint(), "hfctl module help");
}

TEST(ParseError, ExtraArguments) {
  EXPECT_EQ(std::string(usage_error({"module", "show", "extra"}).what()),
            R"(module show: unexpected argument "extra")");
  EXPECT_EQ(std::string(usage_error({"version", "extra"}).what()),
            R"(version: unexpected argument "extra")");
  EXPECT_TRUE(contains(usage_error({"module", "help", "x"}).what(), "unexpected argument"));
  EXPECT_TRUE(contains(usage_error({"help", "module", "x"}).what(), "unexpected argument"));
}

TEST(ParseError, BadOptions) {
  EXPECT_TRUE(contains(usage_error({"--bogus", "module"}).what(), "--bogus"));
  EXPECT_TRUE(contains(usage_error({"-x", "module"}).what(), "-x"));
  EXPECT_TRUE(contains(usage_error({"module", "-n"}).what(), "--netns"));
  EXPECT_TRUE(contains(usage_error({"--json=yes", "module"}).what(), "--json"));
  EXPECT_TRUE(contains(usage_error({"-n", "a", "-n", "b", "module"}).what(), "more than once"));
}

TEST(ParseError, InvalidNetnsName) {
  for (const char* name : {"a/b", "..", ""}) {
    EXPECT_TRUE(contains(usage_error({"-n", name, "module"}).what(), "invalid network namespace"))
        << name;
  }
}

TEST(Parse, CommandOptions) {
  const Command command = parse({"exporter", "--listen", "[::1]:9477", "--max-connections=4"});
  EXPECT_EQ(command.object, &hfctl::kExporterObject);
  ASSERT_NE(command.command, nullptr);
  EXPECT_EQ(command.command->name, "serve");
  EXPECT_EQ(command.option("listen"), "[::1]:9477");
  EXPECT_EQ(command.option("max-connections"), "4");
  EXPECT_EQ(command.option("output"), std::nullopt);

  EXPECT_EQ(parse({"stats", "prometheus", "-o", "/x.prom"}).option("output"), "/x.prom");
  EXPECT_EQ(parse({"-o/x.prom", "-n", "blue", "stats", "prometheus"}).option("output"), "/x.prom")
      << "command options may come first, like the global ones";
  EXPECT_EQ(parse({"stats", "prometheus"}).command_options.size(), 0U);
}

TEST(Parse, StatsPrometheusFlagIsAnotherSpelling) {
  for (const auto& words : {std::initializer_list<const char*>{"stats", "--prometheus"},
                            {"stats", "show", "--prometheus"},
                            {"--prometheus", "-n", "blue", "stats"},
                            {"stats", "--prometheus", "-o", "/x.prom"}}) {
    const Command command = parse(words);
    EXPECT_EQ(command.object, &hfctl::kStatsObject);
    ASSERT_NE(command.command, nullptr);
    EXPECT_EQ(command.command->name, "show") << "the default command takes the flag";
    EXPECT_EQ(command.option("prometheus"), "");
  }
  EXPECT_EQ(parse({"stats", "--prometheus", "-o", "/x.prom"}).option("output"), "/x.prom");
  EXPECT_EQ(parse({"stats"}).option("prometheus"), std::nullopt);
  EXPECT_TRUE(contains(usage_error({"stats", "--prometheus=yes"}).what(), "prometheus"))
      << "a flag takes no value";
  EXPECT_TRUE(contains(usage_error({"peer", "--prometheus"}).what(),
                       R"(option '--prometheus' does not apply to "peer show")"));
}

TEST(Parse, QdiscCommandsAndTheirArguments) {
  const Command show = parse({"-s", "qdisc"});
  EXPECT_EQ(show.object, &hfctl::kQdiscObject);
  ASSERT_NE(show.command, nullptr);
  EXPECT_EQ(show.command->name, "show") << "show is the default";
  EXPECT_EQ(show.options.stats, 1);
  EXPECT_EQ(parse({"qdisc", "show", "dev", "veth0"}).args,
            (std::vector<std::string>{"dev", "veth0"}));
  const Command set = parse({"qdisc", "set", "dev", "eth0", "rate", "1gbit", "horizon", "2s"});
  ASSERT_NE(set.command, nullptr);
  EXPECT_EQ(set.command->name, "set");
  EXPECT_EQ(set.args.size(), 6U);
  for (const char* name : {"attach", "detach"}) {
    const Command command = parse({"qdisc", name, "dev", "eth0"});
    ASSERT_NE(command.command, nullptr);
    EXPECT_EQ(command.command->name, name);
  }
  EXPECT_TRUE(contains(usage_error({"qdisc", "show", "dev", "a", "dev", "b"}).what(),
                       R"(qdisc show: unexpected argument "dev")"));
  EXPECT_EQ(usage_error({"qdisc", "replace"}).hint(), "hfctl qdisc help");
}

TEST(Parse, Monitor) {
  const Command command = parse({"monitor"});
  EXPECT_EQ(command.object, &hfctl::kMonitorObject);
  ASSERT_NE(command.command, nullptr) << "monitor runs directly";
  EXPECT_EQ(command.command->name, "");
  EXPECT_TRUE(command.args.empty());
  EXPECT_FALSE(command.options.json);

  const Command json = parse({"-n", "blue", "-j", "monitor"});
  EXPECT_EQ(json.object, &hfctl::kMonitorObject);
  EXPECT_TRUE(json.options.json);
  EXPECT_EQ(json.options.netns, "blue");
  EXPECT_EQ(parse({"monitor", "-j", "--netns", "red"}).options.netns, "red")
      << "options after the object, as everywhere";

  for (const auto& words : {std::initializer_list<const char*>{"monitor", "help"},
                            {"help", "monitor"},
                            {"-h", "monitor"}}) {
    const Command help = parse(words);
    EXPECT_EQ(help.object, &hfctl::kMonitorObject);
    EXPECT_EQ(help.command, nullptr) << "the object's help";
  }
}

TEST(ParseError, MonitorTakesNoArguments) {
  const UsageError error = usage_error({"monitor", "peer"});
  EXPECT_EQ(std::string(error.what()), R"(monitor: unexpected argument "peer")");
  EXPECT_EQ(error.hint(), "hfctl monitor help");
  EXPECT_TRUE(contains(usage_error({"monitor", "-o", "x"}).what(),
                       R"(option '--output' does not apply to "monitor")"));
  EXPECT_TRUE(contains(usage_error({"monitor", "--listen", "1.2.3.4:5"}).what(), "--listen"));
}

TEST(ParseError, CommandOptionOfAnotherCommand) {
  const UsageError error = usage_error({"stats", "prometheus", "--listen", "x"});
  EXPECT_EQ(std::string(error.what()), R"(option '--listen' does not apply to "stats prometheus")");
  EXPECT_EQ(error.hint(), "hfctl stats help");
  EXPECT_TRUE(contains(usage_error({"stats", "prometheus", "--prometheus"}).what(),
                       R"(option '--prometheus' does not apply to "stats prometheus")"));
  EXPECT_TRUE(contains(usage_error({"module", "--listen", "1.2.3.4:5"}).what(), "--listen"));
  EXPECT_TRUE(contains(usage_error({"exporter", "--listen", "a", "--listen", "b"}).what(),
                       "more than once"));
  EXPECT_TRUE(contains(usage_error({"exporter", "--listen"}).what(), "--listen"))
      << "missing value";
  EXPECT_NO_THROW(static_cast<void>(parse({"stats", "-o", "x", "help"})))
      << "help ignores command options";
}

// A table with one extra object shows that parsing follows the table.
void run_nothing(const Command& /*command*/, hfctl::Env& /*env*/) {}

constexpr std::array kWidgetCommands{
    hfctl::CommandSpec{.name = "list",
                       .synopsis = "",
                       .summary = "list",
                       .max_args = 0,
                       .run = &run_nothing,
                       .options = {}},
    hfctl::CommandSpec{.name = "set",
                       .synopsis = "NAME VALUE",
                       .summary = "set",
                       .max_args = 2,
                       .run = &run_nothing,
                       .options = {}},
};
constexpr hfctl::ObjectSpec kWidget{
    .name = "widget", .summary = "widgets", .commands = kWidgetCommands, .default_command = ""};
constexpr std::array kTable{&hfctl::kHelpObject, &kWidget};

TEST(Parse, FollowsTheGivenTable) {
  const std::vector<std::string> args{"widget", "set", "speed", "3"};
  const Command command = hfctl::parse(args, kTable);
  EXPECT_EQ(command.object, &kWidget);
  EXPECT_EQ(command.command, kWidgetCommands.data() + 1);
  EXPECT_EQ(command.args, (std::vector<std::string>{"speed", "3"}));

  try {
    static_cast<void>(hfctl::parse(std::vector<std::string>{"widget"}, kTable));
    FAIL() << "no default command, yet parsed";
  } catch (const UsageError& error) {
    EXPECT_EQ(std::string(error.what()),
              R"(missing COMMAND for "widget"; valid commands: list, set, help)");
  }
  EXPECT_THROW(static_cast<void>(hfctl::parse(std::vector<std::string>{"module"}, kTable)),
               UsageError);
}

}  // namespace
