#include "overlay.h"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "blur/registry.h"

namespace blurlab::app {

namespace {

const ImVec4 kRed(1.0f, 0.35f, 0.3f, 1.0f);
const ImVec4 kGreen(0.45f, 0.9f, 0.45f, 1.0f);

// ImGui 1.86 has no SeparatorText: a dim title over a rule.
void section(const char* title) {
  ImGui::Spacing();
  ImGui::TextDisabled("%s", title);
  ImGui::Separator();
}

// One combo per knob of the variant, over its candidates; the running value is shown even when
// the user gave one outside the list. Returns true when the user picked another value.
bool knob_combo(const Knob& knob, KnobValue current, KnobValues& chosen) {
  bool changed = false;
  const std::string label(knob.name);
  if (ImGui::BeginCombo(label.c_str(), knob.text(current).c_str())) {
    for (KnobValue c : knob.candidates)
      if (ImGui::Selectable(knob.text(c).c_str(), c == current)) {
        chosen[label] = c;
        changed = true;
      }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%.*s", static_cast<int>(knob.help.size()), knob.help.data());
  return changed;
}

// The border mode (key E) and, for constant, its value. Returns true when the user changed one.
bool border_controls(Border& border) {
  bool changed = false;
  if (ImGui::BeginCombo("border (E)", std::string(name(border.mode)).c_str())) {
    for (BorderMode mode : kBorderModes)
      if (ImGui::Selectable(std::string(name(mode)).c_str(), mode == border.mode)) {
        border.mode = mode;
        changed = true;
      }
    ImGui::EndCombo();
  }
  if (border.mode == BorderMode::Constant)
    changed |= ImGui::ColorEdit4("border value", border.value.data(), ImGuiColorEditFlags_Float | ImGuiColorEditFlags_AlphaBar);
  return changed;
}

void help_panel() {
  ImGui::SetNextWindowPos(ImVec2(ImGui::GetIO().DisplaySize.x - 10.0f, 10.0f), ImGuiCond_Always, ImVec2(1.0f, 0.0f));
  ImGui::SetNextWindowBgAlpha(0.9f);
  ImGui::Begin("Keys", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings);
  static const char* const rows[][2] = {
      {"1-9, Left/Right", "switch variant"}, {"+ / -", "radius"},          {"G", "box / gauss"},
      {"F", "cycle intermediate format"},    {"E", "cycle border mode"},   {"Space", "pause animation"}, {"V", "vsync"},
      {"S", "save a screenshot PNG"},        {"D", "difference: CPU reference, second variant, off"},
      {"B", "unblurred scene"},              {"C", "check against the CPU reference"},
      {"Tab", "hide the overlay"},           {"R", "reload shaders (--shader-dir)"},
      {"L", "linear light (rgba16f, sRGB out)"}, {"F1 or ?", "this help"}, {"Esc", "quit"},
  };
  for (const auto& row : rows) {
    ImGui::TextUnformatted(row[0]);
    ImGui::SameLine(130.0f);
    ImGui::TextDisabled("%s", row[1]);
  }
  ImGui::End();
}

}  // namespace

OverlayActions draw_overlay_panels(const OverlayModel& m) {
  OverlayActions actions;
  ui::ViewState s = m.state;
  bool changed = false;
  const auto all = variants();
  const VariantInfo& current = *all[s.variant];

  ImGui::SetNextWindowPos(ImVec2(10.0f, 10.0f), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.85f);
  // Small windows: the panel scrolls instead of running off the bottom.
  ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f), ImVec2(10000.0f, std::max(100.0f, ImGui::GetIO().DisplaySize.y - 20.0f)));
  ImGui::Begin("blurlab", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings);
  ImGui::Text("%s", m.info.renderer.c_str());
  ImGui::TextDisabled("%s", m.info.version.c_str());
  ImGui::Text("%dx%d  %s  t=%.2fs%s", m.size.x, m.size.y, s.linear_light ? "linear light rgba16f" : "rgba8", m.time,
              s.paused ? " (paused)" : "");
  ImGui::Text("%.0f FPS, CPU frame %.2f ms, vsync %s", m.cpu_frame_ms > 0 ? 1000.0 / m.cpu_frame_ms : 0.0, m.cpu_frame_ms,
              s.vsync ? "on" : "off");

  section("variant");
  for (Stage stage : {Stage::Fragment, Stage::Compute}) {
    ImGui::TextDisabled("%s", std::string(name(stage)).c_str());
    for (size_t i = 0; i < all.size(); ++i) {
      if (all[i]->stage != stage) continue;
      const std::string label = (i < 9 ? std::to_string(i + 1) + "  " : "   ") + std::string(all[i]->name);
      if (ImGui::Selectable(label.c_str(), i == s.variant)) {
        s.variant = i;
        changed = true;
      }
    }
  }

