#pragma once
// What a window run prints when it ends: the view on screen, each timing span's average and the
// frame and timer counts. The window tests read these lines (tests/window_test.cmake).
#include <cstddef>
#include <cstdint>
#include <string>

#include "ui/span_stats.h"

namespace blurlab::app {

struct RunCounts {
  uint64_t frames = 0;
  uint64_t minimized_frames = 0;
  size_t timer_queries = 0;  // both pipelines' (the second variant's timers are its own)
  size_t frames_dropped = 0;
};

void print_exit_summary(const std::string& view, const ui::SpanStats& stats, const RunCounts& counts);

}  // namespace blurlab::app
