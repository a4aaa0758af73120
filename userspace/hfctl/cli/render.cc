// hfctl/cli/render.cc - hfctl's help, version and per-object output, as text
// (iproute2 style) or JSON.
#include "cli/render.h"

#include <linux/hyperframe.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <iomanip>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "hyperframe/control.h"
#include "hyperframe/qdisc.h"
#include "hyperframe/units.h"

namespace hfctl {
namespace {

using Row = std::pair<std::string, std::string>;

// Two aligned columns, indented by two spaces.
void render_rows(std::ostream& out, const std::vector<Row>& rows) {
  std::size_t width = 0;
  for (const auto& row : rows) {
    width = std::max(width, row.first.size());
  }
  for (const auto& [left, right] : rows) {
    out << "  " << left << std::string(width - left.size() + 2, ' ') << right << '\n';
  }
}

std::string hex16(std::uint16_t value) {
  std::array<char, 4> digits{};
  const auto [end, error] = std::to_chars(digits.begin(), digits.end(), value, 16);
  static_cast<void>(error);  // four hex digits always fit
  const std::string text(digits.begin(), end);
  return "0x" + std::string(4 - text.size(), '0') + text;
}

// "-o, --output FILE" (`both`), or the short form alone when there is one:
// "-o FILE", "--listen ADDRESS".
std::string option_flag(const OptionSpec& option, bool both) {
  std::string flags;
  if (option.short_name != '\0') {
    flags = std::string("-") + option.short_name;
  }
  if (flags.empty() || both) {
    flags += (flags.empty() ? "--" : ", --") + std::string(option.long_name);
  }
  if (!option.value_name.empty()) {
    flags += ' ' + std::string(option.value_name);
  }
  return flags;
}

// The command options of `object`, each once: "stats show" and "stats
// prometheus" both take -o.
std::vector<Row> command_option_rows(const ObjectSpec& object) {
  std::vector<Row> rows;
  for (const CommandSpec& command : object.commands) {
    for (const OptionSpec& option : command.options) {
      std::string flag = option_flag(option, true);
      if (std::none_of(rows.begin(), rows.end(),
                       [&flag](const Row& row) { return row.first == flag; })) {
        rows.emplace_back(std::move(flag), option.help);
      }
    }
  }
  return rows;
}

}  // namespace

hf::JsonWriter::Style json_style(const Options& options) noexcept {
  return options.pretty ? hf::JsonWriter::Style::pretty : hf::JsonWriter::Style::compact;
}

void render_usage(std::ostream& out, ObjectTable table) {
  out << "Usage: hfctl [ OPTIONS ] OBJECT { COMMAND | help } [ ARGS ]\n"
         "       hfctl help [ OBJECT ]\n"
         "\nObjects:\n";
  std::vector<Row> rows;
  for (const ObjectSpec* object : table) {
    rows.emplace_back(object->name, object->summary);
  }
  render_rows(out, rows);

  out << "\nOptions:\n";
  rows.clear();
  for (const OptionSpec& option : option_specs()) {
    rows.emplace_back(option_flag(option, true), option.help);
  }
  render_rows(out, rows);
  out << "\nRun \"hfctl OBJECT help\" for the commands of an object.\n";
}

void render_object_help(std::ostream& out, const ObjectSpec& object) {
  const std::string prefix = "hfctl [ OPTIONS ] " + std::string(object.name);
  out << "hfctl " << object.name << " - " << object.summary << "\n\n";
  std::string_view lead = "Usage: ";
  for (const CommandSpec& command : object.commands) {
    out << lead << prefix;
    if (!command.name.empty()) {
      out << ' ' << command.name;
    }
    for (const OptionSpec& option : command.options) {
      out << " [ " << option_flag(option, false) << " ]";
    }
    if (!command.synopsis.empty()) {
      out << ' ' << command.synopsis;
    }
    out << '\n';
    lead = "       ";
  }
  out << lead << prefix << " help\n";

  std::vector<Row> rows;
  for (const CommandSpec& command : object.commands) {
    if (command.name.empty()) {
      continue;  // the object itself, summarised above
    }
    std::string summary(command.summary);
    if (command.name == object.default_command) {
      summary += " (the default)";
    }
    rows.emplace_back(command.name, std::move(summary));
  }
  rows.emplace_back("help", "print this help");
  out << "\nCommands:\n";
  render_rows(out, rows);

  rows = command_option_rows(object);
  if (!rows.empty()) {
    out << "\nCommand options:\n";
    render_rows(out, rows);
  }

  if (object.keys != nullptr) {
    rows.clear();
    for (const hf::ConfigKey& key : object.keys()) {
      std::string help(key.help);
      if (const std::string_view unit = hf::unit_name(key.unit); !unit.empty()) {
        help += " [" + std::string(unit) + "]";
      }
      if (!key.writable) {
        help += " (read-only)";
      }
      rows.emplace_back(key.name, std::move(help));
    }
    out << "\nKeys:\n";
    render_rows(out, rows);
  }
}

void render_version(std::ostream& out, std::string_view version, const Options& options) {
  if (options.json) {
    hf::JsonWriter(out, json_style(options))
        .begin_object()
        .member("name", "hfctl")
        .member("version", version)
        .end_object();
    out << '\n';
    return;
  }
  out << "hfctl " << version << '\n';
}

void render_module_show(std::ostream& out, const hf::ModuleInfo& info, const Options& options) {
  if (options.json) {
    hf::JsonWriter json(out, json_style(options));
    json.begin_object().member("family", info.family);
    if (info.ethertype) {
      json.member("ethertype", *info.ethertype);
    }
    json.member("refcount", info.refcount);
    if (info.version) {
      json.member("version", *info.version);
    }
    json.end_object();
    out << '\n';
    return;
  }
  out << "family: " << info.family << '\n';
  if (info.ethertype) {
    out << "ethertype: " << hex16(*info.ethertype) << '\n';
  }
  out << "refcount: " << info.refcount << '\n';
  if (info.version) {
    out << "version: " << *info.version << '\n';
  }
}

void render_config_show(std::ostream& out, std::span<const hf::ConfigValue> values,
                        const Options& options) {
  if (options.json) {
    hf::JsonWriter json(out, json_style(options));
    json.begin_object();
    for (const hf::ConfigValue& value : values) {
      json.member(value.key->json_name, value.value);
    }
    json.end_object();
    out << '\n';
    return;
  }
  for (const hf::ConfigValue& value : values) {
    out << value.key->name << ": "
        << (value.key->attribute == HF_CONFIG_A_ETHERTYPE
                ? hex16(static_cast<std::uint16_t>(value.value))
                : hf::format_value(value.value, value.key->unit))
        << '\n';
  }
}

void render_stats_show(std::ostream& out, std::span<const hf::Counter> counters,
                       const Options& options) {
  std::vector<const hf::Counter*> shown;
  for (const hf::Counter& counter : counters) {
    if (options.stats > 0 || !std::string_view(counter.name).starts_with(kMalformedPrefix)) {
      shown.push_back(&counter);
    }
  }
  if (options.json) {
    hf::JsonWriter json(out, json_style(options));
    json.begin_object();
    for (const hf::Counter* counter : shown) {
      json.member(counter->name, counter->value);
    }
    json.end_object();
    out << '\n';
    return;
  }
  std::size_t width = 0;
  for (const hf::Counter* counter : shown) {
    width = std::max(width, counter->name.size());
  }
  for (const hf::Counter* counter : shown) {
    out << counter->name << std::string(width - counter->name.size() + 1, ' ') << counter->value
        << '\n';
  }
}

namespace {

constexpr std::string_view kOtherDevices = "other";

std::string device_label(const DeviceRow& row) {
  if (row.info.ifindex == 0) {
    return std::string(kOtherDevices);
  }
  return row.dev.empty() ? "if" + std::to_string(row.info.ifindex) : row.dev;
}

void device_json(hf::JsonWriter& json, const DeviceRow& row) {
  json.begin_object().member("ifindex", row.info.ifindex).member("dev", device_label(row));
  for (const hf::Counter& counter : row.info.counters) {
    json.member(counter.name, counter.value);
  }
  json.end_object();
}

void device_text(std::ostream& out, const DeviceRow& row) {
  out << "dev " << device_label(row) << " ifindex " << row.info.ifindex << '\n';
  std::size_t width = 0;
  for (const hf::Counter& counter : row.info.counters) {
    width = std::max(width, counter.name.size());
  }
  for (const hf::Counter& counter : row.info.counters) {
    out << "    " << counter.name << std::string(width - counter.name.size() + 1, ' ')
        << counter.value << '\n';
  }
}

std::string bucket_bound(const hf::HistogramBucket& bucket) {
  return bucket.le == hf::HistogramBucket::kInfinity ? "+Inf" : std::to_string(bucket.le);
}

}  // namespace

void render_stats_show(std::ostream& out, const hf::Stats& stats,
                       std::span<const DeviceRow> devices, const Options& options) {
  if (options.stats == 0) {
    render_stats_show(out, stats.counters, options);
    return;
  }
  if (options.json) {
    hf::JsonWriter json(out, json_style(options));
    json.begin_object();
    for (const hf::Counter& counter : stats.counters) {
      json.member(counter.name, counter.value);
    }
    json.key("frame_size").begin_object().key("buckets").begin_array();
    for (const hf::HistogramBucket& bucket : stats.frame_size.buckets) {
      json.begin_object();
      if (bucket.le == hf::HistogramBucket::kInfinity) {
        json.member("le", "+Inf");
      } else {
        json.member("le", bucket.le);
      }
      json.member("count", bucket.count).end_object();
    }
    json.end_array()
        .member("sum", stats.frame_size.sum)
        .member("count", stats.frame_size.count())
        .end_object();
    json.key("devices").begin_array();
    for (const DeviceRow& row : devices) {
      device_json(json, row);
    }
    json.end_array().end_object();
    out << '\n';
    return;
  }
  render_stats_show(out, stats.counters, options);
  out << "frame_size count " << stats.frame_size.count() << " sum " << stats.frame_size.sum << '\n';
  std::size_t width = 0;
  for (const hf::HistogramBucket& bucket : stats.frame_size.buckets) {
    width = std::max(width, bucket_bound(bucket).size());
  }
  for (const hf::HistogramBucket& bucket : stats.frame_size.buckets) {
    const std::string bound = bucket_bound(bucket);
    out << "    le " << bound << std::string(width - bound.size() + 1, ' ') << bucket.count << '\n';
  }
  for (const DeviceRow& row : devices) {
    device_text(out, row);
  }
}

void render_dev_show(std::ostream& out, std::span<const DeviceRow> devices,
                     const Options& options) {
  if (options.json) {
    hf::JsonWriter json(out, json_style(options));
    json.begin_array();
    for (const DeviceRow& row : devices) {
      device_json(json, row);
    }
    json.end_array();
    out << '\n';
    return;
  }
  for (const DeviceRow& row : devices) {
    device_text(out, row);
  }
}

namespace {

std::string dev_or_index(const std::string& dev, int ifindex) {
  if (ifindex == 0) {
    return "*";
  }
  return dev.empty() ? "if" + std::to_string(ifindex) : dev;
}

std::string usecs(std::uint32_t value) {
  return hf::format_value(value, hf::Unit::usecs);
}

void peer_json(hf::JsonWriter& json, const std::string& dev, const hf::PeerInfo& peer) {
  json.begin_object()
      .member("ifindex", peer.ifindex)
      .member("dev", dev)
      .member("address", format_mac(peer.address))
      .member("epoch", peer.epoch)
      .member("seg_size", peer.seg_size)
      .member("frame_segs", peer.frame_segs)
      .member("pacing_rate", peer.pacing_rate)
      .member("credit", peer.credit)
      .member("inflight", peer.inflight)
      .member("srtt_us", peer.srtt_us)
      .member("rttvar_us", peer.rttvar_us)
      .member("min_rtt_us", peer.min_rtt_us)
      .member("rto_us", peer.rto_us)
      .member("backoff", peer.backoff)
      .member("retries", peer.retries)
      .member("tx_queued_msgs", peer.tx_queued_msgs)
      .member("tx_segs", peer.tx_segs)
      .member("retransmits", peer.retransmits)
      .member("spurious", peer.spurious)
      .member("rx_segs", peer.rx_segs)
      .member("tx_bytes", peer.tx_bytes)
      .member("rx_bytes", peer.rx_bytes)
      .member("tx_frames", peer.tx_frames)
      .member("tx_msgs", peer.tx_msgs)
      .member("tx_msgs_delivered", peer.tx_msgs_delivered)
      .member("tx_msgs_failed", peer.tx_msgs_failed)
      .member("rx_msgs", peer.rx_msgs)
      .member("credit_bytes", peer.credit_bytes)
      .member("credit_stall_us", peer.credit_stall_us)
      .member("rx_credit", peer.rx_credit)
      .member("rx_unread", peer.rx_unread)
      .member("rate_hint", peer.rate_hint)
      .member("link_share", peer.link_share)
      .end_object();
}

// The line under a socket for a peer it talked to.
void socket_peer_text(std::ostream& out, const PeerRow& row) {
  const hf::PeerInfo& peer = row.info;
  out << "    peer dev " << dev_or_index(row.dev, peer.ifindex) << " addr "
      << format_mac(peer.address) << " frame_segs " << peer.frame_segs << " frame_bytes "
      << std::uint64_t{peer.frame_segs} * peer.seg_size << " rate "
      << (peer.pacing_rate != 0 ? hf::format_value(peer.pacing_rate, hf::Unit::bytes_per_s)
                                : std::string("unpaced"))
      << " credit " << hf::format_value(peer.credit_bytes, hf::Unit::bytes) << " srtt "
      << usecs(peer.srtt_us) << " retransmits " << peer.retransmits << " inflight " << peer.inflight
      << '\n';
}

}  // namespace

void render_peer_show(std::ostream& out, std::span<const PeerRow> peers, const Options& options) {
  if (options.json) {
    hf::JsonWriter json(out, json_style(options));
    json.begin_array();
    for (const auto& [dev, peer] : peers) {
      peer_json(json, dev, peer);
    }
    json.end_array();
    out << '\n';
    return;
  }
  for (const auto& [dev, peer] : peers) {
    out << "dev " << dev_or_index(dev, peer.ifindex) << " addr " << format_mac(peer.address)
        << " epoch " << peer.epoch << " srtt " << usecs(peer.srtt_us) << " rto "
        << usecs(peer.rto_us) << " inflight " << peer.inflight << " credit " << peer.credit
        << " tx_segs " << peer.tx_segs << " retransmits " << peer.retransmits << " rx_segs "
        << peer.rx_segs << '\n';
    if (options.stats > 0) {
      out << "    rttvar " << usecs(peer.rttvar_us) << " min_rtt " << usecs(peer.min_rtt_us)
          << " backoff " << peer.backoff << " retries " << peer.retries << " seg_size "
          << peer.seg_size << " frame_segs " << peer.frame_segs << " rate "
          << (peer.pacing_rate != 0 ? hf::format_value(peer.pacing_rate, hf::Unit::bytes_per_s)
                                    : std::string("unpaced"))
          << " queued_msgs " << peer.tx_queued_msgs << " spurious " << peer.spurious << '\n';
      out << "    tx_bytes " << peer.tx_bytes << " tx_frames " << peer.tx_frames << " tx_msgs "
          << peer.tx_msgs << " delivered " << peer.tx_msgs_delivered << " failed "
          << peer.tx_msgs_failed << " rx_bytes " << peer.rx_bytes << " rx_msgs " << peer.rx_msgs
          << '\n';
      out << "    credit_bytes " << hf::format_value(peer.credit_bytes, hf::Unit::bytes)
          << " credit_stalled " << hf::format_value(peer.credit_stall_us, hf::Unit::usecs)
          << " rx_credit " << hf::format_value(peer.rx_credit, hf::Unit::bytes) << " rx_unread "
          << hf::format_value(peer.rx_unread, hf::Unit::bytes) << " rate_hint "
          << (peer.rate_hint != 0 ? hf::format_value(peer.rate_hint, hf::Unit::bytes_per_s)
                                  : std::string("none"))
          << " link_share "
          << (peer.link_share != 0 ? hf::format_value(peer.link_share, hf::Unit::bytes_per_s)
                                   : std::string("none"))
          << '\n';
    }
  }
}

void render_socket_show(std::ostream& out, std::span<const SocketRow> sockets,
                        const Options& options) {
  if (options.json) {
    hf::JsonWriter json(out, json_style(options));
    json.begin_array();
    for (const auto& [dev, sock, peers] : sockets) {
      json.begin_object()
          .member("port", sock.port)
          .member("ifindex", sock.ifindex)
          .member("dev", dev)
          .member("tx_queued", sock.tx_queued)
          .member("rx_queued", sock.rx_queued)
          .member("rx_reassembly", sock.rx_reassembly)
          .member("tx_msgs", sock.tx_msgs)
          .member("uid", sock.uid)
          .member("inode", sock.inode);
      json.key("peers").begin_array();
      for (const PeerRow& peer : peers) {
        peer_json(json, peer.dev, peer.info);
      }
      json.end_array().end_object();
    }
    json.end_array();
    out << '\n';
    return;
  }
  std::vector<std::array<std::string, 7>> rows;
  rows.push_back({"Port", "Dev", "Send-Q", "Recv-Q", "Msgs", "Uid", "Inode"});
  for (const auto& [dev, sock, peers] : sockets) {
    rows.push_back({std::to_string(sock.port), dev_or_index(dev, sock.ifindex),
                    std::to_string(sock.tx_queued), std::to_string(sock.rx_queued),
                    std::to_string(sock.tx_msgs), std::to_string(sock.uid),
                    std::to_string(sock.inode)});
  }
  std::array<std::size_t, 7> widths{};
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      widths.at(i) = std::max(widths.at(i), row.at(i).size());
    }
  }
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto& row = rows.at(r);
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row.at(i);
      if (i + 1 < row.size()) {
        line += std::string(widths.at(i) - row.at(i).size() + 2, ' ');
      }
    }
    out << line << '\n';
    if (r > 0) {
      for (const PeerRow& peer : sockets[r - 1].peers) {
        socket_peer_text(out, peer);
      }
    }
  }
}

