// lib/module_info.cc - hf::find_module_info() and hf::module_info(): the
// loaded module's attributes under /sys/module/hyperframe.
#include "hyperframe/module_info.h"

#include <climits>
#include <system_error>
#include <utility>

#include "attribute.h"
#include "hyperframe/sysfs.h"

namespace hf {

std::optional<ModuleInfo> find_module_info(const std::filesystem::path& root) {
  // The family parameter exists exactly while the module is loaded.
  const std::optional<int> family = detail::read_family(root);
  if (!family) {
    return std::nullopt;
  }
  const std::filesystem::path dir = under_root(root, module_dir());
  ModuleInfo info;
  info.family = *family;

  if (const auto version = detail::read_attribute(dir / "version")) {
    info.version = std::string(detail::strip_newline(*version));
  }

  const std::filesystem::path ethertype_path = dir / "parameters" / "ethertype";
  if (const auto text = detail::read_attribute(ethertype_path)) {
    const auto value = detail::parse_integer(*text, 0, UINT16_MAX, detail::Base::decimal_or_hex);
    if (!value) {
      detail::throw_malformed(ethertype_path, "an EtherType (0-65535 or 0x0-0xffff)", *text);
    }
    info.ethertype = static_cast<std::uint16_t>(*value);
  }

  const std::filesystem::path refcnt_path = dir / "refcnt";
  const auto refcnt = detail::read_attribute(refcnt_path);
  if (!refcnt) {
    throw std::system_error(std::make_error_code(std::errc::no_such_file_or_directory),
                            refcnt_path.string());
  }
  // module_refcount() is an int and reads -1 while the module is unloading.
  const auto value = detail::parse_integer(*refcnt, INT_MIN, INT_MAX);
  if (!value) {
    detail::throw_malformed(refcnt_path, "a reference count", *refcnt);
  }
  info.refcount = static_cast<int>(*value);
  return info;
}

ModuleInfo module_info(const std::filesystem::path& root) {
  std::optional<ModuleInfo> info = find_module_info(root);
  if (!info) {
    detail::throw_not_loaded();
  }
  return std::move(*info);
}

}  // namespace hf
