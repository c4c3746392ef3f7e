#include "cli/lists.h"

#include <algorithm>
#include <cmath>

#include "util/error.h"
#include "util/strings.h"

namespace blurlab::cli {

namespace {

std::string quoted(std::string_view option, std::string_view text) {
  return std::string(option) + " '" + std::string(text) + "'";
}

std::vector<std::string> items(std::string_view text, std::string_view option) {
  if (trim(text).empty()) throw UsageError(std::string(option) + " needs a value");
  std::vector<std::string> parts = split(text, ',');
  for (auto& part : parts) {
    part = std::string(trim(part));
    if (part.empty()) throw UsageError(quoted(option, text) + " has an empty list item");
  }
  return parts;
}

void check_length(size_t n, std::string_view option) {
  if (n > kMaxListLength) throw UsageError(std::string(option) + " lists more than " + std::to_string(kMaxListLength) + " values");
}

}  // namespace

std::vector<int> parse_int_list(std::string_view text, std::string_view option, long long min, long long max) {
  std::vector<int> values;
  const std::string range_text = std::to_string(min) + ".." + std::to_string(max);
  auto in_range = [&](std::string_view item) {
    bool beyond = false;
    const auto v = parse_int(item, &beyond);
    if (!v) throw UsageError(quoted(option, item) + (beyond ? " is out of range " + range_text : " is not a whole number"));
    if (*v < min || *v > max) throw UsageError(quoted(option, item) + " is out of range " + range_text);
    return *v;
  };
  for (const std::string& item : items(text, option)) {
    const std::vector<std::string> parts = split(item, ':');
    if (parts.size() == 1) {
      values.push_back(static_cast<int>(in_range(item)));
    } else if (parts.size() == 2 || parts.size() == 3) {
      const long long first = in_range(parts[0]), last = in_range(parts[1]);
      if (last < first) throw UsageError(quoted(option, item) + ": the range ends before it starts");
      bool geometric = false;
      long long step = 1;
      if (parts.size() == 3) {
        std::string_view s = parts[2];
        geometric = !s.empty() && (s[0] == 'x' || s[0] == '*');
        if (geometric) s.remove_prefix(1);
        const auto v = parse_int(s);
        if (!v || *v < (geometric ? 2 : 1) || *v > 1'000'000)
          throw UsageError(quoted(option, item) + ": the step must be a positive number, or xN with N >= 2");
        step = *v;
        if (geometric && first <= 0) throw UsageError(quoted(option, item) + ": a geometric range must start above 0");
      }
      for (long long v = first; v <= last; v = geometric ? v * step : v + step) {
        values.push_back(static_cast<int>(v));
        check_length(values.size(), option);
      }
    } else {
      throw UsageError(quoted(option, item) + " is not a number or a range A:B[:STEP|:xFACTOR]");
    }
    check_length(values.size(), option);
  }
  return values;
}

int parse_one_int(std::string_view text, std::string_view option, long long min, long long max) {
  if (text.find_first_of(",:") != std::string_view::npos)
    throw UsageError(std::string(option) + " takes one number, not '" + std::string(text) + "'");
  return parse_int_list(text, option, min, max).front();
}

std::vector<double> parse_double_list(std::string_view text, std::string_view option, double min_exclusive, double max) {
  std::vector<double> values;
  for (const std::string& item : items(text, option)) {
    bool beyond = false;
    const auto v = parse_double(item, &beyond);
    if (!v && !beyond) throw UsageError(quoted(option, item) + " is not a number");
    if (!v || !(*v > min_exclusive && *v <= max))
      throw UsageError(quoted(option, item) + " is out of range (" + format_double(min_exclusive) + ", " + format_double(max) + "]");
    values.push_back(*v);
    check_length(values.size(), option);
  }
  return values;
}

std::vector<glm::ivec2> parse_size_list(std::string_view text, std::string_view option, int max_edge, bool bare_is_row) {
  std::vector<glm::ivec2> values;
  for (const std::string& item : items(text, option)) {
    glm::ivec2 size;
    bool beyond = false;
    if (const auto wh = parse_size(item, &beyond)) {
      size = {wh->first, wh->second};
    } else if (const auto n = parse_int(item); bare_is_row && n) {
      if (*n <= 0) throw UsageError(quoted(option, item) + " must be positive");
      size = {static_cast<int>(std::min<long long>(*n, max_edge + 1LL)), 1};
    } else {
      const bool has_x = item.find_first_of("xX") != std::string::npos;
      if (has_x) {
        const auto parts = split(item, item.find('x') != std::string::npos ? 'x' : 'X');
        for (const auto& p : parts)
          if (const auto v = parse_int(p); v && *v <= 0) throw UsageError(quoted(option, item) + ": sizes must be positive");
      }
      if (beyond) throw UsageError(quoted(option, item) + " is larger than " + std::to_string(max_edge) + " on a side");
      throw UsageError(quoted(option, item) + (bare_is_row ? " is not WxH or N" : " is not WxH"));
    }
    if (size.x > max_edge || size.y > max_edge)
      throw UsageError(quoted(option, item) + " is larger than " + std::to_string(max_edge) + " on a side");
    values.push_back(size);
    check_length(values.size(), option);
  }
  return values;
}

std::vector<std::string> parse_word_list(std::string_view text, std::string_view option) { return items(text, option); }

std::vector<KnobValue> parse_knob_list(const Knob& knob, std::string_view text, std::string_view option) {
  std::vector<KnobValue> values;
  if (knob.type == KnobType::Integer) {
    for (int v : parse_int_list(text, option, knob.min, knob.max)) values.push_back({v, 0});
    return values;
  }
  for (const std::string& item : items(text, option)) {
    std::string why;
    const auto v = knob.parse(item, &why);
    if (!v) throw UsageError(quoted(option, item) + " " + why);
    values.push_back(*v);
    check_length(values.size(), option);
  }
  return values;
}

}  // namespace blurlab::cli
