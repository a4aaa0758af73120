// lib/attribute.h - private to libhyperframe: reading sysfs attributes whole,
// telling "absent" from "unreadable", and strictly parsing what the kernel
// printed into them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace hf::detail {

// The contents of a small text file, or std::nullopt when it does not exist.
// Throws std::system_error naming the path for any other failure.
[[nodiscard]] std::optional<std::string> read_attribute(const std::filesystem::path& path);

// The value without the one trailing newline sysfs prints after it.
[[nodiscard]] std::string_view strip_newline(std::string_view text) noexcept;

enum class Base { decimal, decimal_or_hex };

// All of `text` (less a trailing newline) as an integer in [min, max]: digits
// with an optional leading '-', or with Base::decimal_or_hex also "0x" and hex
// digits. std::nullopt for anything else, including surrounding blanks.
[[nodiscard]] std::optional<std::int64_t> parse_integer(std::string_view text, std::int64_t min,
                                                        std::int64_t max,
                                                        Base base = Base::decimal) noexcept;

// Throws std::system_error(errc::invalid_argument) saying that the attribute
// at `path` holds `text` where `expected` was due.
[[noreturn]] void throw_malformed(const std::filesystem::path& path, std::string_view expected,
                                  std::string_view text);

// Throws the "module not loaded" std::system_error (errc::address_family_not_supported).
[[noreturn]] void throw_not_loaded();

// The family attribute under `root`: std::nullopt when absent (module not
// loaded), the number when well-formed; throws otherwise.
[[nodiscard]] std::optional<int> read_family(const std::filesystem::path& root);

}  // namespace hf::detail
