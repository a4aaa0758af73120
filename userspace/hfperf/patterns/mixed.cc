// hfperf/patterns/mixed.cc - mixed: a saturating bulk flow to --port and,
// on a second connection (hf: a second socket) to --port + 1, a
// ping-pong of --ping-size messages for --duration. The round trip of
// each ping (send start to pong read) is the figure of interest: how long
// a small message waits behind bulk traffic to the same peer.
#include <exception>
#include <system_error>
#include <thread>

#include "cpu.h"
#include "patterns/patterns.h"

namespace hfperf {
namespace {

constexpr std::chrono::milliseconds kReliableTimeout{60000};
constexpr std::chrono::milliseconds kUnreliableTimeout{1000};

}  // namespace

Report run_mixed(const Config& config, Transport& transport) {
  Report report;
  report.mode = mode_name(config.mode);
  report.transport = kind_name(transport.kind());
  report.peer = config.peer;
  const bool reliable = transport.kind() != Kind::udp;
  const auto bulk = transport.connect(config.peer, config.port, config.wait);
  const auto ping = transport.connect(config.peer, config.port + 1, config.wait);
  const std::uint64_t bulk_flow = new_flow_id();
  const std::uint64_t ping_flow = new_flow_id();
  handshake(*bulk, bulk_flow, config.wait, config.peer);
  handshake(*ping, ping_flow, config.wait, config.peer);

  std::atomic<bool> stop{false};
  BulkSpec spec;
  spec.flow = bulk_flow;
  spec.size = config.sizes.front();
  spec.duration = std::chrono::hours(24);
  spec.window = config.window != 0 ? config.window : auto_window(spec.size);
  spec.reliable = reliable;
  spec.device = config.device;
  spec.stop = &stop;
  Measurement measured;
  std::exception_ptr failed;
  std::thread bulk_thread([&]() {
    try {
      std::uint64_t seq = 0;
      measured = run_bulk(*bulk, spec, seq);
    } catch (...) {
      failed = std::current_exception();
    }
  });

  std::vector<double> rtts;
  Buffer message(config.ping_size);
  Buffer reply(std::max<std::size_t>(config.ping_size, 4096));
  Header header;
  header.type = MsgType::ping;
  header.flow = ping_flow;
  const auto until = Clock::now() + config.duration;
  try {
    for (std::uint64_t seq = 0; Clock::now() < until; ++seq) {
      header.seq = seq;
      encode(header, message.span());
      const auto sent = Clock::now();
      ping->send(message.span(config.ping_size));
      for (;;) {
        const auto length = ping->recv(reply, reliable ? kReliableTimeout : kUnreliableTimeout);
        if (!length) {
          if (reliable) {
            throw std::system_error(std::make_error_code(std::errc::timed_out), "no pong");
          }
          ++report.pings_lost;
          break;
        }
        const auto pong = decode(reply.span(*length));
        if (pong && pong->type == MsgType::pong && pong->seq == seq) {
          rtts.push_back(seconds_between(sent, Clock::now()));
          break;
        }
      }
    }
  } catch (...) {
    stop = true;
    bulk_thread.join();
    throw;
  }
  stop = true;
  bulk_thread.join();
  if (failed) {
    std::rethrow_exception(failed);
  }
  report.sizes.push_back(measured);
  report.rtt = summarize(std::move(rtts));
  if (const auto totals = finish(*bulk, bulk_flow, false, reliable)) {
    report.server_bytes = totals->first;
    report.server_messages = totals->second;
  }
  (void)finish(*ping, ping_flow, true, reliable);
  return report;
}

}  // namespace hfperf
