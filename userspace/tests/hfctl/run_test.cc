// tests/hfctl/run_test.cc - unit tests of hfctl/cli/run.cc: whole command lines
// against a fake root, checking output, error text and exit status.
#include "cli/run.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "exporter/listener.h"
#include "support/temp_tree.h"

namespace {

using hf::testing::TempTree;

struct Result {
  int status;
  std::string out;
  std::string err;
};

Result run(const TempTree& tree, const std::vector<std::string>& args) {
  std::ostringstream out;
  std::ostringstream err;
  const int status = hfctl::run(args, out, err, tree.root());
  return {status, out.str(), err.str()};
}

TEST(Run, ModuleShow) {
  const TempTree tree;
  tree.write_loaded_module();
  const Result result = run(tree, {"module", "show"});
  EXPECT_EQ(result.status, hfctl::kExitSuccess);
  EXPECT_EQ(result.out, "family: 18\nethertype: 0x88b5\nrefcount: 0\n");
  EXPECT_EQ(result.err, "");
}

TEST(Run, ModuleShowJson) {
  const TempTree tree;
  tree.write_loaded_module();
  const Result result = run(tree, {"-j", "module", "show"});
  EXPECT_EQ(result.status, hfctl::kExitSuccess);
  EXPECT_EQ(result.out, "{\"family\":18,\"ethertype\":34997,\"refcount\":0}\n");
}

TEST(Run, ModuleNotLoadedIsARuntimeError) {
  const TempTree tree;
  for (const auto& args : {std::vector<std::string>{"module", "show"}, {"-j", "module"}}) {
    const Result result = run(tree, args);
    EXPECT_EQ(result.status, hfctl::kExitFailure);
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(result.err,
              "hfctl: hyperframe module not loaded (load hyperframe.ko first): "
              "Address family not supported by protocol\n");
  }
}

TEST(Run, MalformedSysfsIsARuntimeError) {
  const TempTree tree;
  tree.write_loaded_module();
  tree.write("/sys/module/hyperframe/parameters/family", "garbage\n");
  const Result result = run(tree, {"module", "show"});
  EXPECT_EQ(result.status, hfctl::kExitFailure);
  EXPECT_EQ(
      result.err.rfind("hfctl: " + tree.path("/sys/module/hyperframe/parameters/family").string() +
                           ": expected an address family number",
                       0),
      0U)
      << result.err;
  EXPECT_TRUE(result.err.ends_with(": Invalid argument\n")) << result.err;
}

TEST(Run, UnknownObjectIsAUsageError) {
  const TempTree tree;
  const Result result = run(tree, {"bogus"});
  EXPECT_EQ(result.status, hfctl::kExitUsage);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "hfctl: unknown object \"bogus\"; valid objects: config, dev, exporter, help, "
            "module, monitor, peer, probe, qdisc, socket, stats, trace, version\n"
            "Try \"hfctl help\".\n");
}

TEST(Run, UnknownCommandIsAUsageError) {
  const TempTree tree;
  const Result result = run(tree, {"module", "frob"});
  EXPECT_EQ(result.status, hfctl::kExitUsage);
  EXPECT_NE(result.err.find("Try \"hfctl module help\"."), std::string::npos);
}

TEST(Run, HelpNeedsNoModule) {
  const TempTree tree;
  for (const auto& args : {std::vector<std::string>{"help"}, {"module", "help"}, {"-h"}}) {
    const Result result = run(tree, args);
    EXPECT_EQ(result.status, hfctl::kExitSuccess);
    EXPECT_EQ(result.out.rfind("Usage: ", 0) == 0 || result.out.rfind("hfctl module", 0) == 0, true)
        << result.out;
    EXPECT_EQ(result.err, "");
  }
}

TEST(Run, Version) {
  const TempTree tree;
  const Result result = run(tree, {"-V"});
  EXPECT_EQ(result.status, hfctl::kExitSuccess);
  EXPECT_EQ(result.out.rfind("hfctl ", 0), 0U);
}

