#pragma once
// What the window shows and how keys change it: plain logic, no GL, so it is unit-tested.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec2.hpp>

#include "blur/blur.h"

namespace blurlab::ui {

enum class View { Blurred, Unblurred, DiffReference, DiffVariant };
std::string_view name(View view);

struct ViewState {
  size_t variant = 0;       // index into variants()
  size_t diff_variant = 0;  // the second variant of View::DiffVariant
  BlurSettings settings;    // knobs at 0 take the variant's defaults
  bool sigma_follows_radius = true;
  View view = View::Blurred;
  bool paused = false;
  bool vsync = false;
  bool overlay = true;
  bool help = false;
  bool linear_light = false;  // scene, blur and intermediate in rgba16f, shown sRGB-encoded
};

enum class Key {
  Digit1, Digit2, Digit3, Digit4, Digit5, Digit6, Digit7, Digit8, Digit9,
  Left, Right, Plus, Minus, G, F, E, Space, V, S, D, B, Tab, R, L, C, Escape, Help,
};
std::optional<Key> parse_key(std::string_view name);

// What the app must do after a key: a set of bits.
enum Effect : uint32_t {
  kNone = 0,
  kReconfigure = 1 << 0,   // variant or settings changed: configure the pipeline, re-check
  kScreenshot = 1 << 1,
  kReloadShaders = 1 << 2,
  kCheck = 1 << 3,         // compute the error against the CPU reference
  kQuit = 1 << 4,
  kVsync = 1 << 5,
  kRebuildTargets = 1 << 6,  // texture formats changed (linear light)
};

uint32_t handle_key(ViewState& state, Key key, size_t variant_count);

// The radius after +/- (clamped to 0..kMaxRadius); sigma follows as r/3 until set by hand.
void set_radius(ViewState& state, int radius);

// Scripted input for tests and soak runs: "FRAME:ACTION;..." where ACTION is key=NAME or
// resize=WxH (0x0 minimizes). Throws UsageError on malformed scripts.
struct ScriptStep {
  uint64_t frame = 0;
  std::optional<Key> key;
  std::optional<glm::ivec2> resize;
};
std::vector<ScriptStep> parse_script(std::string_view text);

}  // namespace blurlab::ui
