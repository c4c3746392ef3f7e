#include "ui/span_stats.h"

#include <algorithm>
#include <numeric>

namespace blurlab::ui {

void SpanStats::add(const gl::FrameTimes& frame) {
  for (const gl::SpanTime& span : frame.spans) {
    auto [it, inserted] = samples_.try_emplace(span.name);
    if (inserted) order_.push_back(span.name);
    it->second.push_back(span.ms);
    while (it->second.size() > window_) it->second.pop_front();
  }
}

void SpanStats::clear() {
  order_.clear();
  samples_.clear();
}

std::vector<SpanSummary> SpanStats::summaries() const {
  std::vector<SpanSummary> out;
  for (const std::string& name : order_) {
    const auto& values = samples_.at(name);
    if (values.empty()) continue;
    SpanSummary s;
    s.name = name;
    s.samples = values.size();
    s.mean_ms = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    s.min_ms = *lo;
    s.max_ms = *hi;
    out.push_back(s);
  }
  return out;
}

std::vector<float> SpanStats::history(const std::string& span) const {
  const auto it = samples_.find(span);
  if (it == samples_.end()) return {};
  return std::vector<float>(it->second.begin(), it->second.end());
}

}  // namespace blurlab::ui
