// hfctl/exporter/http.cc - request heads parsed by the rules of RFC 9112 (a
// lenient reader only where the RFC allows: bare LF line ends, empty lines
// before the request line), and the exporter's few responses.
#include "exporter/http.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <ctime>
#include <exception>

#include "exporter/prometheus.h"

namespace hfctl {
namespace {

constexpr std::string_view kAllowedMethods = "GET, HEAD";
constexpr std::string_view kTextType = "text/plain; charset=utf-8";
constexpr std::string_view kHtmlType = "text/html; charset=utf-8";
constexpr std::string_view kMetricsPath = "/metrics";

constexpr std::string_view kIndexPage =
    "<!DOCTYPE html>\n"
    "<html><head><title>hyperframe exporter</title></head>\n"
    "<body><h1>hyperframe exporter</h1>\n"
    "<p>The counters of this network namespace: <a href=\"/metrics\">/metrics</a></p>\n"
    "</body></html>\n";

// RFC 9110 token characters.
bool is_tchar(char c) {
  constexpr std::string_view kSymbols = "!#$%&'*+-.^_`|~";
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         kSymbols.find(c) != std::string_view::npos;
}

bool is_token(std::string_view text) {
  return !text.empty() && std::ranges::all_of(text, is_tchar);
}

// Visible ASCII, no space: what a request target may hold.
bool is_visible(std::string_view text) {
  return std::ranges::all_of(text, [](char c) { return c > ' ' && c < '\x7f'; });
}

// A header value may hold visible characters, spaces, tabs and obs-text
// (bytes >= 0x80), never other controls.
bool is_field_value(std::string_view text) {
  return std::ranges::all_of(text, [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte >= 0x20 || c == '\t') && byte != 0x7f;
  });
}

bool equal_ignoring_case(std::string_view left, std::string_view right) {
  if (left.size() != right.size()) {
    return false;
  }
  for (std::size_t i = 0; i < left.size(); ++i) {
    const auto lower = [](char c) {
      return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
    };
    if (lower(left[i]) != lower(right[i])) {
      return false;
    }
  }
  return true;
}

ParseResult bad(std::string error) {
  return {.status = ParseStatus::bad_request, .request = {}, .error = std::move(error)};
}

// The path of a request target: origin-form "/a?b" gives "/a",
// absolute-form "http://host/a?b" too, asterisk-form "*" itself. False for
// anything else.
bool target_path(std::string_view target, std::string& path) {
  if (target == "*") {
    path = target;
    return true;
  }
  std::string_view rest = target;
  if (!target.starts_with('/')) {
    const std::size_t scheme_end = target.find("://");
    if (scheme_end == std::string_view::npos ||
        !(equal_ignoring_case(target.substr(0, scheme_end), "http") ||
          equal_ignoring_case(target.substr(0, scheme_end), "https"))) {
      return false;
    }
    rest = target.substr(scheme_end + 3);
    const std::size_t slash = rest.find('/');
    rest = slash == std::string_view::npos ? std::string_view("/") : rest.substr(slash);
  }
  path = rest.substr(0, rest.find('?'));
  return true;
}

// The request line: METHOD SP TARGET SP HTTP/D.D
ParseResult parse_request_line(std::string_view line) {
  const std::size_t first = line.find(' ');
  const std::size_t second = first == std::string_view::npos ? first : line.find(' ', first + 1);
  if (second == std::string_view::npos || line.find(' ', second + 1) != std::string_view::npos) {
    return bad("malformed request line");
  }
  ParseResult result{.status = ParseStatus::complete, .request = {}, .error = {}};
  HttpRequest& request = result.request;
  request.method = line.substr(0, first);
  request.target = line.substr(first + 1, second - first - 1);
  const std::string_view version = line.substr(second + 1);
  if (!is_token(request.method)) {
    return bad("malformed method");
  }
  if (request.target.empty() || !is_visible(request.target) ||
      !target_path(request.target, request.path)) {
    return bad("malformed request target");
  }
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  if (version.size() != 8 || !version.starts_with("HTTP/") || !is_digit(version[5]) ||
      version[6] != '.' || !is_digit(version[7])) {
    return bad("malformed HTTP version");
  }
  if (version[5] != '1') {
    return {.status = ParseStatus::version_not_supported,
            .request = {},
            .error = "only HTTP/1.0 and HTTP/1.1 are served"};
  }
  request.minor_version = version[7] - '0';
  return result;
}

// The header lines (after the request line), checked; only Host matters.
ParseResult check_headers(ParseResult result, const std::vector<std::string_view>& lines) {
  int hosts = 0;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    if (line.starts_with(' ') || line.starts_with('\t')) {
      return bad("folded header line");
    }
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || !is_token(line.substr(0, colon))) {
      return bad("malformed header line");
    }
    if (!is_field_value(line.substr(colon + 1))) {
      return bad("control character in a header");
    }
    if (equal_ignoring_case(line.substr(0, colon), "host")) {
      ++hosts;  // an empty value is allowed (RFC 9112, 3.2)
    }
  }
  if (hosts > 1) {
    return bad("more than one Host header");
  }
  if (hosts == 0 && result.request.minor_version >= 1) {
    return bad("HTTP/1.1 request without a Host header");
  }
  return result;
}

}  // namespace

std::size_t HeadScanner::scan(std::string_view bytes) noexcept {
  while (end_ == 0 && scanned_ < bytes.size()) {
    const std::size_t newline = bytes.find('\n', scanned_);
    if (newline == std::string_view::npos) {
      scanned_ = bytes.size();
      break;
    }
    std::size_t length = newline - line_start_;
    if (length > 0 && bytes[newline - 1] == '\r') {
      --length;
    }
    if (length > 0) {
      started_ = true;
    } else if (started_) {
      end_ = newline + 1;
    }
    scanned_ = newline + 1;
    line_start_ = scanned_;
  }
  return end_;
}

