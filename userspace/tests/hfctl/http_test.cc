// tests/hfctl/http_test.cc - unit tests of hfctl/exporter/http.cc: the end of a
// request head found as bytes arrive, heads parsed or refused, the
// responses chosen, and their bytes.
#include "exporter/http.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "exporter/prometheus.h"

namespace {

using hfctl::ParseResult;
using hfctl::ParseStatus;

ParseResult parse(std::string_view bytes) {
  return hfctl::parse_http_request(bytes);
}

std::string metrics() {
  return "hyperframe_up 1\n";
}

hfctl::HttpRequest request(std::string method, std::string path) {
  hfctl::HttpRequest request;
  request.method = std::move(method);
  request.target = path;
  request.path = std::move(path);
  return request;
}

TEST(ParseHttpRequest, Get) {
  const ParseResult result = parse("GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n");
  ASSERT_EQ(result.status, ParseStatus::complete) << result.error;
  EXPECT_EQ(result.request.method, "GET");
  EXPECT_EQ(result.request.target, "/metrics");
  EXPECT_EQ(result.request.path, "/metrics");
  EXPECT_EQ(result.request.minor_version, 1);
}

TEST(ParseHttpRequest, Http10NeedsNoHost) {
  const ParseResult result = parse("HEAD / HTTP/1.0\r\n\r\n");
  ASSERT_EQ(result.status, ParseStatus::complete) << result.error;
  EXPECT_EQ(result.request.method, "HEAD");
  EXPECT_EQ(result.request.minor_version, 0);
}

TEST(ParseHttpRequest, LenientWhereTheRfcAllows) {
  EXPECT_EQ(parse("GET / HTTP/1.1\nHost: x\n\n").status, ParseStatus::complete) << "bare LF";
  EXPECT_EQ(parse("\r\n\r\nGET / HTTP/1.0\r\n\r\n").status, ParseStatus::complete)
      << "empty lines before the request line";
  EXPECT_EQ(parse("GET / HTTP/1.1\r\nhOsT:\r\n\r\n").status, ParseStatus::complete)
      << "any case, empty Host";
}

TEST(ParseHttpRequest, TargetForms) {
  EXPECT_EQ(parse("GET /metrics?name[]=up HTTP/1.0\r\n\r\n").request.path, "/metrics");
  EXPECT_EQ(parse("GET http://h:9477/metrics?x HTTP/1.0\r\n\r\n").request.path, "/metrics");
  EXPECT_EQ(parse("GET HTTP://h:9477 HTTP/1.0\r\n\r\n").request.path, "/");
  EXPECT_EQ(parse("OPTIONS * HTTP/1.0\r\n\r\n").request.path, "*");
}

TEST(ParseHttpRequest, IncompleteUntilTheEmptyLine) {
  EXPECT_EQ(parse("").status, ParseStatus::incomplete);
  EXPECT_EQ(parse("\r\n").status, ParseStatus::incomplete);
  EXPECT_EQ(parse("GET / HTTP/1.1\r\nHost: x\r\n").status, ParseStatus::incomplete);
  EXPECT_EQ(parse("GET / HTTP/1.1\r\nHost: x\r\n\r").status, ParseStatus::incomplete);
}

TEST(ParseHttpRequest, Malformed) {
  for (const char* bytes : {
           "GET /\r\n\r\n",                                 // two parts
           "GET  / HTTP/1.0\r\n\r\n",                       // double space
           "GET / HTTP/1.0 \r\n\r\n",                       // trailing space
           "G(T / HTTP/1.0\r\n\r\n",                        // method not a token
           "GET metrics HTTP/1.0\r\n\r\n",                  // not origin-form
           "GET /a\x01 HTTP/1.0\r\n\r\n",                   // control in the target
           "GET / HTTP/1\r\n\r\n",                          // version
           "GET / http/1.1\r\nHost: x\r\n\r\n",             // version is case-sensitive
           "GET / HTTP/1.1\r\n\r\n",                        // no Host
           "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",  // two Hosts
           "GET / HTTP/1.0\r\nNo-Colon\r\n\r\n",
           "GET / HTTP/1.0\r\nName : value\r\n\r\n",     // space before the colon
           "GET / HTTP/1.0\r\n: value\r\n\r\n",          // empty name
           "GET / HTTP/1.0\r\nA: b\r\n folded\r\n\r\n",  // obs-fold
           "GET / HTTP/1.0\r\nA: b\x7f\r\n\r\n",         // DEL in a value
           "GET / HTTP/1.0\rX\r\n\r\n",                  // bare CR
       }) {
    const ParseResult result = parse(bytes);
    EXPECT_EQ(result.status, ParseStatus::bad_request) << bytes;
    EXPECT_FALSE(result.error.empty()) << bytes;
  }
}

TEST(ParseHttpRequest, OtherMajorVersionIs505) {
  EXPECT_EQ(parse("GET / HTTP/2.0\r\n\r\n").status, ParseStatus::version_not_supported);
  EXPECT_EQ(parse("GET / HTTP/0.9\r\n\r\n").status, ParseStatus::version_not_supported);
}

TEST(ParseHttpRequest, TooLarge) {
  const std::string head = "GET / HTTP/1.0\r\nA: " + std::string(100, 'a') + "\r\n\r\n";
  EXPECT_EQ(hfctl::parse_http_request(head, head.size()).status, ParseStatus::complete)
      << "exactly the limit";
  EXPECT_EQ(hfctl::parse_http_request(head, head.size() - 1).status, ParseStatus::too_large);
  EXPECT_EQ(hfctl::parse_http_request(std::string(64, 'a'), 64).status, ParseStatus::too_large)
      << "no line end within the limit";
  EXPECT_EQ(hfctl::parse_http_request(std::string(63, 'a'), 64).status, ParseStatus::incomplete);
  EXPECT_EQ(hfctl::parse_http_request(std::string(200, '\n'), 64).status, ParseStatus::too_large)
      << "empty lines count";
}

// The head size HeadScanner finds when `bytes` arrive in pieces of `step`.
std::size_t scan_in_steps(std::string_view bytes, std::size_t step) {
  hfctl::HeadScanner scanner;
  std::size_t end = 0;
  for (std::size_t size = 0; size < bytes.size();) {
    size = std::min(bytes.size(), size + step);
    end = scanner.scan(bytes.substr(0, size));
    if (end != 0) {
      break;
    }
  }
  return end;
}

TEST(HeadScanner, EndsAtTheFirstEmptyLineAfterARequestLine) {
  const std::string head = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
  for (const std::size_t step : {std::size_t{1}, std::size_t{2}, std::size_t{7}, head.size()}) {
    EXPECT_EQ(scan_in_steps(head + "body bytes", step), head.size()) << "step " << step;
  }
  EXPECT_EQ(scan_in_steps("GET / HTTP/1.0\n\n", 1), 16U) << "bare LF";
  EXPECT_EQ(scan_in_steps("GET / HTTP/1.0\r\n\n", 3), 17U) << "mixed";
  EXPECT_EQ(scan_in_steps("\r\n\nGET / HTTP/1.0\r\n\r\n", 1), 21U) << "leading empty lines";
}

TEST(HeadScanner, ZeroUntilTheHeadEnds) {
  EXPECT_EQ(scan_in_steps("GET / HTTP/1.1\r\nHost: x\r\n", 1), 0U);
  EXPECT_EQ(scan_in_steps(std::string(5000, '\n'), 1), 0U) << "only empty lines";
  EXPECT_EQ(scan_in_steps("GET / HTTP/1.1\r\nHost: x\r\n\r", 1), 0U) << "CR without its LF";
  EXPECT_EQ(scan_in_steps("GET / HTTP/1.1\r\n\r\r\n", 1), 0U) << R"("\r\r" is no empty line)";
}

TEST(HeadScanner, AgreesWithTheParser) {
  // Whatever the scanner calls a head, the parser finds complete (or
  // refuses) in those bytes alone, never incomplete.
  for (const std::string_view bytes :
       {"GET / HTTP/1.0\r\n\r\n", "\n\nGET / HTTP/1.0\n\n", "GET / HTTP/1.1\r\nA: b\r\n\r\n",
        "BREW /\r\n\r\n", "GET / HTTP/1.0\r\r\n\r\n", "GET / HTTP/1.0\r\n \r\n\r\n",
        "GET / HTTP/1.0\r\n\r\nafter the head"}) {
    const std::size_t end = scan_in_steps(bytes, 1);
    ASSERT_NE(end, 0U) << bytes;
    EXPECT_NE(hfctl::parse_http_request(bytes.substr(0, end)).status, ParseStatus::incomplete)
        << bytes;
    EXPECT_EQ(hfctl::parse_http_request(bytes).status,
              hfctl::parse_http_request(bytes.substr(0, end)).status)
        << bytes;
  }
}

TEST(HeadScanner, StopsOnceFound) {
  hfctl::HeadScanner scanner;
  EXPECT_EQ(scanner.scan("GET / HTTP/1.0\r\n\r\n"), 18U);
  EXPECT_EQ(scanner.scan("GET / HTTP/1.0\r\n\r\nGET / HTTP/1.0\r\n\r\n"), 18U)
      << "the first head only";
}

TEST(Route, MetricsAreRenderedElsewhere) {
  for (const char* method : {"GET", "HEAD"}) {
    const hfctl::Route routed = hfctl::route(request(method, "/metrics"));
    EXPECT_TRUE(routed.metrics) << method;
    EXPECT_EQ(routed.response.status, 200);
    EXPECT_EQ(routed.response.content_type, hfctl::kPrometheusContentType);
    EXPECT_EQ(routed.response.body, "");
  }
  for (const char* path : {"/", "/nope"}) {
    EXPECT_FALSE(hfctl::route(request("GET", path)).metrics) << path;
  }
  EXPECT_FALSE(hfctl::route(request("POST", "/metrics")).metrics);
  EXPECT_EQ(hfctl::route(request("POST", "/metrics")).response.status, 405);
}

TEST(Respond, Metrics) {
  for (const char* method : {"GET", "HEAD"}) {
    const hfctl::HttpResponse response = hfctl::respond(request(method, "/metrics"), metrics);
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, hfctl::kPrometheusContentType);
    EXPECT_EQ(response.content_type, "text/plain; version=0.0.4; charset=utf-8");
    EXPECT_EQ(response.body, metrics());
  }
}

