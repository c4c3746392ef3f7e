#pragma once
// The window's scripted input: --script's steps, each at its frame, and with --soak the soak
// driver's pseudo-random steps and the soak's bookkeeping. The window feeds the steps through the
// paths real input takes (keys, resizes), so a test or a soak exercises what a user does.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ui/soak.h"
#include "ui/view_state.h"

namespace blurlab::app {

class ScriptedInput {
 public:
  // `script`: --script's text; `soak_seconds` > 0: a soak of that long (--soak).
  ScriptedInput(std::string_view script, double soak_seconds);

  // The steps for `frame`, given the radius and variant on screen; nullopt once the soak is over.
  std::optional<std::vector<ui::ScriptStep>> steps(uint64_t frame, int radius, size_t variant);
  // Whether steps are still to come: a minimized window then polls rather than sleeps.
  bool more_to_come() const { return at_ < script_.size() || soak_; }
  bool soaking() const { return soak_.has_value(); }
  // The soak's verdict (SoakMonitor::verdict); only while soaking().
  int soak_verdict(const ui::SoakMonitor::Totals& totals) const { return soak_->verdict(totals); }

 private:
  std::vector<ui::ScriptStep> script_;
  size_t at_ = 0;  // the first step not yet given
  ui::SoakDriver soak_driver_;
  std::optional<ui::SoakMonitor> soak_;
  std::optional<std::chrono::steady_clock::time_point> start_;  // the first frame's: the soak's clock
};

}  // namespace blurlab::app
