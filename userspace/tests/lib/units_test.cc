// tests/lib/units_test.cc - unit tests of lib/units.cc: human sizes, times,
// rates, packet counts and percentages in and out.
#include "hyperframe/units.h"

#include <cstdint>
#include <initializer_list>
#include <limits>

#include <gtest/gtest.h>

namespace {

using hf::format_value;
using hf::parse_value;
using hf::Unit;

TEST(ParseValue, BareNumbersAreTheBaseUnit) {
  EXPECT_EQ(parse_value("0", Unit::count), 0U);
  EXPECT_EQ(parse_value("4096", Unit::count), 4096U);
  EXPECT_EQ(parse_value("1500", Unit::bytes), 1500U);
  EXPECT_EQ(parse_value("250", Unit::usecs), 250U);
  EXPECT_EQ(parse_value("10", Unit::msecs), 10U);
  EXPECT_EQ(parse_value("1000", Unit::bits_per_s), 1000U);
}

TEST(ParseValue, SizesAre1024Based) {
  EXPECT_EQ(parse_value("64k", Unit::bytes), 65536U);
  EXPECT_EQ(parse_value("64K", Unit::bytes), 65536U);
  EXPECT_EQ(parse_value("64kb", Unit::bytes), 65536U);
  EXPECT_EQ(parse_value("64KiB", Unit::bytes), 65536U);
  EXPECT_EQ(parse_value("1m", Unit::bytes), 1048576U);
  EXPECT_EQ(parse_value("2g", Unit::bytes), 2147483648U);
  EXPECT_EQ(parse_value("1t", Unit::bytes), 1099511627776U);
  EXPECT_EQ(parse_value("7b", Unit::bytes), 7U);
}

TEST(ParseValue, TimesConvertToTheBaseUnit) {
  EXPECT_EQ(parse_value("250us", Unit::usecs), 250U);
  EXPECT_EQ(parse_value("2ms", Unit::usecs), 2000U);
  EXPECT_EQ(parse_value("1s", Unit::usecs), 1000000U);
  EXPECT_EQ(parse_value("10s", Unit::msecs), 10000U);
  EXPECT_EQ(parse_value("2000us", Unit::msecs), 2U);
  EXPECT_EQ(parse_value("5MS", Unit::msecs), 5U);
}

TEST(ParseValue, RatesAre1000BasedBits) {
  EXPECT_EQ(parse_value("10gbit", Unit::bits_per_s), 10000000000U);
  EXPECT_EQ(parse_value("100mbit", Unit::bits_per_s), 100000000U);
  EXPECT_EQ(parse_value("1kbit", Unit::bits_per_s), 1000U);
  EXPECT_EQ(parse_value("5bit", Unit::bits_per_s), 5U);
  EXPECT_EQ(parse_value("1mbps", Unit::bits_per_s), 8000000U);
}

TEST(ParseValue, ByteRatesTakeBitAndByteSuffixes) {
  EXPECT_EQ(parse_value("100mbit", Unit::bytes_per_s), 12500000U);
  EXPECT_EQ(parse_value("100Mbit", Unit::bytes_per_s), 12500000U);
  EXPECT_EQ(parse_value("10gbit", Unit::bytes_per_s), 1250000000U);
  EXPECT_EQ(parse_value("1tbit", Unit::bytes_per_s), 125000000000U);
  EXPECT_EQ(parse_value("8bit", Unit::bytes_per_s), 1U);
  EXPECT_EQ(parse_value("1gbps", Unit::bytes_per_s), 1000000000U);
  EXPECT_EQ(parse_value("1500bps", Unit::bytes_per_s), 1500U);
  EXPECT_EQ(parse_value("0", Unit::bytes_per_s), 0U) << "0: unpaced";
  EXPECT_EQ(parse_value("0mbit", Unit::bytes_per_s), 0U);
}

TEST(ParseValue, ByteRatesRefuseBareNumbersAndFractionsOfAByte) {
  EXPECT_EQ(parse_value("1000", Unit::bytes_per_s), std::nullopt) << "bits to tc, bytes to -j";
  EXPECT_EQ(parse_value("1bit", Unit::bytes_per_s), std::nullopt);
  EXPECT_EQ(parse_value("1001kbit", Unit::bytes_per_s), 125125U);
  EXPECT_EQ(parse_value("1kbit", Unit::bytes_per_s), 125U);
  EXPECT_EQ(parse_value("12bit", Unit::bytes_per_s), std::nullopt);
  EXPECT_EQ(parse_value("1mb", Unit::bytes_per_s), std::nullopt) << "a size, not a rate";
  EXPECT_EQ(parse_value("3000000tbps", Unit::bytes_per_s), 3000000000000000000U);
  EXPECT_EQ(parse_value("30000000tbps", Unit::bytes_per_s), std::nullopt) << "overflow";
}

TEST(ParseValue, PacketsAndPercentTakeTheirSign) {
  EXPECT_EQ(parse_value("1000", Unit::packets), 1000U);
  EXPECT_EQ(parse_value("1000p", Unit::packets), 1000U);
  EXPECT_EQ(parse_value("1000P", Unit::packets), 1000U);
  EXPECT_EQ(parse_value("1k", Unit::packets), std::nullopt);
  EXPECT_EQ(parse_value("p", Unit::packets), std::nullopt);
  EXPECT_EQ(parse_value("10", Unit::percent), 10U);
  EXPECT_EQ(parse_value("10%", Unit::percent), 10U);
  EXPECT_EQ(parse_value("10%%", Unit::percent), std::nullopt);
  EXPECT_EQ(parse_value("0.5%", Unit::percent), std::nullopt);
  EXPECT_EQ(parse_value("%", Unit::percent), std::nullopt);
}

TEST(ParseValue, RefusesWhatIsNotANumberInTheUnit) {
  EXPECT_EQ(parse_value("", Unit::count), std::nullopt);
  EXPECT_EQ(parse_value("k", Unit::bytes), std::nullopt);
  EXPECT_EQ(parse_value("-1", Unit::count), std::nullopt);
  EXPECT_EQ(parse_value(" 1", Unit::count), std::nullopt);
  EXPECT_EQ(parse_value("1 ", Unit::count), std::nullopt);
  EXPECT_EQ(parse_value("1k", Unit::count), std::nullopt);
  EXPECT_EQ(parse_value("1x", Unit::bytes), std::nullopt);
  EXPECT_EQ(parse_value("1ms", Unit::bytes), std::nullopt);
  EXPECT_EQ(parse_value("1k", Unit::usecs), std::nullopt);
  EXPECT_EQ(parse_value("1gbit", Unit::usecs), std::nullopt);
  EXPECT_EQ(parse_value("1.5m", Unit::bytes), std::nullopt);
  EXPECT_EQ(parse_value("0x10", Unit::count), std::nullopt);
}

TEST(ParseValue, RefusesFractionsOfTheBaseUnit) {
  EXPECT_EQ(parse_value("1500us", Unit::msecs), std::nullopt);
  EXPECT_EQ(parse_value("1us", Unit::msecs), std::nullopt);
}

TEST(ParseValue, RefusesOverflow) {
  EXPECT_EQ(parse_value("18446744073709551615", Unit::count),
            std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(parse_value("18446744073709551616", Unit::count), std::nullopt);
  EXPECT_EQ(parse_value("16777216t", Unit::bytes), std::nullopt);
  EXPECT_EQ(parse_value("18446744073709552s", Unit::usecs), std::nullopt);
}

TEST(FormatValue, UsesTheLargestExactSuffix) {
  EXPECT_EQ(format_value(65536, Unit::bytes), "64k");
  EXPECT_EQ(format_value(67108864, Unit::bytes), "64m");
  EXPECT_EQ(format_value(1073741824, Unit::bytes), "1g");
  EXPECT_EQ(format_value(1500, Unit::bytes), "1500");
  EXPECT_EQ(format_value(1536, Unit::bytes), "1536");
  EXPECT_EQ(format_value(250, Unit::usecs), "250us");
  EXPECT_EQ(format_value(2000, Unit::usecs), "2ms");
  EXPECT_EQ(format_value(2500, Unit::usecs), "2500us");
  EXPECT_EQ(format_value(2000000, Unit::usecs), "2s");
  EXPECT_EQ(format_value(10000, Unit::msecs), "10s");
  EXPECT_EQ(format_value(1500, Unit::msecs), "1500ms");
  EXPECT_EQ(format_value(10000000000, Unit::bits_per_s), "10gbit");
  EXPECT_EQ(format_value(1500000, Unit::bits_per_s), "1500kbit");
  EXPECT_EQ(format_value(42, Unit::count), "42");
  EXPECT_EQ(format_value(1000, Unit::packets), "1000p");
  EXPECT_EQ(format_value(10, Unit::percent), "10%");
}

TEST(FormatValue, ByteRatesAsTcPrintsThem) {
  EXPECT_EQ(format_value(12500000, Unit::bytes_per_s), "100Mbit");
  EXPECT_EQ(format_value(1250000000, Unit::bytes_per_s), "10Gbit");
  EXPECT_EQ(format_value(187500000, Unit::bytes_per_s), "1500Mbit");
  EXPECT_EQ(format_value(125, Unit::bytes_per_s), "1Kbit");
  EXPECT_EQ(format_value(125000000000, Unit::bytes_per_s), "1Tbit");
  EXPECT_EQ(format_value(1, Unit::bytes_per_s), "8bit");
  EXPECT_EQ(format_value(std::numeric_limits<std::uint64_t>::max(), Unit::bytes_per_s),
            "18446744073709551615bps")
      << "too many bits for 64 bits: bytes/s";
  EXPECT_EQ(parse_value("18446744073709551615bps", Unit::bytes_per_s),
            std::numeric_limits<std::uint64_t>::max());
}

TEST(FormatValue, ZeroKeepsItsUnit) {
  EXPECT_EQ(format_value(0, Unit::bytes), "0");
  EXPECT_EQ(format_value(0, Unit::usecs), "0us");
  EXPECT_EQ(format_value(0, Unit::msecs), "0us");
  EXPECT_EQ(format_value(0, Unit::bits_per_s), "0bit");
  EXPECT_EQ(format_value(0, Unit::count), "0");
  EXPECT_EQ(format_value(0, Unit::bytes_per_s), "0bit");
  EXPECT_EQ(format_value(0, Unit::packets), "0p");
  EXPECT_EQ(format_value(0, Unit::percent), "0%");
}

TEST(FormatValue, RoundTripsThroughParse) {
  for (const Unit unit : {Unit::count, Unit::bytes, Unit::usecs, Unit::msecs, Unit::bits_per_s,
                          Unit::bytes_per_s, Unit::packets, Unit::percent}) {
    for (const std::uint64_t value : std::initializer_list<std::uint64_t>{
             0, 1, 999, 1000, 1024, 65536, 2000000, 10000000000, 1099511627776,
             std::numeric_limits<std::uint64_t>::max()}) {
      EXPECT_EQ(parse_value(format_value(value, unit), unit), value)
          << format_value(value, unit) << " in " << hf::unit_name(unit);
    }
  }
}

}  // namespace
