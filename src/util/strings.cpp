#include "util/strings.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace blurlab {

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(separator, start);
    parts.emplace_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return parts;
}

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

std::optional<long long> parse_int(std::string_view text, bool* out_of_range) {
  if (out_of_range) *out_of_range = false;
  if (text.empty()) return std::nullopt;
  if (text.front() == '+') {
    text.remove_prefix(1);
    if (!text.empty() && text.front() == '-') return std::nullopt;  // "+-1": from_chars would take the '-' (found by fuzz_lists)
  }
  long long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (end != text.data() + text.size()) return std::nullopt;
  if (ec == std::errc::result_out_of_range && out_of_range) *out_of_range = true;
  if (ec != std::errc()) return std::nullopt;
  return value;
}

std::optional<double> parse_double(std::string_view text, bool* out_of_range) {
  if (out_of_range) *out_of_range = false;
  if (text.empty() || text.size() > 64) return std::nullopt;
  // Decimal notation only (strtod would also take hex floats, "inf" and "nan").
  if (text.find_first_not_of("0123456789.eE+-") != std::string_view::npos) return std::nullopt;
  const std::string copy(text);
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size()) return std::nullopt;
  if (errno == ERANGE && out_of_range) *out_of_range = true;  // beyond a double, or below its smallest
  if (errno != 0 || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<std::pair<int, int>> parse_size(std::string_view text, bool* out_of_range) {
  if (out_of_range) *out_of_range = false;
  const auto x = text.find_first_of("xX");
  if (x == std::string_view::npos) return std::nullopt;
  bool w_beyond = false, h_beyond = false;
  const auto w = parse_int(text.substr(0, x), &w_beyond);
  const auto h = parse_int(text.substr(x + 1), &h_beyond);
  constexpr long long kMaxSide = 1 << 20;
  if (out_of_range) *out_of_range = (w || w_beyond) && (h || h_beyond) && (w_beyond || h_beyond || *w > kMaxSide || *h > kMaxSide);
  if (!w || !h || *w <= 0 || *h <= 0 || *w > kMaxSide || *h > kMaxSide) return std::nullopt;
  return std::pair<int, int>(static_cast<int>(*w), static_cast<int>(*h));
}

std::string format_double(double value, int significant) {
  std::ostringstream out;
  out.precision(significant);
  out << value;
  return out.str();
}

std::string plural(long long count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

std::string format_bytes(uint64_t bytes) {
  constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  double value = static_cast<double>(bytes) / 1024.0;
  int unit = 0;
  while (value >= 1024.0 && unit < 4) {
    value /= 1024.0;
    ++unit;
  }
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(1);
  out << value << " " << kUnits[unit];
  return out.str();
}
std::string size_text(glm::ivec2 size) { return std::to_string(size.x) + "x" + std::to_string(size.y); }

std::string wrapped(std::string_view text, size_t width, std::string_view indent) {
  std::string out, line;
  for (const std::string& word : split(text, ' ')) {
    if (word.empty()) continue;
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = std::string(indent);
    }
    line += (line.empty() || line == indent ? "" : " ") + word;
  }
  return out + line;
}

std::string shortened(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80) --cut;  // a continuation byte: inside a character
  // At a space near the end, so a word is not cut; a long word (a quoted value) is cut where it must be.
  if (const size_t space = text.rfind(' ', cut); space != std::string_view::npos && space > max_bytes - max_bytes / 8) cut = space;
  return std::string(trim(text.substr(0, cut))) + "...";
}

std::string file_name_part(std::string_view text) {
  std::string out;
  bool gap = false;
  for (const char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x80 && std::isalnum(u)) {
      if (gap && !out.empty()) out += '_';
      out += static_cast<char>(std::tolower(u));
      gap = false;
    } else {
      gap = true;
    }
  }
  return out.empty() ? "_" : out;
}

namespace {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t substituted = diagonal + (a[i - 1] != b[j - 1]);
      diagonal = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, substituted});
    }
  }
  return row[b.size()];
}

}  // namespace

std::vector<std::string> near_names(std::string_view word, const std::vector<std::string_view>& names, size_t most) {
  const size_t limit = std::max<size_t>(2, word.size() / 3);
  std::vector<std::pair<size_t, std::string_view>> typos, parts;  // (rank, name): edits, or the name's length
  for (std::string_view name : names) {
    if (const size_t d = edit_distance(word, name); d <= limit)
      typos.emplace_back(d, name);
    else if (word.size() >= 3 && name.find(word) != std::string_view::npos)
      parts.emplace_back(name.size(), name);
  }
  const bool by_parts = typos.empty();
  auto& found = by_parts ? parts : typos;
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (const auto& [rank, name] : found)
    if (out.size() < most && (by_parts || rank <= found.front().first + 1)) out.emplace_back(name);
  return out;
}

}  // namespace blurlab