std::string format_handle(std::uint32_t handle) {
  std::ostringstream text;
  text << std::hex << (handle >> 16U) << ':';
  if ((handle & 0xffffU) != 0) {
    text << (handle & 0xffffU);
  }
  return text.str();
}

namespace {

// A setting of hfq as tc(8) prints it: "100Mbit", "1000p", "3028b", "10%",
// "10s"; a rate of 0 is "unpaced".
std::string qdisc_value(const hf::QdiscParam& param, std::uint64_t value) {
  if (param.unit == hf::Unit::bytes_per_s && value == 0) {
    return "unpaced";
  }
  if (param.unit == hf::Unit::bytes) {
    return hf::format_value(value, param.unit) + "b";
  }
  return hf::format_value(value, param.unit);
}

void render_qdisc_text(std::ostream& out, const QdiscRow& row, const Options& options) {
  const hf::QdiscInfo& qdisc = row.info;
  out << "qdisc " << hf::kHfqKind << ' ' << format_handle(qdisc.handle) << " dev "
      << dev_or_index(row.dev, qdisc.ifindex) << " root";
  for (const hf::QdiscParam& param : hf::qdisc_params()) {
    if (const std::optional<std::uint64_t>& value = qdisc.config.*param.member) {
      out << ' ' << param.name << ' ' << qdisc_value(param, *value);
    }
  }
  out << '\n';
  if (options.stats == 0) {
    return;
  }
  out << " flows " << qdisc.flows << " qlen_control " << qdisc.qlen_control << "p qlen_data "
      << qdisc.qlen_data << "p qlen_other " << qdisc.qlen_other << "p backlog " << qdisc.backlog
      << "b memory " << qdisc.memory << "b\n";
  if (!qdisc.counters.empty()) {
    for (const hf::Counter& counter : qdisc.counters) {
      out << ' ' << counter.name << ' ' << counter.value;
    }
    out << '\n';
  }
}

void render_qdisc_json(hf::JsonWriter& json, const QdiscRow& row) {
  const hf::QdiscInfo& qdisc = row.info;
  json.begin_object()
      .member("kind", hf::kHfqKind)
      .member("ifindex", qdisc.ifindex)
      .member("dev", row.dev)
      .member("handle", qdisc.handle);
  for (const hf::QdiscParam& param : hf::qdisc_params()) {
    if (const std::optional<std::uint64_t>& value = qdisc.config.*param.member) {
      json.member(param.json_name, *value);
    }
  }
  json.member("flows", qdisc.flows)
      .member("qlen_control", qdisc.qlen_control)
      .member("qlen_data", qdisc.qlen_data)
      .member("qlen_other", qdisc.qlen_other)
      .member("backlog", qdisc.backlog)
      .member("memory", qdisc.memory)
      .key("counters")
      .begin_object();
  for (const hf::Counter& counter : qdisc.counters) {
    json.member(counter.name, counter.value);
  }
  json.end_object().end_object();
}

}  // namespace

