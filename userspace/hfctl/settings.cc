// hfctl/settings.cc - "hfctl config set" arguments in, readable refusals out.
#include "settings.h"

#include <linux/hyperframe.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <limits>

#include "cli.h"

namespace hfctl {
namespace {

constexpr std::string_view kHint = "hfctl config help";

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
    case hf::Unit::count:
      break;
  }
  return "a whole number";
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
    const std::optional<std::uint64_t> value = hf::parse_value(text, key->unit);
    if (!value) {
      throw UsageError("bad value " + in_quotes(text) + " for " + std::string(key->name) +
                           ": expected " + unit_words(key->unit),
                       std::string(kHint));
    }
    // Only mem_limit is 64-bit on the wire.
    if (key->attribute != HF_CONFIG_A_MEM_LIMIT &&
        *value > std::numeric_limits<std::uint32_t>::max()) {
      throw UsageError("bad value " + in_quotes(text) + " for " + std::string(key->name) +
                           ": above " + std::to_string(std::numeric_limits<std::uint32_t>::max()),
                       std::string(kHint));
    }
    changes.push_back({key, *value});
  }
  return changes;
}

std::string describe_set_error(const hf::ControlError& error,
                               std::span<const hf::ConfigValue> changes) {
  if (error.code().value() == EPERM) {
    return "changing the configuration needs CAP_NET_ADMIN in the initial user namespace "
           "(run as root): " +
           error.code().message();
  }
  // The netlink core refuses a value outside its policy range with ERANGE.
  if ((error.code().value() != EINVAL && error.code().value() != ERANGE) || !error.attribute()) {
    return error.what();
  }
  const auto change =
      std::find_if(changes.begin(), changes.end(), [&error](const hf::ConfigValue& candidate) {
        return candidate.key->attribute == *error.attribute();
      });
  if (change == changes.end()) {
    return error.what();
  }
  const hf::ConfigKey& key = *change->key;
  std::string message =
      "bad value " + hf::format_value(change->value, key.unit) + " for " + std::string(key.name);
  if (error.range()) {
    message += ": accepted range " + hf::format_value(error.range()->min, key.unit) + ".." +
               hf::format_value(error.range()->max, key.unit);
  } else if (!error.extack().empty()) {
    message += ": " + error.extack();
  }
  return message;
}

}  // namespace hfctl
