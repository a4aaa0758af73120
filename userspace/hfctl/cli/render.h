// hfctl/cli/render.h - the rendering layer of hfctl: pure functions from values
// to text or JSON on a std::ostream. No system calls, no sysfs.
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "cli/cli.h"
#include "cli/objects.h"
#include "hyperframe/control.h"
#include "hyperframe/events.h"
#include "hyperframe/json.h"
#include "hyperframe/module_info.h"
#include "hyperframe/socket.h"

namespace hfctl {

// The JSON style the options ask for (-p: pretty, else compact).
[[nodiscard]] hf::JsonWriter::Style json_style(const Options& options) noexcept;

// "hfctl help": synopsis, the objects of `table`, the options.
void render_usage(std::ostream& out, ObjectTable table);
// "hfctl OBJECT help": the object's commands.
void render_object_help(std::ostream& out, const ObjectSpec& object);

// "hfctl version": "hfctl VERSION", or {"name":"hfctl","version":VERSION}.
void render_version(std::ostream& out, std::string_view version, const Options& options);
// "hfctl module show": one "name: value" line per attribute, or a JSON object.
void render_module_show(std::ostream& out, const hf::ModuleInfo& info, const Options& options);

// "hfctl config show": "key: value" in human units, or a JSON object in
// base units (keys named with their unit: "ack_delay_us").
void render_config_show(std::ostream& out, std::span<const hf::ConfigValue> values,
                        const Options& options);

// Counters whose name starts with this are the malformed-frame breakdown,
// shown with -s only.
inline constexpr std::string_view kMalformedPrefix = "drop_malformed_";

// "hfctl stats show": "name value" lines, or a JSON object of them.
void render_stats_show(std::ostream& out, std::span<const hf::Counter> counters,
                       const Options& options);

// The counters of a device and its name ("" when unknown; ifindex 0:
// the devices without counters of their own, shown as "other").
struct DeviceRow {
  std::string dev;
  hf::DeviceStats info;
};

// "hfctl stats show" with what -s adds: after the counters, the frame
// size histogram ("frame_size count N sum BYTES" then "  le BOUND COUNT"
// per bucket, not cumulative) and each device's counters as "dev show"
// prints them. As JSON: the counters' object with the members
// "frame_size" ({"buckets":[{"le":B,"count":N}...],"sum":S,"count":C}; the
// last bound is the string "+Inf") and "devices" (as "dev show -j").
// Without -s: the counters alone, as above.
void render_stats_show(std::ostream& out, const hf::Stats& stats,
                       std::span<const DeviceRow> devices, const Options& options);

// "hfctl dev show": "dev NAME ifindex N" then an indented "name value"
// line per counter, for each device; or a JSON array of objects
// {"ifindex","dev",COUNTER...}.
void render_dev_show(std::ostream& out, std::span<const DeviceRow> devices, const Options& options);

// A peer or socket and the name of its interface ("" when unknown or 0).
struct PeerRow {
  std::string dev;
  hf::PeerInfo info;
};
struct SocketRow {
  std::string dev;
  hf::SocketInfo info;
  std::vector<PeerRow> peers;  // info.peers, each with its interface's name
};

// "hfctl peer show": one line per peer (-s: a second line of counters),
// or a JSON array.
void render_peer_show(std::ostream& out, std::span<const PeerRow> peers, const Options& options);
// "hfctl socket show": an ss-like table, each socket followed by a line
// per peer it last talked to (frame size, rate, credit, srtt,
// retransmits), or a JSON array whose objects hold "peers" as "peer show
// -j" prints them.
void render_socket_show(std::ostream& out, std::span<const SocketRow> sockets,
                        const Options& options);

// An hfq qdisc and the name of its device ("" when unknown).
struct QdiscRow {
  std::string dev;
  hf::QdiscInfo info;
};

// "hfctl qdisc show": one line per qdisc as tc(8) prints it (-s: a line of
// queue lengths and one of counters), or a JSON array in base units.
void render_qdisc_show(std::ostream& out, std::span<const QdiscRow> qdiscs, const Options& options);

// A qdisc's handle as tc(8) writes it: "8001:", "8001:2".
[[nodiscard]] std::string format_handle(std::uint32_t handle);

// An event and the name of its peer's interface ("" when unknown or gone).
struct EventRow {
  std::string dev;
  hf::Event event;
};

// "hfctl monitor": one line per event as ip-monitor(8) prints them
// ("peer up dev eth0 addr 02:00:00:00:00:01"; epochs in hex), or one JSON
// object per line (-j: NDJSON, with raw numbers; -p indents it).
void render_event(std::ostream& out, const EventRow& row, const Options& options);
// "hfctl monitor": events were lost (the receive buffer overflowed):
// "events lost", or {"event":"lost"}.
void render_events_lost(std::ostream& out, const Options& options);

// "aa:bb:cc:dd:ee:ff": libhyperframe's.
using hf::format_mac;

// A usage error: "hfctl: <what>" and a pointer to the relevant help.
void render_usage_error(std::ostream& err, const UsageError& error);
// A runtime error: "hfctl: <what>" (for std::system_error, "<what>: <strerror>").
void render_error(std::ostream& err, std::string_view what);

}  // namespace hfctl
