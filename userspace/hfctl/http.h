// hfctl/http.h - the part of HTTP/1.0 and 1.1 the exporter speaks, without
// sockets: parsing a request head, choosing the response, and writing the
// response out. Pure functions (the metrics come from a callback), so all
// of it is unit-tested without a connection.
//
// The server answers one request per connection and closes it
// ("Connection: close"); request bodies are never read.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hfctl {

// The most a request head (request line and headers) may take.
inline constexpr std::size_t kMaxRequestSize = 8192;

struct HttpRequest {
  std::string method;     // case-sensitive, as sent
  std::string target;     // as sent: "/metrics?x=1"
  std::string path;       // the target's path: "/metrics"
  int minor_version = 1;  // HTTP/1.x
};

enum class ParseStatus {
  incomplete,             // no empty line yet: read more
  complete,               // `request` holds the request
  bad_request,            // 400: `error` says why
  too_large,              // 431: no end of the head within the limit
  version_not_supported,  // 505: HTTP/2 or later in a request line
};

struct ParseResult {
  ParseStatus status = ParseStatus::incomplete;
  HttpRequest request;
  std::string error;
};

// Parses the head of a request from `bytes`, everything received so far.
// Lines end in CRLF or a bare LF; empty lines before the request line are
// skipped. Refuses a malformed request line, header line or version, a
// folded header, control characters, and an HTTP/1.1 request without
// exactly one Host header.
[[nodiscard]] ParseResult parse_http_request(std::string_view bytes,
                                             std::size_t max_size = kMaxRequestSize);

struct HttpResponse {
  int status = 200;
  std::string content_type;
  std::vector<std::pair<std::string, std::string>> headers;  // besides the standard ones
  std::string body;
};

// Makes the body of GET /metrics (the exposition text).
using MetricsSource = std::function<std::string()>;

// The answer to a parsed request: GET and HEAD of "/" (a page linking
// /metrics) and "/metrics"; 404 for any other path; 405 with "Allow: GET,
// HEAD" for another method on those paths. A source that throws makes a
// 500.
[[nodiscard]] HttpResponse respond(const HttpRequest& request, const MetricsSource& metrics);

// The answer to a request that did not parse (400, 431 or 505), or to a
// client too slow to send one (408).
[[nodiscard]] HttpResponse error_response(int status, std::string_view detail = "");
[[nodiscard]] HttpResponse error_response(const ParseResult& result);

// "OK", "Not Found"... ("Unknown" for a status this server never sends).
[[nodiscard]] std::string_view reason_phrase(int status) noexcept;

// An IMF-fixdate for the Date header: "Sun, 06 Nov 1994 08:49:37 GMT".
[[nodiscard]] std::string http_date(std::chrono::system_clock::time_point when);

// The bytes of `response`: status line, Date, Content-Type,
// Content-Length, Connection: close, the extra headers, then the body
// unless `head_only` (the answer to HEAD keeps Content-Length).
[[nodiscard]] std::string serialize(const HttpResponse& response, bool head_only,
                                    std::string_view date);

}  // namespace hfctl