TEST(Respond, IndexLinksMetrics) {
  const hfctl::HttpResponse response = hfctl::respond(request("GET", "/"), metrics);
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.content_type, "text/html; charset=utf-8");
  EXPECT_NE(response.body.find("<a href=\"/metrics\">"), std::string::npos);
}

TEST(Respond, UnknownPathIs404) {
  EXPECT_EQ(hfctl::respond(request("GET", "/nope"), metrics).status, 404);
  EXPECT_EQ(hfctl::respond(request("POST", "/nope"), metrics).status, 404);
  EXPECT_EQ(hfctl::respond(request("GET", "/metrics/"), metrics).status, 404);
}

TEST(Respond, OtherMethodIs405WithAllow) {
  for (const char* method : {"POST", "PUT", "DELETE", "OPTIONS", "get"}) {
    const hfctl::HttpResponse response = hfctl::respond(request(method, "/metrics"), metrics);
    EXPECT_EQ(response.status, 405) << method;
    ASSERT_EQ(response.headers.size(), 1U);
    EXPECT_EQ(response.headers[0].first, "Allow");
    EXPECT_EQ(response.headers[0].second, "GET, HEAD");
  }
}

TEST(Respond, FailingSourceIs500) {
  const hfctl::HttpResponse response = hfctl::respond(
      request("GET", "/metrics"), []() -> std::string { throw std::runtime_error("boom"); });
  EXPECT_EQ(response.status, 500);
  EXPECT_EQ(response.body, "500 Internal Server Error: boom\n");
}

