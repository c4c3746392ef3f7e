#include "exit_summary.h"

#include <cstdio>

namespace blurlab::app {

void print_exit_summary(const std::string& view, const ui::SpanStats& stats, const RunCounts& counts) {
  std::printf("view: %s\n", view.c_str());
  for (const ui::SpanSummary& span : stats.summaries())
    std::printf("span %-6s avg %.3f ms (min %.3f, max %.3f, last %zu frames)\n", span.name.c_str(), span.mean_ms, span.min_ms,
                span.max_ms, span.samples);
  std::printf("frames %llu (minimized %llu), GPU timer queries %zu, frames dropped %zu\n", static_cast<unsigned long long>(counts.frames),
              static_cast<unsigned long long>(counts.minimized_frames), counts.timer_queries, counts.frames_dropped);
}

}  // namespace blurlab::app