ParseResult parse_http_request(std::string_view bytes, std::size_t max_size) {
  // Lines of the head, without their CRLF or LF, up to the empty line.
  std::vector<std::string_view> lines;
  std::size_t position = 0;
  bool ended = false;
  while (!ended) {
    const std::size_t newline = bytes.find('\n', position);
    if (newline == std::string_view::npos) {
      break;
    }
    if (newline + 1 > max_size) {
      return {.status = ParseStatus::too_large, .request = {}, .error = {}};
    }
    std::string_view line = bytes.substr(position, newline - position);
    if (line.ends_with('\r')) {
      line.remove_suffix(1);
    }
    position = newline + 1;
    if (line.find('\r') != std::string_view::npos) {
      return bad("bare CR in the request head");
    }
    if (!line.empty()) {
      lines.push_back(line);
    } else {
      ended = !lines.empty();  // empty lines before the request line are skipped
    }
  }
  if (!ended) {
    if (bytes.size() >= max_size) {
      return {.status = ParseStatus::too_large, .request = {}, .error = {}};
    }
    return {.status = ParseStatus::incomplete, .request = {}, .error = {}};
  }
  ParseResult result = parse_request_line(lines.front());
  if (result.status != ParseStatus::complete) {
    return result;
  }
  return check_headers(std::move(result), lines);
}

std::string_view reason_phrase(int status) noexcept {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return "Unknown";
  }
}

HttpResponse error_response(int status, std::string_view detail) {
  std::string body = std::to_string(status) + ' ' + std::string(reason_phrase(status));
  if (!detail.empty()) {
    body += ": " + std::string(detail);
  }
  return {
      .status = status, .content_type = std::string(kTextType), .headers = {}, .body = body + '\n'};
}

HttpResponse error_response(const ParseResult& result) {
  switch (result.status) {
    case ParseStatus::too_large:
      return error_response(431, "the request head is too large");
    case ParseStatus::version_not_supported:
      return error_response(505, result.error);
    case ParseStatus::incomplete:
    case ParseStatus::complete:
    case ParseStatus::bad_request:
      break;
  }
  return error_response(400, result.error);
}

Route route(const HttpRequest& request) {
  if (request.path != "/" && request.path != kMetricsPath) {
    return {.metrics = false, .response = error_response(404, request.path)};
  }
  if (request.method != "GET" && request.method != "HEAD") {
    HttpResponse response = error_response(405, request.method);
    response.headers.emplace_back("Allow", kAllowedMethods);
    return {.metrics = false, .response = std::move(response)};
  }
  if (request.path == "/") {
    return {.metrics = false,
            .response = {.status = 200,
                         .content_type = std::string(kHtmlType),
                         .headers = {},
                         .body = std::string(kIndexPage)}};
  }
  return {.metrics = true, .response = metrics_response()};
}

HttpResponse metrics_response() {
  return {.status = 200,
          .content_type = std::string(kPrometheusContentType),
          .headers = {},
          .body = {}};
}

HttpResponse respond(const HttpRequest& request, const MetricsSource& metrics) {
  Route routed = route(request);
  if (!routed.metrics) {
    return std::move(routed.response);
  }
  try {
    routed.response.body = metrics();
    return std::move(routed.response);
  } catch (const std::exception& error) {
    return error_response(500, error.what());
  }
}

std::string http_date(std::chrono::system_clock::time_point when) {
  static constexpr std::array<std::string_view, 7> kDays{"Sun", "Mon", "Tue", "Wed",
                                                         "Thu", "Fri", "Sat"};
  static constexpr std::array<std::string_view, 12> kMonths{
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const std::time_t seconds = std::chrono::system_clock::to_time_t(when);
  std::tm utc{};
  if (::gmtime_r(&seconds, &utc) == nullptr) {
    return {};
  }
  std::array<char, 32> text{};
  const int length =
      std::snprintf(text.data(), text.size(), "%s, %02d %s %04d %02d:%02d:%02d GMT",
                    kDays.at(static_cast<std::size_t>(utc.tm_wday)).data(), utc.tm_mday,
                    kMonths.at(static_cast<std::size_t>(utc.tm_mon)).data(), utc.tm_year + 1900,
                    utc.tm_hour, utc.tm_min, utc.tm_sec);
  return length > 0 ? std::string(text.data(), static_cast<std::size_t>(length)) : std::string();
}

std::string serialize_head(const HttpResponse& response, std::size_t content_length,
                           std::string_view date) {
  std::string text = "HTTP/1.1 " + std::to_string(response.status) + ' ' +
                     std::string(reason_phrase(response.status)) + "\r\n";
  if (!date.empty()) {
    text += "Date: " + std::string(date) + "\r\n";
  }
  text += "Content-Type: " + response.content_type + "\r\n";
  text += "Content-Length: " + std::to_string(content_length) + "\r\n";
  text += "Connection: close\r\n";
  for (const auto& [name, value] : response.headers) {
    text.append(name).append(": ").append(value).append("\r\n");
  }
  text += "\r\n";
  return text;
}

std::string serialize(const HttpResponse& response, bool head_only, std::string_view date) {
  std::string text = serialize_head(response, response.body.size(), date);
  if (!head_only) {
    text += response.body;
  }
  return text;
}

}  // namespace hfctl
