// hfctl/cli/settings.cc - "hfctl config set" and "hfctl qdisc" arguments in,
// readable refusals out.
#include "cli/settings.h"

#include <linux/hyperframe.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <limits>
#include <optional>

#include "cli/cli.h"

namespace hfctl {
namespace {

constexpr std::string_view kHint = "hfctl config help";
constexpr std::string_view kQdiscHint = "hfctl qdisc help";
constexpr std::uint64_t kU32Max = std::numeric_limits<std::uint32_t>::max();

std::string in_quotes(std::string_view text) {
  return '"' + std::string(text) + '"';
}

std::string unit_words(hf::Unit unit) {
  switch (unit) {
    case hf::Unit::bytes:
      return "a size in bytes (suffixes k, m, g: 1024-based)";
    case hf::Unit::usecs:
      return "a time in us (suffixes us, ms, s)";
    case hf::Unit::msecs:
      return "a whole number of ms (suffixes ms, s)";
    case hf::Unit::bits_per_s:
      return "a rate in bit/s (suffixes kbit, mbit, gbit)";
    case hf::Unit::bytes_per_s:
      return "a rate with its unit, in whole bytes/s (kbit, mbit, gbit, tbit: 1000-based "
             "bit/s; kbps, mbps, gbps: bytes/s), or 0";
    case hf::Unit::packets:
      return "a whole number of packets";
    case hf::Unit::percent:
      return "a whole percentage (10 or 10%)";
    case hf::Unit::count:
      break;
  }
  return "a whole number";
}

// `text` as a value of the setting `name`, in `unit`, at most `max`.
std::uint64_t parse_setting(std::string_view name, const std::string& text, hf::Unit unit,
                            std::uint64_t max, std::string_view hint) {
  const std::optional<std::uint64_t> value = hf::parse_value(text, unit);
  if (!value) {
    throw UsageError("bad value " + in_quotes(text) + " for " + std::string(name) + ": expected " +
                         unit_words(unit),
                     std::string(hint));
  }
  if (*value > max) {
    throw UsageError("bad value " + in_quotes(text) + " for " + std::string(name) + ": above " +
                         std::to_string(max),
                     std::string(hint));
  }
  return *value;
}

// "bad value 2s for ack_delay: accepted range 0us..1s", or with the
// kernel's message when it gave no range.
std::string bad_value(std::string_view name, hf::Unit unit, std::uint64_t value,
                      const hf::ControlError& error) {
  std::string message = "bad value " + hf::format_value(value, unit) + " for " + std::string(name);
  if (error.range()) {
    message += ": accepted range " + hf::format_value(error.range()->min, unit) + ".." +
               hf::format_value(error.range()->max, unit);
  } else if (!error.extack().empty()) {
    message += ": " + error.extack();
  }
  return message;
}

[[noreturn]] void refuse(const std::string& message) {
  throw UsageError(message, std::string(kQdiscHint));
}

// Whether the kernel refused a value: EINVAL, or ERANGE from the netlink
// core's policy check, blaming an attribute.
bool refused_value(const hf::ControlError& error) {
  return (error.code().value() == EINVAL || error.code().value() == ERANGE) &&
         error.attribute().has_value();
}

}  // namespace

std::string writable_key_names() {
  std::string names;
  for (const hf::ConfigKey& key : hf::config_keys()) {
    if (key.writable) {
      names += (names.empty() ? "" : ", ") + std::string(key.name);
    }
  }
  return names;
}

std::vector<hf::ConfigValue> parse_config_changes(std::span<const std::string> args) {
  if (args.empty()) {
    throw UsageError("config set: missing KEY VALUE; keys: " + writable_key_names(),
                     std::string(kHint));
  }
  if (args.size() % 2 != 0) {
    throw UsageError("config set: missing VALUE for " + in_quotes(args.back()), std::string(kHint));
  }
  std::vector<hf::ConfigValue> changes;
  for (std::size_t i = 0; i < args.size(); i += 2) {
    const std::string& name = args[i];
    const std::string& text = args[i + 1];
    const hf::ConfigKey* key = hf::find_config_key(name);
    if (key == nullptr) {
      throw UsageError("unknown config key " + in_quotes(name) + "; keys: " + writable_key_names(),
                       std::string(kHint));
    }
    if (!key->writable) {
      throw UsageError(std::string(key->name) + " is read-only; keys: " + writable_key_names(),
                       std::string(kHint));
    }
    if (std::any_of(changes.begin(), changes.end(),
                    [key](const hf::ConfigValue& change) { return change.key == key; })) {
      throw UsageError(std::string(key->name) + " given more than once", std::string(kHint));
    }
    // What the attribute's width holds; the kernel checks the range.
    const std::uint64_t max =
        hf::config_key_is_u64(*key) ? std::numeric_limits<std::uint64_t>::max() : kU32Max;
    const std::uint64_t value = parse_setting(key->name, text, key->unit, max, kHint);
    changes.push_back({key, value});
  }
  return changes;
}

std::string describe_set_error(const hf::ControlError& error,
                               std::span<const hf::ConfigValue> changes) {
  if (error.code().value() == EPERM) {
    // With a message, the kernel refused a raise beyond the initial
    // namespace's limit; without, the caller lacks the capability.
    if (!error.extack().empty()) {
      return "changing the configuration: " + error.extack() + ": " + error.code().message();
    }
    return "changing the configuration needs CAP_NET_ADMIN over the network namespace "
           "(run as root): " +
           error.code().message();
  }
  if (!refused_value(error)) {
    return error.what();
  }
  const auto change =
      std::find_if(changes.begin(), changes.end(), [&error](const hf::ConfigValue& candidate) {
        return candidate.key->attribute == *error.attribute();
      });
  if (change == changes.end()) {
    return error.what();
  }
  return bad_value(change->key->name, change->key->unit, change->value, error);
}

std::string qdisc_param_names() {
  std::string names;
  for (const hf::QdiscParam& param : hf::qdisc_params()) {
    names += (names.empty() ? "" : ", ") + std::string(param.name);
  }
  return names;
}

QdiscArgs parse_qdisc_args(QdiscCommand command, std::span<const std::string> args) {
  static constexpr std::array<std::string_view, 4> kNames{"show", "attach", "set", "detach"};
  const std::string what = "qdisc " + std::string(kNames.at(static_cast<std::size_t>(command)));
  const bool takes_params = command == QdiscCommand::attach || command == QdiscCommand::set;
  QdiscArgs parsed;
  bool has_params = false;
  for (std::size_t i = 0; i < args.size(); i += 2) {
    const std::string& name = args[i];
    const hf::QdiscParam* param = hf::find_qdisc_param(name);
    if (name != "dev" && (param == nullptr || !takes_params)) {
      refuse(takes_params
                 ? what + ": unknown parameter " + in_quotes(name) +
                       "; parameters: " + qdisc_param_names()
                 : what + ": unexpected argument " + in_quotes(name) + " (it takes only dev DEV)");
    }
    if (i + 1 == args.size()) {
      refuse(what + ": missing " + (param == nullptr ? "DEV" : "VALUE") + " after " +
             in_quotes(name));
    }
    const std::string& text = args[i + 1];
    if (param == nullptr) {
      if (parsed.dev) {
        refuse(what + ": dev given more than once");
      }
      parsed.dev = text;
      continue;
    }
    std::optional<std::uint64_t>& value = parsed.config.*param->member;
    if (value) {
      refuse(what + ": " + std::string(param->name) + " given more than once");
    }
    value = parse_setting(param->name, text, param->unit, param->max, kQdiscHint);
    has_params = true;
  }
  if (!parsed.dev && command != QdiscCommand::show) {
    refuse(what + ": missing dev DEV");
  }
  if (!has_params && command == QdiscCommand::set) {
    refuse(what + ": missing PARAM VALUE; parameters: " + qdisc_param_names());
  }
  return parsed;
}

std::string cannot_find_device(std::string_view dev) {
  return "cannot find device " + in_quotes(dev);
}

std::string describe_qdisc_error(const hf::ControlError& error, std::string_view dev,
                                 const hf::QdiscConfig& changes) {
  switch (error.code().value()) {
    case ENODEV:
      return cannot_find_device(dev);
    case ENOENT:
      return "no hfq qdisc at the root of " + std::string(dev) +
             " (attach one with: hfctl qdisc attach dev " + std::string(dev) + ")";
    case EPERM:
      return "changing qdiscs needs CAP_NET_ADMIN over the network namespace (run as root): " +
             error.code().message();
    default:
      break;
  }
  if (!refused_value(error)) {
    return error.what();
  }
  for (const hf::QdiscParam& param : hf::qdisc_params()) {
    const std::optional<std::uint64_t>& value = changes.*param.member;
    if (param.attribute == *error.attribute() && value) {
      // A rate's range has a hole below it: 0, unpaced.
      const bool unpaced = param.unit == hf::Unit::bytes_per_s && error.range();
      return bad_value(param.name, param.unit, *value, error) + (unpaced ? " (or 0: unpaced)" : "");
    }
  }
  return error.what();
}

}  // namespace hfctl
