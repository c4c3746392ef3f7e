#include "bench/timing.h"

#include <algorithm>
#include <chrono>

namespace blurlab::bench {

namespace {

class SteadyClock final : public Clock {
 public:
  double seconds() override {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
};

}  // namespace

Clock& steady_clock() {
  static SteadyClock clock;
  return clock;
}

int timed_frame_count(const TimingPolicy& policy, double frame_seconds) {
  if (policy.budget_s <= 0) return policy.frames;
  const double affordable = policy.budget_s / std::max(frame_seconds, 1e-6);
  const int n = affordable >= policy.frames ? policy.frames : static_cast<int>(affordable);
  return std::clamp(n, std::min(3, policy.frames), policy.frames);
}

Timing time_frames(Frames& frames, Clock& clock, const TimingPolicy& policy) {
  Timing t;
  // Warm-up: the device is waited for every 4 frames (so the loop sees how long they take) and
  // every frame once the frame count is reached, until both minimums are met or a slow
  // configuration used a third of its budget.
  const double warmup_start = clock.seconds();
  const double give_up = std::max(policy.budget_s / 3, policy.min_warmup_s);
  while (true) {
    frames.run_untimed();
    ++t.warmup_frames;
    if (t.warmup_frames % 4 != 0 && t.warmup_frames < policy.warmup_frames) continue;
    frames.finish();
    const double elapsed = clock.seconds() - warmup_start;
    if (t.warmup_frames >= policy.warmup_frames && elapsed >= policy.min_warmup_s) break;
    if (policy.budget_s > 0 && elapsed > give_up) break;
  }
  frames.finish();
  const double frame_seconds = (clock.seconds() - warmup_start) / t.warmup_frames;
  const int n = timed_frame_count(policy, frame_seconds);

  auto collect = [&](const std::vector<gl::FrameTimes>& done) {
    for (const gl::FrameTimes& frame : done)
      for (const gl::SpanTime& span : frame.spans) {
        if (std::find(t.span_order.begin(), t.span_order.end(), span.name) == t.span_order.end()) t.span_order.push_back(span.name);
        t.spans_ms[span.name].push_back(span.ms);
      }
  };
  const double start = clock.seconds();
  for (int f = 0; f < n; ++f) {
    frames.run_timed();
    collect(frames.poll());
  }
  frames.finish();
  t.timed_frames = n;
  t.cpu_ms_per_frame = n > 0 ? (clock.seconds() - start) * 1000.0 / n : 0.0;
  collect(frames.poll());
  return t;
}

}  // namespace blurlab::bench
