// hfctl/prometheus.h - the Prometheus text exposition format (version
// 0.0.4) of a network namespace's counters: metric names, types, HELP
// text, labels and their escaping. Pure: values in, text out.
//
// Naming (docs/hfctl.8, "PROMETHEUS METRICS"): every name starts with
// "hyperframe_"; a counter is the kernel's name plus "_total"
// (tx_bytes: hyperframe_tx_bytes_total); the gauges peers, rx_mem_bytes and
// rx_mem_reserved_bytes keep their name; drop_REASON is one family
// hyperframe_drops_total{reason="REASON"} and drop_malformed_REASON is
// hyperframe_malformed_drops_total{reason="REASON"} (the breakdown of
// reason="malformed"). hyperframe_up is 1, or 0 with no other samples when
// the counters could not be read. Families are in order of name after
// hyperframe_up, samples in order of label value. The hfq qdiscs of the
// namespace follow as hyperframe_qdisc_* families, labelled by device.
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "hyperframe/control.h"

namespace hfctl {

// The Content-Type of the exposition format.
inline constexpr std::string_view kPrometheusContentType =
    "text/plain; version=0.0.4; charset=utf-8";

// A label every sample carries, such as namespace="blue".
struct PrometheusLabel {
  std::string name;  // must be a valid label name; "reason" is taken
  std::string value;
};

// hyperframe_up 1 and one family per kind of counter, from `counters` as
// hf::Control::stats() returns them (a repeated name counts once).
void render_prometheus(std::ostream& out, std::span<const hf::Counter> counters,
                       std::span<const PrometheusLabel> labels = {});

// hyperframe_up 0 and nothing else but `reason` as a comment line (why the
// counters could not be read; line breaks become spaces).
void render_prometheus_down(std::ostream& out, std::string_view reason,
                            std::span<const PrometheusLabel> labels = {});

// An hfq qdisc and the name of its device.
struct QdiscSample {
  std::string dev;
  hf::QdiscInfo info;
};

// The families of hfq (prometheus_qdisc.cc), a sample per device labelled
// dev="DEV": hyperframe_qdisc_packets_total{band}, _drops_total{reason},
// a _total family per other counter (throttled, rate_delayed,
// flow_alloc_failed), and the gauges _queued_packets{band},
// _backlog_bytes, _flows and _rate_bytes_per_second. Nothing when
// `qdiscs` is empty.
void render_prometheus_qdiscs(std::ostream& out, std::span<const QdiscSample> qdiscs,
                              std::span<const PrometheusLabel> labels = {});

// A label value as the format quotes it: \ " and line feed escaped.
[[nodiscard]] std::string escape_label_value(std::string_view value);
// HELP text as the format carries it: \ and line feed escaped.
[[nodiscard]] std::string escape_help(std::string_view text);

}  // namespace hfctl
