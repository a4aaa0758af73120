// tests/hfctl/render_test.cc - unit tests of hfctl/render.cc: the text and
// JSON hfctl prints, from values alone.
#include "render.h"

#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace {

using hfctl::Options;

// Every attribute present.
hf::ModuleInfo full() {
  return {.version = "0.3.1", .family = 18, .ethertype = 0x88b5, .refcount = 2};
}

// Only the attributes every module has.
hf::ModuleInfo bare() {
  return {.version = std::nullopt, .family = 27, .ethertype = std::nullopt, .refcount = 0};
}

Options text() {
  return {};
}

Options json() {
  Options options;
  options.json = true;
  return options;
}

Options pretty() {
  Options options = json();
  options.pretty = true;
  return options;
}

// `text` and the newline that ends every line of output.
std::string line(std::string_view text) {
  return std::string(text) + '\n';
}

template <typename Render>
std::string rendered(Render render) {
  std::ostringstream out;
  render(out);
  return out.str();
}

std::string module_show(const hf::ModuleInfo& info, const Options& options) {
  return rendered([&](std::ostream& out) { hfctl::render_module_show(out, info, options); });
}

TEST(RenderModuleShow, TextIsNameValueLines) {
  EXPECT_EQ(module_show(full(), text()),
            "family: 18\n"
            "ethertype: 0x88b5\n"
            "refcount: 2\n"
            "version: 0.3.1\n");
}

TEST(RenderModuleShow, TextLeavesOutWhatIsAbsent) {
  EXPECT_EQ(module_show(bare(), text()), "family: 27\nrefcount: 0\n");
}

TEST(RenderModuleShow, EthertypeIsFourHexDigits) {
  hf::ModuleInfo info = bare();
  info.ethertype = 0x800;
  EXPECT_EQ(module_show(info, text()), "family: 27\nethertype: 0x0800\nrefcount: 0\n");
}

TEST(RenderModuleShow, Json) {
  EXPECT_EQ(module_show(full(), json()),
            line(R"({"family":18,"ethertype":34997,"refcount":2,"version":"0.3.1"})"));
  EXPECT_EQ(module_show(bare(), json()), line(R"({"family":27,"refcount":0})"));
}

TEST(RenderModuleShow, PrettyJson) {
  EXPECT_EQ(module_show(full(), pretty()),
            "{\n"
            "  \"family\": 18,\n"
            "  \"ethertype\": 34997,\n"
            "  \"refcount\": 2,\n"
            "  \"version\": \"0.3.1\"\n"
            "}\n");
}

TEST(RenderModuleShow, JsonEscapesTheVersion) {
  hf::ModuleInfo info = bare();
  info.version = "1\"\n";
  EXPECT_EQ(module_show(info, json()), line(R"({"family":27,"refcount":0,"version":"1\"\u000A"})"));
}

TEST(RenderVersion, TextAndJson) {
  const auto version = [](const Options& options) {
    return rendered([&](std::ostream& out) { hfctl::render_version(out, "1.2.3", options); });
  };
  EXPECT_EQ(version(text()), "hfctl 1.2.3\n");
  EXPECT_EQ(version(json()), line(R"({"name":"hfctl","version":"1.2.3"})"));
}

TEST(RenderUsage, ListsEveryObjectAndOption) {
  const std::string usage =
      rendered([](std::ostream& out) { hfctl::render_usage(out, hfctl::objects()); });
  EXPECT_EQ(usage.rfind("Usage: hfctl [ OPTIONS ] OBJECT { COMMAND | help } [ ARGS ]\n", 0), 0U);
  for (const hfctl::ObjectSpec* object : hfctl::objects()) {
    EXPECT_NE(usage.find("\n  " + std::string(object->name) + " "), std::string::npos)
        << object->name;
  }
  for (const hfctl::OptionSpec& option : hfctl::option_specs()) {
    EXPECT_NE(usage.find("--" + std::string(option.long_name)), std::string::npos);
  }
  EXPECT_NE(usage.find("-n, --netns NAME  "), std::string::npos) << usage;
}

TEST(RenderObjectHelp, ModuleCommands) {
  EXPECT_EQ(
      rendered([](std::ostream& out) { hfctl::render_object_help(out, hfctl::kModuleObject); }),
      "hfctl module - the loaded hyperframe kernel module\n"
      "\n"
      "Usage: hfctl [ OPTIONS ] module show\n"
      "       hfctl [ OPTIONS ] module help\n"
      "\n"
      "Commands:\n"
      "  show  print the family, EtherType and reference count of the module (the default)\n"
      "  help  print this help\n");
}

TEST(RenderObjectHelp, DirectObjectShowsItsSynopsis) {
  const std::string help =
      rendered([](std::ostream& out) { hfctl::render_object_help(out, hfctl::kHelpObject); });
  EXPECT_NE(help.find("Usage: hfctl [ OPTIONS ] help [ OBJECT ]\n"), std::string::npos) << help;
}

TEST(RenderErrors, UsageErrorPointsAtHelp) {
  EXPECT_EQ(rendered([](std::ostream& err) {
              hfctl::render_usage_error(err, hfctl::UsageError("bad", "hfctl module help"));
            }),
            "hfctl: bad\nTry \"hfctl module help\".\n");
}

TEST(RenderErrors, RuntimeErrorIsOneLine) {
  EXPECT_EQ(rendered([](std::ostream& err) { hfctl::render_error(err, "x: No such file"); }),
            "hfctl: x: No such file\n");
}

}  // namespace
