#include "overlay.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include <imgui_stdlib.h>

#include "blur/radius_map.h"
#include "blur/registry.h"
#include "effects/registry.h"
#include "util/strings.h"

namespace blurlab::app {

namespace {

const ImVec4 kRed(1.0f, 0.35f, 0.3f, 1.0f);
const ImVec4 kGreen(0.45f, 0.9f, 0.45f, 1.0f);
const ImVec4 kAmber(1.0f, 0.75f, 0.3f, 1.0f);

// Small windows open fewer sections: 0 below 900x600, 1 up to 1600x1000 (1280x720 has the
// controls open), 2 above (everything open).
int size_class(ImVec2 display) {
  if (display.x < 900.0f || display.y < 600.0f) return 0;
  if (display.x < 1600.0f || display.y < 1000.0f) return 1;
  return 2;
}

// A collapsing section, opened by default from size class `opens_at`; the user's choice stays
// until the window moves to another size class.
bool section(const char* title, int opens_at, int size_class, bool class_changed) {
  if (class_changed) ImGui::SetNextItemOpen(size_class >= opens_at, ImGuiCond_Always);
  return ImGui::CollapsingHeader(title);
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

// The border mode (key E) and, for constant, its value (above 1 only where the input is float:
// an rgba8 texel holds 0..1). Returns true when the user changed one.
bool border_controls(Border& border, bool float_input) {
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
    changed |= ImGui::ColorEdit4("border value", border.value.data(),
                                 ImGuiColorEditFlags_Float | ImGuiColorEditFlags_AlphaBar | (float_input ? ImGuiColorEditFlags_HDR : 0));
  return changed;
}

// A variant as the combos list it: its key, its name, its stage.
std::string variant_label(size_t index) {
  const VariantInfo& v = *variants()[index];
  const std::string key = ui::variant_key(index);
  return (key.empty() ? std::string("   ") : key + (key.size() == 1 ? "  " : " ")) + std::string(v.name);
}

// Lists every variant in the registry's order (the keys' order), the approximations of the
// Gaussian (last in the registry) in their own group; returns the index picked.
std::optional<size_t> variant_combo(const char* id, size_t current) {
  std::optional<size_t> picked;
  if (ImGui::BeginCombo(id, variant_label(current).c_str(), ImGuiComboFlags_HeightLargest)) {
    const auto all = variants();
    for (size_t i = 0; i < all.size(); ++i) {
      if (is_approximation(*all[i]) && (i == 0 || !is_approximation(*all[i - 1]))) {
        ImGui::Separator();
        ImGui::TextDisabled("approximate Gaussians");
      }
      if (ImGui::Selectable(variant_label(i).c_str(), i == current)) picked = i;
      const std::string stage(name(all[i]->stage));
      ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize(stage.c_str()).x);
      ImGui::TextDisabled("%s", stage.c_str());
    }
    if (const std::string note = ui::keyless_variants_note(all.size()); !note.empty()) {
      ImGui::Separator();
      ImGui::TextDisabled("%s", note.c_str());
    }
    ImGui::EndCombo();
  }
  return picked;
}

// The effects as the combo lists them: none first, then effects() in the X key's order.
std::string effect_label(size_t index) {
  const auto all = effects();
  return index == 0 || index > all.size() ? std::string("none") : std::string(all[index - 1]->name);
}

// The effect (X): returns the index picked (0: none).
std::optional<size_t> effect_combo(size_t current) {
  std::optional<size_t> picked;
  if (ImGui::BeginCombo("##effect", effect_label(current).c_str())) {
    for (size_t i = 0; i <= effects().size(); ++i) {
      if (ImGui::Selectable(effect_label(i).c_str(), i == current)) picked = i;
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", i == 0 ? "the blur alone on the scene" : std::string(effects()[i - 1]->summary).c_str());
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("effect (X)");
  return picked;
}

// An implementation of an effect as its combo lists it: a variant with its key (a digit selects
// it), or the effect's own.
std::string implementation_label(const std::string& name) {
  const auto all = variants();
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i]->name == name) return variant_label(i);
  return "   " + name;
}

// The effect's implementations in its order (the report's): exact variants, the approximations
// in a group, its own in another; returns the index picked.
std::optional<size_t> implementation_combo(const EffectInfo& effect, size_t current) {
  std::optional<size_t> picked;
  const std::vector<std::string> names = effect.implementations();
  const std::string shown = current < names.size() ? implementation_label(names[current]) : "?";
  if (ImGui::BeginCombo("##implementation", shown.c_str(), ImGuiComboFlags_HeightLargest)) {
    std::string group = "exact";
    for (size_t i = 0; i < names.size(); ++i) {
      const VariantInfo* v = find_variant(names[i]);
      const std::string in = !v ? std::string(effect.name) + "'s own" : is_approximation(*v) ? "approximate Gaussians" : "exact";
      if (in != group) {
        ImGui::Separator();
        ImGui::TextDisabled("%s", in.c_str());
        group = in;
      }
      if (ImGui::Selectable(implementation_label(names[i]).c_str(), i == current)) picked = i;
      const std::string stage = v ? std::string(name(v->stage)) : "effect";
      ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize(stage.c_str()).x);
      ImGui::TextDisabled("%s", stage.c_str());
    }
    ImGui::EndCombo();
  }
  return picked;
}

// An effect's settings in one line: each parameter's value (in the effect's order), the border,
// and the knobs given to the implementation's variant.
std::string effect_settings_line(const EffectInfo& effect, const EffectSettings& settings) {
  std::string line;
  for (const EffectParameter& p : effect.parameters)
    if (const auto it = settings.values.find(p.name); it != settings.values.end())
      line += (line.empty() ? "" : " ") + std::string(p.name) + "=" + it->second;
  line += " border=" + std::string(name(settings.border.mode));
  if (const VariantInfo* v = find_variant(settings.implementation))
    for (const Knob& k : v->knobs)
      if (const auto it = settings.knobs.find(k.name); it != settings.knobs.end()) line += " " + std::string(k.name) + "=" + k.text(it->second);
  return line;
}

// A line of text wrapped at the panel's width (in a colour, or dim); the always-visible ones are
// also collected for --frames runs to print.
enum class Tone { Normal, Dim };
void text_line(const std::string& text, const ImVec4* colour = nullptr, Tone tone = Tone::Normal,
               std::vector<std::string>* collected = nullptr) {
  if (collected) collected->push_back(text);
  ImGui::PushStyleColor(ImGuiCol_Text, colour ? *colour : ImGui::GetStyle().Colors[tone == Tone::Dim ? ImGuiCol_TextDisabled : ImGuiCol_Text]);
  ImGui::PushTextWrapPos(0.0f);  // the panel's width
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

// What an approximation's fidelity is against: the exact per-pixel blur of a radius map, or the
// exact Gaussian of the sigma it declares (and the one asked for, where they differ).
std::string fidelity_target(const VariantInfo& variant, const BlurSettings& settings, const Fidelity& f) {
  if (variant.variable_radius) return "the exact per-pixel blur (map " + describe(settings.radius_map.get()) + ")";
  const std::string realized = format_double(f.sigma, 3), asked = format_double(settings.kernel.sigma, 3);
  return "gauss sigma " + realized + (realized == asked ? "" : " (realized; " + asked + " asked)");
}

// How deep a span sits under the total: 1 for a pass or a stage, one more for each span it is a
// part of ("blur h" of "blur", "blur 1 v" of "blur 1": the blur stage's passes, named after it).
int span_depth(const std::string& name, const std::vector<ui::SpanSummary>& spans) {
  int depth = 1;
  for (const ui::SpanSummary& other : spans)
    if (other.name != "total" && name.size() > other.name.size() + 1 && name.compare(0, other.name.size(), other.name) == 0 &&
        name[other.name.size()] == ' ')
      ++depth;
  return depth;
}

// A time in milliseconds to four significant digits at most (1013 ms on a CPU rasterizer, 0.085
// on a GPU): the columns stay narrow enough for the names beside them.
std::string milliseconds(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, ms >= 100.0 ? "%.0f" : ms >= 10.0 ? "%.1f" : ms >= 1.0 ? "%.2f" : "%.3f", ms);
  return text;
}

// The GPU time of the blur (an effect) and of each pass (each stage, and its passes under it): a
// row per span, "total" as `total`. The names' column is as wide as its widest name.
int timing_table(const ui::SpanStats& stats, const char* total) {
  int rows = 0;
  const std::vector<ui::SpanSummary> spans = stats.summaries();
  std::vector<std::string> names;
  float widest = ImGui::CalcTextSize("GPU ms").x;
  for (const ui::SpanSummary& span : spans) {
    names.push_back(span.name == "total" ? std::string(total) : std::string(2 * static_cast<size_t>(span_depth(span.name, spans)), ' ') + span.name);
    widest = std::max(widest, ImGui::CalcTextSize(names.back().c_str()).x);
  }
  if (!ImGui::BeginTable("timing", 4, ImGuiTableFlags_SizingStretchProp)) return rows;
  ImGui::TableSetupColumn("GPU ms", ImGuiTableColumnFlags_WidthFixed, widest);
  ImGui::TableSetupColumn("avg", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("min", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("max", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableHeadersRow();
  for (size_t i = 0; i < spans.size(); ++i) {
    if (spans[i].name == "scene") continue;  // not the blur: the Device section shows it
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(names[i].c_str());
    for (double v : {spans[i].mean_ms, spans[i].min_ms, spans[i].max_ms}) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(milliseconds(v).c_str());
    }
    ++rows;
  }
  ImGui::EndTable();
  return rows;
}

// The keys, over the panel where the window is small: opaque, so the panel's lines do not show
// through its text. Its rectangle and rows go into `layout` for --frames runs to print.
void help_panel(OverlayLayout& layout) {
  ImGui::SetNextWindowPos(ImVec2(ImGui::GetIO().DisplaySize.x - 10.0f, 10.0f), ImGuiCond_Always, ImVec2(1.0f, 0.0f));
  ImGui::SetNextWindowBgAlpha(1.0f);
  ImGui::SetNextWindowFocus();  // above the panel
  ImGui::Begin("Keys", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings);
  std::string effect_cycle = "none";
  for (const EffectInfo* e : effects()) effect_cycle += ", " + std::string(e->name);
  const std::string effect_row = "effect: " + effect_cycle + ", none (its implementation: Left/Right, digits)";
  const char* const rows[][2] = {
      {"1-9, Shift+1-9", "variants 1-18 (the list's numbers)"},
      {"Left/Right", "previous / next variant (all of them)"},
      {"X", effect_row.c_str()},
      {"K", "the effect's kernel: bloom's Gaussian, then the shipped kernel images (fft-2d)"},
      {"+ / -", "radius (an approximation: sigma)"},
      {"G", "box / gauss"},
      {"F", "cycle intermediate format"},
      {"E", "cycle border mode"},
      {"L", "linear light (the blur in rgba16f)"},
      {"M", "radius map of the variable-* variants"},
      {"B", "unblurred scene"},
      {"D", "difference: CPU reference or model, exact Gaussian, second variant, off"},
      {"C", "check against the CPU reference"},
      {"Space", "pause animation"},
      {"V", "vsync"},
      {"S", "save a screenshot PNG"},
      {"R", "reload shaders (--shader-dir)"},
      {"Tab", "hide the overlay"},
      {"F1 or ?", "this help"},
      {"Esc", "quit"},
  };
  const float column = ImGui::CalcTextSize("1-9, Shift+1-9").x + 16.0f;
  for (const auto& row : rows) {
    ImGui::TextUnformatted(row[0]);
    ImGui::SameLine(column);
    ImGui::TextDisabled("%s", row[1]);
    layout.help_lines.push_back(std::string(row[0]) + ": " + row[1]);
  }
  layout.help_shown = true;
  layout.help_min = ImGui::GetWindowPos();
  layout.help_max = ImVec2(layout.help_min.x + ImGui::GetWindowSize().x, layout.help_min.y + ImGui::GetWindowSize().y);
  ImGui::End();
}

// An effect's check: whether every stage is within its tolerance (else the first that is not),
// and the picture against the ground truth.
std::string effect_check_text(const EffectCheck& c) {
  const StageCheck* failed = c.first_failure();
  char numbers[96];
  std::snprintf(numbers, sizeof numbers, ", max %.0f LSB, %.1f dB against the ground truth", c.fidelity.max_lsb, c.fidelity.psnr_db);
  return std::string("check ") + (failed ? "FAIL (" + failed->stage + ")" : "ok") + numbers;
}

std::string check_text(const OverlayModel& m) {
  const bool effect = m.effect_settings != nullptr;
  switch (m.check_state) {
    case CheckState::NotRun: return effect ? "check: none (the effect does not run)" : "check: none (nothing is blurred)";
    case CheckState::Pending: return "check: not yet run (C)";
    case CheckState::Checking: return effect ? "check: computing the ground truth..." : "check: comparing with the CPU reference...";
    case CheckState::Done: break;
  }
  if (m.check->effect) return effect_check_text(*m.check->effect);
  // The largest channel here; each channel, the settings and the tolerance's reason in the tooltip.
  const CheckResult& r = m.check->result;
  const Tolerance& t = m.check->tolerance;
  const double largest = *std::max_element(r.max_error.begin(), r.max_error.end());
  char text[96];
  if (t.lsb)
    std::snprintf(text, sizeof text, "check %s: %.0f LSB (limit %d)", r.ok ? "ok" : "FAIL", largest, t.lsb_limit);
  else
    std::snprintf(text, sizeof text, "check %s: %.1e (%.1fx the limit)", r.ok ? "ok" : "FAIL", largest, r.worst_fraction);
  return text;
}

void view_lines(const OverlayModel& m, std::vector<std::string>& lines) {
  const ui::Picture picture = m.presented.picture;
  const bool held = picture == ui::Picture::DiffReference || picture == ui::Picture::DiffGaussian;
  text_line("view: " + m.presented.label + (held ? " (animation held)" : m.state.paused ? " (paused)" : ""),
            picture == ui::Picture::Unblurred && m.unsupported ? &kAmber : nullptr, Tone::Normal, &lines);
  const DiffLine& d = m.diff;
  if (picture == ui::Picture::DiffReference || picture == ui::Picture::DiffGaussian || picture == ui::Picture::DiffVariant) {
    char line[160];
    std::snprintf(line, sizeof line, "x%.0f (%s), red %s; largest %s", d.amplify, d.scale.c_str(), d.tolerance.c_str(),
                  d.largest.value_or("being computed...").c_str());
    text_line(line, nullptr, Tone::Dim, &lines);
  }
  if (m.state.view == ui::View::DiffVariant) {
    if (d.second_ms) {
      char line[160];
      std::snprintf(line, sizeof line, "%s: %.3f ms GPU per frame", d.second.c_str(), *d.second_ms);
      std::string text = line;
      if (d.first_ms && *d.first_ms > 0) text += " (" + format_double(*d.second_ms / *d.first_ms, 2) + "x the first)";
      text_line(text, nullptr, Tone::Dim, &lines);
    }
    if (d.second_problem) text_line(*d.second_problem, &kRed, Tone::Normal, &lines);
  }
}

// The kernel: box or Gauss (G), its radius and a Gaussian's sigma. Returns true when the user
// changed one.
bool kernel_controls(ui::ViewState& s) {
  bool changed = false;
  int type = s.settings.kernel.type == KernelType::Box ? 0 : 1;
  bool picked = ImGui::RadioButton("box", &type, 0);
  ImGui::SameLine();
  picked |= ImGui::RadioButton("gauss (G)", &type, 1);
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
  }
  return changed;
}

// A variable-radius variant's radius map (M), over the maps the key cycles through. Returns true
// when the user picked another.
bool radius_map_combo(ui::ViewState& s) {
  bool changed = false;
  if (ImGui::BeginCombo("radius map (M)", describe(s.settings.radius_map.get()).c_str())) {
    for (const auto& map : ui::radius_map_cycle(s))
      if (ImGui::Selectable(describe(map.get()).c_str(), map == s.settings.radius_map)) {
        s.settings.radius_map = map;
        changed = true;
      }
    ImGui::EndCombo();
  }
  return changed;
}

// The intermediate format (F), shown with the variant's default where none was picked. Returns
// true when the user picked another.
bool intermediate_combo(const OverlayModel& m, ui::ViewState& s) {
  bool changed = false;
  const gl::Format f = m.settings.intermediate_format();  // with the variant's default
  if (ImGui::BeginCombo("intermediate", std::string(gl::name(f)).c_str())) {
    for (const auto& info : gl::kFormats)
      if (ImGui::Selectable(std::string(info.name).c_str(), info.format == f)) {
        s.settings.intermediate = info.format;
        changed = true;
      }
    ImGui::EndCombo();
  }
  return changed;
}

// The blur's controls: kernel, radius, sigma, border, radius map, intermediate format, one per
// knob, linear light. Returns true when the user changed one.
bool blur_controls(const OverlayModel& m, ui::ViewState& s, uint32_t& effects) {
  bool changed = false;
  const auto all = variants();
  const VariantInfo& current = *all[m.state.variant];  // the settings m.settings resolved: before any pick this frame
  if (is_blur(current)) {
    changed |= kernel_controls(s);
    changed |= border_controls(s.settings.border, gl::info(s.settings.input_format).is_float);
    if (current.variable_radius) changed |= radius_map_combo(s);
  }
  if (current.uses_intermediate) changed |= intermediate_combo(m, s);
  for (const Knob& k : current.knobs) {
    const auto running = m.settings.knobs.find(k.name);
    changed |= knob_combo(k, running != m.settings.knobs.end() ? running->second : k.default_value(m.settings.kernel.radius), s.settings.knobs);
  }
  bool linear = s.linear_light;
  if (ImGui::Checkbox("linear light (L)", &linear)) {
    effects |= ui::handle_key(s, ui::Key::L, all.size());
    changed = true;
  }
  return changed;
}

// An effect's controls: a text field per parameter (Enter applies it; EffectInfo::validate judges
// it for this frame's size, and a value refused keeps the old one and says why), and the border
// of its blurs. Returns true when the user changed one.
bool effect_controls(const EffectInfo& effect, const EffectSettings& running, ui::ViewState& s, glm::ivec2 size, OverlayMemory& memory) {
  bool changed = false;
  // Its presets (bloom's kernels), each picked with the implementation and border it needs.
  if (const std::vector<EffectPreset> presets = ui::effect_presets(s); !presets.empty()) {
    const auto current = ui::current_preset(s);
    if (ImGui::BeginCombo("kernel (K)", current ? presets[*current].label.c_str() : "none of these: the psf typed below")) {
      for (size_t i = 0; i < presets.size(); ++i)
        if (ImGui::Selectable(presets[i].label.c_str(), current == i) && current != i) changed |= ui::select_preset(s, i) != ui::kNone;
      ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the kernels blurlab ships (%s); a kernel image runs on fft-2d with a black border", s.assets.c_str());
  }
  for (const EffectParameter& p : effect.parameters) {
    const std::string name(p.name);
    const std::string key = std::string(effect.name) + "/" + name;
    const auto value = running.values.find(name);
    const std::string old = value != running.values.end() ? value->second : std::string(p.default_value);
    std::string text = old;
    if (ImGui::InputText(name.c_str(), &text, ImGuiInputTextFlags_EnterReturnsTrue) && text != old) {
      if (const auto why = ui::set_effect_value(s, name, text, size)) {
        memory.rejected[key] = *why + " (kept " + old + ")";
      } else {
        memory.rejected.erase(key);
        changed = true;
      }
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s (default %s; Enter applies)", std::string(p.help).c_str(), std::string(p.default_value).c_str());
    if (p.slider_high > p.slider_low) {  // the same value on a slider, applied when let go
      const auto number = parse_double(trim(old));
      float v = static_cast<float>(std::clamp(number.value_or(p.slider_low), p.slider_low, p.slider_high));
      ImGui::SliderFloat(("##slider " + name).c_str(), &v, static_cast<float>(p.slider_low), static_cast<float>(p.slider_high), "%.3g",
                         ImGuiSliderFlags_Logarithmic);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: drag and let go (the field above takes any value)", name.c_str());
      if (ImGui::IsItemDeactivatedAfterEdit()) {
        const std::string picked = format_double(v, 3);
        if (const auto why = ui::set_effect_value(s, name, picked, size)) {
          memory.rejected[key] = *why + " (kept " + old + ")";
        } else {
          memory.rejected.erase(key);
          changed = true;
        }
      }
    }
    if (const auto rejected = memory.rejected.find(key); rejected != memory.rejected.end()) text_line(rejected->second, &kRed);
  }
  changed |= border_controls(s.settings.border, true);  // the HDR frame: a constant may be above 1
  return changed;
}

// The panel's window: text scaled up with large windows (1.5x at 1920x1080, never below the
// font's own size), narrow, and at most the window's height (it scrolls below the
// always-visible lines). end_panel closes what this opens.
void begin_panel(ImVec2 display) {
  const float scale = std::clamp(std::min(display.x / 1280.0f, display.y / 720.0f), 1.0f, 1.5f);
  ImGui::GetIO().FontGlobalScale = scale;
  const float width = std::min(std::clamp(display.x * 0.42f, 250.0f, 390.0f * scale), display.x - 20.0f);
  ImGui::SetNextWindowPos(ImVec2(10.0f, 10.0f), ImGuiCond_Always);
  ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0.0f), ImVec2(width, std::max(60.0f, display.y - 20.0f)));
  ImGui::SetNextWindowBgAlpha(0.82f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(8.0f, 6.0f));
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(6.0f, 3.0f));
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(4.0f, 2.0f));
  ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(3.0f, 1.0f));
  ImGui::Begin("blurlab", nullptr,
               ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoMove);
}

