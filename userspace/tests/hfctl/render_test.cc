// tests/hfctl/render_test.cc - unit tests of hfctl/cli/render.cc: the text and
// JSON hfctl prints, from values alone.
#include "cli/render.h"

#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/objects.h"
#include "hyperframe/control.h"

namespace {

using hfctl::Options;

// Every attribute present.
hf::ModuleInfo full() {
  return {.version = "0.3.1", .family = 18, .ethertype = 0x88b5, .refcount = 2};
}

// Only the attributes every module has.
hf::ModuleInfo bare() {
  return {.version = std::nullopt, .family = 27, .ethertype = std::nullopt, .refcount = 0};
}

Options text() {
  return {};
}

Options json() {
  Options options;
  options.json = true;
  return options;
}

Options pretty() {
  Options options = json();
  options.pretty = true;
  return options;
}

// `text` and the newline that ends every line of output.
std::string line(std::string_view text) {
  return std::string(text) + '\n';
}

template <typename Render>
std::string rendered(Render render) {
  std::ostringstream out;
  render(out);
  return out.str();
}

std::string module_show(const hf::ModuleInfo& info, const Options& options) {
  return rendered([&](std::ostream& out) { hfctl::render_module_show(out, info, options); });
}

TEST(RenderModuleShow, TextIsNameValueLines) {
  EXPECT_EQ(module_show(full(), text()),
            "family: 18\n"
            "ethertype: 0x88b5\n"
            "refcount: 2\n"
            "version: 0.3.1\n");
}

TEST(RenderModuleShow, TextLeavesOutWhatIsAbsent) {
  EXPECT_EQ(module_show(bare(), text()), "family: 27\nrefcount: 0\n");
}

TEST(RenderModuleShow, EthertypeIsFourHexDigits) {
  hf::ModuleInfo info = bare();
  info.ethertype = 0x800;
  EXPECT_EQ(module_show(info, text()), "family: 27\nethertype: 0x0800\nrefcount: 0\n");
}

TEST(RenderModuleShow, Json) {
  EXPECT_EQ(module_show(full(), json()),
            line(R"({"family":18,"ethertype":34997,"refcount":2,"version":"0.3.1"})"));
  EXPECT_EQ(module_show(bare(), json()), line(R"({"family":27,"refcount":0})"));
}

TEST(RenderModuleShow, PrettyJson) {
  EXPECT_EQ(module_show(full(), pretty()),
            "{\n"
            "  \"family\": 18,\n"
            "  \"ethertype\": 34997,\n"
            "  \"refcount\": 2,\n"
            "  \"version\": \"0.3.1\"\n"
            "}\n");
}

TEST(RenderModuleShow, JsonEscapesTheVersion) {
  hf::ModuleInfo info = bare();
  info.version = "1\"\n";
  EXPECT_EQ(module_show(info, json()), line(R"({"family":27,"refcount":0,"version":"1\"\u000A"})"));
}

TEST(RenderVersion, TextAndJson) {
  const auto version = [](const Options& options) {
    return rendered([&](std::ostream& out) { hfctl::render_version(out, "1.2.3", options); });
  };
  EXPECT_EQ(version(text()), "hfctl 1.2.3\n");
  EXPECT_EQ(version(json()), line(R"({"name":"hfctl","version":"1.2.3"})"));
}

TEST(RenderUsage, ListsEveryObjectAndOption) {
  const std::string usage =
      rendered([](std::ostream& out) { hfctl::render_usage(out, hfctl::objects()); });
  EXPECT_EQ(usage.rfind("Usage: hfctl [ OPTIONS ] OBJECT { COMMAND | help } [ ARGS ]\n", 0), 0U);
  for (const hfctl::ObjectSpec* object : hfctl::objects()) {
    EXPECT_NE(usage.find("\n  " + std::string(object->name) + " "), std::string::npos)
        << object->name;
  }
  for (const hfctl::OptionSpec& option : hfctl::option_specs()) {
    EXPECT_NE(usage.find("--" + std::string(option.long_name)), std::string::npos);
  }
  EXPECT_NE(usage.find("-n, --netns NAME  "), std::string::npos) << usage;
}

TEST(RenderObjectHelp, ModuleCommands) {
  EXPECT_EQ(
      rendered([](std::ostream& out) { hfctl::render_object_help(out, hfctl::kModuleObject); }),
      "hfctl module - the loaded hyperframe kernel module\n"
      "\n"
      "Usage: hfctl [ OPTIONS ] module show\n"
      "       hfctl [ OPTIONS ] module help\n"
      "\n"
      "Commands:\n"
      "  show  print the family, EtherType and reference count of the module (the default)\n"
      "  help  print this help\n");
}

TEST(RenderObjectHelp, DirectObjectShowsItsSynopsis) {
  const std::string help =
      rendered([](std::ostream& out) { hfctl::render_object_help(out, hfctl::kHelpObject); });
  EXPECT_NE(help.find("Usage: hfctl [ OPTIONS ] help [ OBJECT ]\n"), std::string::npos) << help;
}

TEST(RenderObjectHelp, CommandOptions) {
  const std::string help =
      rendered([](std::ostream& out) { hfctl::render_object_help(out, hfctl::kStatsObject); });
  EXPECT_NE(help.find("Usage: hfctl [ OPTIONS ] stats show [ --prometheus ] [ -o FILE ]\n"
                      "       hfctl [ OPTIONS ] stats prometheus [ -o FILE ]\n"),
            std::string::npos)
      << help;
  EXPECT_NE(help.find("\nCommand options:\n"
                      "  --prometheus       print as \"stats prometheus\" does (-o FILE with it)\n"
                      "  -o, --output FILE  write to FILE"),
            std::string::npos)
      << help;
  EXPECT_EQ(help.find("--output FILE"), help.rfind("--output FILE"))
      << "an option two commands take is listed once: " << help;
  const std::string exporter =
      rendered([](std::ostream& out) { hfctl::render_object_help(out, hfctl::kExporterObject); });
  EXPECT_NE(exporter.find("exporter serve [ --listen ADDRESS:PORT ] [ --max-connections N ] "
                          "[ --cache-ms MS ] [ --user USER[:GROUP] ]\n"),
            std::string::npos)
      << exporter;
}

TEST(RenderObjectHelp, ConfigListsEveryKeyFromTheLibrary) {
  const std::string help =
      rendered([](std::ostream& out) { hfctl::render_object_help(out, hfctl::kConfigObject); });
  const std::size_t keys = help.find("\nKeys:\n");
  ASSERT_NE(keys, std::string::npos) << help;
  for (const hf::ConfigKey& key : hf::config_keys()) {
    EXPECT_NE(help.find("\n  " + std::string(key.name) + " ", keys), std::string::npos)
        << key.name << " missing from:\n"
        << help;
  }
  EXPECT_NE(help.find("  pacing_rate ", keys), std::string::npos) << help;
  EXPECT_NE(help.find("[bytes/s]", keys), std::string::npos) << help;
  EXPECT_NE(help.find("(read-only)", keys), std::string::npos) << help;
}

TEST(RenderErrors, UsageErrorPointsAtHelp) {
  EXPECT_EQ(rendered([](std::ostream& err) {
              hfctl::render_usage_error(err, hfctl::UsageError("bad", "hfctl module help"));
            }),
            "hfctl: bad\nTry \"hfctl module help\".\n");
}

TEST(RenderErrors, RuntimeErrorIsOneLine) {
  EXPECT_EQ(rendered([](std::ostream& err) { hfctl::render_error(err, "x: No such file"); }),
            "hfctl: x: No such file\n");
}

std::vector<hf::ConfigValue> some_config() {
  return {{hf::find_config_key("ethertype"), 0x88b5},
          {hf::find_config_key("max_msg"), 64ULL << 20U},
          {hf::find_config_key("peer_idle"), 10000},
          {hf::find_config_key("ack_delay"), 250},
          {hf::find_config_key("max_inflight"), 128}};
}

TEST(RenderConfigShow, TextUsesHumanUnits) {
  const auto values = some_config();
  EXPECT_EQ(rendered([&](std::ostream& out) { hfctl::render_config_show(out, values, text()); }),
            "ethertype: 0x88b5\n"
            "max_msg: 64m\n"
            "peer_idle: 10s\n"
            "ack_delay: 250us\n"
            "max_inflight: 128\n");
}

TEST(RenderConfigShow, JsonUsesBaseUnits) {
  const auto values = some_config();
  EXPECT_EQ(rendered([&](std::ostream& out) { hfctl::render_config_show(out, values, json()); }),
            line(R"({"ethertype":34997,"max_msg":67108864,"peer_idle_ms":10000,)"
                 R"("ack_delay_us":250,"max_inflight":128})"));
}

std::vector<hf::Counter> some_counters() {
  return {{"tx_msgs", 3}, {"drop_malformed", 2}, {"drop_malformed_short", 2}, {"peers", 1}};
}

TEST(RenderStatsShow, BreakdownOnlyWithS) {
  const auto counters = some_counters();
  EXPECT_EQ(rendered([&](std::ostream& out) { hfctl::render_stats_show(out, counters, text()); }),
            "tx_msgs        3\n"
            "drop_malformed 2\n"
            "peers          1\n");
  Options more = json();
  more.stats = 1;
  EXPECT_EQ(rendered([&](std::ostream& out) { hfctl::render_stats_show(out, counters, more); }),
            line(R"({"tx_msgs":3,"drop_malformed":2,"drop_malformed_short":2,"peers":1})"));
}

TEST(RenderPeerShow, TextLineAndJson) {
  hf::PeerInfo peer;
  peer.ifindex = 2;
  peer.address = {0x02, 0x00, 0x5e, 0x10, 0xab, 0xff};
  peer.epoch = 7;
  peer.srtt_us = 120;
  peer.rto_us = 2000;
  peer.tx_segs = 10;
  peer.rx_segs = 4;
  const std::vector<hfctl::PeerRow> rows{{"eth0", peer}};
  EXPECT_EQ(rendered([&](std::ostream& out) { hfctl::render_peer_show(out, rows, text()); }),
            "dev eth0 addr 02:00:5e:10:ab:ff epoch 7 srtt 120us rto 2ms inflight 0 credit 0 "
            "tx_segs 10 retransmits 0 rx_segs 4\n");
  const std::string out =
      rendered([&](std::ostream& o) { hfctl::render_peer_show(o, rows, json()); });
  EXPECT_EQ(out.rfind(R"([{"ifindex":2,"dev":"eth0","address":"02:00:5e:10:ab:ff","epoch":7,)", 0),
            0U)
      << out;
}

TEST(RenderPeerShow, MoreStatisticsWithS) {
  hf::PeerInfo peer;
  peer.ifindex = 2;
  peer.tx_bytes = 3000;
  peer.tx_frames = 2;
  peer.tx_msgs = 3;
  peer.tx_msgs_delivered = 2;
  peer.tx_msgs_failed = 1;
  peer.rx_bytes = 500;
  peer.rx_msgs = 1;
  peer.credit_bytes = 16U << 20;
  peer.credit_stall_us = 2500;
  peer.rx_credit = 65536;
  peer.rx_unread = 3000;
  std::vector<hfctl::PeerRow> rows{{"eth0", peer}};
  Options more = text();
  more.stats = 1;
  const std::string out =
      rendered([&](std::ostream& o) { hfctl::render_peer_show(o, rows, more); });
  EXPECT_NE(out.find(" frame_segs 0 rate unpaced queued_msgs "), std::string::npos) << out;
  EXPECT_NE(out.find("\n    tx_bytes 3000 tx_frames 2 tx_msgs 3 delivered 2 failed 1 "
                     "rx_bytes 500 rx_msgs 1\n"
                     "    credit_bytes 16m credit_stalled 2500us rx_credit 64k rx_unread 3000 "
                     "rate_hint none link_share none\n"),
            std::string::npos)
      << out;
  const std::string js =
      rendered([&](std::ostream& o) { hfctl::render_peer_show(o, rows, json()); });
  EXPECT_NE(js.find(R"("rx_segs":0,"tx_bytes":3000,"rx_bytes":500,"tx_frames":2,"tx_msgs":3,)"
                    R"("tx_msgs_delivered":2,"tx_msgs_failed":1,"rx_msgs":1,)"
                    R"("credit_bytes":16777216,"credit_stall_us":2500,"rx_credit":65536,)"
                    R"("rx_unread":3000,"rate_hint":0,"link_share":0})"),
            std::string::npos)
      << js;
  rows[0].info.pacing_rate = 12500000;
  const std::string paced =
      rendered([&](std::ostream& o) { hfctl::render_peer_show(o, rows, more); });
  EXPECT_NE(paced.find(" rate 100Mbit queued_msgs "), std::string::npos) << paced;
  rows[0].info.rate_hint = 5000000;
  const std::string hinted =
      rendered([&](std::ostream& o) { hfctl::render_peer_show(o, rows, more); });
  EXPECT_NE(hinted.find(" rate_hint 40Mbit link_share none\n"), std::string::npos) << hinted;
  rows[0].info.rate_hint = 0;
  rows[0].info.link_share = 2500000;
  const std::string shared =
      rendered([&](std::ostream& o) { hfctl::render_peer_show(o, rows, more); });
  EXPECT_NE(shared.find(" rate_hint none link_share 20Mbit\n"), std::string::npos) << shared;
  rows[0].info.link_share = 0;
  const std::string paced_js =
      rendered([&](std::ostream& o) { hfctl::render_peer_show(o, rows, json()); });
  EXPECT_NE(paced_js.find(R"("frame_segs":0,"pacing_rate":12500000,"credit":0,)"),
            std::string::npos)
      << paced_js;
}

hf::Stats some_stats() {
  return {.counters = {{"tx_frames", 3}},
          .frame_size = {.buckets = {{.le = 1024, .count = 1},
                                     {.le = 2048, .count = 2},
                                     {.le = hf::HistogramBucket::kInfinity, .count = 0}},
                         .sum = 4000}};
}

std::vector<hfctl::DeviceRow> some_devices() {
  return {{.dev = "eth0", .info = {.ifindex = 2, .counters = {{"tx_segs", 9}, {"drops", 0}}}},
          {.dev = "", .info = {.ifindex = 0, .counters = {{"tx_segs", 1}, {"drops", 4}}}}};
}

TEST(RenderStatsShow, HistogramAndDevicesWithS) {
  const hf::Stats stats = some_stats();
  const auto devices = some_devices();
  EXPECT_EQ(
      rendered([&](std::ostream& out) { hfctl::render_stats_show(out, stats, devices, text()); }),
      "tx_frames 3\n");
  Options more = text();
  more.stats = 1;
  EXPECT_EQ(
      rendered([&](std::ostream& out) { hfctl::render_stats_show(out, stats, devices, more); }),
      "tx_frames 3\n"
      "frame_size count 3 sum 4000\n"
      "    le 1024 1\n"
      "    le 2048 2\n"
      "    le +Inf 0\n"
      "dev eth0 ifindex 2\n"
      "    tx_segs 9\n"
      "    drops   0\n"
      "dev other ifindex 0\n"
      "    tx_segs 1\n"
      "    drops   4\n");
  more.json = true;
  EXPECT_EQ(
      rendered([&](std::ostream& out) { hfctl::render_stats_show(out, stats, devices, more); }),
      line(R"({"tx_frames":3,"frame_size":{"buckets":[{"le":1024,"count":1},)"
           R"({"le":2048,"count":2},{"le":"+Inf","count":0}],"sum":4000,"count":3},)"
           R"("devices":[{"ifindex":2,"dev":"eth0","tx_segs":9,"drops":0},)"
           R"({"ifindex":0,"dev":"other","tx_segs":1,"drops":4}]})"));
}

TEST(RenderDevShow, TextAndJson) {
  std::vector<hfctl::DeviceRow> devices = some_devices();
  devices.push_back({.dev = "", .info = {.ifindex = 7, .counters = {}}});
  EXPECT_EQ(rendered([&](std::ostream& out) { hfctl::render_dev_show(out, devices, text()); }),
            "dev eth0 ifindex 2\n"
            "    tx_segs 9\n"
            "    drops   0\n"
            "dev other ifindex 0\n"
            "    tx_segs 1\n"
            "    drops   4\n"
            "dev if7 ifindex 7\n");
  devices.resize(1);
  EXPECT_EQ(rendered([&](std::ostream& out) { hfctl::render_dev_show(out, devices, json()); }),
            line(R"([{"ifindex":2,"dev":"eth0","tx_segs":9,"drops":0}])"));
}

TEST(RenderSocketShow, AlignedTable) {
  hf::SocketInfo sock;
  sock.port = 7000;
  sock.tx_queued = 65536;
  sock.tx_msgs = 12;
  sock.inode = 4242;
  const std::vector<hfctl::SocketRow> rows{{"", sock, {}}};
  EXPECT_EQ(rendered([&](std::ostream& out) { hfctl::render_socket_show(out, rows, text()); }),
            "Port  Dev  Send-Q  Recv-Q  Msgs  Uid  Inode\n"
            "7000  *    65536   0       12    0    4242\n");
}

hf::PeerInfo socket_peer(std::uint8_t last, std::uint32_t frame_segs, std::uint64_t rate) {
  hf::PeerInfo peer;
  peer.ifindex = 2;
  peer.address = {0x02, 0, 0, 0, 0, last};
  peer.seg_size = 1464;
  peer.frame_segs = frame_segs;
  peer.pacing_rate = rate;
  peer.credit_bytes = 65536;
  peer.srtt_us = 250;
  peer.retransmits = 3;
  peer.inflight = 7;
  return peer;
}

TEST(RenderSocketShow, EachSocketListsItsPeersUnderIt) {
  hf::SocketInfo first;
  first.port = 7000;
  hf::SocketInfo second;
  second.port = 7001;
  const hf::PeerInfo paced = socket_peer(1, 32, 12500000);
  const hf::PeerInfo unpaced = socket_peer(2, 4, 0);
  const std::vector<hfctl::SocketRow> rows{
      {"", first, {{"eth0", paced}, {"eth0", unpaced}}},
      {"", second, {}},
  };
  EXPECT_EQ(rendered([&](std::ostream& out) { hfctl::render_socket_show(out, rows, text()); }),
            "Port  Dev  Send-Q  Recv-Q  Msgs  Uid  Inode\n"
            "7000  *    0       0       0     0    0\n"
            "    peer dev eth0 addr 02:00:00:00:00:01 frame_segs 32 frame_bytes 46848 rate 100Mbit "
            "credit 64k srtt 250us retransmits 3 inflight 7\n"
            "    peer dev eth0 addr 02:00:00:00:00:02 frame_segs 4 frame_bytes 5856 rate unpaced "
            "credit 64k srtt 250us retransmits 3 inflight 7\n"
            "7001  *    0       0       0     0    0\n");
  const std::string sockets_json =
      rendered([&](std::ostream& out) { hfctl::render_socket_show(out, rows, json()); });
  const std::string peer_json = rendered([&](std::ostream& out) {
    hfctl::render_peer_show(out, std::vector<hfctl::PeerRow>{{"eth0", paced}}, json());
  });
  // The socket's "peers" holds each peer as "peer show -j" prints it.
  const std::string peer_object = peer_json.substr(1, peer_json.size() - 3);
  EXPECT_NE(sockets_json.find(R"("port":7000,)"), std::string::npos) << sockets_json;
  EXPECT_NE(sockets_json.find(R"("peers":[)" + peer_object + ","), std::string::npos)
      << sockets_json;
  EXPECT_NE(sockets_json.find(R"("port":7001,"ifindex":0,"dev":"","tx_queued":0,"rx_queued":0,)"
                              R"("rx_reassembly":0,"tx_msgs":0,"uid":0,"inode":0,"peers":[]})"),
            std::string::npos)
      << sockets_json;
}

// An hfq as a busy one reports itself, with every setting.
hf::QdiscInfo busy_hfq() {
  return {.ifindex = 3,
          .handle = 0x80010000,
          .config = {.rate = 12500000,
                     .limit = 10000,
                     .flow_limit = 1000,
                     .control_limit = 1000,
                     .quantum = 3028,
                     .other_share = 10,
                     .horizon_ms = 10000,
                     .memory_limit = 33554432},
          .flows = 3,
          .qlen_control = 0,
          .qlen_data = 12,
          .qlen_other = 1,
          .backlog = 18168,
          .memory = 40960,
          .counters = {{"packets_control", 10},
                       {"packets_data", 2000},
                       {"packets_other", 7},
                       {"drop_limit", 0},
                       {"drop_flow_limit", 1},
                       {"drop_control_limit", 0},
                       {"drop_horizon", 2},
                       {"flow_alloc_failed", 0},
                       {"throttled", 15},
                       {"rate_delayed", 40}}};
}

std::string qdisc_show(const std::vector<hfctl::QdiscRow>& rows, const Options& options) {
  return rendered([&](std::ostream& out) { hfctl::render_qdisc_show(out, rows, options); });
}

constexpr std::string_view kBusyLine =
    "qdisc hfq 8001: dev veth0 root rate 100Mbit limit 10000p flow_limit 1000p control_limit "
    "1000p quantum 3028b other_share 10% horizon 10s memory_limit 32mb\n";

TEST(RenderQdiscShow, TextIsOneLineAsTcPrintsIt) {
  EXPECT_EQ(qdisc_show({{"veth0", busy_hfq()}}, text()), kBusyLine);
}

TEST(RenderQdiscShow, StatsAddQueuesAndEveryCounter) {
  Options more = text();
  more.stats = 1;
  EXPECT_EQ(
      qdisc_show({{"veth0", busy_hfq()}}, more),
      std::string(kBusyLine) +
          " flows 3 qlen_control 0p qlen_data 12p qlen_other 1p backlog 18168b memory 40960b\n"
          " packets_control 10 packets_data 2000 packets_other 7 drop_limit 0 "
          "drop_flow_limit 1 drop_control_limit 0 drop_horizon 2 flow_alloc_failed 0 "
          "throttled 15 rate_delayed 40\n");
}

TEST(RenderQdiscShow, TextOfAnUnpacedHfqWithSomeSettingsUnreported) {
  hf::QdiscInfo info;
  info.ifindex = 7;
  info.handle = 0x10000;
  info.config.rate = 0;
  info.config.quantum = 65536;
  info.config.horizon_ms = 500;
  info.counters = {{"brand_new", 5}};
  Options more = text();
  more.stats = 2;
  EXPECT_EQ(qdisc_show({{"", info}}, more),
            "qdisc hfq 1: dev if7 root rate unpaced quantum 64kb horizon 500ms\n"
            " flows 0 qlen_control 0p qlen_data 0p qlen_other 0p backlog 0b memory 0b\n"
            " brand_new 5\n");
  info.counters.clear();
  EXPECT_EQ(qdisc_show({{"eth0", info}}, more),
            "qdisc hfq 1: dev eth0 root rate unpaced quantum 64kb horizon 500ms\n"
            " flows 0 qlen_control 0p qlen_data 0p qlen_other 0p backlog 0b memory 0b\n")
      << "no counter line without counters";
}

TEST(RenderQdiscShow, OneLinePerQdisc) {
  hf::QdiscInfo other = busy_hfq();
  other.ifindex = 4;
  other.handle = 0x80020000;
  other.config.rate = 1250000000;
  EXPECT_EQ(
      qdisc_show({{"veth0", busy_hfq()}, {"veth1", other}}, text()),
      std::string(kBusyLine) +
          "qdisc hfq 8002: dev veth1 root rate 10Gbit limit 10000p flow_limit 1000p "
          "control_limit 1000p quantum 3028b other_share 10% horizon 10s memory_limit 32mb\n");
}

TEST(RenderQdiscShow, JsonHasTheRawNumbers) {
  EXPECT_EQ(qdisc_show({{"veth0", busy_hfq()}}, json()),
            line(R"([{"kind":"hfq","ifindex":3,"dev":"veth0","handle":2147549184,)"
                 R"("rate":12500000,"limit":10000,"flow_limit":1000,"control_limit":1000,)"
                 R"("quantum":3028,"other_share":10,"horizon_ms":10000,"memory_limit":33554432,)"
                 R"("flows":3,"qlen_control":0,"qlen_data":12,"qlen_other":1,"backlog":18168,)"
                 R"("memory":40960,)"
                 R"("counters":{"packets_control":10,"packets_data":2000,"packets_other":7,)"
                 R"("drop_limit":0,"drop_flow_limit":1,"drop_control_limit":0,"drop_horizon":2,)"
                 R"("flow_alloc_failed":0,"throttled":15,"rate_delayed":40}}])"));
}

TEST(RenderQdiscShow, PrettyJsonLeavesOutWhatIsUnreported) {
  hf::QdiscInfo info;
  info.ifindex = 2;
  info.handle = 0x80010000;
  info.config.rate = 0;
  EXPECT_EQ(qdisc_show({{"eth0", info}}, pretty()),
            "[\n"
            "  {\n"
            "    \"kind\": \"hfq\",\n"
            "    \"ifindex\": 2,\n"
            "    \"dev\": \"eth0\",\n"
            "    \"handle\": 2147549184,\n"
            "    \"rate\": 0,\n"
            "    \"flows\": 0,\n"
            "    \"qlen_control\": 0,\n"
            "    \"qlen_data\": 0,\n"
            "    \"qlen_other\": 0,\n"
            "    \"backlog\": 0,\n"
            "    \"memory\": 0,\n"
            "    \"counters\": {}\n"
            "  }\n"
            "]\n");
}

TEST(RenderQdiscShow, NoneIsNothingOrAnEmptyArray) {
  EXPECT_EQ(qdisc_show({}, text()), "");
  Options more = text();
  more.stats = 1;
  EXPECT_EQ(qdisc_show({}, more), "");
  EXPECT_EQ(qdisc_show({}, json()), "[]\n");
}

TEST(FormatHandle, MajorColonMinorInHex) {
  EXPECT_EQ(hfctl::format_handle(0x80010000), "8001:");
  EXPECT_EQ(hfctl::format_handle(0xffff0000), "ffff:");
  EXPECT_EQ(hfctl::format_handle(0x00010002), "1:2");
  EXPECT_EQ(hfctl::format_handle(0), "0:");
}

// An event of each type about the peer 02:00:00:00:00:02 on ifindex 2.
hf::Event event_of(hf::EventType type) {
  hf::Event event;
  event.type = type;
  event.ifindex = 2;
  event.address = {0x02, 0x00, 0x00, 0x00, 0x00, 0x02};
  return event;
}

std::string event(const hf::Event& ev, const Options& options, const std::string& dev = "eth0") {
  return rendered(
      [&](std::ostream& out) { hfctl::render_event(out, {.dev = dev, .event = ev}, options); });
}

TEST(RenderEvent, PeerUp) {
  const hf::Event up = event_of(hf::EventType::peer_up);
  EXPECT_EQ(event(up, text()), "peer up dev eth0 addr 02:00:00:00:00:02\n");
  EXPECT_EQ(event(up, json()),
            line(R"({"event":"peer_up","ifindex":2,"dev":"eth0","address":"02:00:00:00:00:02"})"));
}

TEST(RenderEvent, PeerDownByReason) {
  hf::Event idle = event_of(hf::EventType::peer_down);
  idle.reason = hf::PeerDownReason::idle;
  EXPECT_EQ(event(idle, text()), "peer down dev eth0 addr 02:00:00:00:00:02 reason idle\n");
  EXPECT_EQ(event(idle, json()),
            line(R"({"event":"peer_down","ifindex":2,"dev":"eth0","address":"02:00:00:00:00:02",)"
                 R"("reason":"idle"})"));

  // The interface is gone by the time the event is printed: no name.
  hf::Event device = event_of(hf::EventType::peer_down);
  device.reason = hf::PeerDownReason::device;
  device.error = 100;  // ENETDOWN
  device.messages = 2;
  EXPECT_EQ(event(device, text(), ""),
            "peer down dev if2 addr 02:00:00:00:00:02 reason device failed 2 messages\n");
  EXPECT_EQ(event(device, json(), ""),
            line(R"({"event":"peer_down","ifindex":2,"dev":"","address":"02:00:00:00:00:02",)"
                 R"("reason":"device","errno":100,"messages":2})"));

  hf::Event netns = event_of(hf::EventType::peer_down);
  netns.reason = hf::PeerDownReason::netns;
  EXPECT_EQ(event(netns, text()), "peer down dev eth0 addr 02:00:00:00:00:02 reason netns\n");
  netns.reason = static_cast<hf::PeerDownReason>(9);
  EXPECT_EQ(event(netns, text()), "peer down dev eth0 addr 02:00:00:00:00:02 reason 9\n")
      << "a reason of a newer module, by number";
  EXPECT_NE(event(netns, json()).find(R"("reason":"9")"), std::string::npos);
}

TEST(RenderEvent, Backoff) {
  hf::Event backoff = event_of(hf::EventType::backoff);
  backoff.epoch = 0x2a;
  backoff.sign = hf::CongestionSign::loss;
  backoff.rate_scale = 717;
  backoff.frame_segs = 32;
  EXPECT_EQ(event(backoff, text()),
            "backoff dev eth0 addr 02:00:00:00:00:02 epoch 0x0000002a sign loss rate 70% "
            "frame_segs 32\n");
  EXPECT_EQ(event(backoff, json()),
            line(R"({"event":"backoff","ifindex":2,"dev":"eth0","address":"02:00:00:00:00:02",)"
                 R"("epoch":42,"sign":"loss","rate_scale":717,"frame_segs":32})"));
  backoff.sign = hf::CongestionSign::delay;
  backoff.rate_scale = 512;
  EXPECT_NE(event(backoff, text()).find(" sign delay rate 50% "), std::string::npos);
  backoff.rate_scale = 64;
  EXPECT_NE(event(backoff, text()).find(" rate 6.2% "), std::string::npos);
  backoff.sign = static_cast<hf::CongestionSign>(7);
  EXPECT_NE(event(backoff, text()).find(" sign 7 "), std::string::npos);
}

TEST(RenderEvent, RetryLimit) {
  hf::Event limit = event_of(hf::EventType::retry_limit);
  limit.error = 113;  // EHOSTUNREACH
  limit.epoch = 0x1234;
  limit.messages = 3;
  EXPECT_EQ(event(limit, text()),
            "retry-limit dev eth0 addr 02:00:00:00:00:02 epoch 0x00001234 failed 3 messages\n");
  EXPECT_EQ(event(limit, json()),
            line(R"({"event":"retry_limit","ifindex":2,"dev":"eth0",)"
                 R"("address":"02:00:00:00:00:02","epoch":4660,"errno":113,"messages":3})"));
}

TEST(RenderEvent, FlowReset) {
  hf::Event reset = event_of(hf::EventType::flow_reset);
  reset.error = 104;  // ECONNRESET
  reset.epoch = 0x2a;
  reset.messages = 1;
  EXPECT_EQ(event(reset, text()),
            "flow-reset dev eth0 addr 02:00:00:00:00:02 epoch 0x0000002a failed 1 message\n");
  EXPECT_EQ(event(reset, json()),
            line(R"({"event":"flow_reset","ifindex":2,"dev":"eth0",)"
                 R"("address":"02:00:00:00:00:02","epoch":42,"errno":104,"messages":1})"));
  reset.messages = 0;
  EXPECT_EQ(event(reset, text()),
            "flow-reset dev eth0 addr 02:00:00:00:00:02 epoch 0x0000002a failed 0 messages\n");
}

TEST(RenderEvent, Epoch) {
  hf::Event epoch = event_of(hf::EventType::epoch);
  epoch.epoch = 0xbeef;
  EXPECT_EQ(event(epoch, text()), "epoch dev eth0 addr 02:00:00:00:00:02 0x0000beef\n");
  EXPECT_EQ(event(epoch, json()),
            line(R"({"event":"epoch","ifindex":2,"dev":"eth0","address":"02:00:00:00:00:02",)"
                 R"("epoch":48879})"));
}

TEST(RenderEvent, UnknownTypeShowsItsNumberAndEverythingItCarries) {
  hf::Event odd = event_of(static_cast<hf::EventType>(9));
  odd.error = 5;
  odd.epoch = 1;
  odd.messages = 4;
  EXPECT_EQ(event(odd, text()),
            "event 9 dev eth0 addr 02:00:00:00:00:02 epoch 0x00000001 failed 4 messages errno 5\n");
  EXPECT_EQ(event(odd, json()).rfind(R"({"event":"9","ifindex":2,)", 0), 0U);
}

TEST(RenderEvent, PrettyJsonIsIndented) {
  EXPECT_EQ(event(event_of(hf::EventType::peer_up), pretty()),
            "{\n"
            "  \"event\": \"peer_up\",\n"
            "  \"ifindex\": 2,\n"
            "  \"dev\": \"eth0\",\n"
            "  \"address\": \"02:00:00:00:00:02\"\n"
            "}\n");
}

TEST(RenderEvent, EveryJsonLineIsOneObject) {
  std::ostringstream out;
  for (const auto type :
       {hf::EventType::peer_up, hf::EventType::peer_down, hf::EventType::retry_limit,
        hf::EventType::flow_reset, hf::EventType::epoch}) {
    hfctl::render_event(out, {.dev = "eth0", .event = event_of(type)}, json());
  }
  std::istringstream lines(out.str());
  std::string one;
  int count = 0;
  while (std::getline(lines, one)) {
    EXPECT_TRUE(one.starts_with("{\"event\":\"") && one.ends_with("}")) << one;
    ++count;
  }
  EXPECT_EQ(count, 5);
}

TEST(RenderEventsLost, TextAndJson) {
  EXPECT_EQ(rendered([](std::ostream& out) { hfctl::render_events_lost(out, text()); }),
            "events lost\n");
  EXPECT_EQ(rendered([](std::ostream& out) { hfctl::render_events_lost(out, json()); }),
            line(R"({"event":"lost"})"));
}

}  // namespace
