// tests/hfctl/render_test.cc - unit tests of hfctl/render.cc: the text and
// JSON hfctl prints, from values alone.
#include "render.h"

#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

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
  EXPECT_NE(help.find("Usage: hfctl [ OPTIONS ] stats show\n"
                      "       hfctl [ OPTIONS ] stats prometheus [ -o FILE ]\n"),
            std::string::npos)
      << help;
  EXPECT_NE(help.find("\nCommand options:\n  -o, --output FILE  write to FILE"), std::string::npos)
      << help;
  const std::string exporter =
      rendered([](std::ostream& out) { hfctl::render_object_help(out, hfctl::kExporterObject); });
  EXPECT_NE(exporter.find("exporter serve [ --listen ADDRESS:PORT ] [ --max-connections N ]\n"),
            std::string::npos)
      << exporter;
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

TEST(RenderSocketShow, AlignedTable) {
  hf::SocketInfo sock;
  sock.port = 7000;
  sock.tx_queued = 65536;
  sock.tx_msgs = 12;
  sock.inode = 4242;
  const std::vector<hfctl::SocketRow> rows{{"", sock}};
  EXPECT_EQ(rendered([&](std::ostream& out) { hfctl::render_socket_show(out, rows, text()); }),
            "Port  Dev  Send-Q  Recv-Q  Msgs  Uid  Inode\n"
            "7000  *    65536   0       12    0    4242\n");
}

}  // namespace
