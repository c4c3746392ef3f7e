#pragma once
// A check's result as the window shows it: its own header, so that the check worker and the
// overlay share it without the worker seeing ImGui.
#include <optional>
#include <string>

#include "blur/check.h"

namespace blurlab::app {

struct CheckLine {
  CheckResult result;
  Tolerance tolerance;
  std::string label;
  std::optional<Fidelity> fidelity;  // an approximation's, against the exact kernel it stands in for
};

}  // namespace blurlab::app
