// hyperframe/json.h - hf::JsonWriter, a streaming JSON writer for tools'
// -j (compact) and -p (pretty, two-space indent) output.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace hf {

// Writes one JSON value (usually an object) to a stream as it is built:
//
//   hf::JsonWriter json(out, hf::JsonWriter::Style::pretty);
//   json.begin_object().member("family", 18).member("loaded", true).end_object();
//
// Strings are written byte for byte except that '"' and '\\' are escaped and
// control characters (below 0x20) become \u00XX; UTF-8 passes through.
// Misuse (a value without a key inside an object, unbalanced end_*(), a
// second top-level value) throws std::logic_error. No newline is written
// after the document.
class JsonWriter {
 public:
  enum class Style { compact, pretty };

  explicit JsonWriter(std::ostream& out, Style style = Style::compact);

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);

  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(bool flag);
  JsonWriter& value(std::nullptr_t);
  JsonWriter& value(double number);  // NaN and infinities are written as null
  template <std::integral T>
  requires(!std::same_as<T, bool>) JsonWriter& value(T number) {
    if constexpr (std::is_signed_v<T>) {
      return write_integer(static_cast<std::int64_t>(number));
    } else {
      return write_integer(static_cast<std::uint64_t>(number));
    }
  }

  // key(name) then value(v).
  template <typename T>
  JsonWriter& member(std::string_view name, const T& v) {
    key(name);
    if constexpr (std::is_array_v<T>) {
      return value(std::string_view(std::data(v)));  // a string literal
    } else {
      return value(v);
    }
  }

  // Whether one whole top-level value has been written.
  [[nodiscard]] bool complete() const noexcept { return complete_; }

  // `text` as a JSON string literal, quotes included.
  [[nodiscard]] static std::string quote(std::string_view text);

 private:
  struct Level {
    bool object = false;
    bool empty = true;
    bool has_key = false;
  };

  JsonWriter& write_integer(std::int64_t number);
  JsonWriter& write_integer(std::uint64_t number);
  JsonWriter& write_scalar(std::string_view json_text);
  void before_value();
  void open(char bracket, bool object);
  void close(char bracket, bool object);
  void newline_indent();

  std::ostream& out_;
  Style style_;
  std::vector<Level> levels_;
  bool complete_ = false;
};

}  // namespace hf
