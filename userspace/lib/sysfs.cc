// lib/sysfs.cc - the module's place in sysfs and hf::family().
#include "hyperframe/sysfs.h"

#include <linux/hyperframe.h>

#include "attribute.h"

namespace hf {

std::filesystem::path module_dir() {
  // HF_SYSFS_FAMILY is <module dir>/parameters/family.
  return std::filesystem::path(HF_SYSFS_FAMILY).parent_path().parent_path();
}

std::filesystem::path under_root(const std::filesystem::path& root,
                                 const std::filesystem::path& absolute) {
  return root / absolute.relative_path();
}

int family(const std::filesystem::path& root) {
  const std::optional<int> value = detail::read_family(root);
  if (!value) {
    detail::throw_not_loaded();
  }
  return *value;
}

}  // namespace hf
