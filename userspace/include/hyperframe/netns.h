// hyperframe/netns.h - entering a named network namespace (ip netns's
// /run/netns/NAME), for tools' -n/--netns option.
#pragma once

#include <filesystem>
#include <string_view>

namespace hf {

// Whether `name` can name a namespace under /run/netns: non-empty, at most
// NAME_MAX bytes, no '/' or NUL, not "." or "..".
[[nodiscard]] bool valid_netns_name(std::string_view name) noexcept;

// /run/netns/NAME under `root`. Throws std::system_error (errc::invalid_argument)
// for an invalid name.
[[nodiscard]] std::filesystem::path netns_path(std::string_view name,
                                               const std::filesystem::path& root = "/");

// Moves the calling thread into the network namespace `name` (setns(2)).
// Throws std::system_error naming the namespace and carrying errno.
void enter_netns(std::string_view name, const std::filesystem::path& root = "/");

}  // namespace hf
