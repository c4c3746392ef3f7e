#pragma once
// The Dear ImGui overlay: GPU/GL facts, the variant list grouped by stage, the settings (with
// those a variant lacks shown as such), live GPU timings and the correctness line.
#include <optional>
#include <string>

#include "blur/check.h"
#include "gl/context.h"
#include "ui/span_stats.h"
#include "ui/view_state.h"

namespace blurlab::app {

struct CheckLine {
  CheckResult result;
  Tolerance tolerance;
  std::string label;
  std::optional<Fidelity> fidelity;  // an approximation's, against the exact Gaussian it stands in for
};

struct OverlayModel {
  const gl::GlInfo& info;
  glm::ivec2 size;
  const ui::ViewState& state;
  const BlurSettings& resolved;  // the running settings, defaults filled in
  const ui::SpanStats& stats;
  double cpu_frame_ms;
  const std::optional<std::string>& unsupported;
  const std::optional<std::string>& diff_unsupported;
  const std::string& shader_error;
  const CheckLine* check;  // null until the first check finished
  bool checking;
  double time;
};

struct OverlayActions {
  std::optional<ui::ViewState> new_state;  // a control changed the state
  uint32_t effects = ui::kNone;            // as from keys (ui::Effect bits)
};

// Builds the panels for this frame (between ImGui::NewFrame and ImGui::Render).
OverlayActions draw_overlay_panels(const OverlayModel& model);

}  // namespace blurlab::app
