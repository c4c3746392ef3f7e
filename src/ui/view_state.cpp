#include "ui/view_state.h"

#include <algorithm>

#include "util/error.h"
#include "util/strings.h"

namespace blurlab::ui {

std::string_view name(View view) {
  switch (view) {
    case View::Blurred: return "blurred";
    case View::Unblurred: return "unblurred scene";
    case View::DiffReference: return "difference to the CPU reference";
    case View::DiffVariant: return "difference to a second variant";
  }
  return "?";
}

namespace {

struct KeyName {
  const char* name;
  Key key;
};
constexpr KeyName kKeyNames[] = {
    {"1", Key::Digit1}, {"2", Key::Digit2}, {"3", Key::Digit3}, {"4", Key::Digit4}, {"5", Key::Digit5},
    {"6", Key::Digit6}, {"7", Key::Digit7}, {"8", Key::Digit8}, {"9", Key::Digit9}, {"Left", Key::Left},
    {"Right", Key::Right}, {"Plus", Key::Plus}, {"Minus", Key::Minus}, {"G", Key::G}, {"F", Key::F}, {"E", Key::E},
    {"Space", Key::Space}, {"V", Key::V}, {"S", Key::S}, {"D", Key::D}, {"B", Key::B}, {"Tab", Key::Tab},
    {"R", Key::R}, {"L", Key::L}, {"C", Key::C}, {"Escape", Key::Escape}, {"F1", Key::Help},
};

}  // namespace

std::optional<Key> parse_key(std::string_view text) {
  for (const auto& k : kKeyNames)
    if (text == k.name) return k.key;
  return std::nullopt;
}

void set_radius(ViewState& state, int radius) {
  Kernel& k = state.settings.kernel;
  k.radius = std::clamp(radius, 0, kMaxRadius);
  if (state.sigma_follows_radius) k.sigma = k.radius > 0 ? k.radius / 3.0 : 1.0 / 3.0;
}

uint32_t handle_key(ViewState& s, Key key, size_t variant_count) {
  const auto digit = static_cast<int>(key) - static_cast<int>(Key::Digit1);
  if (digit >= 0 && digit <= 8) {
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
      if (s.settings.kernel.radius >= kMaxRadius) return kNone;
      set_radius(s, s.settings.kernel.radius + 1);
      return kReconfigure;
    case Key::Minus:
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
      // blurred -> difference to the CPU reference -> difference to a second variant -> blurred
      s.view = s.view == View::DiffReference ? View::DiffVariant : s.view == View::DiffVariant ? View::Blurred : View::DiffReference;
      return s.view == View::DiffReference ? (kCheck | kReconfigure) : kReconfigure;
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
      s.settings.input_format = s.linear_light ? gl::Format::rgba16f : gl::Format::rgba8;
      // An rgba8 intermediate cannot hold linear-light values: move to rgba16f with the scene.
      if (s.linear_light && s.settings.intermediate_format() == gl::Format::rgba8) s.settings.intermediate = gl::Format::rgba16f;
      if (!s.linear_light && s.settings.intermediate == gl::Format::rgba16f) s.settings.intermediate = gl::Format::rgba8;
      return kRebuildTargets | kReconfigure;
    case Key::C:
      return kCheck;
    case Key::Escape:
      return kQuit;
    case Key::Help:
      s.help = !s.help;
      return kNone;
    default:
      return kNone;
  }
}

std::vector<ScriptStep> parse_script(std::string_view text) {
  std::vector<ScriptStep> steps;
  for (const std::string& item : split(text, ';')) {
    const std::string_view step = trim(item);
    if (step.empty()) continue;
    const auto colon = step.find(':');
    const auto eq = step.find('=');
    if (colon == std::string_view::npos || eq == std::string_view::npos || eq < colon)
      throw UsageError("--script step '" + std::string(step) + "' is not FRAME:key=NAME or FRAME:resize=WxH");
    const auto frame = parse_int(trim(step.substr(0, colon)));
    if (!frame || *frame < 0) throw UsageError("--script step '" + std::string(step) + "' has no frame number");
    const std::string_view action = trim(step.substr(colon + 1, eq - colon - 1));
    const std::string_view value = trim(step.substr(eq + 1));
    ScriptStep s;
    s.frame = static_cast<uint64_t>(*frame);
    if (action == "key") {
      s.key = parse_key(value);
      if (!s.key) throw UsageError("--script: unknown key '" + std::string(value) + "'");
    } else if (action == "resize") {
      if (value == "0x0") {
        s.resize = glm::ivec2(0, 0);
      } else {
        const auto size = parse_size(value);
        if (!size || size->first > 16384 || size->second > 16384) throw UsageError("--script: bad size '" + std::string(value) + "'");
        s.resize = glm::ivec2(size->first, size->second);
      }
    } else {
      throw UsageError("--script: unknown action '" + std::string(action) + "' (key or resize)");
    }
    steps.push_back(s);
  }
  std::stable_sort(steps.begin(), steps.end(), [](const ScriptStep& a, const ScriptStep& b) { return a.frame < b.frame; });
  return steps;
}

}  // namespace blurlab::ui
