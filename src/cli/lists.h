#pragma once
// Values of sweep options: comma-separated lists whose items may be ranges.
//   "1,2,4"      the values given
//   "1:8"        1, 2, ..., 8
//   "0:64:16"    0, 16, 32, 48, 64 (step)
//   "1:64:x2"    1, 2, 4, ..., 64 (factor)
// Each function throws UsageError naming `option` on malformed or out-of-range input.
#include <glm/vec2.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "blur/knob.h"

namespace blurlab::cli {

inline constexpr size_t kMaxListLength = 4096;

std::vector<int> parse_int_list(std::string_view text, std::string_view option, long long min, long long max);
// One whole number in min..max: a list or a range is refused ("--frames takes one number, not '1:3'").
int parse_one_int(std::string_view text, std::string_view option, long long min, long long max);
std::vector<double> parse_double_list(std::string_view text, std::string_view option, double min_exclusive, double max);
// "WxH" items; a bare number N means Nx1 when `bare_is_row` (workgroups), else an error.
std::vector<glm::ivec2> parse_size_list(std::string_view text, std::string_view option, int max_edge, bool bare_is_row = false);
std::vector<std::string> parse_word_list(std::string_view text, std::string_view option);
// Values of a knob (blur/knob.h): integer knobs take ranges too; sizes and choices are lists.
std::vector<KnobValue> parse_knob_list(const Knob& knob, std::string_view text, std::string_view option);

}  // namespace blurlab::cli
