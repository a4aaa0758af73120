// hyperframe/module_info.h - hf::ModuleInfo, what sysfs says about the loaded
// hyperframe module (version, family, EtherType, reference count).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace hf {

struct ModuleInfo {
  std::optional<std::string> version;      // /sys/module/hyperframe/version, if MODULE_VERSION set
  int family = 0;                          // parameters/family
  std::optional<std::uint16_t> ethertype;  // parameters/ethertype, if the module has it
  int refcount = 0;                        // refcnt

  friend bool operator==(const ModuleInfo&, const ModuleInfo&) = default;
};

// The loaded module's sysfs attributes, or std::nullopt when it is not loaded.
// Throws std::system_error when an attribute is unreadable or malformed, or
// a required one (refcnt) is missing.
[[nodiscard]] std::optional<ModuleInfo> find_module_info(const std::filesystem::path& root = "/");

// As find_module_info(), but a module that is not loaded is an error: the one
// hf::family() throws (errc::address_family_not_supported).
[[nodiscard]] ModuleInfo module_info(const std::filesystem::path& root = "/");

}  // namespace hf
