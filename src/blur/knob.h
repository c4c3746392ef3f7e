#pragma once
// Tunable knobs as data. A variant declares its knobs once, in its own file (the way Halide's
// GeneratorParam does: name, help, shader define, type, candidates); everything else walks the
// list: settings and shader defines (blur/pipeline.cpp), the command line (one --NAME option per
// knob name, cli/options.cpp), sweeps and --tune (a product of, and a descent over, the values),
// the report, the tuning file, the overlay and the tests (every candidate).
//
// Knobs change how a variant blurs, never what: every value must give the same image, within
// the variant's tolerance.
#include <compare>
#include <glm/vec2.hpp>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blurlab {

enum class KnobType {
  Integer,  // a whole number in [min, max]
  Size,     // WxH, each in [min, max] ("N" alone means Nx1)
  Choice,   // one of named values (e.g. fp32 = 32, fp16 = 16)
};

// A knob's value: Integer and Choice use x; Size uses x (width) and y (height).
struct KnobValue {
  int x = 0;
  int y = 0;
  auto operator<=>(const KnobValue&) const = default;
  glm::ivec2 size() const { return {x, y}; }
};
inline KnobValue knob_size(glm::ivec2 size) { return {size.x, size.y}; }

struct KnobChoice {
  std::string_view label;  // what the command line, the report and the overlay show
  int value;               // KnobValue::x, and the shader define's value
  // A choice of precision (e.g. an fp16 cache): the relative rounding it adds to the values it
  // stores, which the float tolerance of a check counts (blur/check.cpp); 0: none.
  double rounding = 0.0;
};

struct Knob {
  std::string_view name;    // --NAME on the command line; the key in reports and tuning files
  std::string_view help;    // one line: what it changes and what it trades
  // Shader define: DEFINE=x (Integer, Choice); DEFINE_X, DEFINE_Y (Size). Empty where no shader
  // reads the value as given (the host resolves it into other defines or the dispatch): a define
  // no shader reads would only make programs that differ in nothing (unit.Registry checks).
  std::string_view define;
  KnobType type = KnobType::Integer;
  int min = 1, max = 1;             // Integer and Size: the range of each component
  std::vector<KnobChoice> choices;  // Choice: the values
  // What --tune, the overlay and the tests try; the first is the default. Other values in range
  // may be given too (the variant's check() refuses those it cannot run, with the reason).
  std::vector<KnobValue> candidates;
  // Where the best value changes with the kernel's radius (measured, the variant's file says
  // where): {r, value} pairs in increasing r, each value the default from r up to the next pair's
  // r. Below the first pair, or with none, the default is the first candidate. Every value is a
  // candidate, so the tests that try every candidate run it.
  std::vector<std::pair<int, KnobValue>> default_by_radius;
  // Where the image's size decides what runs (a structure sized for lines up to some length):
  // {side, value} pairs in increasing side, each value the default from an image whose longer side
  // is at least `side` texels (over the radius's default). Every value is a candidate.
  std::vector<std::pair<int, KnobValue>> default_by_side;

  // The default at kernel radius `radius` (a variable-radius variant's largest, R), and where
  // known the image size.
  KnobValue default_value(int radius, std::optional<glm::ivec2> size = std::nullopt) const;
  // "16x16", "8", "fp16".
  std::string text(KnobValue value) const;
  // One value as the command line and the tuning file give it. nullopt, with the reason in
  // `why` (e.g. "is out of range 1..32"), when it is not a value of this knob.
  std::optional<KnobValue> parse(std::string_view text, std::string* why = nullptr) const;
  // Why `value` is not a value of this knob, or nullopt.
  std::optional<std::string> invalid(KnobValue value) const;
  // "N", "WxH", "fp32|fp16": the value's form, for --help.
  std::string form() const;
  // The shader defines of a value.
  std::vector<std::pair<std::string, std::string>> defines(KnobValue value) const;
  // Same name, type, range, choices, define and help: two variants may share a knob name only
  // with the same definition (their candidates may differ).
  bool same_definition(const Knob& other) const;
};

// Values of an Integer or Choice knob from plain numbers (for Knob::candidates).
std::vector<KnobValue> integer_values(const std::vector<int>& values);
// `knob` with defaults that change with the radius (Knob::default_by_radius), for knobs made by
// the shared functions below.
Knob with_defaults_by_radius(Knob knob, std::vector<std::pair<int, KnobValue>> defaults);

// The knob values of one setting, by knob name (ordered, so settings compare and print stably).
using KnobValues = std::map<std::string, KnobValue, std::less<>>;

// Knobs several families of variants share, defined once here with their candidates given by
// each variant.
namespace knobs {
// The names of the knobs that code reads apart from their variant's own constant (shared
// factories, the settings' workgroup()): one constant each, for the factory and every reader, so
// no knob is read by a string that could drift from the knob's name.
inline constexpr std::string_view kWorkgroup = "workgroup", kSegment = "segment", kChunk = "chunk", kChains = "chains",
                                  kCache = "cache", kUnroll = "unroll", kScan = "scan", kLines = "lines",
                                  kRows = "rows";
// The compute workgroup, W x H invocations (WG_X, WG_Y in shaders).
Knob workgroup(std::vector<glm::ivec2> candidates);
// A walk's length: texels one invocation (or rows one workgroup) processes along a line before
// starting over with a fresh warm-up (SEGMENT in shaders).
Knob segment(std::vector<int> candidates);
// Lines a workgroup takes side by side (LINES in shaders): the rows of a transposing pass's tile
// (compute-separable-regblock), the line segments an FFT pass transforms at once (fft).
Knob lines(std::vector<int> candidates);
// The kernel's weights: read from the uniform block (0), or compile-time constants (1: a program
// per kernel; constant_weight_defines() in blur/blur.h), WEIGHTS_CONST in shaders.
Knob weights(std::vector<int> candidates);
}  // namespace knobs

}  // namespace blurlab