TEST(Run, MissingNetnsIsARuntimeError) {
  const TempTree tree;
  tree.write_loaded_module();
  const Result result = run(tree, {"-n", "blue", "module", "show"});
  EXPECT_EQ(result.status, hfctl::kExitFailure);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err, "hfctl: cannot open network namespace \"blue\" (" +
                            tree.path("/run/netns/blue").string() +
                            "): No such file or directory\n");
}

TEST(Run, NetnsThatIsNoNamespaceIsARuntimeError) {
  const TempTree tree;
  tree.write("/run/netns/blue", "");
  const Result result = run(tree, {"-n", "blue", "version"});
  EXPECT_EQ(result.status, hfctl::kExitFailure);
  EXPECT_TRUE(result.err.ends_with(": Invalid argument\n")) << result.err;
}

TEST(Run, StatsPrometheusToStandardOutput) {
  const TempTree tree;
  const Result result = run(tree, {"stats", "prometheus"});
  EXPECT_EQ(result.status, hfctl::kExitSuccess) << "a module not loaded is hyperframe_up 0";
  EXPECT_NE(result.out.find("# TYPE hyperframe_up gauge\n"), std::string::npos) << result.out;
  EXPECT_EQ(result.err, "");
}

TEST(Run, StatsPrometheusToAFile) {
  const TempTree tree;
  const std::string file = tree.path("/textfile/hyperframe.prom").string();
  tree.write("/textfile/other.prom", "");
  const Result result = run(tree, {"stats", "prometheus", "-o", file});
  EXPECT_EQ(result.status, hfctl::kExitSuccess) << result.err;
  EXPECT_EQ(result.out, "");
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("# TYPE hyperframe_up gauge\n"), std::string::npos) << text.str();
}

TEST(Run, StatsPrometheusFlagPrintsTheSame) {
  const TempTree tree;
  const Result command = run(tree, {"stats", "prometheus"});
  ASSERT_EQ(command.status, hfctl::kExitSuccess);
  for (const auto& args : {std::vector<std::string>{"stats", "--prometheus"},
                           {"stats", "show", "--prometheus"},
                           {"--prometheus", "stats"}}) {
    const Result flag = run(tree, args);
    EXPECT_EQ(flag.status, hfctl::kExitSuccess) << args.back() << ": " << flag.err;
    EXPECT_EQ(flag.out, command.out) << args.back();
    EXPECT_EQ(flag.err, "");
  }
}

TEST(Run, StatsPrometheusFlagToAFile) {
  const TempTree tree;
  const std::string file = tree.path("/textfile/hyperframe.prom").string();
  tree.write("/textfile/other.prom", "");
  const Result result = run(tree, {"stats", "--prometheus", "-o", file});
  EXPECT_EQ(result.status, hfctl::kExitSuccess) << result.err;
  EXPECT_EQ(result.out, "");
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), run(tree, {"stats", "prometheus"}).out);
}

TEST(Run, StatsShowOutputWithoutPrometheusIsAUsageError) {
  const TempTree tree;
  const Result result = run(tree, {"stats", "show", "-o", tree.path("/x.prom").string()});
  EXPECT_EQ(result.status, hfctl::kExitUsage);
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find(R"(option '--output' of "stats show" needs --prometheus)"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("Try \"hfctl stats help\"."), std::string::npos) << result.err;
  EXPECT_FALSE(std::filesystem::exists(tree.path("/x.prom")));
}

TEST(Run, StatsPrometheusUnwritableFileIsARuntimeError) {
  const TempTree tree;
  const std::string file = tree.path("/missing/hyperframe.prom").string();
  const Result result = run(tree, {"stats", "prometheus", "--output", file});
  EXPECT_EQ(result.status, hfctl::kExitFailure);
  EXPECT_EQ(result.err, "hfctl: cannot write " + file + ": No such file or directory\n");
}

TEST(Run, ExporterBadOptionsAreUsageErrors) {
  const TempTree tree;
  for (const auto& args : {std::vector<std::string>{"exporter", "--listen", "localhost:9477"},
                           {"exporter", "serve", "--listen", "127.0.0.1"},
                           {"exporter", "--max-connections", "0"},
                           {"exporter", "--cache-ms", "1s"},
                           {"exporter", "--user", "no-such-user-hf"}}) {
    const Result result = run(tree, args);
    EXPECT_EQ(result.status, hfctl::kExitUsage) << args.back();
    EXPECT_NE(result.err.find("Try \"hfctl exporter help\"."), std::string::npos) << result.err;
  }
}

