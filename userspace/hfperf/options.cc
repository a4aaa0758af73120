// hfperf/options.cc - hfperf's command line, through Boost.Program_Options.
#include "options.h"

#include <algorithm>
#include <limits>
#include <sstream>
#include <stdexcept>

#include <boost/program_options.hpp>

#include "hyperframe/units.h"
#include "protocol.h"

namespace hfperf {
namespace {

namespace po = boost::program_options;

constexpr const char* kUsage =
    "usage: hfperf MODE [OPTIONS]\n"
    "modes:\n"
    "  server   answer clients on --port (and --port + 1 for mixed's ping-pong)\n"
    "  pair     bulk to --peer, one run per --sizes entry\n"
    "  incast   like pair, one size; run one per sender against one server\n"
    "  mixed    bulk to --peer plus a ping-pong on a second connection\n"
    "  a2a      all-to-all among --nodes, this node being --rank\n";

std::uint64_t parse_unit(const std::string& option, const std::string& text, hf::Unit unit) {
  const auto value = hf::parse_value(text, unit);
  if (!value) {
    throw std::invalid_argument("--" + option + " " + text + ": not a value in " +
                                std::string(hf::unit_name(unit)));
  }
  return *value;
}

po::options_description describe() {
  po::options_description options("options");
  options.add_options()("help,h", "print this help and exit")(
      "transport,t", po::value<std::string>()->default_value("hf"), "hf, tcp or udp")(
      "dev,d", po::value<std::string>(), "interface (hf: where peers are; all: packet counters)")(
      "port,p", po::value<unsigned>()->default_value(7900), "port (mixed also uses port + 1)")(
      "json,j", po::bool_switch(), "print one JSON object instead of a table")(
      "wait", po::value<std::string>()->default_value("10s"), "how long to wait for peers")(
      "clients", po::value<unsigned>()->default_value(1),
      "server: exit after this many clients finished (0: never)")(
      "peer", po::value<std::string>(), "the server: hf MAC, or IPv4 address")(
      "sizes", po::value<std::string>(), "message sizes, e.g. 4k,64k,1m,4m,64m")(
      "size", po::value<std::string>(), "one message size (incast, mixed)")(
      "bytes", po::value<std::string>(),
      "bytes per size (pair, incast) or per peer and round (a2a)")(
      "duration", po::value<std::string>(), "time per size (default 1s)")(
      "window", po::value<unsigned>()->default_value(0), "messages in flight (0: auto)")(
      "ping-size", po::value<std::string>()->default_value("64"), "mixed: ping message size")(
      "segment", po::value<std::string>()->default_value("1472"), "udp: GSO segment size")(
      "rank", po::value<unsigned>(), "a2a: this node's index in --nodes")(
      "nodes", po::value<std::string>(), "a2a: every node's address, comma-separated")(
      "rounds", po::value<std::uint64_t>()->default_value(10), "a2a: rounds")(
      "mode", po::value<std::string>(), "the mode");
  return options;
}

Mode parse_mode(const std::string& text) {
  for (const Mode mode : {Mode::server, Mode::pair, Mode::incast, Mode::mixed, Mode::alltoall}) {
    if (text == mode_name(mode)) {
      return mode;
    }
  }
  throw std::invalid_argument("unknown mode \"" + text + "\" (server, pair, incast, mixed, a2a)");
}

void check_size(std::uint64_t size) {
  if (size < kHeaderSize || size > kMaxMessage) {
    throw std::invalid_argument("message size " + std::to_string(size) + " is outside " +
                                std::to_string(kHeaderSize) + " bytes .. 64m");
  }
}

void require(const po::variables_map& vm, const char* name, const Config& config) {
  if (vm.count(name) == 0) {
    throw std::invalid_argument(std::string(mode_name(config.mode)) + " needs --" + name);
  }
}

void fill_client(const po::variables_map& vm, Config& config) {
  if (vm.count("sizes") != 0) {
    config.sizes = parse_sizes(vm["sizes"].as<std::string>());
  }
  if (vm.count("size") != 0) {
    config.sizes = {parse_unit("size", vm["size"].as<std::string>(), hf::Unit::bytes)};
  } else if (config.mode == Mode::incast || config.mode == Mode::mixed) {
    config.sizes = {std::uint64_t{1} << 20};
  }
  for (const auto size : config.sizes) {
    check_size(size);
  }
  if (vm.count("bytes") != 0) {
    config.bytes = parse_unit("bytes", vm["bytes"].as<std::string>(), hf::Unit::bytes);
  }
  if (vm.count("duration") != 0) {
    config.duration = std::chrono::microseconds(
        parse_unit("duration", vm["duration"].as<std::string>(), hf::Unit::usecs));
  } else if (config.mode == Mode::mixed) {
    config.duration = std::chrono::seconds(2);
  }
  config.ping_size = parse_unit("ping-size", vm["ping-size"].as<std::string>(), hf::Unit::bytes);
  check_size(config.ping_size);
}

}  // namespace

const char* mode_name(Mode mode) noexcept {
  switch (mode) {
    case Mode::server:
      return "server";
    case Mode::pair:
      return "pair";
    case Mode::incast:
      return "incast";
    case Mode::mixed:
      return "mixed";
    case Mode::alltoall:
      return "a2a";
  }
  return "?";
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) {
      items.push_back(item);
    }
  }
  return items;
}

