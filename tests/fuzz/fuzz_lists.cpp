// Fuzz target: the list and range parsers of cli/lists.h and the number parsers under them. The
// first byte picks a parser (and its bounds), the rest is the option's text. Each must return
// values within its bounds, at most kMaxListLength of them, or throw UsageError.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/lists.h"
#include "fuzz_check.h"
#include "util/error.h"
#include "util/strings.h"

namespace {

// An integer as parse_int() may accept it: an optional sign, then digits only.
bool is_integer_text(std::string_view text) {
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) text.remove_prefix(1);
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

void check_numbers(std::string_view text) {
  if (const auto v = blurlab::parse_int(text)) {
    FUZZ_CHECK(is_integer_text(text));
    FUZZ_CHECK(blurlab::parse_int(std::to_string(*v)) == v);
  }
  if (const auto v = blurlab::parse_double(text)) FUZZ_CHECK(std::isfinite(*v));
  if (const auto wh = blurlab::parse_size(text)) FUZZ_CHECK(wh->first > 0 && wh->second > 0 && wh->first <= 1 << 20 && wh->second <= 1 << 20);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  using namespace blurlab::cli;
  check_numbers(text);
  try {
    switch (data[0] % 6) {
      case 0:
      case 1: {
        const long long min = data[0] % 6 == 0 ? 0 : 1, max = data[0] % 6 == 0 ? 128 : 16384;
        const auto values = parse_int_list(text, "--radius", min, max);
        FUZZ_CHECK(!values.empty() && values.size() <= kMaxListLength);
        for (int v : values) FUZZ_CHECK(v >= min && v <= max);
        break;
      }
      case 2: {
        const auto values = parse_double_list(text, "--sigma", 0.0, 1000.0);
        FUZZ_CHECK(!values.empty() && values.size() <= kMaxListLength);
        for (double v : values) FUZZ_CHECK(std::isfinite(v) && v > 0.0 && v <= 1000.0);
        break;
      }
      case 3:
      case 4: {
        const bool bare_is_row = data[0] % 6 == 4;
        const int max_edge = bare_is_row ? 1024 : 65536;
        const auto values = parse_size_list(text, "--size", max_edge, bare_is_row);
        FUZZ_CHECK(!values.empty() && values.size() <= kMaxListLength);
        for (const auto& v : values) FUZZ_CHECK(v.x > 0 && v.y > 0 && v.x <= max_edge && v.y <= max_edge);
        break;
      }
      default: {
        const auto words = parse_word_list(text, "--variant");
        FUZZ_CHECK(!words.empty());
        for (const std::string& w : words) FUZZ_CHECK(!w.empty() && w.find(',') == std::string::npos && blurlab::trim(w) == w);
      }
    }
  } catch (const blurlab::UsageError& e) {
    FUZZ_CHECK(!std::string_view(e.what()).empty());
  }
  return 0;
}
