// hfctl/cli/objects/stats_object.cc - the "stats" object: the counters of the
// network namespace hfctl runs in (-n NETNS for another), as text, JSON or
// the Prometheus exposition format ("stats prometheus", also spelled
// "stats --prometheus" and "stats show --prometheus").
#include <array>
#include <optional>
#include <string>

#include "cli/cli.h"
#include "cli/objects.h"
#include "cli/output_file.h"
#include "cli/render.h"
#include "exporter/scrape.h"
#include "hyperframe/control.h"

namespace hfctl {
namespace {

void prometheus(const Command& command, Env& env);

void show(const Command& command, Env& env) {
  if (command.option("prometheus")) {
    prometheus(command, env);
    return;
  }
  if (command.option("output")) {
    throw UsageError("option '--output' of \"stats show\" needs --prometheus", "hfctl stats help");
  }
  hf::Control control = hf::Control::open();
  if (command.options.stats == 0) {
    render_stats_show(env.out, control.stats(), command.options);
    return;
  }
  const hf::Stats stats = control.read_stats();
  render_stats_show(env.out, stats, device_rows(control), command.options);
}

// Prometheus text for node_exporter's textfile collector: to -o FILE,
// replaced atomically, or to standard output. A namespace whose counters
// cannot be read is written as hyperframe_up 0; that is not a failure.
void prometheus(const Command& command, Env& env) {
  const std::string text = scrape_prometheus(target_labels(command.options));
  if (const std::optional<std::string> file = command.option("output")) {
    write_file_atomically(*file, text);
    return;
  }
  env.out << text;
}

constexpr OptionSpec kOutputOption{
    'o', "output", "FILE",
    "write to FILE, replaced atomically (for node_exporter's textfile collector)"};

constexpr std::array kPrometheusOptions{kOutputOption};

// "stats --prometheus [-o FILE]" is "stats prometheus [-o FILE]".
constexpr std::array kShowOptions{
    OptionSpec{'\0', "prometheus", "", "print as \"stats prometheus\" does (-o FILE with it)"},
    kOutputOption,
};

constexpr std::array kCommands{
    CommandSpec{.name = "show",
                .synopsis = "",
                .summary = "print the namespace's counters (-s: with malformed frames by reason, "
                           "the frame size histogram and the devices' counters; --prometheus: "
                           "in the Prometheus text format)",
                .max_args = 0,
                .run = &show,
                .options = kShowOptions},
    CommandSpec{.name = "prometheus",
                .synopsis = "",
                .summary = "print the counters in the Prometheus text format",
                .max_args = 0,
                .run = &prometheus,
                .options = kPrometheusOptions},
};

}  // namespace

constexpr ObjectSpec kStatsObject{
    .name = "stats",
    .summary = "counters of the network namespace (64-bit, never reset)",
    .commands = kCommands,
    .default_command = "show",
};

}  // namespace hfctl
