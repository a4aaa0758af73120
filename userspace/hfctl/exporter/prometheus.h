// hfctl/exporter/prometheus.h - the Prometheus text exposition format (version
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
// namespace follow as hyperframe_qdisc_* families, labelled by device,
// then the hyperframe_tx_frame_size_bytes histogram and the per-device
// hyperframe_dev_* families, labelled dev="DEV" (never by peer). The
// exporter adds its own hyperframe_exporter_* families last, up or down.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

// The counters of a device and the name it is labelled with.
struct DeviceSample {
  std::string dev;  // "other": the devices without counters of their own
  std::vector<hf::Counter> counters;
};

// The per-device families (prometheus_dev.cc): one counter family per
// device counter, hyperframe_dev_NAME_total{dev="DEV"} (tx_frames,
// tx_segs, tx_bytes, tx_retransmits, rx_frames, rx_segs, rx_bytes,
// drops). Nothing when `devices` is empty.
void render_prometheus_devices(std::ostream& out, std::span<const DeviceSample> devices,
                               std::span<const PrometheusLabel> labels = {});

// The histogram hyperframe_tx_frame_size_bytes: cumulative _bucket{le}
// samples ending with le="+Inf", then _sum and _count (prometheus_dev.cc).
// Nothing when `histogram` has no bucket.
void render_prometheus_frame_size(std::ostream& out, const hf::Histogram& histogram,
                                  std::span<const PrometheusLabel> labels = {});

// What the exporter counts of its own work.
struct ExporterSample {
  std::uint64_t connections = 0;  // accepted
  std::uint64_t requests = 0;     // request heads received whole
  std::uint64_t evicted = 0;      // closed to make room for a newer one
  std::uint64_t timed_out = 0;    // closed (or answered 408 or 503) at a deadline
  std::uint64_t renders = 0;      // renderings of the metrics
  std::uint64_t qdisc_dumps = 0;  // dumps of the hfq qdiscs (each takes RTNL)
};

// The exporter's own counter families: hyperframe_exporter_connections_total,
// _requests_total, _evicted_connections_total, _timed_out_connections_total,
// _renders_total and _qdisc_dumps_total.
void render_prometheus_exporter(std::ostream& out, const ExporterSample& sample,
                                std::span<const PrometheusLabel> labels = {});

// A label value as the format quotes it: \ " and line feed escaped.
[[nodiscard]] std::string escape_label_value(std::string_view value);

// A counter's name as part of a metric name: characters a metric name may
// not hold become '_'.
[[nodiscard]] std::string metric_name(std::string_view name);

// Labels as (name, value), for a sample's label set to be built up.
using LabelPairs = std::vector<std::pair<std::string, std::string>>;
// `labels` as pairs.
[[nodiscard]] LabelPairs label_pairs(std::span<const PrometheusLabel> labels);
// A sample's label set as the format writes it, sorted by name:
// {a="x",b="y"}, values escaped; "" without labels.
[[nodiscard]] std::string label_text(LabelPairs labels);
// HELP text as the format carries it: \ and line feed escaped.
[[nodiscard]] std::string escape_help(std::string_view text);

// A family as the renderers above gather it before writing it out.
struct PrometheusFamily {
  std::string_view type;  // "counter", "gauge"
  std::string help;
  // By label set (label_text()), so in order of it; value as written.
  std::map<std::string, std::string> samples;
};
// Families by name, so in order of name.
using PrometheusFamilies = std::map<std::string, PrometheusFamily>;

// Adds a sample to family `name`, which is made with `type` and `help` if
// new. A label set the family has already keeps its first value.
void add_sample(PrometheusFamilies& families, const std::string& name, std::string_view type,
                std::string help, std::string labels, std::string_view value);

// A family's "# HELP" and "# TYPE" lines.
void render_family_header(std::ostream& out, std::string_view name, std::string_view type,
                          std::string_view help);
// Each family: its header, then "NAME{LABELS} VALUE" per sample.
void render_families(std::ostream& out, const PrometheusFamilies& families);

}  // namespace hfctl