// Closes the panel begin_panel opened; its rectangle goes into `layout`.
void end_panel(OverlayLayout& layout) {
  layout.panel_min = ImGui::GetWindowPos();
  layout.panel_max = ImVec2(layout.panel_min.x + ImGui::GetWindowSize().x, layout.panel_min.y + ImGui::GetWindowSize().y);
  ImGui::End();
  ImGui::PopStyleVar(4);
}

// The effect (X) and beside it the variant, or with an effect its implementation, with the
// settings they run in a line below. Returns true when the user picked another.
bool what_is_blurred(const OverlayModel& m, ui::ViewState& s, OverlayActions& actions) {
  bool changed = false;
  std::vector<std::string>& lines = actions.layout.lines;
  const auto all = variants();
  const EffectInfo* effect = ui::current_effect(m.state);  // what the model's settings are of
  float effect_width = ImGui::CalcTextSize("none").x;
  for (const EffectInfo* e : effects()) effect_width = std::max(effect_width, ImGui::CalcTextSize(std::string(e->name).c_str()).x);
  ImGui::SetNextItemWidth(effect_width + ImGui::GetFrameHeight() + 2.0f * ImGui::GetStyle().FramePadding.x);
  lines.push_back("effect: " + effect_label(m.state.effect));
  if (const auto picked = effect_combo(m.state.effect)) {
    actions.effects |= ui::select_effect(s, *picked);
    changed = true;
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (effect) {
    lines.push_back("implementation: " + implementation_label(ui::current_implementation(m.state)));
    if (const auto picked = implementation_combo(*effect, m.state.implementation)) {
      s.implementation = *picked;
      const std::vector<std::string> names = effect->implementations();
      for (size_t i = 0; i < all.size(); ++i)  // a variant: the digits' and the blur's variant too
        if (all[i]->name == names[*picked]) s.variant = i;
      changed = true;
    }
    if (!m.effect_description.empty()) text_line(m.effect_description, nullptr, Tone::Dim, &lines);
    if (m.effect_settings) text_line(effect_settings_line(*effect, *m.effect_settings), nullptr, Tone::Dim, &lines);
  } else {
    lines.push_back("variant: " + variant_label(s.variant));
    if (const auto picked = variant_combo("##variant", s.variant)) {
      s.variant = *picked;
      changed = true;
    }
    text_line(describe(*all[m.state.variant], m.settings), nullptr, Tone::Dim, &lines);
  }
  return changed;
}

// A variable-radius variant's map itself, so its shape need not be guessed.
void radius_map_picture(const OverlayModel& m, std::vector<std::string>& lines) {
  if (!m.radius_map_texture) return;
  text_line("radius map " + describe(m.settings.radius_map.get()) + ": black r = 0, white r = " + std::to_string(m.settings.kernel.radius),
            nullptr, Tone::Dim, &lines);
  const float shown = std::min(ImGui::GetContentRegionAvail().x, 160.0f * ImGui::GetFontSize() / 13.0f);
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(m.radius_map_texture)),
               ImVec2(shown, shown * static_cast<float>(m.radius_map_size.y) / static_cast<float>(std::max(1, m.radius_map_size.x))));
}

