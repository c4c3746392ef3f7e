#include "util/table.h"

#include <algorithm>

namespace blurlab {

void TextTable::print(std::ostream& out) const {
  std::vector<size_t> width(header_.size(), 0);
  auto is_title = [](const std::vector<std::string>& row) { return row.size() == 2 && row[0] == kTitle; };
  auto measure = [&](const std::vector<std::string>& row) {
    if (is_title(row)) return;
    for (size_t i = 0; i < row.size() && i < width.size(); ++i) width[i] = std::max(width[i], row[i].size());
  };
  measure(header_);
  for (const auto& row : rows_) measure(row);
  auto line = [&](const std::vector<std::string>& row) {
    std::string text;
    for (size_t i = 0; i < row.size() && i < width.size(); ++i) {
      text += row[i];
      if (i + 1 < row.size()) text += std::string(width[i] - row[i].size() + 2, ' ');
    }
    out << text << "\n";
  };
  size_t total = 0;
  for (size_t w : width) total += w + 2;
  line(header_);
  out << std::string(total > 2 ? total - 2 : 0, '-') << "\n";
  for (const auto& row : rows_) {
    if (row.empty())
      out << "\n";
    else if (is_title(row))
      out << row[1] << "\n";
    else
      line(row);
  }
}

}  // namespace blurlab
