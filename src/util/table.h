#pragma once
// Plain-text tables with aligned columns, for reports on stdout.
#include <ostream>
#include <string>
#include <vector>

namespace blurlab {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void add_separator() { rows_.emplace_back(); }
  // A line of its own (a group heading) that does not widen the columns.
  void add_title(std::string text) { rows_.push_back({kTitle, std::move(text)}); }
  // Keeps printed lines within `line_width` where it can, by wrapping `column`'s cells at spaces
  // onto lines of their own (a word longer than the column stays whole).
  void wrap_to(size_t line_width, size_t column) {
    line_width_ = line_width;
    wrapped_column_ = column;
  }
  void print(std::ostream& out) const;

 private:
  static constexpr const char* kTitle = "\x01title";
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;  // empty row: separator
  size_t line_width_ = 0, wrapped_column_ = 0;   // 0: no limit
};

}  // namespace blurlab
