#include "ui/view_state.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "blur/kernel.h"
#include "blur/registry.h"
#include "effects/registry.h"
#include "util/error.h"
#include "util/strings.h"

namespace blurlab::ui {

std::string_view name(View view) {
  switch (view) {
    case View::Blurred: return "blurred";
    case View::Unblurred: return "unblurred scene";
    case View::DiffReference: return "difference to the CPU reference";
    case View::DiffGaussian: return "difference to the exact Gaussian";
    case View::DiffVariant: return "difference to a second variant";
  }
  return "?";
}

namespace {

struct KeyName {
  const char* name;
  Key key;
};
// docs/USAGE.md's names first (what key_names() lists), then other spellings.
constexpr KeyName kKeyNames[] = {
    {"Left", Key::Left}, {"Right", Key::Right}, {"+", Key::Plus}, {"-", Key::Minus}, {"G", Key::G}, {"F", Key::F},
    {"E", Key::E}, {"Space", Key::Space}, {"V", Key::V}, {"S", Key::S}, {"D", Key::D}, {"B", Key::B}, {"Tab", Key::Tab},
    {"R", Key::R}, {"L", Key::L}, {"C", Key::C}, {"Esc", Key::Escape}, {"F1", Key::Help}, {"?", Key::Help}, {"M", Key::M},
    {"X", Key::X}, {"Plus", Key::Plus}, {"=", Key::Plus}, {"Minus", Key::Minus}, {"Escape", Key::Escape},
};
constexpr size_t kReadmeNames = 21;

}  // namespace

std::optional<Key> parse_key(std::string_view text) {
  // "1".."9" and "Shift+1".."Shift+9".
  const bool shifted = text.size() == 7 && text.substr(0, 6) == "Shift+";
  const std::string_view digit = shifted ? text.substr(6) : text;
  if (digit.size() == 1 && digit[0] >= '1' && digit[0] <= '9')
    return static_cast<Key>(static_cast<int>(shifted ? Key::ShiftDigit1 : Key::Digit1) + (digit[0] - '1'));
  for (const auto& k : kKeyNames)
    if (text == k.name) return k.key;
  return std::nullopt;
}

std::string key_names() {
  std::string list = "1-9, Shift+1-9";
  for (size_t i = 0; i < kReadmeNames; ++i) list += std::string(", ") + kKeyNames[i].name;
  return list;
}

std::string variant_key(size_t index) {
  if (index < 9) return std::to_string(index + 1);
  if (index < 18) return "Shift+" + std::to_string(index - 8);
  return "";
}

void set_radius(ViewState& state, int radius) {
  Kernel& k = state.settings.kernel;
  k.radius = std::clamp(radius, 0, kMaxRadius);
  if (state.sigma_follows_radius) k.sigma = k.radius > 0 ? k.radius / 3.0 : 1.0 / 3.0;
}

std::string keyless_variants_note(size_t count) {
  size_t keyed = 0;
  while (keyed < count && !variant_key(keyed).empty()) ++keyed;
  if (keyed == count) return "";
  return "no key past " + std::to_string(keyed) + ": " + std::to_string(keyed + 1) + "-" + std::to_string(count) +
         " by Left/Right or this list";
}

bool step_sigma(ViewState& state, int steps) {
  Kernel& k = state.settings.kernel;
  const double sigma = std::clamp(k.sigma + steps / 3.0, 1.0 / 3.0, kMaxRadius / 3.0);
  if (std::abs(sigma - k.sigma) < 1e-9) return false;
  k = make_kernel(KernelType::Gauss, std::nullopt, sigma);
  state.sigma_follows_radius = false;
  return true;
}

namespace {

bool current_is_approximation(const ViewState& s) {
  const auto all = variants();
  return s.variant < all.size() && is_approximation(*all[s.variant]);
}

}  // namespace

std::vector<std::shared_ptr<const RadiusMap>> radius_map_cycle(const ViewState& state) {
  std::vector<std::shared_ptr<const RadiusMap>> maps{nullptr, builtin_radius_map("ramp"), builtin_radius_map("band"),
                                                     builtin_radius_map("circle")};
  if (state.radius_map_file) maps.push_back(state.radius_map_file);
  return maps;
}

namespace {

// The name a key has in docs/USAGE.md's table (a digit: its variant's key).
std::string key_name(Key key) {
  const auto digit = static_cast<int>(key) - static_cast<int>(Key::Digit1);
  if (digit >= 0 && digit <= 17) return variant_key(static_cast<size_t>(digit));
  for (size_t i = 0; i < kReadmeNames; ++i)
    if (kKeyNames[i].key == key) return kKeyNames[i].name;
  return "?";
}

// The given values the effect has, the defaults for the rest: the other effects' values stay in
// the state for when they are on screen again.
EffectValues resolved_values(const EffectInfo& effect, const EffectValues& given) {
  EffectValues own;
  for (const auto& [name, value] : given)
    if (find_parameter(effect, name)) own[name] = value;
  return resolve_effect(effect, own);
}

// The keys that act otherwise with an effect on screen; nullopt for those that act as always.
std::optional<uint32_t> effect_key(ViewState& s, const EffectInfo& effect, Key key, size_t variant_count) {
  const std::vector<std::string> names = effect.implementations();
  const size_t count = names.size();
  if (count == 0) return std::nullopt;
  const auto digit = static_cast<int>(key) - static_cast<int>(Key::Digit1);
  if (digit >= 0 && digit <= 17) {
    const auto all = variants();
    if (static_cast<size_t>(digit) >= std::min(variant_count, all.size())) return kNone;
    const std::string_view variant = all[static_cast<size_t>(digit)]->name;
    const auto it = std::find(names.begin(), names.end(), variant);
    if (it == names.end()) {
      s.key_note = key_name(key) + ": " + std::string(variant) + " does not serve " + std::string(effect.name) +
                   " (Left/Right or the list choose among its implementations)";
      return kNone;
    }
    s.variant = static_cast<size_t>(digit);
    const auto index = static_cast<size_t>(it - names.begin());
    if (index == s.implementation) return kNone;
    s.implementation = index;
    return kReconfigure;
  }
  switch (key) {
    case Key::Left:
      s.implementation = (s.implementation + count - 1) % count;
      return kReconfigure;
    case Key::Right:
      s.implementation = (s.implementation + 1) % count;
      return kReconfigure;
    case Key::Plus:
    case Key::Minus:
    case Key::G:
    case Key::F:
    case Key::M:
    case Key::L:
      s.key_note = key_name(key) + ": a setting of the blur alone; " + std::string(effect.name) +
                   "'s parameters (the panel's settings) say what it blurs";
      return kNone;
    case Key::D:
      // The effect's picture -> its difference to the ground truth -> the picture: the other
      // difference views are of a blur alone.
      s.view = s.view == View::DiffReference ? View::Blurred : View::DiffReference;
      return s.view == View::DiffReference ? (kCheck | kReconfigure) : kNone;
    default:
      return std::nullopt;
  }
}

}  // namespace

const EffectInfo* current_effect(const ViewState& s) {
  const auto all = effects();
  return s.effect >= 1 && s.effect <= all.size() ? all[s.effect - 1] : nullptr;
}

std::string current_implementation(const ViewState& s) {
  const EffectInfo* effect = current_effect(s);
  if (!effect) return "";
  const std::vector<std::string> names = effect->implementations();
  return s.implementation < names.size() ? names[s.implementation] : "";
}

uint32_t select_effect(ViewState& s, size_t index) {
  const auto all = effects();
  if (index > all.size()) index = 0;
  if (index == s.effect) return kNone;
  s.effect = index;
  if (const EffectInfo* effect = current_effect(s)) {
    const std::vector<std::string> names = effect->implementations();
    const auto blurs = variants();
    const auto it = s.variant < blurs.size() ? std::find(names.begin(), names.end(), blurs[s.variant]->name) : names.end();
    s.implementation = it != names.end() ? static_cast<size_t>(it - names.begin()) : 0;
    if (s.view == View::DiffGaussian || s.view == View::DiffVariant) s.view = View::Blurred;
  }
  return kRebuildTargets | kReconfigure;
}

EffectSettings effect_settings(const ViewState& s) {
  EffectSettings settings;
  const EffectInfo* effect = current_effect(s);
  if (!effect) return settings;
  settings.implementation = current_implementation(s);
  settings.values = resolved_values(*effect, s.effect_values);
  settings.border = s.settings.border;
  settings.knobs = s.settings.knobs;
  return settings;
}

std::optional<std::string> set_effect_value(ViewState& s, const std::string& name, const std::string& text, glm::ivec2 size) {
  const EffectInfo* effect = current_effect(s);
  if (!effect) return "no effect is on screen";
  if (!find_parameter(*effect, name)) return name + " is not a parameter of " + std::string(effect->name);
  EffectValues given = s.effect_values;
  given[name] = text;
  try {
    effect->validate(resolved_values(*effect, given), {size});
  } catch (const UsageError& e) {
    return std::string(e.what());
  }
  s.effect_values = std::move(given);
  return std::nullopt;
}

uint32_t handle_key(ViewState& s, Key key, size_t variant_count) {
  s.key_note.clear();
  if (const EffectInfo* effect = current_effect(s))
    if (const auto handled = effect_key(s, *effect, key, variant_count)) return *handled;
  // Digit1..Digit9, then ShiftDigit1..ShiftDigit9: variants 0..17 in the registry's order.
  const auto digit = static_cast<int>(key) - static_cast<int>(Key::Digit1);
  if (digit >= 0 && digit <= 17) {
    if (static_cast<size_t>(digit) >= variant_count || static_cast<size_t>(digit) == s.variant) return kNone;
    s.variant = static_cast<size_t>(digit);
    return kReconfigure;
  }
  switch (key) {
    case Key::Left:
      s.variant = (s.variant + variant_count - 1) % variant_count;
      return kReconfigure;
    case Key::Right:
      s.variant = (s.variant + 1) % variant_count;
      return kReconfigure;
    case Key::Plus:
      if (current_is_approximation(s) && s.settings.kernel.type == KernelType::Gauss) return step_sigma(s, +1) ? kReconfigure : kNone;
      if (s.settings.kernel.radius >= kMaxRadius) return kNone;
      set_radius(s, s.settings.kernel.radius + 1);
      return kReconfigure;
    case Key::Minus:
      if (current_is_approximation(s) && s.settings.kernel.type == KernelType::Gauss) return step_sigma(s, -1) ? kReconfigure : kNone;
      if (s.settings.kernel.radius <= 0) return kNone;
      set_radius(s, s.settings.kernel.radius - 1);
      return kReconfigure;
    case Key::G:
      s.settings.kernel.type = s.settings.kernel.type == KernelType::Box ? KernelType::Gauss : KernelType::Box;
      if (s.settings.kernel.type == KernelType::Gauss) set_radius(s, s.settings.kernel.radius);
      return kReconfigure;
    case Key::F: {
      const gl::Format current = s.settings.intermediate_format();
      const auto it = std::find_if(gl::kFormats.begin(), gl::kFormats.end(), [&](const auto& f) { return f.format == current; });
      const size_t next = (static_cast<size_t>(it - gl::kFormats.begin()) + 1) % gl::kFormats.size();
      s.settings.intermediate = gl::kFormats[next].format;
      return kReconfigure;
    }
    case Key::E: {
      // clamp -> reflect -> reflect101 -> wrap -> constant (its value kept) -> clamp
      const auto it = std::find(kBorderModes.begin(), kBorderModes.end(), s.settings.border.mode);
      s.settings.border.mode = kBorderModes[(static_cast<size_t>(it - kBorderModes.begin()) + 1) % kBorderModes.size()];
      return kReconfigure;
    }
    case Key::Space:
      s.paused = !s.paused;
      return kNone;
    case Key::V:
      s.vsync = !s.vsync;
      return kVsync;
    case Key::S:
      return kScreenshot;
    case Key::D:
      // blurred -> difference to the CPU reference -> (an approximation: to the exact Gaussian) ->
      // difference to a second variant -> blurred
      s.view = s.view == View::DiffReference ? (current_is_approximation(s) ? View::DiffGaussian : View::DiffVariant)
               : s.view == View::DiffGaussian ? View::DiffVariant
               : s.view == View::DiffVariant  ? View::Blurred
                                              : View::DiffReference;
      return s.view == View::DiffReference || s.view == View::DiffGaussian ? (kCheck | kReconfigure) : kReconfigure;
    case Key::B:
      s.view = s.view == View::Unblurred ? View::Blurred : View::Unblurred;
      return kNone;
    case Key::Tab:
      s.overlay = !s.overlay;
      return kNone;
    case Key::R:
      return kReloadShaders;
    case Key::L:
      s.linear_light = !s.linear_light;
      s.settings.linear = s.linear_light;
      s.settings.input_format = s.linear_light ? gl::Format::rgba16f : gl::Format::rgba8;
      // An rgba8 intermediate cannot hold linear-light values: move to rgba16f with the scene.
      if (s.linear_light && s.settings.intermediate_format() == gl::Format::rgba8) s.settings.intermediate = gl::Format::rgba16f;
      if (!s.linear_light && s.settings.intermediate == gl::Format::rgba16f) s.settings.intermediate = gl::Format::rgba8;
      return kRebuildTargets | kReconfigure;
    case Key::C:
      return kCheck;
    case Key::M: {
      // none -> ramp -> band -> circle -> (the --radius-map file) -> none; the variable-radius
      // variants blur by it, the others ignore it.
      const auto maps = radius_map_cycle(s);
      const auto it = std::find(maps.begin(), maps.end(), s.settings.radius_map);
      s.settings.radius_map = maps[it == maps.end() ? 0 : (static_cast<size_t>(it - maps.begin()) + 1) % maps.size()];
      return kReconfigure;
    }
    case Key::X:
      // none -> each effect -> none
      return select_effect(s, (s.effect + 1) % (effects().size() + 1));
    case Key::Escape:
      return kQuit;
    case Key::Help:
      s.help = !s.help;
      return kNone;
    default:
      return kNone;
  }
}

namespace {

Presented presented_effect(const ViewState& s, const Availability& a, std::string_view effect) {
  const std::string without = "without " + std::string(effect) + ": the HDR frame, tonemapped";
  if (s.view == View::Unblurred) return {Picture::Unblurred, without + " (B)"};
  if (!a.blur_runs) return {Picture::Unblurred, without + "; the implementation cannot run these settings"};
  if (s.view == View::DiffReference) {
    if (a.reference_ready) return {Picture::DiffReference, "difference to " + std::string(effect) + "'s ground truth"};
    return {Picture::Blurred, std::string(effect) + "; its ground truth for the difference is being computed"};
  }
  return {Picture::Blurred, std::string(effect)};
}

}  // namespace

Presented presented(const ViewState& s, const Availability& a, std::string_view second) {
  if (const EffectInfo* effect = current_effect(s)) return presented_effect(s, a, effect->name);
  if (s.view == View::Unblurred) return {Picture::Unblurred, "unblurred scene (B)"};
  if (!a.blur_runs) return {Picture::Unblurred, "unblurred scene: the variant cannot run these settings"};
  switch (s.view) {
    case View::DiffReference:
      if (a.reference_ready) return {Picture::DiffReference, "difference to the CPU reference"};
      return {Picture::Blurred, "blurred; the CPU reference for the difference is being computed"};
    case View::DiffGaussian:
      if (a.reference_ready) return {Picture::DiffGaussian, "difference to the exact Gaussian"};
      return {Picture::Blurred, "blurred; the exact Gaussian for the difference is being computed"};
    case View::DiffVariant:
      if (a.second_runs) return {Picture::DiffVariant, "difference to " + std::string(second)};
      return {Picture::Blurred, "blurred; no difference: " + std::string(second) + " does not run"};
    default:
      return {Picture::Blurred, "blurred"};
  }
}

std::optional<std::string> second_variant_stall(std::string_view second, double second_ms, std::optional<double> first_ms) {
  if (second_ms < kSecondStallMs || (first_ms && second_ms < kSecondStallRatio * *first_ms)) return std::nullopt;
  auto ms = [](double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f ms", v);
    return std::string(text);
  };
  return "stopped " + std::string(second) + ": " + ms(second_ms) + " for one frame (the first variant: " +
         (first_ms ? ms(*first_ms) : std::string("not timed yet")) + "); pick a cheaper second variant or a smaller radius";
}

std::vector<ScriptStep> parse_script(std::string_view text) {
  std::vector<ScriptStep> steps;
  for (const std::string& item : split(text, ';')) {
    const std::string_view step = trim(item);
    if (step.empty()) continue;
    const auto colon = step.find(':');
    const auto eq = step.find('=');
    if (colon == std::string_view::npos || eq == std::string_view::npos || eq < colon)
      throw UsageError("--script step '" + std::string(step) + "' is not FRAME:key=NAME, FRAME:resize=WxH, FRAME:click=X,Y or FRAME:wait=check");
    const auto frame = parse_int(trim(step.substr(0, colon)));
    if (!frame || *frame < 0) throw UsageError("--script step '" + std::string(step) + "' has no frame number");
    const std::string_view action = trim(step.substr(colon + 1, eq - colon - 1));
    const std::string_view value = trim(step.substr(eq + 1));
    ScriptStep s;
    s.frame = static_cast<uint64_t>(*frame);
    if (action == "key") {
      s.key = parse_key(value);
      if (!s.key) throw UsageError("--script: unknown key '" + std::string(value) + "' (keys: " + key_names() + ")");
    } else if (action == "resize") {
      if (value == "0x0") {
        s.resize = glm::ivec2(0, 0);
      } else {
        const auto size = parse_size(value);
        if (!size || size->first > 16384 || size->second > 16384) throw UsageError("--script: bad size '" + std::string(value) + "'");
        s.resize = glm::ivec2(size->first, size->second);
      }
    } else if (action == "click") {
      const auto comma = value.find(',');
      bool out_of_range = false;
      const auto x = comma == std::string_view::npos ? std::nullopt : parse_int(trim(value.substr(0, comma)), &out_of_range);
      const auto y = comma == std::string_view::npos ? std::nullopt : parse_int(trim(value.substr(comma + 1)), &out_of_range);
      if (!x || !y || *x < 0 || *y < 0 || *x >= 16384 || *y >= 16384)
        throw UsageError("--script: bad click '" + std::string(value) + "' (X,Y: a pixel of the picture, 0..16383 each)");
      s.click = glm::ivec2(static_cast<int>(*x), static_cast<int>(*y));
    } else if (action == "wait") {
      if (value != "check") throw UsageError("--script: wait for '" + std::string(value) + "'? (only wait=check)");
      s.wait_for_check = true;
    } else {
      throw UsageError("--script: unknown action '" + std::string(action) + "' (key, resize, click or wait)");
    }
    steps.push_back(s);
  }
  std::stable_sort(steps.begin(), steps.end(), [](const ScriptStep& a, const ScriptStep& b) { return a.frame < b.frame; });
  return steps;
}

}  // namespace blurlab::ui
