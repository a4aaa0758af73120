// tests/hfctl/http_test.cc - unit tests of hfctl/http.cc: request heads
// parsed or refused, the responses chosen, and their bytes.
#include "http.h"

#include <chrono>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "prometheus.h"

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

}  // namespace