// The GPU times (or why there are none), as one group whose rectangle goes into `layout`.
void timing_group(const OverlayModel& m, OverlayLayout& layout) {
  ImGui::BeginGroup();
  if (m.unsupported) {
    text_line("GPU time: none (not running)", nullptr, Tone::Dim, &layout.lines);
  } else if (m.stats.summaries().empty()) {
    text_line("GPU time: waiting for timer queries...", nullptr, Tone::Dim, &layout.lines);
  } else {
    layout.timing_rows = timing_table(m.stats, ui::current_effect(m.state) ? "effect" : "blur");
  }
  ImGui::EndGroup();
  layout.timing_min = ImGui::GetItemRectMin();
  layout.timing_max = ImGui::GetItemRectMax();
  layout.timing_visible = ImGui::IsItemVisible();
}

// The tooltip over a check's lines: each stage of an effect against the CPU with its tolerance's
// reason, or a blur's every channel, settings and tolerance's reason.
std::string check_tooltip(const CheckLine& check) {
  if (!check.effect) return check.label + "\n" + check.result.text() + "\ntolerance " + check.tolerance.reason;
  std::string stages = check.label;
  for (const StageCheck& stage : check.effect->stages)
    stages += "\n" + stage.stage + ": " + (stage.result.ok ? "ok " : "FAIL ") + stage.result.text() + " (" + stage.tolerance.reason + ")";
  return stages;
}

