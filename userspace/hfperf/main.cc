// hfperf/main.cc - hfperf's entry point: parse the command line, make the
// transport, run the mode, print the report.
//
// Exit status: 0 the run completed; 1 it failed (a socket call, a peer
// that never answered, an incomplete round; the message says which);
// 2 the command line was wrong.
#include <iostream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "options.h"
#include "patterns/patterns.h"
#include "report.h"

int main(int argc, char** argv) {
  using hfperf::Mode;
  std::optional<hfperf::Config> config;
  try {
    // NOLINTNEXTLINE(cppcoreguidelines-pro-bounds-pointer-arithmetic)
    const hfperf::Parsed parsed = hfperf::parse_command_line({argv, argv + argc});
    if (!parsed.config) {
      (parsed.status == 0 ? std::cout : std::cerr) << parsed.text;
      return parsed.status;
    }
    config = parsed.config;
  } catch (const std::exception& error) {
    std::cerr << "hfperf: " << error.what() << "\n";
    return 2;
  }
  try {
    const auto transport =
        hfperf::make_transport(config->transport, config->device, config->segment);
    hfperf::Report report;
    switch (config->mode) {
      case Mode::server:
        report = hfperf::run_server(*config, *transport);
        break;
      case Mode::pair:
      case Mode::incast:
        report = hfperf::run_pair(*config, *transport);
        break;
      case Mode::mixed:
        report = hfperf::run_mixed(*config, *transport);
        break;
      case Mode::alltoall:
        report = hfperf::run_alltoall(*config, *transport);
        break;
    }
    if (config->json) {
      hfperf::write_json(std::cout, report);
    } else {
      std::cout << hfperf::render_table(report);
    }
    std::cout.flush();
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "hfperf: " << error.what() << "\n";
    return 1;
  }
}
