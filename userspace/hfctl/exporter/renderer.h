// hfctl/exporter/renderer.h - the exporter's metrics made on a thread of their
// own, so that the poll() loop serving the clients never waits for the kernel:
// the loop asks for a rendering, goes on accepting and serving, and collects
// the text once the descriptor fd() becomes readable.
//
// The work is bounded: one rendering at a time, and every request made
// before a rendering is collected shares it (a request made while none is
// under way starts one; one made while one runs is answered by it), so any
// number of scrapes at once cost one rendering, and a client asking again
// and again costs at most one rendering after another on this one thread.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "exporter/http.h"
#include "hyperframe/fd.h"

namespace hfctl {

// One rendering: the exposition text, or why it could not be made.
struct Rendering {
  std::string text;                  // the body of GET /metrics
  std::optional<std::string> error;  // the source threw: what it said
};

class Renderer {
 public:
  // The number of a rendering: 1 for the first, one more for each after.
  using Ticket = std::uint64_t;

  // A finished rendering and its number.
  struct Result {
    Ticket ticket = 0;
    std::shared_ptr<const Rendering> rendering;
  };

  // Starts the thread that calls `source`. Throws std::system_error
  // (eventfd, or the thread).
  explicit Renderer(MetricsSource source);
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;
  Renderer(Renderer&&) = delete;
  Renderer& operator=(Renderer&&) = delete;
  // Stops the thread once the rendering under way, if any, is done.
  ~Renderer();

  // Asks for a rendering made no earlier than the one under way; returns
  // the number of the rendering that will answer. Never blocks on one.
  [[nodiscard]] Ticket request();

  // Readable (POLLIN) when a rendering finished and was not collected.
  [[nodiscard]] int fd() const noexcept { return ready_.get(); }

  // The newest finished rendering, once fd() was readable; nullopt when
  // none finished since the last call. Every request whose ticket is at
  // most the result's is answered by it.
  [[nodiscard]] std::optional<Result> collect();

 private:
  void run();

  MetricsSource source_;
  hf::Fd ready_;  // an eventfd: the thread writes it after each rendering
  std::mutex mutex_;
  std::condition_variable wake_;
  Ticket wanted_ = 0;   // the newest rendering asked for
  Ticket started_ = 0;  // the newest rendering started
  bool running_ = false;
  bool stopping_ = false;
  std::optional<Result> done_;  // the newest finished rendering, not collected
  std::thread thread_;          // last: started once everything else is ready
};

}  // namespace hfctl