// The check's lines (an effect's layer alone, an approximation's fidelity under it), as one
// group whose rectangle goes into `layout`.
void check_group(const OverlayModel& m, OverlayLayout& layout) {
  ImGui::BeginGroup();
  const bool done = m.check_state == CheckState::Done;
  text_line(check_text(m), done ? (m.check->result.ok ? &kGreen : &kRed) : nullptr, Tone::Dim, &layout.lines);
  if (done && m.check->effect && !m.check->effect->fidelity.layer.empty()) {  // the effect's layer alone, in linear radiance
    const EffectFidelity& f = m.check->effect->fidelity;
    char numbers[128];
    std::snprintf(numbers, sizeof numbers, ": max %.2g, rms %.2g of the ground truth's (relative)", f.layer_max_relative,
                  f.layer_rms_relative);
    text_line(f.layer + numbers, nullptr, Tone::Dim, &layout.lines);
  }
  if (done && m.check->fidelity) {  // an approximation: how far from the exact kernel it stands in for
    const Fidelity& f = *m.check->fidelity;
    char numbers[96];
    std::snprintf(numbers, sizeof numbers, ": max %.1f, rms %.2f LSB, %.1f dB", f.max_lsb, f.rms_lsb, f.psnr_db);
    text_line("fidelity to " + fidelity_target(*variants()[m.state.variant], m.settings, f) + numbers, nullptr, Tone::Dim, &layout.lines);
  }
  ImGui::EndGroup();
  if (done && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", check_tooltip(*m.check).c_str());
  layout.check_min = ImGui::GetItemRectMin();
  layout.check_max = ImGui::GetItemRectMax();
  layout.check_visible = ImGui::IsItemVisible();
}

// The frame rate, what the picture is (with the second variant's combo in its difference view),
// and the shader error and the notice of the last key. Returns true when the user picked
// another second variant.
bool picture_lines(const OverlayModel& m, ui::ViewState& s, std::vector<std::string>& lines) {
  bool changed = false;
  char fps[96];
  std::snprintf(fps, sizeof fps, "%.0f FPS, CPU %.1f ms, vsync %s", m.cpu_frame_ms > 0 ? 1000.0 / m.cpu_frame_ms : 0.0, m.cpu_frame_ms,
                s.vsync ? "on" : "off");
  text_line(fps, nullptr, Tone::Dim);
  view_lines(m, lines);
  if (s.view == ui::View::DiffVariant) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("vs");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (const auto picked = variant_combo("##second", s.diff_variant)) {
      s.diff_variant = *picked;
      changed = true;
    }
  }
  if (!m.shader_error.empty()) text_line("shader error (last good program in use): " + m.shader_error, &kRed, Tone::Normal, &lines);
  if (!m.notice.empty()) text_line(m.notice, &kAmber, Tone::Normal, &lines);
  return changed;
}

