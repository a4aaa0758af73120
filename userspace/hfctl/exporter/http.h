// hfctl/exporter/http.h - the part of HTTP/1.0 and 1.1 the exporter speaks,
// without sockets: finding the end of a request head as its bytes arrive,
// parsing it, choosing the response, and writing the response out. Pure
// functions (the metrics come from a callback or a finished rendering), so all
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

// Finds the end of a request head in bytes fed as they arrive, looking at
// each byte once: a head sent a byte at a time costs no more than one sent
// whole (parse_http_request() reads everything it is given). Lines end as
// parse_http_request() ends them, and empty lines before the request line
// are skipped as it skips them, so the head it finds parses whole.
class HeadScanner {
 public:
  // Scans what `bytes` (everything received so far: each call's a
  // continuation of the last's) adds since the last call. Returns the size
  // of the head, through its empty line, once there is one; 0 before.
  [[nodiscard]] std::size_t scan(std::string_view bytes) noexcept;

 private:
  std::size_t scanned_ = 0;     // bytes looked at
  std::size_t line_start_ = 0;  // where the line being scanned began
  bool started_ = false;        // a non-empty line was seen
  std::size_t end_ = 0;         // the head's size, once found
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

// What a parsed request asks for: the metrics, or `response` at once.
struct Route {
  bool metrics = false;  // GET or HEAD of /metrics: answer with metrics_response()
  HttpResponse response;
};

// GET and HEAD of "/" (a page linking /metrics) and "/metrics"; 404 for
// any other path; 405 with "Allow: GET, HEAD" for another method on those
// paths.
[[nodiscard]] Route route(const HttpRequest& request);

// The answer to GET /metrics but its body: 200 and the exposition format's
// Content-Type. The server sends the text after serialize_head(), one copy
// shared by every client of a rendering; metrics that could not be made
// are error_response(500, why).
[[nodiscard]] HttpResponse metrics_response();

// route(), with the metrics made by `metrics` when asked for (a source
// that throws makes a 500).
[[nodiscard]] HttpResponse respond(const HttpRequest& request, const MetricsSource& metrics);

// The answer to a request that did not parse (400, 431 or 505), to a
// client too slow to send one (408), or to one whose metrics were not
// ready in time (503).
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

// The status line and headers of `response` alone, with Content-Length
// `content_length` (the body goes out separately).
[[nodiscard]] std::string serialize_head(const HttpResponse& response, std::size_t content_length,
                                         std::string_view date);

}  // namespace hfctl
