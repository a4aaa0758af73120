// hyperframe/sysfs.h - where the hyperframe module shows itself in sysfs,
// and hf::family(), the address family the loaded module registered.
//
// Every function that reads the filesystem takes `root`, the directory that
// stands for "/": "/" on a live system, a scratch tree in unit tests.
#pragma once

#include <filesystem>

namespace hf {

// The module's sysfs directory, /sys/module/hyperframe (as seen from "/").
[[nodiscard]] std::filesystem::path module_dir();

// The absolute path `absolute` as seen under `root` (root "/" changes nothing).
[[nodiscard]] std::filesystem::path under_root(const std::filesystem::path& root,
                                               const std::filesystem::path& absolute);

// The address family the loaded module registered, read from HF_SYSFS_FAMILY.
// Throws std::system_error: errc::address_family_not_supported, "hyperframe
// module not loaded (load hyperframe.ko first)", when the file is absent;
// errc::invalid_argument when it does not hold a family number; the errno of
// the failing call when it cannot be read.
[[nodiscard]] int family(const std::filesystem::path& root = "/");

}  // namespace hf
