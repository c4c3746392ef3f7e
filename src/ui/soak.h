#pragma once
// The soak driver: pseudo-random input for long runs of the window (--soak SECONDS). Every few
// frames a key (variant, radius, kernel, format, view, linear light, effect), every few dozen
// frames a new window size (odd sizes, 1x1, and minimizing to 0x0 for a while). Deterministic for
// a seed, and it keeps the radius and the window small so a CPU rasterizer keeps up.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "ui/view_state.h"

namespace blurlab::ui {

class SoakDriver {
 public:
  explicit SoakDriver(uint64_t seed = 0x5eed) : state_(seed | 1) {}
  // The input for this frame, given the current radius.
  std::vector<ScriptStep> steps(uint64_t frame, int radius);

  static constexpr int kMaxRadius = 12;
  static constexpr glm::ivec2 kMaxSize{720, 480};

 private:
  uint32_t next(uint32_t bound);  // xorshift64*, uniform in [0, bound)
  uint64_t state_;
  uint64_t restore_at_ = 0;  // frame when a minimized window comes back
};

// The soak's bookkeeping and bounds: memory sampled every tenth of the run (after handing free
// heap back to the system, so what is measured is memory in use), the peak, the size once
// settled (a fifth of the run), the variants visited and the resizes; at the end the verdict.
class SoakMonitor {
 public:
  explicit SoakMonitor(double seconds) : seconds_(seconds) {}
  // Called once per frame with the seconds since the start and that frame's input; false once
  // the soak is over.
  bool frame(double elapsed, size_t variant, const std::vector<ScriptStep>& steps);

  // What the run touched, for the verdict's lines.
  struct Totals {
    uint64_t frames = 0;
    size_t timer_queries = 0;
    size_t programs_compiled = 0, programs_cached = 0;
  };
  // Prints the figures on stdout; returns 0, or 1 with one line on stderr naming the bound crossed.
  int verdict(const Totals& totals) const;

  static constexpr size_t kMaxQueries = 64;           // queries are reused, the pool stays small
  static constexpr size_t kMaxGrowth = size_t{64} << 20;  // memory after settling (programs, textures, timings are bounded)

 private:
  double seconds_;
  size_t settled_ = 0, peak_ = 0, resizes_ = 0;
  std::vector<size_t> curve_;
  std::set<size_t> visited_;
};

// Resident memory of this process in bytes, free heap handed back to the system first.
size_t resident_bytes();

}  // namespace blurlab::ui
