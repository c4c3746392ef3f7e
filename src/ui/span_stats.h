#pragma once
// Rolling statistics of GPU span times for the overlay: the last N samples of each span,
// their mean, min and max, and the history for a plot.
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "gl/timer_pool.h"

namespace blurlab::ui {

struct SpanSummary {
  std::string name;
  double mean_ms = 0.0, min_ms = 0.0, max_ms = 0.0;
  size_t samples = 0;
};

class SpanStats {
 public:
  explicit SpanStats(size_t window = 64) : window_(window) {}
  void add(const gl::FrameTimes& frame);
  void clear();
  // Spans in first-seen order ("total" first when the blur records it).
  std::vector<SpanSummary> summaries() const;
  // The last samples of one span, oldest first (for ImGui::PlotLines).
  std::vector<float> history(const std::string& span) const;

 private:
  size_t window_;
  std::vector<std::string> order_;
  std::map<std::string, std::deque<double>> samples_;
};

}  // namespace blurlab::ui