void render_qdisc_show(std::ostream& out, std::span<const QdiscRow> qdiscs,
                       const Options& options) {
  if (options.json) {
    hf::JsonWriter json(out, json_style(options));
    json.begin_array();
    for (const QdiscRow& row : qdiscs) {
      render_qdisc_json(json, row);
    }
    json.end_array();
    out << '\n';
    return;
  }
  for (const QdiscRow& row : qdiscs) {
    render_qdisc_text(out, row, options);
  }
}

namespace {

// An epoch as the wire carries it: "0x0012abcd" (eight hex digits, 32 bits).
std::string hex_epoch(std::uint32_t epoch) {
  std::ostringstream text;
  text << "0x" << std::hex << std::setw(8) << std::setfill('0') << epoch;
  return text.str();
}

// "peer up", "retry-limit": the words of the text format.
std::string event_words(hf::EventType type) {
  switch (type) {
    case hf::EventType::peer_up:
      return "peer up";
    case hf::EventType::peer_down:
      return "peer down";
    case hf::EventType::retry_limit:
      return "retry-limit";
    case hf::EventType::flow_reset:
      return "flow-reset";
    case hf::EventType::epoch:
      return "epoch";
    case hf::EventType::backoff:
      return "backoff";
  }
  return "event " + std::to_string(static_cast<std::uint32_t>(type));
}

// A name of enum hf_event_type or hf_event_reason, or its number when this
// hfctl does not know it.
std::string name_or_number(std::string_view name, std::uint32_t value) {
  return name.empty() ? std::to_string(value) : std::string(name);
}

std::string reason_text(hf::PeerDownReason reason) {
  return name_or_number(hf::peer_down_reason_name(reason), static_cast<std::uint32_t>(reason));
}

std::string sign_text(hf::CongestionSign sign) {
  return name_or_number(hf::congestion_sign_name(sign), static_cast<std::uint32_t>(sign));
}

void render_event_text(std::ostream& out, const EventRow& row) {
  const hf::Event& event = row.event;
  out << event_words(event.type) << " dev " << dev_or_index(row.dev, event.ifindex) << " addr "
      << format_mac(event.address);
  if (event.type == hf::EventType::epoch) {
    // "epoch dev eth0 addr ... 0x1234": the new epoch is the news.
    if (event.epoch) {
      out << ' ' << hex_epoch(*event.epoch);
    }
    out << '\n';
    return;
  }
  if (event.reason) {
    out << " reason " << reason_text(*event.reason);
  }
  if (event.epoch) {
    out << " epoch " << hex_epoch(*event.epoch);
  }
  if (event.messages && (*event.messages > 0 || event.type != hf::EventType::peer_down)) {
    out << " failed " << *event.messages << (*event.messages == 1 ? " message" : " messages");
  }
  if (event.sign) {
    out << " sign " << sign_text(*event.sign);
  }
  if (event.rate_scale) {
    // The share of the pacing rate kept, as a percentage to 0.1.
    const std::uint64_t permille = std::uint64_t{*event.rate_scale} * 1000 / hf::kRateScaleOne;
    out << " rate " << permille / 10;
    if (permille % 10 != 0) {
      out << '.' << permille % 10;
    }
    out << '%';
  }
  if (event.frame_segs) {
    out << " frame_segs " << *event.frame_segs;
  }
  // The errno each known type fails messages with is implied by it.
  const bool known = !hf::event_type_name(event.type).empty();
  if (event.error && !known) {
    out << " errno " << *event.error;
  }
  out << '\n';
}

}  // namespace

