// hfctl/cli/run.cc - hfctl's execution layer: dispatch and error reporting.
#include "cli/run.h"

#include <cerrno>
#include <exception>
#include <system_error>

#include "cli/render.h"
#include "hyperframe/netns.h"

namespace hfctl {

void execute(const Command& command, Env& env) {
  if (command.options.netns) {
    hf::enter_netns(*command.options.netns, env.root);
  }
  if (command.command == nullptr) {
    render_object_help(env.out, *command.object);
    return;
  }
  command.command->run(command, env);
}

int run(std::span<const std::string> args, std::ostream& out, std::ostream& err,
        const std::filesystem::path& root) {
  try {
    const Command command = parse(args);
    Env env{.out = out, .err = err, .root = root};
    execute(command, env);
    errno = 0;
    out.flush();
    if (!out) {
      const int error = errno != 0 ? errno : EIO;
      throw std::system_error(error, std::generic_category(), "write error");
    }
    return kExitSuccess;
  } catch (const UsageError& error) {
    render_usage_error(err, error);
    return kExitUsage;
  } catch (const std::exception& error) {
    render_error(err, error.what());
    return kExitFailure;
  }
}

}  // namespace hfctl
