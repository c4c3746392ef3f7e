#include "util/markup.h"

#include <algorithm>

#include "util/error.h"
#include "util/strings.h"

namespace blurlab {

namespace {

// The longest run of backticks in `text`.
size_t longest_backtick_run(std::string_view text) {
  size_t longest = 0, run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

}  // namespace

std::string markdown_text(std::string_view text) {
  // What means something inside a line (a link's brackets, emphasis, HTML, a table's pipes, a
  // heading's closing #s); a line of blurlab's always starts with its own text, never the user's.
  static constexpr std::string_view kMeaningful = "\\`*_[]<>|~&#";
  std::string out;
  for (const char c : single_line(text)) {
    if (kMeaningful.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string markdown_code(std::string_view text) {
  const std::string line = single_line(text);
  const std::string fence(longest_backtick_run(line) + 1, '`');
  // A span that starts or ends with a backtick needs a space between it and the fence (CommonMark
  // strips one space on each side).
  const bool pad = !line.empty() && (line.front() == '`' || line.back() == '`');
  return fence + (pad ? " " : "") + line + (pad ? " " : "") + fence;
}

std::string markdown_code_block(std::string_view text, std::string_view language) {
  const std::string line = single_line(text);
  const std::string fence(std::max<size_t>(3, longest_backtick_run(line) + 1), '`');
  return fence + std::string(language) + "\n" + line + "\n" + fence + "\n";
}

std::string glsl_comment_text(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f && c != '\\') out += ch;
    else out += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
  }
  return out;
}

}  // namespace blurlab
