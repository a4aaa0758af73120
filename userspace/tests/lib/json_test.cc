// tests/lib/json_test.cc - unit tests of hf::JsonWriter (lib/json.cc):
// string escaping, numbers, compact and pretty layout, and misuse.
#include "hyperframe/json.h"

#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

namespace {

using Style = hf::JsonWriter::Style;

TEST(JsonQuote, PlainTextIsOnlyQuoted) {
  EXPECT_EQ(hf::JsonWriter::quote("abc"), R"("abc")");
}

TEST(JsonQuote, EscapesQuoteAndBackslash) {
  EXPECT_EQ(hf::JsonWriter::quote(R"(a"b\c)"), R"("a\"b\\c")");
}

TEST(JsonQuote, ControlCharactersBecomeUnicodeEscapes) {
  EXPECT_EQ(hf::JsonWriter::quote("\n\t\r"), R"("\u000A\u0009\u000D")");
  EXPECT_EQ(hf::JsonWriter::quote("\x01\x1f"), R"("\u0001\u001F")");
  EXPECT_EQ(hf::JsonWriter::quote(std::string_view("a\0b", 3)), R"("a\u0000b")");
}

TEST(JsonQuote, PassesUtf8AndDelThrough) {
  EXPECT_EQ(hf::JsonWriter::quote("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
            "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
  EXPECT_EQ(hf::JsonWriter::quote("\x7f"), "\"\x7f\"");
  EXPECT_EQ(hf::JsonWriter::quote("a/b"), R"("a/b")");
}

TEST(JsonWriter, WritesScalars) {
  std::ostringstream out;
  hf::JsonWriter(out)
      .begin_array()
      .value("s")
      .value(true)
      .value(false)
      .value(nullptr)
      .value(-5)
      .value(std::numeric_limits<std::uint64_t>::max())
      .value(std::numeric_limits<std::int64_t>::min())
      .value(static_cast<std::uint16_t>(0x88b5))
      .value(1.5)
      .value(std::numeric_limits<double>::quiet_NaN())
      .value(std::numeric_limits<double>::infinity())
      .end_array();
  EXPECT_EQ(out.str(),
            R"(["s",true,false,null,-5,18446744073709551615,-9223372036854775808,34997,1.5,)"
            R"(null,null])");
}

TEST(JsonWriter, CompactObject) {
  std::ostringstream out;
  hf::JsonWriter json(out);
  json.begin_object()
      .member("family", 18)
      .member("name", "hf")
      .key("list")
      .begin_array()
      .value(1)
      .value(2)
      .end_array()
      .key("empty")
      .begin_object()
      .end_object()
      .end_object();
  EXPECT_EQ(out.str(), R"({"family":18,"name":"hf","list":[1,2],"empty":{}})");
  EXPECT_TRUE(json.complete());
}

TEST(JsonWriter, PrettyIndentsByTwo) {
  std::ostringstream out;
  hf::JsonWriter(out, Style::pretty)
      .begin_object()
      .member("family", 18)
      .key("list")
      .begin_array()
      .value(1)
      .begin_object()
      .member("a", true)
      .end_object()
      .end_array()
      .key("none")
      .begin_array()
      .end_array()
      .end_object();
  EXPECT_EQ(out.str(),
            "{\n"
            "  \"family\": 18,\n"
            "  \"list\": [\n"
            "    1,\n"
            "    {\n"
            "      \"a\": true\n"
            "    }\n"
            "  ],\n"
            "  \"none\": []\n"
            "}");
}

TEST(JsonWriter, EscapesKeys) {
  std::ostringstream out;
  hf::JsonWriter(out).begin_object().member("a\"b", 1).end_object();
  EXPECT_EQ(out.str(), R"({"a\"b":1})");
}

TEST(JsonWriter, TopLevelScalarCompletesTheDocument) {
  std::ostringstream out;
  hf::JsonWriter json(out);
  EXPECT_FALSE(json.complete());
  json.value(7);
  EXPECT_TRUE(json.complete());
  EXPECT_THROW(json.value(8), std::logic_error);
  EXPECT_EQ(out.str(), "7");
}

TEST(JsonWriter, RejectsMisuse) {
  std::ostringstream out;
  {
    hf::JsonWriter json(out);
    json.begin_object();
    EXPECT_THROW(json.value(1), std::logic_error);  // no key
    EXPECT_THROW(json.end_array(), std::logic_error);
    json.key("k");
    EXPECT_THROW(json.key("again"), std::logic_error);
    EXPECT_THROW(json.end_object(), std::logic_error);  // key without value
  }
  {
    hf::JsonWriter json(out);
    EXPECT_THROW(json.key("k"), std::logic_error);
    EXPECT_THROW(json.end_object(), std::logic_error);
    json.begin_array();
    EXPECT_THROW(json.key("k"), std::logic_error);
  }
}

}  // namespace
