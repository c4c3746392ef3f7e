#pragma once
// A check's result as the window shows it: its own header, so that the check worker and the
// overlay share it without the worker seeing ImGui.
#include <optional>
#include <string>

#include "blur/check.h"
#include "effects/effect.h"

namespace blurlab::app {

struct CheckLine {
  CheckResult result;
  Tolerance tolerance;
  std::string label;
  std::optional<Fidelity> fidelity;  // an approximation's, against the exact kernel it stands in for
  // An effect's check: each stage against the CPU, the picture against the ground truth (`result`
  // and `tolerance` are then the first failing stage's, else the last stage's).
  std::optional<EffectCheck> effect;
};

}  // namespace blurlab::app
