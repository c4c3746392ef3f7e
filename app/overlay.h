#pragma once
// The Dear ImGui overlay, designed for 1280x720 and smaller: the effect and the variant (with an
// effect: its implementation) as combos, the settings in one line, the GPU time of the blur (the
// effect) and of each pass (stage), the correctness line and what the picture is stay at the top
// and always visible; the controls, the plot and the device facts
// are sections that collapse (closed by default in small windows). Every line describes what is
// on screen: the current variant's own settings even when it cannot run them, a check only of
// the current configuration.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "blur/check.h"
#include "check_line.h"
#include "gl/context.h"
#include "ui/span_stats.h"
#include "ui/view_state.h"

namespace blurlab::app {

// The correctness line: of the current configuration only.
enum class CheckState {
  NotRun,    // the variant cannot run these settings: nothing to check
  Pending,   // requested, waiting for a frame to copy
  Checking,  // the worker compares with the CPU reference
  Done,
};

// The difference views: what the grey and the red mean, and the numbers behind them.
struct DiffLine {
  float amplify = 0.0f;
  std::string scale;                    // "1 LSB = 25% grey"
  std::string tolerance;                // what red means
  std::optional<std::string> largest;   // the largest error, once computed
  // View::DiffVariant: the second variant, its GPU time and why it does not run.
  std::string second;
  std::optional<double> second_ms, first_ms;
  std::optional<std::string> second_problem;
};

struct OverlayModel {
  const gl::GlInfo& info;
  glm::ivec2 size;
  const ui::ViewState& state;
  const BlurSettings& settings;  // the current variant's own settings, defaults filled in
  const std::optional<std::string>& unsupported;  // why the current variant cannot run them
  const ui::Presented& presented;
  const ui::SpanStats& stats;  // GPU spans of the current configuration
  double cpu_frame_ms;
  const std::string& shader_error;
  const std::string& notice;  // why a key did nothing (R without --shader-dir), until the next key
  CheckState check_state;
  const CheckLine* check;  // CheckState::Done
  const DiffLine& diff;
  double time;
  // A variable-radius variant blurring by a map: the map's levels as grey (black r = 0, white
  // r = R) in a texture of that size, for the panel to show; 0 otherwise.
  unsigned radius_map_texture = 0;
  glm::ivec2 radius_map_size{0, 0};
  // With an effect on screen (ui::current_effect): its settings resolved, and EffectInfo::describe
  // of them ("" when it cannot say).
  const EffectSettings* effect_settings = nullptr;
  std::string effect_description;
};

// Where the panel and its always-visible lines are, in window pixels, for --frames runs to print
// and tests to check.
struct OverlayLayout {
  ImVec2 panel_min, panel_max;
  ImVec2 timing_min, timing_max;
  ImVec2 check_min, check_max;
  bool timing_visible = false, check_visible = false;
  int timing_rows = 0;  // the blur's total and each pass
  std::vector<std::string> lines;  // the always-visible lines' text, top to bottom
  int plot_points = 0;             // frames in the plot section's line (0: not drawn)
  ImVec2 plot_min, plot_max;
  bool help_shown = false;         // the keys' window (F1), opaque, over the panel
  ImVec2 help_min, help_max;
  std::vector<std::string> help_lines;
};

struct OverlayActions {
  std::optional<ui::ViewState> new_state;  // a control changed the state
  uint32_t effects = ui::kNone;            // as from keys (ui::Effect bits)
  OverlayLayout layout;
};

// What the overlay remembers between frames: the window size class its sections were opened
// for, and why the panel refused the last value typed for an effect's parameter (by "effect/name").
struct OverlayMemory {
  int size_class = -1;
  std::map<std::string, std::string> rejected;
};

// Builds the panels for this frame (between ImGui::NewFrame and ImGui::Render).
OverlayActions draw_overlay_panels(const OverlayModel& model, OverlayMemory& memory);

// Lines for stdout: the panel and its always-visible lines against the window, then their text.
std::string describe(const OverlayLayout& layout, glm::ivec2 window);

}  // namespace blurlab::app
