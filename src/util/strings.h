#pragma once
#include <cstdint>
#include <glm/vec2.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blurlab {

std::vector<std::string> split(std::string_view text, char separator);
std::string_view trim(std::string_view text);
// Strict whole-string number parsing: no trailing junk, no overflow.
std::optional<long long> parse_int(std::string_view text);
std::optional<double> parse_double(std::string_view text);
// "WxH" with positive W and H.
std::optional<std::pair<int, int>> parse_size(std::string_view text);
std::string format_double(double value, int significant = 6);
// "512 bytes", "3.0 KiB", "1.5 GiB": binary units, one decimal.
std::string format_bytes(uint64_t bytes);
// "WxH".
std::string size_text(glm::ivec2 size);
// "1 frame", "0 frames", "5 frames": a count and a regular noun, plural unless the count is 1.
std::string plural(long long count, std::string_view noun);
// Text broken at spaces into lines of at most `width` characters (a longer word stays whole);
// lines after the first start with `indent`.
std::string wrapped(std::string_view text, size_t width, std::string_view indent = "");
// The names a mistyped `word` may have meant, at most `most`: those within a third of its length
// in edits (at least 2; Levenshtein) and at most one edit farther than the nearest, nearest first;
// if none, those that contain it (3 letters or more), shortest first.
std::vector<std::string> near_names(std::string_view word, const std::vector<std::string_view>& names, size_t most = 3);

}  // namespace blurlab