  section("settings");
  if (is_blur(current)) {
    int type = s.settings.kernel.type == KernelType::Box ? 0 : 1;
    bool picked = ImGui::RadioButton("box", &type, 0);
    ImGui::SameLine();
    picked |= ImGui::RadioButton("gauss", &type, 1);
    if (picked) {
      s.settings.kernel.type = type == 0 ? KernelType::Box : KernelType::Gauss;
      ui::set_radius(s, s.settings.kernel.radius);
      changed = true;
    }
    int radius = s.settings.kernel.radius;
    if (ImGui::SliderInt("radius", &radius, 0, kMaxRadius)) {
      ui::set_radius(s, radius);
      changed = true;
    }
    if (s.settings.kernel.type == KernelType::Gauss) {
      float sigma = static_cast<float>(s.settings.kernel.sigma);
      if (ImGui::SliderFloat("sigma", &sigma, 0.1f, kMaxRadius / 3.0f, "%.2f")) {
        s.settings.kernel.sigma = sigma;
        s.sigma_follows_radius = false;
        changed = true;
      }
    } else {
      ImGui::TextDisabled("sigma: n/a for the box kernel");
    }
    changed |= border_controls(s.settings.border);
  } else {
    ImGui::TextDisabled("kernel: n/a (the copy pass does not blur)");
  }
  if (current.uses_intermediate) {
    const gl::Format f = s.settings.intermediate_format();
    if (ImGui::BeginCombo("intermediate", std::string(gl::name(f)).c_str())) {
      for (const auto& info : gl::kFormats)
        if (ImGui::Selectable(std::string(info.name).c_str(), info.format == f)) {
          s.settings.intermediate = info.format;
          changed = true;
        }
      ImGui::EndCombo();
    }
  } else {
    ImGui::TextDisabled("intermediate: n/a (no intermediate texture)");
  }
  if (current.knobs.empty()) ImGui::TextDisabled("knobs: none for this variant");
  for (const Knob& k : current.knobs) {
    const auto running = m.resolved.knobs.find(k.name);
    changed |= knob_combo(k, running != m.resolved.knobs.end() ? running->second : k.default_value(), s.settings.knobs);
  }
  bool linear = s.linear_light;
  if (ImGui::Checkbox("linear light (L)", &linear)) {
    actions.effects |= ui::handle_key(s, ui::Key::L, all.size());
    changed = true;
  }
  if (m.unsupported) {
    ImGui::PushTextWrapPos(460.0f);
    ImGui::TextColored(kRed, "unsupported: %s", m.unsupported->c_str());
    ImGui::PopTextWrapPos();
  }

  section("GPU time (last 64 frames)");
  for (const ui::SpanSummary& span : m.stats.summaries())
    ImGui::Text("%-7s avg %8.3f ms  min %8.3f  max %8.3f", span.name.c_str(), span.mean_ms, span.min_ms, span.max_ms);
  const std::vector<float> history = m.stats.history("total");
  if (!history.empty()) {
    const float top = *std::max_element(history.begin(), history.end());
    ImGui::PlotLines("##total", history.data(), static_cast<int>(history.size()), 0, "blur total (ms)", 0.0f, top * 1.2f,
                     ImVec2(320.0f, 60.0f));
  } else if (!m.unsupported && s.view != ui::View::Unblurred) {
    ImGui::TextDisabled("waiting for timer queries...");
  }

  section("correctness");
  if (m.checking) {
    ImGui::TextDisabled("checking against the CPU reference...");
  } else if (m.check) {
    ImGui::TextColored(m.check->result.ok ? kGreen : kRed, "%s  %s", m.check->result.text().c_str(), m.check->result.ok ? "ok" : "FAIL");
    ImGui::PushTextWrapPos(460.0f);
    ImGui::TextDisabled("%s", m.check->label.c_str());
    ImGui::TextDisabled("tolerance %s", m.check->tolerance.reason.c_str());
    ImGui::PopTextWrapPos();
  }
  if (ImGui::Button("check now (C)")) actions.effects |= ui::kCheck;

  section("view");
  ImGui::Text("%s (D, B)", std::string(ui::name(s.view)).c_str());
  if (s.view == ui::View::DiffVariant) {
    if (ImGui::BeginCombo("second variant", std::string(all[s.diff_variant]->name).c_str())) {
      for (size_t i = 0; i < all.size(); ++i)
        if (ImGui::Selectable(std::string(all[i]->name).c_str(), i == s.diff_variant)) {
          s.diff_variant = i;
          changed = true;
        }
      ImGui::EndCombo();
    }
    if (m.diff_unsupported) ImGui::TextColored(kRed, "second variant unsupported: %s", m.diff_unsupported->c_str());
    ImGui::TextDisabled("difference x16, largest channel");
  } else if (s.view == ui::View::DiffReference) {
    ImGui::TextDisabled("difference x64, largest channel; animation held");
  }
  if (!m.shader_error.empty()) {
    section("shader error (last good program in use)");
    ImGui::PushTextWrapPos(560.0f);
    ImGui::TextColored(kRed, "%s", m.shader_error.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::TextDisabled("F1 or ?: keys   Tab: hide");
  ImGui::End();

  if (s.help) help_panel();
  if (changed) {
    actions.new_state = s;
    actions.effects |= ui::kReconfigure;
  }
  return actions;
}

}  // namespace blurlab::app
