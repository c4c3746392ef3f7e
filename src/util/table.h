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
  void print(std::ostream& out) const;

 private:
  static constexpr const char* kTitle = "\x01title";
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;  // empty row: separator
};

}  // namespace blurlab