std::vector<std::uint64_t> parse_sizes(const std::string& text) {
  std::vector<std::uint64_t> sizes;
  for (const auto& item : split_list(text)) {
    sizes.push_back(parse_unit("sizes", item, hf::Unit::bytes));
  }
  if (sizes.empty()) {
    throw std::invalid_argument("--sizes: no sizes given");
  }
  return sizes;
}

unsigned auto_window(std::uint64_t size) {
  const std::uint64_t window = (std::uint64_t{16} << 20) / std::max<std::uint64_t>(size, 1);
  return static_cast<unsigned>(std::clamp<std::uint64_t>(window, 2, 1024));
}

Parsed parse_command_line(const std::vector<std::string>& args) {
  const po::options_description options = describe();
  po::positional_options_description positional;
  positional.add("mode", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(std::vector<std::string>(args.begin() + 1, args.end()))
                  .options(options)
                  .positional(positional)
                  .run(),
              vm);
    po::notify(vm);
  } catch (const po::error& error) {
    throw std::invalid_argument(error.what());
  }
  Parsed parsed;
  if (vm.count("help") != 0 || vm.count("mode") == 0) {
    std::ostringstream text;
    text << kUsage << options;
    parsed.text = text.str();
    parsed.status = vm.count("help") != 0 ? 0 : 2;
    return parsed;
  }
  Config config;
  config.mode = parse_mode(vm["mode"].as<std::string>());
  const auto kind = parse_kind(vm["transport"].as<std::string>());
  if (!kind) {
    throw std::invalid_argument("--transport " + vm["transport"].as<std::string>() +
                                ": want hf, tcp or udp");
  }
  config.transport = *kind;
  if (vm.count("dev") != 0) {
    config.device = vm["dev"].as<std::string>();
  }
  const unsigned port = vm["port"].as<unsigned>();
  if (port == 0 || port >= std::numeric_limits<std::uint16_t>::max()) {
    throw std::invalid_argument("--port " + std::to_string(port) + ": want 1..65534");
  }
  config.port = static_cast<std::uint16_t>(port);
  config.json = vm["json"].as<bool>();
  config.wait =
      std::chrono::milliseconds(parse_unit("wait", vm["wait"].as<std::string>(), hf::Unit::msecs));
  config.clients = vm["clients"].as<unsigned>();
  config.window = vm["window"].as<unsigned>();
  config.segment = parse_unit("segment", vm["segment"].as<std::string>(), hf::Unit::bytes);
  if (config.transport == Kind::hf && config.device.empty()) {
    throw std::invalid_argument("the hf transport needs --dev");
  }
  switch (config.mode) {
    case Mode::server:
      break;
    case Mode::pair:
    case Mode::incast:
    case Mode::mixed:
      require(vm, "peer", config);
      config.peer = vm["peer"].as<std::string>();
      fill_client(vm, config);
      break;
    case Mode::alltoall:
      require(vm, "rank", config);
      require(vm, "nodes", config);
      config.rank = vm["rank"].as<unsigned>();
      config.nodes = split_list(vm["nodes"].as<std::string>());
      if (config.nodes.size() < 2 || config.rank >= config.nodes.size()) {
        throw std::invalid_argument("a2a needs at least 2 --nodes and --rank below their count");
      }
      config.bytes = std::uint64_t{1} << 20;
      if (vm.count("bytes") != 0) {
        config.bytes = parse_unit("bytes", vm["bytes"].as<std::string>(), hf::Unit::bytes);
      }
      check_size(config.bytes);
      config.rounds = vm["rounds"].as<std::uint64_t>();
      if (config.rounds == 0) {
        throw std::invalid_argument("--rounds must be at least 1");
      }
      break;
  }
  parsed.config = config;
  return parsed;
}

}  // namespace hfperf
