// hfperf/patterns/server.cc - server: the receiving side of pair, incast
// and mixed. Listens on --port and --port + 1; every connection (for hf
// and udp: each bound socket, which hears every client) is served by its
// own thread that acks data, echoes pings and answers fins with what it
// counted. Exits after --clients clients sent their last fin, reporting
// each flow's bytes and goodput (the bytes after its first message over
// the time from the first message to the last) and Jain's index
// over the data flows' goodput.
#include <condition_variable>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>

#include "patterns/patterns.h"

namespace hfperf {
namespace {

struct FlowState {
  std::uint64_t bytes = 0;
  std::uint64_t messages = 0;
  std::uint64_t first_bytes = 0;  // the first message's, before the clock
  Clock::time_point first;
  Clock::time_point last;
};

class Server {
 public:
  explicit Server(unsigned clients) : clients_(clients) {}

  // Serves one connection until it closes.
  void serve(Connection& conn, bool connectionless) {
    Buffer buffer(connectionless ? kMaxMessage : 4096);
    for (;;) {
      std::optional<std::size_t> length;
      try {
        length = conn.recv(buffer);
      } catch (const std::system_error& error) {
        if (error.code().value() == ECONNREFUSED || error.code().value() == EHOSTUNREACH) {
          conn.clear_errors();  // an answer to a client that is gone
          continue;
        }
        throw;
      }
      if (!length) {
        return;
      }
      const auto header = decode(buffer.span(*length));
      if (!header) {
        continue;
      }
      handle(conn, *header, buffer, *length);
    }
  }

  void wait_done() {
    std::unique_lock lock(mutex_);
    done_cv_.wait(lock, [this] { return clients_ != 0 && done_.size() >= clients_; });
  }

  void fill(Report& report) {
    const std::lock_guard lock(mutex_);
    std::vector<double> goodputs;
    for (const auto& [id, state] : flows_) {
      if (state.messages == 0) {
        continue;
      }
      Flow flow;
      flow.id = id;
      flow.bytes = state.bytes;
      flow.messages = state.messages;
      flow.first_bytes = state.first_bytes;
      flow.seconds = seconds_between(state.first, state.last);
      report.flows.push_back(flow);
      goodputs.push_back(flow_goodput(flow));
    }
    report.jain = jain_index(goodputs);
  }

 private:
  void handle(Connection& conn, const Header& header, Buffer& buffer, std::size_t length) {
    Header reply;
    reply.flow = header.flow;
    reply.seq = header.seq;
    switch (header.type) {
      case MsgType::data: {
        const auto now = Clock::now();
        {
          const std::lock_guard lock(mutex_);
          auto& flow = flows_[header.flow];
          if (flow.messages == 0) {
            flow.first = now;
            flow.first_bytes = length;
          }
          flow.last = now;
          flow.bytes += length;
          ++flow.messages;
        }
        if ((header.flags & kWantAck) != 0) {
          reply.type = MsgType::ack;
          send_header(conn, reply);
        }
        break;
      }
      case MsgType::ping:
        reply.type = MsgType::pong;
        encode(reply, buffer.span());
        conn.send(buffer.span(length));
        break;
      case MsgType::hello:
        reply.type = MsgType::hello_ack;
        send_header(conn, reply);
        break;
      case MsgType::fin: {
        reply.type = MsgType::fin_ack;
        {
          const std::lock_guard lock(mutex_);
          const auto& flow = flows_[header.flow];
          reply.value = flow.bytes;
          reply.count = flow.messages;
        }
        send_header(conn, reply);
        if ((header.flags & kLast) != 0) {
          const std::lock_guard lock(mutex_);
          done_.insert(header.flow);
          done_cv_.notify_all();
        }
        break;
      }
      default:
        break;
    }
  }

  unsigned clients_;
  std::mutex mutex_;
  std::condition_variable done_cv_;
  std::map<std::uint64_t, FlowState> flows_;
  std::set<std::uint64_t> done_;
};

// Accepts on `listener` for ever, a detached thread per connection.
void accept_loop(Server& server, Listener& listener, bool connectionless) {
  while (auto conn = listener.accept()) {
    std::thread([&server, connectionless, owned = std::shared_ptr<Connection>(std::move(conn))]() {
      try {
        server.serve(*owned, connectionless);
      } catch (const std::exception& error) {
        std::cerr << "hfperf server: " << error.what() << "\n";
      }
    }).detach();
  }
}

}  // namespace

Report run_server(const Config& config, Transport& transport) {
  // Lives until the process ends: detached threads hold references.
  static Server server(config.clients);
  Report report;
  report.mode = mode_name(config.mode);
  report.transport = kind_name(transport.kind());
  const bool connectionless = transport.connectionless();
  for (const std::uint16_t port : {config.port, static_cast<std::uint16_t>(config.port + 1)}) {
    std::shared_ptr<Listener> listener = transport.listen(port);
    std::thread([listener, connectionless]() {
      try {
        accept_loop(server, *listener, connectionless);
      } catch (const std::exception& error) {
        std::cerr << "hfperf server: " << error.what() << "\n";
      }
    }).detach();
  }
  if (!config.json) {
    std::cout << "hfperf server: " << kind_name(transport.kind()) << " on port " << config.port
              << " and " << config.port + 1 << std::endl;
  }
  server.wait_done();
  server.fill(report);
  return report;
}

}  // namespace hfperf
