// tests/hfctl/objects_test.cc - unit tests of hfctl/objects.cc: the lookups,
// and invariants every entry of the object table must keep.
#include "objects.h"

#include <set>
#include <string_view>

#include <gtest/gtest.h>

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

TEST(Objects, ListedInAlphabeticalOrder) {
  std::string_view previous;
  for (const hfctl::ObjectSpec* object : hfctl::objects()) {
    EXPECT_LT(previous, object->name);
    previous = object->name;
  }
}

}  // namespace
