#include "util/table.h"

#include <algorithm>

#include "util/strings.h"

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
  size_t total = 0;
  for (size_t w : width) total += w + 2;
  // Narrow the wrapped column by the excess, down to its longest word.
  const size_t wrap = wrapped_column_;
  if (line_width_ > 0 && wrap < width.size() && total - 2 > line_width_) {
    size_t longest_word = 0;
    for (const auto& row : rows_)
      if (!is_title(row) && wrap < row.size())
        for (const std::string& word : split(row[wrap], ' ')) longest_word = std::max(longest_word, word.size());
    const size_t narrower = std::max({longest_word, header_[wrap].size(), width[wrap] - std::min(width[wrap], total - 2 - line_width_)});
    total -= width[wrap] - narrower;
    width[wrap] = narrower;
  }
  auto line = [&](std::vector<std::string> row) {
    std::vector<std::string> more;  // the wrapped cell's further lines
    if (wrap < row.size() && row[wrap].size() > width[wrap]) {
      more = split(wrapped(row[wrap], width[wrap]), '\n');
      row[wrap] = more.front();
      more.erase(more.begin());
    }
    std::string text;
    for (size_t i = 0; i < row.size() && i < width.size(); ++i) {
      text += row[i];
      if (i + 1 < row.size()) text += std::string(width[i] - std::min(width[i], row[i].size()) + 2, ' ');
    }
    out << text << "\n";
    for (const std::string& part : more) {
      size_t indent = 0;
      for (size_t i = 0; i < wrap; ++i) indent += width[i] + 2;
      out << std::string(indent, ' ') << part << "\n";
    }
  };
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
