#pragma once
// A string from the user or a file (a path, a radius map's name, the command line, a GL_RENDERER)
// placed into text that something else reads as code or markup: escaped for that target, so it
// stays text. A map named "m\nvoid main() {}" once became a line of an exported shader (its
// recipe then ran another shader, exit 0) and a heading of report.md. The terminal's rule is
// single_line() (util/error.h); JSON's is nlohmann-json's, with invalid UTF-8 replaced
// (error_handler_t::replace) rather than thrown at the end of a run; CSV's is csv_field().
#include <string>
#include <string_view>

namespace blurlab {

// Markdown text inside a line (a paragraph, a heading, a table cell, a list item): one line
// (single_line()), and every character Markdown gives a meaning there backslash-escaped
// (\ ` * _ [ ] < > | ~ & #).
std::string markdown_text(std::string_view text);
// A Markdown code span: the text on one line between backtick fences longer than any run of
// backticks in it.
std::string markdown_code(std::string_view text);
// A fenced Markdown code block of `language` holding the text on one line (single_line(): a command
// line's quoted line break shown as \n), between fences longer than any run of backticks in it.
std::string markdown_code_block(std::string_view text, std::string_view language);
// Text for a GLSL `//` comment: printable ASCII stays, anything else (a line break that would end
// the comment, a backslash that would continue it onto the next line, bytes a compiler may not
// take) becomes \xNN.
std::string glsl_comment_text(std::string_view text);

}  // namespace blurlab