TEST(Run, ExporterAddressInUseIsARuntimeError) {
  const TempTree tree;
  const hf::Fd taken = hfctl::open_listener({.ipv6 = false, .address = {127, 0, 0, 1}, .port = 0});
  const std::string address = hfctl::to_string(hfctl::local_address(taken.get()));
  const Result result = run(tree, {"exporter", "--listen", address});
  EXPECT_EQ(result.status, hfctl::kExitFailure);
  EXPECT_EQ(result.err, "hfctl: cannot listen on " + address + ": Address already in use\n");
}

TEST(Run, QdiscHelpNeedsNoModule) {
  const TempTree tree;
  const Result result = run(tree, {"qdisc", "help"});
  EXPECT_EQ(result.status, hfctl::kExitSuccess);
  EXPECT_NE(result.out.find("Usage: hfctl [ OPTIONS ] qdisc show [ dev DEV ]\n"
                            "       hfctl [ OPTIONS ] qdisc attach dev DEV [ PARAM VALUE ]...\n"
                            "       hfctl [ OPTIONS ] qdisc set dev DEV PARAM VALUE "
                            "[ PARAM VALUE ]...\n"
                            "       hfctl [ OPTIONS ] qdisc detach dev DEV\n"),
            std::string::npos)
      << result.out;
  EXPECT_EQ(result.err, "");
}

TEST(Run, MonitorHelpNeedsNoModule) {
  const TempTree tree;
  const Result result = run(tree, {"monitor", "help"});
  EXPECT_EQ(result.status, hfctl::kExitSuccess);
  EXPECT_EQ(result.out.rfind("hfctl monitor - ", 0), 0U) << result.out;
  EXPECT_NE(result.out.find("Usage: hfctl [ OPTIONS ] monitor\n"
                            "       hfctl [ OPTIONS ] monitor help\n"),
            std::string::npos)
      << result.out;
  EXPECT_EQ(result.err, "");
}

TEST(Run, MonitorArgumentsAreUsageErrors) {
  const TempTree tree;
  const Result result = run(tree, {"monitor", "all"});
  EXPECT_EQ(result.status, hfctl::kExitUsage);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "hfctl: monitor: unexpected argument \"all\"\nTry \"hfctl monitor help\".\n");
}

TEST(Run, QdiscBadArgumentsAreUsageErrorsBeforeAnyNetlink) {
  const TempTree tree;
  const Result result = run(tree, {"qdisc", "set", "dev", "lo", "other_share", "half"});
  EXPECT_EQ(result.status, hfctl::kExitUsage);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "hfctl: bad value \"half\" for other_share: expected a whole percentage (10 or 10%)\n"
            "Try \"hfctl qdisc help\".\n");
}

TEST(Run, QdiscUnknownDeviceIsARuntimeError) {
  const TempTree tree;
  for (const auto& args : {std::vector<std::string>{"qdisc", "show", "dev", "hf-no-such0"},
                           {"qdisc", "attach", "dev", "hf-no-such0"},
                           {"qdisc", "set", "dev", "hf-no-such0", "limit", "100"},
                           {"qdisc", "detach", "dev", "hf-no-such0"}}) {
    const Result result = run(tree, args);
    EXPECT_EQ(result.status, hfctl::kExitFailure) << args[1];
    EXPECT_EQ(result.err, "hfctl: cannot find device \"hf-no-such0\"\n") << args[1];
  }
}

TEST(Run, WriteErrorIsARuntimeError) {
  const TempTree tree;
  std::ostringstream out;
  std::ostringstream err;
  out.setstate(std::ios::badbit);
  EXPECT_EQ(hfctl::run(std::vector<std::string>{"help"}, out, err, tree.root()),
            hfctl::kExitFailure);
  EXPECT_EQ(err.str().rfind("hfctl: write error: ", 0), 0U) << err.str();
}

}  // namespace
