#pragma once
// What the window shows and how keys change it: plain logic, no GL, so it is unit-tested.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec2.hpp>

#include "blur/blur.h"
#include "effects/effect.h"

namespace blurlab::ui {

// DiffGaussian: an approximation against the exact Gaussian it stands in for (DiffReference shows
// it against the CPU model of its own algorithm, what its check compares with).
enum class View { Blurred, Unblurred, DiffReference, DiffGaussian, DiffVariant };
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
  // Linear light (BlurSettings::linear): the scene decoded from sRGB, blurred in rgba16f, shown
  // sRGB-encoded; it looks like the rgba8 scene, only the blur differs.
  bool linear_light = false;
  // The radius maps M cycles through for the variable-radius variants (settings.radius_map):
  // none (R everywhere), the built-ins, and the --radius-map file if one was given.
  std::shared_ptr<const RadiusMap> radius_map_file;
  // The effect on screen (X cycles them): 0 is none, the blurs alone on the scene; i > 0 is
  // effects()[i - 1] on the HDR scene, its picture tonemapped.
  size_t effect = 0;
  size_t implementation = 0;   // an index into the effect's implementations()
  EffectValues effect_values;  // the effects' parameters given (--NAME, the panel), by name
  // Why the last key did nothing ("" when it did something), for the overlay to say.
  std::string key_note;
};
// The maps M cycles through, in order: none, ramp, band, circle, the file (if any).
std::vector<std::shared_ptr<const RadiusMap>> radius_map_cycle(const ViewState& state);

// Digits select variants 1-9 of the registry's order, Shift+digits 10-18; arrows step through all.
// With an effect on, the arrows step through its implementations and a digit selects its variant
// as the implementation where that variant serves the effect (and does nothing else: key_note
// says why); X cycles the effects: none, each of effects(), none.
enum class Key {
  Digit1, Digit2, Digit3, Digit4, Digit5, Digit6, Digit7, Digit8, Digit9,
  ShiftDigit1, ShiftDigit2, ShiftDigit3, ShiftDigit4, ShiftDigit5, ShiftDigit6, ShiftDigit7, ShiftDigit8, ShiftDigit9,
  Left, Right, Plus, Minus, G, F, E, Space, V, S, D, B, Tab, R, L, C, Escape, Help, M, X,
};
// The names --script takes: those of docs/USAGE.md's key table ("1", "Shift+1", "+", "?", "Esc",
// ...) and spelled-out ones ("Plus", "Escape", ...).
std::optional<Key> parse_key(std::string_view name);
// Every name parse_key takes, for error messages.
std::string key_names();
// The key that selects variant `index` (0-based): "1".."9", "Shift+1".."Shift+9", or "" beyond.
std::string variant_key(size_t index);
// The variant list's last line when some of `count` variants have no key ("no key past 18: 19-25
// by Left/Right or this list"), else "".
std::string keyless_variants_note(size_t count);

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

// The effect on screen, or nullptr (none: the blurs alone).
const EffectInfo* current_effect(const ViewState& state);
// Its implementation's name ("" without an effect).
std::string current_implementation(const ViewState& state);
// Switches to effects()[index - 1] (0: none); its implementation is the variant on screen where
// that serves it, else its first. Returns the key's effects.
uint32_t select_effect(ViewState& state, size_t index);
// What the effect on screen runs: its implementation, its parameters (those given, the defaults
// for the rest), the border and the knobs of the settings.
EffectSettings effect_settings(const ViewState& state);
// Sets parameter `name` of the effect on screen to `text` if the effect accepts it for a frame of
// `size` (EffectInfo::validate); else returns why not (one line) and keeps the old value.
std::optional<std::string> set_effect_value(ViewState& state, const std::string& name, const std::string& text, glm::ivec2 size);

// What the window shows, decided once per frame from the state and from what can run. The
// presenter draws `picture` and the overlay prints `label`, so the line always describes the
// picture (e.g. the unblurred scene when the variant cannot run the settings).
// With an effect, Blurred is the effect's picture, Unblurred the HDR frame through the same
// tonemap, and DiffReference the difference to the effect's ground truth.
enum class Picture { Blurred, Unblurred, DiffReference, DiffGaussian, DiffVariant };
struct Availability {
  bool blur_runs = false;        // the variant (with an effect: its implementation) runs these settings
  // The CPU reference (in View::DiffGaussian, the exact Gaussian; with an effect, its ground
  // truth) is on the GPU.
  bool reference_ready = false;
  bool second_runs = false;      // the second variant of View::DiffVariant runs
};
struct Presented {
  Picture picture = Picture::Unblurred;
  std::string label;
};
Presented presented(const ViewState& state, const Availability& available, std::string_view second_variant);

// The second variant of View::DiffVariant runs every frame beside the first. One that takes
// longer than kSecondStallMs for a frame, and kSecondStallRatio times the first variant's mean,
// would set the window's frame rate (naive 2D sums at large radii take seconds on a CPU
// rasterizer): this says why it stops, or nullopt while it may go on. The window stops it after
// kSecondStallFrames such frames in a row: one slow frame may be a busy machine, not the variant.
inline constexpr double kSecondStallMs = 500.0;
inline constexpr double kSecondStallRatio = 4.0;
inline constexpr int kSecondStallFrames = 3;
std::optional<std::string> second_variant_stall(std::string_view second, double second_ms, std::optional<double> first_ms);

// The radius after +/- (clamped to 0..kMaxRadius); sigma follows as r/3 until set by hand.
void set_radius(ViewState& state, int radius);
// An approximation's +/-: it blurs a sigma, not a radius, so the sigma steps by a third (what a
// radius step does to a sigma that follows it), the radius following as for a requested sigma.
// False at the end of the range.
bool step_sigma(ViewState& state, int steps);

// Scripted input for tests and soak runs: "FRAME:ACTION;..." where ACTION is key=NAME,
// resize=WxH (0x0 minimizes), click=X,Y (a left click at that pixel of the picture, row 0 at the
// top) or wait=check (the frame waits for a check under way to finish, so
// a test does not depend on how fast the CPU reference is). Throws UsageError on malformed scripts.
struct ScriptStep {
  uint64_t frame = 0;
  std::optional<Key> key;
  std::optional<glm::ivec2> resize;
  std::optional<glm::ivec2> click;
  bool wait_for_check = false;
};
std::vector<ScriptStep> parse_script(std::string_view text);

}  // namespace blurlab::ui
