// hfctl/render.cc - hfctl's help, version and per-object output, as text
// (iproute2 style) or JSON.
#include "render.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <string>
#include <utility>
#include <vector>

namespace hfctl {
namespace {

using Row = std::pair<std::string, std::string>;

// Two aligned columns, indented by two spaces.
void render_rows(std::ostream& out, const std::vector<Row>& rows) {
  std::size_t width = 0;
  for (const auto& row : rows) {
    width = std::max(width, row.first.size());
  }
  for (const auto& [left, right] : rows) {
    out << "  " << left << std::string(width - left.size() + 2, ' ') << right << '\n';
  }
}

std::string hex16(std::uint16_t value) {
  std::array<char, 4> digits{};
  const auto [end, error] = std::to_chars(digits.begin(), digits.end(), value, 16);
  static_cast<void>(error);  // four hex digits always fit
  const std::string text(digits.begin(), end);
  return "0x" + std::string(4 - text.size(), '0') + text;
}

}  // namespace

hf::JsonWriter::Style json_style(const Options& options) noexcept {
  return options.pretty ? hf::JsonWriter::Style::pretty : hf::JsonWriter::Style::compact;
}

void render_usage(std::ostream& out, ObjectTable table) {
  out << "Usage: hfctl [ OPTIONS ] OBJECT { COMMAND | help } [ ARGS ]\n"
         "       hfctl help [ OBJECT ]\n"
         "\nObjects:\n";
  std::vector<Row> rows;
  for (const ObjectSpec* object : table) {
    rows.emplace_back(object->name, object->summary);
  }
  render_rows(out, rows);

  out << "\nOptions:\n";
  rows.clear();
  for (const OptionSpec& option : option_specs()) {
    std::string flags =
        std::string("-") + option.short_name + ", --" + std::string(option.long_name);
    if (!option.value_name.empty()) {
      flags += ' ' + std::string(option.value_name);
    }
    rows.emplace_back(std::move(flags), option.help);
  }
  render_rows(out, rows);
  out << "\nRun \"hfctl OBJECT help\" for the commands of an object.\n";
}

void render_object_help(std::ostream& out, const ObjectSpec& object) {
  const std::string prefix = "hfctl [ OPTIONS ] " + std::string(object.name);
  out << "hfctl " << object.name << " - " << object.summary << "\n\n";
  std::string_view lead = "Usage: ";
  for (const CommandSpec& command : object.commands) {
    out << lead << prefix;
    if (!command.name.empty()) {
      out << ' ' << command.name;
    }
    if (!command.synopsis.empty()) {
      out << ' ' << command.synopsis;
    }
    out << '\n';
    lead = "       ";
  }
  out << lead << prefix << " help\n";

  std::vector<Row> rows;
  for (const CommandSpec& command : object.commands) {
    if (command.name.empty()) {
      continue;  // the object itself, summarised above
    }
    std::string summary(command.summary);
    if (command.name == object.default_command) {
      summary += " (the default)";
    }
    rows.emplace_back(command.name, std::move(summary));
  }
  rows.emplace_back("help", "print this help");
  out << "\nCommands:\n";
  render_rows(out, rows);
}

void render_version(std::ostream& out, std::string_view version, const Options& options) {
  if (options.json) {
    hf::JsonWriter(out, json_style(options))
        .begin_object()
        .member("name", "hfctl")
        .member("version", version)
        .end_object();
    out << '\n';
    return;
  }
  out << "hfctl " << version << '\n';
}

void render_module_show(std::ostream& out, const hf::ModuleInfo& info, const Options& options) {
  if (options.json) {
    hf::JsonWriter json(out, json_style(options));
    json.begin_object().member("family", info.family);
    if (info.ethertype) {
      json.member("ethertype", *info.ethertype);
    }
    json.member("refcount", info.refcount);
    if (info.version) {
      json.member("version", *info.version);
    }
    json.end_object();
    out << '\n';
    return;
  }
  out << "family: " << info.family << '\n';
  if (info.ethertype) {
    out << "ethertype: " << hex16(*info.ethertype) << '\n';
  }
  out << "refcount: " << info.refcount << '\n';
  if (info.version) {
    out << "version: " << *info.version << '\n';
  }
}

void render_usage_error(std::ostream& err, const UsageError& error) {
  err << "hfctl: " << error.what() << "\nTry \"" << error.hint() << "\".\n";
}

void render_error(std::ostream& err, std::string_view what) {
  err << "hfctl: " << what << '\n';
}

}  // namespace hfctl