// The plot section: the blur's (the effect's) GPU time over the last frames; its rectangle and
// points go into `layout`.
void plot_section(const OverlayModel& m, OverlayLayout& layout) {
  const std::vector<float> history = m.stats.history("total");
  if (history.size() < 2) {  // a line needs two frames
    ImGui::TextDisabled("no GPU times yet (the plot needs two frames)");
    return;
  }
  const float top = *std::max_element(history.begin(), history.end());
  const std::string caption = std::string(ui::current_effect(m.state) ? "effect" : "blur") + " (ms), last " +
                              std::to_string(history.size()) + " frames, top " + format_double(top, 3);
  ImGui::PlotLines("##total", history.data(), static_cast<int>(history.size()), 0, caption.c_str(), 0.0f, top * 1.2f,
                   ImVec2(ImGui::GetContentRegionAvail().x, 50.0f * ImGui::GetIO().FontGlobalScale));
  layout.plot_points = static_cast<int>(history.size());
  layout.plot_min = ImGui::GetItemRectMin();
  layout.plot_max = ImGui::GetItemRectMax();
}

// The device section: the GL version, the frame's size and formats, the scene's GPU time.
void device_section(const OverlayModel& m, const ui::ViewState& s) {
  const bool effect = ui::current_effect(m.state) != nullptr;
  text_line(m.info.version, nullptr, Tone::Dim);
  ImGui::TextDisabled("%dx%d, %s, t=%.2f s", m.size.x, m.size.y,
                      effect ? "HDR rgba16f and depth32f, picture rgba8" : s.linear_light ? "linear light rgba16f" : "rgba8", m.time);
  for (const ui::SpanSummary& span : m.stats.summaries())
    if (span.name == "scene") ImGui::TextDisabled("scene: %.3f ms GPU (not part of the %s)", span.mean_ms, effect ? "effect" : "blur");
}