void render_event(std::ostream& out, const EventRow& row, const Options& options) {
  const hf::Event& event = row.event;
  if (!options.json) {
    render_event_text(out, row);
    return;
  }
  hf::JsonWriter json(out, json_style(options));
  json.begin_object()
      .member("event", name_or_number(hf::event_type_name(event.type),
                                      static_cast<std::uint32_t>(event.type)))
      .member("ifindex", event.ifindex)
      .member("dev", row.dev)
      .member("address", format_mac(event.address));
  if (event.reason) {
    json.member("reason", reason_text(*event.reason));
  }
  if (event.epoch) {
    json.member("epoch", *event.epoch);
  }
  if (event.error) {
    json.member("errno", *event.error);
  }
  if (event.messages) {
    json.member("messages", *event.messages);
  }
  if (event.sign) {
    json.member("sign", sign_text(*event.sign));
  }
  if (event.rate_scale) {
    json.member("rate_scale", *event.rate_scale);
  }
  if (event.frame_segs) {
    json.member("frame_segs", *event.frame_segs);
  }
  json.end_object();
  out << '\n';
}

void render_events_lost(std::ostream& out, const Options& options) {
  if (options.json) {
    hf::JsonWriter(out, json_style(options)).begin_object().member("event", "lost").end_object();
    out << '\n';
    return;
  }
  out << "events lost\n";
}

void render_usage_error(std::ostream& err, const UsageError& error) {
  err << "hfctl: " << error.what() << "\nTry \"" << error.hint() << "\".\n";
}

void render_error(std::ostream& err, std::string_view what) {
  err << "hfctl: " << what << '\n';
}

}  // namespace hfctl
