// hfctl/cli/settings.h - the arguments of "hfctl config set" and of the
// "hfctl qdisc" commands, and the messages for their failures: pure
// functions, no I/O.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
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

// The commands of "hfctl qdisc", as their arguments differ:
//   show    [ dev DEV ]
//   attach  dev DEV [ PARAM VALUE ]...
//   set     dev DEV PARAM VALUE [ PARAM VALUE ]...
//   detach  dev DEV
enum class QdiscCommand { show, attach, set, detach };

// The arguments of a qdisc command; "dev DEV" may stand anywhere among the
// PARAM VALUE pairs, as in tc(8).
struct QdiscArgs {
  std::optional<std::string> dev;  // absent only for show
  hf::QdiscConfig config;          // the PARAMs given, in base units

  friend bool operator==(const QdiscArgs&, const QdiscArgs&) = default;
};

// Parses the arguments of `command`. Throws UsageError (hint "hfctl qdisc
// help") for a missing dev DEV or VALUE, a PARAM the command does not take,
// an unknown PARAM (naming the valid ones), one given twice, or a value not
// in the PARAM's units (saying which form is accepted).
[[nodiscard]] QdiscArgs parse_qdisc_args(QdiscCommand command, std::span<const std::string> args);

// The PARAMs of hfq, comma separated.
[[nodiscard]] std::string qdisc_param_names();

// "cannot find device \"DEV\"".
[[nodiscard]] std::string cannot_find_device(std::string_view dev);

// A refused qdisc command on `dev` as a person can act on it: ENODEV,
// cannot_find_device(); ENOENT, that DEV has no hfq at its root and how to
// attach one; EPERM, what is needed; a value among `changes` out of range,
// "bad value 200% for other_share: accepted range 1%..99%" (or the
// kernel's message). Otherwise error.what().
[[nodiscard]] std::string describe_qdisc_error(const hf::ControlError& error, std::string_view dev,
                                               const hf::QdiscConfig& changes = {});

}  // namespace hfctl