// The sections that collapse: the controls, the plot, the device. Returns true when the user
// changed a setting.
bool collapsing_sections(const OverlayModel& m, ui::ViewState& s, OverlayMemory& memory, bool class_changed, OverlayActions& actions) {
  bool changed = false;
  const EffectInfo* effect = ui::current_effect(m.state);
  if (section("settings", 1, memory.size_class, class_changed)) {
    if (effect && m.effect_settings)
      changed |= effect_controls(*effect, *m.effect_settings, s, m.size, memory);
    else
      changed |= blur_controls(m, s, actions.effects);
    if (ImGui::Button("check now (C)")) actions.effects |= ui::kCheck;
  }
  if (section("plot", 2, memory.size_class, class_changed)) plot_section(m, actions.layout);
  if (section("device", 2, memory.size_class, class_changed)) device_section(m, s);
  return changed;
}

}  // namespace

OverlayActions draw_overlay_panels(const OverlayModel& m, OverlayMemory& memory) {
  OverlayActions actions;
  ui::ViewState s = m.state;  // the controls edit a copy: the new state once one changed it
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const int size = size_class(display);
  const bool class_changed = size != memory.size_class;
  memory.size_class = size;
  begin_panel(display);

  // --- always visible: what is blurred, how long it takes, whether it is right, what is shown.
  std::vector<std::string>& lines = actions.layout.lines;
  text_line(m.info.renderer, nullptr, Tone::Dim);
  bool changed = what_is_blurred(m, s, actions);
  if (m.unsupported) text_line("cannot run: " + *m.unsupported, &kRed, Tone::Normal, &lines);
  radius_map_picture(m, lines);
  timing_group(m, actions.layout);
  check_group(m, actions.layout);
  changed |= picture_lines(m, s, lines);

  // --- sections.
  changed |= collapsing_sections(m, s, memory, class_changed, actions);
  ImGui::TextDisabled("F1 or ?: keys   Tab: hide");
  end_panel(actions.layout);

  if (s.help) help_panel(actions.layout);
  if (changed) {
    actions.new_state = s;
    actions.effects |= ui::kReconfigure;
  }
  return actions;
}

