// hfctl/bpf/probe_args.cc - "hfctl probe", its arguments: parsing them into a
// ProbeArgs with iproute2-style refusals, the time series' intervals, and
// the filter said back in the words of the command line.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <array>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>

#include "bpf/probe.h"

namespace hfctl {
namespace {

constexpr std::string_view kHint = "hfctl probe help";

[[noreturn]] void usage(const std::string& message) {
  throw UsageError(message, std::string(kHint));
}

std::uint64_t parse_number(std::string_view name, std::string_view text, std::uint64_t min,
                           std::uint64_t max) {
  std::uint64_t value = 0;
  const std::string copy(text);
  std::size_t used = 0;
  try {
    value = std::stoull(copy, &used, 0);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != copy.size() || copy.front() == '-' || value < min || value > max) {
    usage("invalid " + std::string(name) + " \"" + copy + "\" (" + std::to_string(min) + " to " +
          std::to_string(max) + ")");
  }
  return value;
}

std::uint16_t parse_port(std::string_view name, std::string_view text) {
  return static_cast<std::uint16_t>(parse_number(name, text, 1, 0xffff));
}

// An IPv4 or IPv6 address, without a prefix length: the filter matches
// one host.
IpAddress parse_address(std::string_view name, const std::string& text) {
  IpAddress address;
  if (inet_pton(AF_INET, text.c_str(), address.bytes.data()) == 1) {
    address.size = 4;
  } else if (inet_pton(AF_INET6, text.c_str(), address.bytes.data()) == 1) {
    address.size = address.bytes.size();
  } else {
    usage("invalid " + std::string(name) + " \"" + text +
          "\" (an IPv4 or IPv6 address, without a prefix length)");
  }
  return address;
}

std::string format_address(const IpAddress& address) {
  std::array<char, INET6_ADDRSTRLEN> text{};
  const int family = address.size == 4 ? AF_INET : AF_INET6;
  if (inet_ntop(family, address.bytes.data(), text.data(), text.size()) == nullptr) {
    return "?";
  }
  return text.data();
}

// Takes `key value` into `parsed`; false for a key "probe" does not know.
bool take_arg(const std::string& key, const std::string& value, ProbeArgs& parsed) {
  if (key == "dev") {
    if (value.empty()) {
      usage("dev needs a device name");
    }
    parsed.dev = value;
  } else if (key == "duration") {
    parsed.duration = parse_duration_arg(value, kHint);
  } else if (key == "interval") {
    try {
      parsed.interval = parse_duration_arg(value, kHint);
    } catch (const UsageError&) {
      usage("invalid interval \"" + value + "\" (100ms, 1s; at most 24h)");
    }
  } else if (key == "ethertype") {
    constexpr std::uint64_t kMinEthertype = 0x600;  // below: an 802.3 length
    const std::uint64_t type = parse_number("ethertype", value, kMinEthertype, 0xffff);
    parsed.ethertype = static_cast<std::uint16_t>(type);
  } else if (key == "proto") {
    if (value != "tcp" && value != "udp") {
      usage("invalid proto \"" + value + "\" (tcp or udp)");
    }
    parsed.ip_proto = static_cast<std::uint8_t>(value == "tcp" ? IPPROTO_TCP : IPPROTO_UDP);
  } else if (key == "src") {
    parsed.src = parse_address("src", value);
  } else if (key == "dst") {
    parsed.dst = parse_address("dst", value);
  } else if (key == "sport") {
    parsed.sport = parse_port("sport", value);
  } else if (key == "dport") {
    parsed.dport = parse_port("dport", value);
  } else if (key == "port") {
    parsed.port = parse_port("port", value);
  } else {
    return false;
  }
  return true;
}

// The combinations that cannot be: each refusal names both sides.
void check_combination(const ProbeArgs& parsed) {
  if (parsed.dev.empty()) {
    usage("probe needs dev DEV");
  }
  const std::array<std::pair<std::string_view, bool>, 3> ports{{
      {"port", parsed.port.has_value()},
      {"sport", parsed.sport.has_value()},
      {"dport", parsed.dport.has_value()},
  }};
  for (const auto& [name, given] : ports) {
    if (given && !parsed.ip_proto) {
      usage(std::string(name) + " needs proto tcp or proto udp");
    }
  }
  if (parsed.ethertype) {
    const std::array<std::pair<std::string_view, bool>, 3> ip{{
        {"proto", parsed.ip_proto.has_value()},
        {"src", parsed.src.has_value()},
        {"dst", parsed.dst.has_value()},
    }};
    for (const auto& [name, given] : ip) {
      if (given) {
        usage("ethertype and " + std::string(name) + " cannot be combined (" + std::string(name) +
              " implies IPv4 or IPv6)");
      }
    }
  }
  if (parsed.src && parsed.dst && parsed.src->size != parsed.dst->size) {
    usage("src " + format_address(*parsed.src) + " and dst " + format_address(*parsed.dst) +
          " are not of one address family");
  }
  if (parsed.interval) {
    if (*parsed.interval > parsed.duration) {
      usage("interval " + duration_text(*parsed.interval) + " is longer than duration " +
            duration_text(parsed.duration));
    }
    const std::size_t intervals = probe_intervals(parsed);
    if (intervals > kProbeMaxIntervals) {
      usage("interval " + duration_text(*parsed.interval) + " makes " + std::to_string(intervals) +
            " intervals of duration " + duration_text(parsed.duration) + " (at most " +
            std::to_string(kProbeMaxIntervals) + ")");
    }
  }
}

}  // namespace

ProbeArgs parse_probe_args(std::span<const std::string> args) {
  ProbeArgs parsed;
  parse_pairs(args, kHint, [&parsed](const std::string& key, const std::string& value) {
    return take_arg(key, value, parsed);
  });
  check_combination(parsed);
  return parsed;
}

std::chrono::milliseconds probe_interval(const ProbeArgs& args) noexcept {
  if (args.interval) {
    return *args.interval;
  }
  const auto even = args.duration / static_cast<std::int64_t>(kProbeDefaultIntervals);
  return std::max(even, std::chrono::milliseconds(1));
}

std::size_t probe_intervals(const ProbeArgs& args) noexcept {
  const std::int64_t interval = probe_interval(args).count();
  return static_cast<std::size_t>((args.duration.count() + interval - 1) / interval);
}

std::string describe_filter(const ProbeArgs& args) {
  std::string text;
  const auto add = [&text](std::string_view word) {
    if (!text.empty()) {
      text += ' ';
    }
    text += word;
  };
  if (args.ethertype) {
    std::array<char, 16> hex{};
    static_cast<void>(
        std::snprintf(hex.data(), hex.size(), "0x%04x", static_cast<unsigned>(*args.ethertype)));
    add("ethertype " + std::string(hex.data()));
  }
  if (args.ip_proto) {
    add(*args.ip_proto == IPPROTO_TCP ? "proto tcp" : "proto udp");
  }
  if (args.src) {
    add("src " + format_address(*args.src));
  }
  if (args.dst) {
    add("dst " + format_address(*args.dst));
  }
  if (args.sport) {
    add("sport " + std::to_string(*args.sport));
  }
  if (args.dport) {
    add("dport " + std::to_string(*args.dport));
  }
  if (args.port) {
    add("port " + std::to_string(*args.port));
  }
  return text;
}

std::string duration_text(std::chrono::milliseconds ms) {
  constexpr std::int64_t kMsPerSecond = 1000;
  if (ms.count() % kMsPerSecond == 0) {
    return std::to_string(ms.count() / kMsPerSecond) + "s";
  }
  return std::to_string(ms.count()) + "ms";
}

std::string probe_listening(const ProbeArgs& args) {
  const std::string filter = describe_filter(args);
  return "listening on " + args.dev + " for " + duration_text(args.duration) +
         (filter.empty() ? "" : ", " + filter) + "; SIGINT ends it early";
}

}  // namespace hfctl
