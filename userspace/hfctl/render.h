// hfctl/render.h - the rendering layer of hfctl: pure functions from values
// to text or JSON on a std::ostream. No system calls, no sysfs.
#pragma once

#include <ostream>
#include <string_view>

#include "cli.h"
#include "hyperframe/json.h"
#include "hyperframe/module_info.h"
#include "objects.h"

namespace hfctl {

// The JSON style the options ask for (-p: pretty, else compact).
[[nodiscard]] hf::JsonWriter::Style json_style(const Options& options) noexcept;

// "hfctl help": synopsis, the objects of `table`, the options.
void render_usage(std::ostream& out, ObjectTable table);
// "hfctl OBJECT help": the object's commands.
void render_object_help(std::ostream& out, const ObjectSpec& object);

// "hfctl version": "hfctl VERSION", or {"name":"hfctl","version":VERSION}.
void render_version(std::ostream& out, std::string_view version, const Options& options);
// "hfctl module show": one "name: value" line per attribute, or a JSON object.
void render_module_show(std::ostream& out, const hf::ModuleInfo& info, const Options& options);

// A usage error: "hfctl: <what>" and a pointer to the relevant help.
void render_usage_error(std::ostream& err, const UsageError& error);
// A runtime error: "hfctl: <what>" (for std::system_error, "<what>: <strerror>").
void render_error(std::ostream& err, std::string_view what);

}  // namespace hfctl
