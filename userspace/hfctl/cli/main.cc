// hfctl/cli/main.cc - hfctl's entry point: argv to hfctl::run() on the real
// standard streams and filesystem.
#include <iostream>
#include <span>
#include <string>
#include <vector>

#include "cli/run.h"

int main(int argc, char* argv[]) {
  const std::span<char*> arguments(argv, argc > 0 ? static_cast<std::size_t>(argc) : 0);
  const std::vector<std::string> args(arguments.begin() + (arguments.empty() ? 0 : 1),
                                      arguments.end());
  return hfctl::run(args, std::cout, std::cerr);
}
