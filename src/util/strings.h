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
// Strict whole-string number parsing: no trailing junk, no overflow. `out_of_range`, when given,
// tells why a text was refused: true for a number of the right form whose value the type cannot
// hold (99999999999999999999, 1e400, 1e-400), false for anything else, so a message can say "out
// of range" rather than "not a number".
std::optional<long long> parse_int(std::string_view text, bool* out_of_range = nullptr);
std::optional<double> parse_double(std::string_view text, bool* out_of_range = nullptr);
// "WxH" with positive W and H; `out_of_range` as above: both sides whole numbers, one of them not
// in 1..2^20.
std::optional<std::pair<int, int>> parse_size(std::string_view text, bool* out_of_range = nullptr);
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
// `text` when it holds at most `max_bytes`; else its start, cut at a space within the last eighth
// of them (or, in a long word, at a character's start: never inside a UTF-8 sequence) with "..."
// after it, so a message quoting something long stays short and readable.
std::string shortened(std::string_view text, size_t max_bytes);
// `text` as a part of a file name: ASCII letters and digits kept (lower case), every run of
// anything else one '_' ("bloom term 1" -> "bloom_term_1"), none at either end; "_" if nothing is left.
std::string file_name_part(std::string_view text);
// The names a mistyped `word` may have meant, at most `most`: those within a third of its length
// in edits (at least 2; Levenshtein) and at most one edit farther than the nearest, nearest first;
// if none, those that contain it (3 letters or more), shortest first.
std::vector<std::string> near_names(std::string_view word, const std::vector<std::string_view>& names, size_t most = 3);

}  // namespace blurlab
