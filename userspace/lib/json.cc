// lib/json.cc - hf::JsonWriter: separators, indentation, string escaping and
// number formatting of the streaming JSON writer.
#include "hyperframe/json.h"

#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace hf {
namespace {

constexpr std::size_t kIndentWidth = 2;

template <typename T>
std::string to_json_number(T number) {
  // Big enough for any 64-bit integer and for the shortest form of a double.
  std::array<char, 32> buffer{};
  const auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), number);
  if (error != std::errc{}) {
    throw std::logic_error("JsonWriter: number does not fit its buffer");
  }
  return {buffer.data(), end};
}

}  // namespace

JsonWriter::JsonWriter(std::ostream& out, Style style) : out_(out), style_(style) {}

std::string JsonWriter::quote(std::string_view text) {
  constexpr std::string_view kHex = "0123456789ABCDEF";
  std::string quoted;
  quoted.reserve(text.size() + 2);
  quoted += '"';
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (byte < 0x20) {
      quoted += "\\u00";
      quoted += kHex[byte >> 4U];
      quoted += kHex[byte & 0xfU];
    } else {
      quoted += c;  // printable ASCII, DEL, and UTF-8 sequences as they are
    }
  }
  quoted += '"';
  return quoted;
}

JsonWriter& JsonWriter::begin_object() {
  open('{', true);
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  close('}', true);
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  open('[', false);
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  close(']', false);
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  if (levels_.empty() || !levels_.back().object) {
    throw std::logic_error("JsonWriter: key outside an object");
  }
  Level& level = levels_.back();
  if (level.has_key) {
    throw std::logic_error("JsonWriter: key after key");
  }
  if (!level.empty) {
    out_ << ',';
  }
  level.empty = false;
  level.has_key = true;
  newline_indent();
  out_ << quote(name) << (style_ == Style::pretty ? ": " : ":");
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
  return write_scalar(quote(text));
}

JsonWriter& JsonWriter::value(bool flag) {
  return write_scalar(flag ? "true" : "false");
}

JsonWriter& JsonWriter::value(std::nullptr_t /*null*/) {
  return write_scalar("null");
}

JsonWriter& JsonWriter::value(double number) {
  if (!std::isfinite(number)) {
    return write_scalar("null");
  }
  return write_scalar(to_json_number(number));
}

JsonWriter& JsonWriter::write_integer(std::int64_t number) {
  return write_scalar(to_json_number(number));
}

JsonWriter& JsonWriter::write_integer(std::uint64_t number) {
  return write_scalar(to_json_number(number));
}

JsonWriter& JsonWriter::write_scalar(std::string_view json_text) {
  before_value();
  out_ << json_text;
  if (levels_.empty()) {
    complete_ = true;
  }
  return *this;
}

void JsonWriter::before_value() {
  if (complete_) {
    throw std::logic_error("JsonWriter: the document is already complete");
  }
  if (levels_.empty()) {
    return;
  }
  Level& level = levels_.back();
  if (level.object) {
    if (!level.has_key) {
      throw std::logic_error("JsonWriter: value in an object without a key");
    }
    level.has_key = false;
    return;
  }
  if (!level.empty) {
    out_ << ',';
  }
  level.empty = false;
  newline_indent();
}

void JsonWriter::open(char bracket, bool object) {
  before_value();
  out_ << bracket;
  levels_.push_back(Level{.object = object});
}

void JsonWriter::close(char bracket, bool object) {
  if (levels_.empty() || levels_.back().object != object) {
    throw std::logic_error(std::string("JsonWriter: unbalanced '") + bracket + "'");
  }
  if (levels_.back().has_key) {
    throw std::logic_error("JsonWriter: key without a value");
  }
  const bool empty = levels_.back().empty;
  levels_.pop_back();
  if (!empty) {
    newline_indent();
  }
  out_ << bracket;
  if (levels_.empty()) {
    complete_ = true;
  }
}

void JsonWriter::newline_indent() {
  if (style_ == Style::pretty) {
    out_ << '\n' << std::string(levels_.size() * kIndentWidth, ' ');
  }
}

}  // namespace hf