std::string describe(const OverlayLayout& l, glm::ivec2 window) {
  auto rect = [](ImVec2 a, ImVec2 b) {
    char text[64];
    std::snprintf(text, sizeof text, "%.0f,%.0f-%.0f,%.0f", a.x, a.y, b.x, b.y);
    return std::string(text);
  };
  const double area = static_cast<double>(l.panel_max.x - l.panel_min.x) * (l.panel_max.y - l.panel_min.y);
  char share[32];
  std::snprintf(share, sizeof share, "%.1f", 100.0 * area / (static_cast<double>(window.x) * window.y));
  std::string text = "overlay: window " + std::to_string(window.x) + "x" + std::to_string(window.y) + " panel " +
                     rect(l.panel_min, l.panel_max) + " covers " + share + "% timing " + rect(l.timing_min, l.timing_max) +
                     (l.timing_visible ? " visible" : " hidden") + " rows " + std::to_string(l.timing_rows) + " check " +
                     rect(l.check_min, l.check_max) + (l.check_visible ? " visible" : " hidden");
  if (l.plot_points > 0) {
    char plot[80];
    std::snprintf(plot, sizeof plot, " plot %.0f,%.0f-%.0f,%.0f points %d", l.plot_min.x, l.plot_min.y, l.plot_max.x, l.plot_max.y,
                  l.plot_points);
    text.insert(text.find('\n') == std::string::npos ? text.size() : text.find('\n'), plot);
  }
  if (l.help_shown) {
    char help[64];
    std::snprintf(help, sizeof help, " help %.0f,%.0f-%.0f,%.0f", l.help_min.x, l.help_min.y, l.help_max.x, l.help_max.y);
    text.insert(text.find('\n') == std::string::npos ? text.size() : text.find('\n'), help);
  }
  for (const std::string& line : l.lines) text += "\noverlay line: " + line;
  for (const std::string& line : l.help_lines) text += "\noverlay help: " + line;
  return text;
}

}  // namespace blurlab::app

