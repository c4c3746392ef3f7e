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
  void print(std::ostream& out) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;  // empty row: separator
};

}  // namespace blurlab
