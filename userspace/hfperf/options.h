// hfperf/options.h - the command line: hfperf MODE [OPTIONS], parsed with
// Boost.Program_Options into a Config (units as in hyperframe/units.h).
// Parsing only; nothing is opened here.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "transport.h"

namespace hfperf {

enum class Mode { server, pair, incast, mixed, alltoall };

struct Config {
  Mode mode = Mode::pair;
  Kind transport = Kind::hf;
  std::string device;                     // --dev: hf's interface; packet counters for all
  std::uint16_t port = 7900;              // --port; mixed's ping-pong uses port + 1
  bool json = false;                      // -j
  std::chrono::milliseconds wait{10000};  // --wait: for the peer to appear
  // server
  unsigned clients = 1;  // --clients: exit after this many said they are done; 0 never
  // pair, incast, mixed
  std::string peer;                                                 // --peer
  std::vector<std::uint64_t> sizes{4096, 65536, 1 << 20, 4 << 20};  // --sizes
  std::uint64_t bytes = 0;                      // --bytes per size (0: use --duration)
  std::chrono::microseconds duration{1000000};  // --duration per size
  unsigned window = 0;                          // --window: messages in flight, 0 = auto
  std::uint64_t ping_size = 64;                 // --ping-size (mixed)
  std::size_t segment = 1472;                   // --segment (udp)
  // alltoall
  unsigned rank = 0;               // --rank
  std::vector<std::string> nodes;  // --nodes
  std::uint64_t rounds = 10;       // --rounds
};

// Outcome of parsing: a Config to run, or text to print (help, version)
// and an exit status.
struct Parsed {
  std::optional<Config> config;
  std::string text;
  int status = 0;
};

// Parses argv (argv[0] is the program). Throws std::invalid_argument
// with a readable message on a bad command line.
[[nodiscard]] Parsed parse_command_line(const std::vector<std::string>& args);

// "4k,64k,1m" -> {4096, 65536, 1048576}. Throws std::invalid_argument.
[[nodiscard]] std::vector<std::uint64_t> parse_sizes(const std::string& text);
// "a,b,c" -> {"a", "b", "c"} (empty items dropped).
[[nodiscard]] std::vector<std::string> split_list(const std::string& text);

// The window --window 0 means: enough messages for 16 MiB in flight,
// at least 2 and at most 1024.
[[nodiscard]] unsigned auto_window(std::uint64_t size);

[[nodiscard]] const char* mode_name(Mode mode) noexcept;

}  // namespace hfperf
