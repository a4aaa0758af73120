// hfperf/report.cc - the human table and the JSON object of a run.
#include "report.h"

#include <array>
#include <cstdio>
#include <sstream>

#include "hyperframe/json.h"
#include "hyperframe/units.h"

namespace hfperf {
namespace {

std::string printf_string(const char* format, double value, const char* suffix) {
  std::array<char, 64> text{};
  (void)std::snprintf(text.data(), text.size(), format, value);
  return std::string(text.data()) + suffix;
}

std::string size_text(std::uint64_t bytes) {
  return hf::format_value(bytes, hf::Unit::bytes);
}

// CPU seconds per byte as nanoseconds per byte.
double ns_per_byte(double seconds, std::uint64_t bytes) {
  return bytes > 0 ? seconds * 1e9 / static_cast<double>(bytes) : 0;
}

void json_percentiles(hf::JsonWriter& json, const char* name, const Percentiles& p) {
  json.key(name).begin_object();
  json.member("samples", p.samples);
  json.member("min", p.min * 1e6);
  json.member("p50", p.p50 * 1e6);
  json.member("p99", p.p99 * 1e6);
  json.member("p999", p.p999 * 1e6);
  json.member("max", p.max * 1e6);
  json.member("mean", p.mean * 1e6);
  json.end_object();
}

void json_usage(hf::JsonWriter& json, const Usage& usage, std::uint64_t bytes) {
  json.member("cpu_self_s", usage.self_cpu);
  json.member("cpu_system_s", usage.system_cpu);
  json.member("cpu_self_ns_per_byte", ns_per_byte(usage.self_cpu, bytes));
  json.member("cpu_system_ns_per_byte", ns_per_byte(usage.system_cpu, bytes));
  if (usage.tx_packets) {
    json.member("tx_packets", *usage.tx_packets);
    json.member("tx_packets_per_mib", per_mib(static_cast<double>(*usage.tx_packets), bytes));
  }
  if (usage.rx_packets) {
    json.member("rx_packets", *usage.rx_packets);
    json.member("rx_packets_per_mib", per_mib(static_cast<double>(*usage.rx_packets), bytes));
  }
}

void json_measurement(hf::JsonWriter& json, const Measurement& m) {
  json.begin_object();
  json.member("size", m.size);
  json.member("messages", m.messages);
  json.member("bytes", m.bytes);
  json.member("bytes_asked", m.bytes_asked);
  json.member("sent", m.sent);
  json.member("lost", m.lost);
  json.member("seconds", m.seconds);
  json.member("goodput_bps", bits_per_second(m.bytes, m.seconds));
  json.member("msg_rate", per_second(m.messages, m.seconds));
  json_percentiles(json, "latency_us", m.latency);
  json_usage(json, m.usage, m.bytes);
  json.end_object();
}

void json_rounds(hf::JsonWriter& json, const Rounds& r) {
  json.key("alltoall").begin_object();
  json.member("rank", r.rank);
  json.member("nodes", r.nodes);
  json.member("bytes_per_peer", r.bytes_per_peer);
  json.member("rounds_asked", r.rounds_asked);
  json.member("rounds_done", r.rounds_done);
  json.member("bytes_sent", r.bytes_sent);
  json.member("bytes_received", r.bytes_received);
  json.member("bytes_expected", r.bytes_expected);
  json.member("seconds", r.seconds);
  json.member("goodput_bps", bits_per_second(r.bytes_received, r.seconds));
  json_percentiles(json, "round_us", r.round);
  json.key("rounds_us").begin_array();
  for (const double s : r.round_seconds) {
    json.value(s * 1e6);
  }
  json.end_array();
  json_usage(json, r.usage, r.bytes_received + r.bytes_sent);
  json.end_object();
}

std::string usage_cells(const Usage& usage, std::uint64_t bytes) {
  std::ostringstream out;
  out << printf_string("%8.2f", ns_per_byte(usage.self_cpu, bytes), "")
      << printf_string("%8.2f", ns_per_byte(usage.system_cpu, bytes), "");
  if (usage.tx_packets && usage.rx_packets) {
    out << printf_string("%9.1f", per_mib(static_cast<double>(*usage.tx_packets), bytes), "")
        << printf_string("%9.1f", per_mib(static_cast<double>(*usage.rx_packets), bytes), "");
  } else {
    out << "        -        -";
  }
  return out.str();
}

}  // namespace

std::string format_rate(double bits_per_second) {
  if (bits_per_second >= 1e9) {
    return printf_string("%.2f", bits_per_second / 1e9, " Gbit/s");
  }
  if (bits_per_second >= 1e6) {
    return printf_string("%.1f", bits_per_second / 1e6, " Mbit/s");
  }
  if (bits_per_second >= 1e3) {
    return printf_string("%.1f", bits_per_second / 1e3, " kbit/s");
  }
  return printf_string("%.0f", bits_per_second, " bit/s");
}

std::string format_seconds(double seconds) {
  if (seconds >= 1) {
    return printf_string("%.2f", seconds, "s");
  }
  if (seconds >= 1e-3) {
    return printf_string("%.2f", seconds * 1e3, "ms");
  }
  return printf_string("%.1f", seconds * 1e6, "us");
}

double flow_goodput(const Flow& flow) {
  return flow.messages > 1 ? bits_per_second(flow.bytes - flow.first_bytes, flow.seconds) : 0;
}

std::string render_table(const Report& report) {
  std::ostringstream out;
  out << "hfperf " << report.mode << " over " << report.transport;
  if (!report.peer.empty()) {
    out << " to " << report.peer;
  }
  out << "\n";
  if (!report.sizes.empty()) {
    out << "    size     bytes   msgs      goodput     msg/s       p50       p99  "
           "cpu ns/B sys ns/B  txp/MiB  rxp/MiB\n";
    for (const auto& m : report.sizes) {
      std::array<char, 160> line{};
      (void)std::snprintf(line.data(), line.size(), "%8s %9s %6llu %12s %9.0f %9s %9s",
                          size_text(m.size).c_str(), size_text(m.bytes).c_str(),
                          static_cast<unsigned long long>(m.messages),
                          format_rate(bits_per_second(m.bytes, m.seconds)).c_str(),
                          per_second(m.messages, m.seconds), format_seconds(m.latency.p50).c_str(),
                          format_seconds(m.latency.p99).c_str());
      out << line.data() << usage_cells(m.usage, m.bytes);
      if (m.lost > 0) {
        out << "  lost " << m.lost << "/" << m.sent;
      }
      out << "\n";
    }
  }
  if (report.rtt) {
    const auto& r = *report.rtt;
    out << "ping-pong under load: " << r.samples << " round trips, p50 " << format_seconds(r.p50)
        << ", p99 " << format_seconds(r.p99) << ", p999 " << format_seconds(r.p999) << ", max "
        << format_seconds(r.max);
    if (report.pings_lost > 0) {
      out << ", " << report.pings_lost << " lost";
    }
    out << "\n";
  }
  if (report.rounds) {
    const auto& r = *report.rounds;
    out << "all-to-all rank " << r.rank << " of " << r.nodes << ": " << r.rounds_done << "/"
        << r.rounds_asked << " rounds of " << size_text(r.bytes_per_peer) << " per peer, round p50 "
        << format_seconds(r.round.p50) << ", p99 " << format_seconds(r.round.p99) << ", max "
        << format_seconds(r.round.max) << ", received " << size_text(r.bytes_received) << " of "
        << size_text(r.bytes_expected) << ", "
        << format_rate(bits_per_second(r.bytes_received, r.seconds)) << "\n";
  }
  if (!report.flows.empty()) {
    out << "                flow     bytes   msgs      goodput\n";
    for (const auto& f : report.flows) {
      std::array<char, 128> line{};
      (void)std::snprintf(line.data(), line.size(), "%20llx %9s %6llu %12s\n",
                          static_cast<unsigned long long>(f.id), size_text(f.bytes).c_str(),
                          static_cast<unsigned long long>(f.messages),
                          format_rate(flow_goodput(f)).c_str());
      out << line.data();
    }
    if (report.jain) {
      out << printf_string("Jain's fairness index %.3f", *report.jain, "\n");
    }
  }
  if (report.server_bytes) {
    out << "receiver counted " << size_text(*report.server_bytes) << " in "
        << report.server_messages.value_or(0) << " messages\n";
  }
  return out.str();
}

void write_json(std::ostream& out, const Report& report) {
  hf::JsonWriter json(out);
  json.begin_object();
  json.member("mode", report.mode);
  json.member("transport", report.transport);
  json.member("peer", report.peer);
  if (!report.sizes.empty()) {
    json.key("sizes").begin_array();
    for (const auto& m : report.sizes) {
      json_measurement(json, m);
    }
    json.end_array();
  }
  if (report.rtt) {
    json_percentiles(json, "rtt_us", *report.rtt);
    json.member("pings_lost", report.pings_lost);
  }
  if (report.rounds) {
    json_rounds(json, *report.rounds);
  }
  if (!report.flows.empty() || report.jain) {
    json.key("flows").begin_array();
    for (const auto& f : report.flows) {
      json.begin_object();
      json.member("flow", f.id);
      json.member("bytes", f.bytes);
      json.member("messages", f.messages);
      json.member("first_bytes", f.first_bytes);
      json.member("seconds", f.seconds);
      json.member("goodput_bps", flow_goodput(f));
      json.end_object();
    }
    json.end_array();
    if (report.jain) {
      json.member("jain", *report.jain);
    }
  }
  if (report.server_bytes) {
    json.member("server_bytes", *report.server_bytes);
    json.member("server_messages", report.server_messages.value_or(0));
  }
  json.end_object();
  out << "\n";
}

}  // namespace hfperf
