// hfctl/settings.h - the arguments of "hfctl config set" and the messages
// for its failures: pure functions, no I/O.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "hyperframe/control.h"

namespace hfctl {

// "KEY VALUE [KEY VALUE]..." to the changes to send, in order. Throws
// UsageError for an odd count, an unknown or read-only key (naming the
// keys that can be set), a key given twice, or a value that is not a
// number in the key's units.
[[nodiscard]] std::vector<hf::ConfigValue> parse_config_changes(std::span<const std::string> args);

// The keys "config set" takes, comma separated.
[[nodiscard]] std::string writable_key_names();

// A refused "config set" as a person can act on it: for a value out of
// range, "bad value 5000 for max_inflight: accepted range 1..4096"; for
// EPERM, what is needed. Otherwise error.what().
[[nodiscard]] std::string describe_set_error(const hf::ControlError& error,
                                             std::span<const hf::ConfigValue> changes);

}  // namespace hfctl