TEST(ErrorResponse, FromParseResult) {
  EXPECT_EQ(hfctl::error_response(parse("GET /\r\n\r\n")).status, 400);
  EXPECT_EQ(hfctl::error_response(parse("GET / HTTP/2.0\r\n\r\n")).status, 505);
  EXPECT_EQ(hfctl::error_response(hfctl::parse_http_request(std::string(9000, 'a'))).status, 431);
  EXPECT_EQ(hfctl::error_response(408).body, "408 Request Timeout\n");
}

TEST(ErrorResponse, MetricsNotReadyIs503) {
  EXPECT_EQ(hfctl::error_response(503, "slow").body, "503 Service Unavailable: slow\n");
}

TEST(HttpDate, ImfFixdate) {
  EXPECT_EQ(hfctl::http_date(std::chrono::system_clock::from_time_t(784111777)),
            "Sun, 06 Nov 1994 08:49:37 GMT");
}

TEST(Serialize, HeadersThenBody) {
  hfctl::HttpResponse response = hfctl::error_response(405, "POST");
  response.headers.emplace_back("Allow", "GET, HEAD");
  EXPECT_EQ(hfctl::serialize(response, false, "Sun, 06 Nov 1994 08:49:37 GMT"),
            "HTTP/1.1 405 Method Not Allowed\r\n"
            "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
            "Content-Type: text/plain; charset=utf-8\r\n"
            "Content-Length: 29\r\n"
            "Connection: close\r\n"
            "Allow: GET, HEAD\r\n"
            "\r\n"
            "405 Method Not Allowed: POST\n");
}

TEST(Serialize, HeadKeepsTheLengthDropsTheBody) {
  const hfctl::HttpResponse response = hfctl::respond(request("HEAD", "/metrics"), metrics);
  const std::string text = hfctl::serialize(response, true, "");
  EXPECT_NE(text.find("Content-Length: 16\r\n"), std::string::npos) << text;
  EXPECT_TRUE(text.ends_with("\r\n\r\n")) << text;
  EXPECT_EQ(text.find("Date:"), std::string::npos);
}

TEST(SerializeHead, TheGivenLengthAndNoBody) {
  const std::string text = hfctl::serialize_head(hfctl::metrics_response(), 12345, "");
  EXPECT_EQ(text,
            "HTTP/1.1 200 OK\r\n"
            "Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
            "Content-Length: 12345\r\n"
            "Connection: close\r\n"
            "\r\n");
}

}  // namespace
