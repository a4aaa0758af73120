// tests/hfctl/objects_test.cc - unit tests of hfctl/cli/objects.cc: the
// lookups, and invariants every entry of the object table must keep.
#include "cli/objects.h"

#include <map>
#include <set>
#include <string_view>

#include <gtest/gtest.h>

#include "cli/cli.h"

namespace {

TEST(FindObject, FindsByExactName) {
  EXPECT_EQ(hfctl::find_object(hfctl::objects(), "module"), &hfctl::kModuleObject);
  EXPECT_EQ(hfctl::find_object(hfctl::objects(), "mod"), nullptr);
  EXPECT_EQ(hfctl::find_object(hfctl::objects(), ""), nullptr);
}

TEST(FindCommand, FindsByExactName) {
  const hfctl::CommandSpec* show = hfctl::find_command(hfctl::kModuleObject, "show");
  ASSERT_NE(show, nullptr);
  EXPECT_EQ(show->name, "show");
  EXPECT_EQ(hfctl::find_command(hfctl::kModuleObject, "sh"), nullptr);
}

TEST(Objects, EveryEntryIsWellFormed) {
  std::set<std::string_view> object_names;
  for (const hfctl::ObjectSpec* object : hfctl::objects()) {
    SCOPED_TRACE(object->name);
    EXPECT_FALSE(object->name.empty());
    EXPECT_FALSE(object->summary.empty());
    EXPECT_TRUE(object_names.insert(object->name).second) << "duplicate object";
    EXPECT_FALSE(object->commands.empty());
    std::set<std::string_view> command_names;
    for (const hfctl::CommandSpec& command : object->commands) {
      EXPECT_NE(command.name, "help") << "help is implicit";
      EXPECT_TRUE(command_names.insert(command.name).second) << "duplicate command";
      EXPECT_FALSE(command.summary.empty());
      EXPECT_NE(command.run, nullptr);
    }
    EXPECT_NE(hfctl::find_command(*object, object->default_command), nullptr)
        << "default command missing";
  }
}

TEST(Objects, CommandOptionsNeitherShadowNorContradict) {
  std::set<std::string_view> global_long;
  std::set<char> global_short;
  for (const hfctl::OptionSpec& option : hfctl::option_specs()) {
    global_long.insert(option.long_name);
    global_short.insert(option.short_name);
  }
  std::map<std::string_view, const hfctl::OptionSpec*> seen;
  for (const hfctl::ObjectSpec* object : hfctl::objects()) {
    for (const hfctl::CommandSpec& command : object->commands) {
      for (const hfctl::OptionSpec& option : command.options) {
        SCOPED_TRACE(option.long_name);
        EXPECT_FALSE(option.long_name.empty());
        EXPECT_FALSE(option.help.empty());
        EXPECT_EQ(global_long.count(option.long_name), 0U) << "shadows a global option";
        if (option.short_name != '\0') {
          EXPECT_EQ(global_short.count(option.short_name), 0U) << "shadows a global option";
        }
        const auto [previous, inserted] = seen.emplace(option.long_name, &option);
        if (!inserted) {
          EXPECT_EQ(previous->second->short_name, option.short_name);
          EXPECT_EQ(previous->second->value_name.empty(), option.value_name.empty());
        }
      }
    }
  }
}

TEST(Objects, ListedInAlphabeticalOrder) {
  std::string_view previous;
  for (const hfctl::ObjectSpec* object : hfctl::objects()) {
    EXPECT_LT(previous, object->name);
    previous = object->name;
  }
}

}  // namespace
