#include "scripted_input.h"

namespace blurlab::app {

ScriptedInput::ScriptedInput(std::string_view script, double soak_seconds) : script_(ui::parse_script(script)) {
  if (soak_seconds > 0) soak_.emplace(soak_seconds);
}

std::optional<std::vector<ui::ScriptStep>> ScriptedInput::steps(uint64_t frame, int radius, size_t variant) {
  std::vector<ui::ScriptStep> steps;
  for (; at_ < script_.size() && script_[at_].frame <= frame; ++at_) steps.push_back(script_[at_]);
  if (soak_) {
    // A soak's input replaces the script's: it drives the window alone.
    const auto now = std::chrono::steady_clock::now();
    if (!start_) start_ = now;
    const double elapsed = std::chrono::duration<double>(now - *start_).count();
    steps = soak_driver_.steps(frame, radius);
    if (!soak_->frame(elapsed, variant, steps)) return std::nullopt;
  }
  return steps;
}

}  // namespace blurlab::app
