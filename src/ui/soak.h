#pragma once
// The soak driver: pseudo-random input for long runs of the window (--soak SECONDS). Every few
// frames a key (variant, radius, kernel, format, view, linear light), every few dozen frames a
// new window size (odd sizes, 1x1, and minimizing to 0x0 for a while). Deterministic for a seed,
// and it keeps the radius and the window small so a CPU rasterizer keeps up.
#include <cstdint>
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

}  // namespace blurlab::ui
