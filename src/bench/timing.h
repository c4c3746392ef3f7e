#pragma once
// How one configuration is timed: warm-up, then frames back to back, medians over them. Plain
// logic over two interfaces (the frames to run and a clock), so it is tested with a fake GPU and
// a fake clock (tests/unit/test_bench.cpp); bench/measure.h drives it with the real pipeline.
#include <map>
#include <string>
#include <vector>

#include "gl/timer_pool.h"

namespace blurlab::bench {

// Seconds from some fixed start; never goes back.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual double seconds() = 0;
};
Clock& steady_clock();

// The frames of one configuration.
class Frames {
 public:
  virtual ~Frames() = default;
  virtual void run_untimed() = 0;  // one frame, outside the timer pool (warm-up)
  virtual void run_timed() = 0;    // one frame recorded in the timer pool
  virtual void finish() = 0;       // waits until the device has done everything submitted
  virtual std::vector<gl::FrameTimes> poll() = 0;  // timer results available now, oldest first
};

struct TimingPolicy {
  int warmup_frames = 5;  // untimed frames, at least
  // ... and at least this much time of them: clocks that dropped while the CPU checked the
  // previous configuration must ramp up again (the first configuration after a CPU reference
  // measured several times too slow after a quarter of a second of warm-up; 0.5 s was enough).
  double min_warmup_s = 0.5;
  int frames = 30;        // timed frames wanted
  // Seconds of timed frames per configuration (0: no limit). The frame count comes from the
  // warm-up's pace (at least 3 frames); slow configurations end their warm-up after a third of
  // it, but never before min_warmup_s.
  double budget_s = 3.0;
};

struct Timing {
  std::vector<std::string> span_order;                  // in first-seen order
  std::map<std::string, std::vector<double>> spans_ms;  // per timed frame
  double cpu_ms_per_frame = 0.0;  // wall time of the timed frames over their number, device finished
  int warmup_frames = 0;          // untimed frames run
  int timed_frames = 0;           // timed frames run (results may be fewer if the pool dropped some)
};

// Warms up, then runs the timed frames back to back as an application renders them: the device
// stays busy, the timer pool is polled without waiting, and one finish() at the end gives the
// wall time per frame.
Timing time_frames(Frames& frames, Clock& clock, const TimingPolicy& policy);

// The number of timed frames for a configuration whose frames take `frame_seconds`.
int timed_frame_count(const TimingPolicy& policy, double frame_seconds);

}  // namespace blurlab::bench
