// tests/hfctl/renderer_test.cc - unit tests of hfctl/exporter/renderer.cc:
// tickets, renderings shared by the requests made while they run, errors
// carried, and the thread stopping after the rendering under way.
#include "exporter/renderer.h"

#include <poll.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

namespace {

using namespace std::chrono_literals;

// Whether the renderer's descriptor becomes readable within 5 s.
bool ready(const hfctl::Renderer& renderer) {
  pollfd polled{.fd = renderer.fd(), .events = POLLIN, .revents = 0};
  return ::poll(&polled, 1, 5000) == 1;
}

TEST(Renderer, RendersOnRequest) {
  int calls = 0;
  hfctl::Renderer renderer([&calls] { return "text " + std::to_string(++calls); });
  EXPECT_EQ(renderer.collect(), std::nullopt) << "nothing asked, nothing made";
  EXPECT_EQ(renderer.request(), 1U);
  ASSERT_TRUE(ready(renderer));
  const std::optional<hfctl::Renderer::Result> first = renderer.collect();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->ticket, 1U);
  EXPECT_EQ(first->rendering->text, "text 1");
  EXPECT_EQ(first->rendering->error, std::nullopt);
  EXPECT_EQ(renderer.collect(), std::nullopt) << "collected once";

  EXPECT_EQ(renderer.request(), 2U) << "a request after a rendering gets a new one";
  ASSERT_TRUE(ready(renderer));
  const std::optional<hfctl::Renderer::Result> second = renderer.collect();
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->ticket, 2U);
  EXPECT_EQ(second->rendering->text, "text 2");
}

TEST(Renderer, RequestsWhileRenderingShareIt) {
  std::mutex mutex;
  std::condition_variable changed;
  bool entered = false;
  bool open = false;
  int calls = 0;
  hfctl::Renderer renderer([&] {
    std::unique_lock lock(mutex);
    ++calls;
    entered = true;
    changed.notify_all();
    changed.wait(lock, [&open] { return open; });
    return std::string("shared");
  });
  EXPECT_EQ(renderer.request(), 1U);
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(changed.wait_for(lock, 5s, [&entered] { return entered; }));
  }
  EXPECT_EQ(renderer.request(), 1U) << "the rendering under way answers";
  EXPECT_EQ(renderer.request(), 1U);
  {
    const std::lock_guard lock(mutex);
    open = true;
  }
  changed.notify_all();
  ASSERT_TRUE(ready(renderer));
  const std::optional<hfctl::Renderer::Result> result = renderer.collect();
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->ticket, 1U);
  EXPECT_EQ(result->rendering->text, "shared");
  const std::lock_guard lock(mutex);
  EXPECT_EQ(calls, 1);
}

TEST(Renderer, ErrorsAreCarried) {
  hfctl::Renderer renderer([]() -> std::string { throw std::runtime_error("no counters"); });
  static_cast<void>(renderer.request());
  ASSERT_TRUE(ready(renderer));
  const std::optional<hfctl::Renderer::Result> result = renderer.collect();
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->rendering->error, "no counters");
  EXPECT_EQ(result->rendering->text, "");
}

TEST(Renderer, StopsAfterTheRenderingUnderWay) {
  std::mutex mutex;
  std::condition_variable changed;
  bool entered = false;
  bool finished = false;
  {
    hfctl::Renderer renderer([&] {
      {
        const std::lock_guard lock(mutex);
        entered = true;
      }
      changed.notify_all();
      std::this_thread::sleep_for(50ms);
      const std::lock_guard lock(mutex);
      finished = true;
      return std::string();
    });
    static_cast<void>(renderer.request());
    std::unique_lock lock(mutex);
    ASSERT_TRUE(changed.wait_for(lock, 5s, [&entered] { return entered; }));
  }  // the destructor waits for the rendering
  const std::lock_guard lock(mutex);
  EXPECT_TRUE(finished);
}

}  // namespace
