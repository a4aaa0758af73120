// hfctl/cli/output_file.h - replacing a file atomically, for output that
// another program reads at any moment (node_exporter's textfile
// collector): a reader sees the old contents or the new, never a part.
#pragma once

#include <filesystem>
#include <string_view>

namespace hfctl {

// Writes `contents` to a new file beside `path` (".NAME.XXXXXX", so a
// collector matching *.prom skips it), flushes it to disk, makes it mode
// 0644 and renames it over `path`. On failure `path` is untouched and the
// temporary file removed. Throws std::system_error naming `path`, with
// errno.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

}  // namespace hfctl
