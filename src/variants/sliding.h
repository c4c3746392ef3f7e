#pragma once
// Shared by the running-sum variants (compute-sliding, compute-sliding-inline, compute-scan,
// box-iterated; compute-box-prefix and compute-box-blocked take their knobs and bounds): the
// defines of glsl/sliding_common.glsl, the dispatch of a line pass, and their fp32 error bounds.
// Box kernel only: a running sum adds and subtracts texels, it cannot weight them.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

#include "blur/blur.h"

namespace blurlab::sliding {

// Texels each invocation loads per step, their loads grouped before the sums (UNROLL in
// glsl/sliding_common.glsl): more loads in flight per invocation, for more registers.
inline Knob unroll_knob(std::vector<int> candidates) {
  return {.name = knobs::kUnroll,
          .help = "Running sums: texels loaded per step, grouped before their adds (more in flight, more registers)",
          .define = "UNROLL",
          .min = 1,
          .max = 32,
          .candidates = integer_values(candidates)};
}
inline int segment(const BlurSettings& s) { return s.knob(knobs::kSegment).x; }

// The one-dispatch box variants (compute-box-prefix, compute-box-blocked) walk a tile down its
// columns BATCH rows per step and prefix-sum each row across the workgroup.
inline Knob batch_knob(std::vector<int> candidates) {
  return {.name = "batch",
          .help = "Column walks: rows per step (loads in flight, shared memory, barriers per row)",
          .define = "BATCH",
          .min = 1,
          .max = 64,
          .candidates = integer_values(candidates)};
}
inline Knob scan_knob() {
  return {.name = knobs::kScan,
          .help = "Prefix sums across a row: shared (portable) or subgroup (GL_KHR_shader_subgroup_arithmetic)",
          .define = "SCAN_SUBGROUP",
          .type = KnobType::Choice,
          .choices = {{"shared", 0}, {"subgroup", 1}},
          .candidates = {{0}, {1}}};
}
// VariantInfo::extension of a variant with the scan knob: scan=subgroup needs subgroup arithmetic.
inline std::string_view scan_extension(const BlurSettings& s) {
  return s.knob(knobs::kScan).x == 1 ? "GL_KHR_shader_subgroup_arithmetic" : "";
}
// check(): scan=subgroup on a device that has it needs the `invocations` of a row to fill whole subgroups.
inline std::optional<Refusal> subgroup_scan_refusal(const BlurSettings& s, int invocations, const gl::GlLimits& limits) {
  if (s.knob(knobs::kScan).x != 1 || !limits.subgroup_arithmetic || invocations % limits.subgroup_size == 0) return std::nullopt;
  return Refusal{Limit::Knobs, "scan=subgroup needs the " + std::to_string(invocations) + " invocations of a row to fill whole subgroups of " +
                                   std::to_string(limits.subgroup_size)};
}

// The one-dispatch box variants' walks: rows a workgroup walks down a tile after its 2r + 1 warm-up
// rows. 0 (the default) sizes them by the image and the radius: from 16 rows, the walk doubles while
// the workgroups it leaves times the warm-up rows stay at least `warmup_rows`, up to 512 rows (the
// longest the sweeps measured) and the image's height. So small radii get short walks and many
// workgroups (a small image stays busy: a fixed 512-row walk left 1920x1080 with a few dozen, as
// slow as 4096x4096), large radii long walks that spread their warm-up over more rows. Each
// variant's file gives its number, from a sweep of walk lengths.
inline Knob walk_rows_knob(std::vector<int> candidates) {
  return {.name = knobs::kRows,
          .help = "One-dispatch box: rows a workgroup walks down after its 2r + 1 warm-up rows (0: by the image and the "
                  "radius, short walks at small r for more workgroups, long ones at large r to spread the warm-up)",
          // No define: the host resolves the rows into the dispatch and the shader's SEGMENT.
          .min = 0,
          .max = 16384,
          .candidates = integer_values(candidates)};
}
// The rows of a walk: the knob's, or the image's (above) for tiles `tile_width` columns wide.
inline int walk_rows(const BlurSettings& s, glm::ivec2 size, int tile_width, long long warmup_rows) {
  if (const int rows = s.knob(knobs::kRows).x; rows > 0) return rows;
  const long long tiles = (size.x + std::max(tile_width, 1) - 1) / std::max(tile_width, 1), warmup = 2LL * s.kernel.radius + 1;
  int walk = 16;
  while (walk < 512 && walk < size.y && tiles * ((size.y + walk * 2 - 1) / (walk * 2)) * warmup >= warmup_rows) walk *= 2;
  return walk;
}

// The defines of one running-sum pass that reads a texture of `src` format, for an image of
// `input` format (see glsl/sliding_common.glsl).
//
// rgba8 input (EXACT=1): sums are integers in uint, so they are exact; each texel read becomes
// an integer, uint(round(v * IN_SCALE)):
//   - rgba8 texels (the source, or averages stored in rgba8): v * 255 (exact: v = k / 255);
//   - rgba32f holding raw integer sums (a row sum of 2r+1 bytes is at most 65535, exact in fp32): 1;
//   - rgba16f holding averages in [0, 1]: fixed point v * 2^23 (exact down to 2^-13, off by at
//     most 2^-24 below; 2r+1 <= 257 such values sum to less than 2^32).
// rgba32f is the only format that holds raw sums: rgba8 cannot, and rgba16f has 11 significant
// bits and a maximum of 65504. The others hold averages (one factor of 1/(2r+1) applied).
// `raw_src`/`raw_dst`: the texture holds raw sums (rgba32f intermediates); `dims` is how many
// axes this pass sums over (1, or 2 for a single-pass 2D box).
inline gl::Defines pass_defines(gl::Format input, gl::Format src, bool raw_src, bool raw_dst, int dims) {
  const bool exact = input == gl::Format::rgba8;
  std::string in_scale = "1.0", unit = "1.0";
  if (exact && !raw_src) {
    in_scale = src == gl::Format::rgba16f ? "8388608.0" : "255.0";
    unit = src == gl::Format::rgba16f ? "(1.0 / 8388608.0)" : "(1.0 / 255.0)";
  } else if (exact) {
    unit = "(1.0 / 255.0)";  // raw sums count steps of 1/255
  }
  // Factors of the box weight the output takes: none for raw sums; otherwise one per axis summed
  // so far that is not yet normalized.
  const int weights = raw_dst ? 0 : dims + (raw_src ? 1 : 0);
  // A constant border read from raw row sums: a row of the constant sums 2r+1 of them, in steps of
  // 1/255 when exact (the constant is some k / 255, like every rgba8 texel; the fp32 product
  // c * 255 * (2r+1) <= 65535 errs by far less than half a step, so to_acc's round() is exact).
  const std::string border_scale = !raw_src ? "1.0" : exact ? "(255.0 * float(2 * RADIUS + 1))" : "float(2 * RADIUS + 1)";
  return {{"EXACT", exact ? "1" : "0"},
          {"IN_SCALE", in_scale},
          {"OUT_WEIGHTS", std::to_string(weights)},
          {"OUT_UNIT", raw_dst ? "1.0" : unit},
          {"BORDER_VALUE_SCALE", border_scale}};
}

// A 2D grid of workgroups of `group` invocations with at least `count` invocations in all
// (glsl/sliding_common.glsl flattens it); at most 65535 groups along x. `count_formula` says how
// `count` follows from the image size, for --export's recipe.
inline DispatchGrid flat_groups(long long count, glm::ivec2 group, const std::string& count_formula) {
  const long long size = static_cast<long long>(group.x) * group.y;
  const long long total = std::max(1LL, (count + size - 1) / size);
  const long long x = std::min(total, 65535LL);
  return {{static_cast<int>(x), static_cast<int>((total + x - 1) / x), 1},
          "G x ceil(n / G) x 1 with n = ceil(" + count_formula + " / " + std::to_string(size) + "), G = min(n, 65535)"};
}

// How a line pass reads and writes: `transposed_source`, its source is the image transposed (H x W);
// `raw`, both textures bound raw (glsl/sliding_common.glsl's SLIDE_PACKED).
struct LinePassIo {
  bool transposed_source = false;
  bool raw = false;
};

// Dispatches line_pass() of glsl/sliding_common.glsl: one invocation per segment of
// settings().segment texels of each line of the source; lines are rows (axis 0) or columns (axis 1).
// `pass`: the pass's values (BlurPasses::dispatch).
inline void dispatch_line_pass(BlurPasses& passes, std::string_view name, const gl::Program& program, int axis,
                               const gl::Texture& src, const gl::Texture& dst, std::optional<glm::vec4> pass = std::nullopt,
                               LinePassIo io = {}) {
  const glm::ivec2 size = io.transposed_source ? glm::ivec2(passes.size().y, passes.size().x) : passes.size();
  const std::string w = io.transposed_source ? "H" : "W", h = io.transposed_source ? "W" : "H";
  const int lines = axis == 0 ? size.y : size.x, length = axis == 0 ? size.x : size.y, seg = segment(passes.settings());
  const std::string along = axis == 0 ? w : h, across = axis == 0 ? h : w;
  const std::string count = across + " * ceil(" + along + " / " + std::to_string(seg) + ")";
  passes.dispatch(name, program,
                  {io.raw ? Binding::read_raw(src) : Binding::read(src), io.raw ? Binding::write_raw(dst) : Binding::write(dst)},
                  flat_groups(static_cast<long long>(lines) * ((length + seg - 1) / seg), passes.settings().workgroup(), count),
                  pass);
}

// The two programs of one shader: running sums along rows (AXIS 0) into an intermediate of
// format `mid`, then along columns (AXIS 1) out of it. rgba32f holds raw row sums (exact
// integers for rgba8 input); rgba8 and rgba16f hold row averages. `first_axis` 1: the first pass
// sums along columns too (a shader that stores it transposed, so that the second pass's columns
// are the image's rows).
struct RowsThenColumns {
  const gl::Program* rows = nullptr;
  const gl::Program* columns = nullptr;
};
inline RowsThenColumns rows_then_columns(BlurSetup& setup, const std::string& file, gl::Format mid, int first_axis = 0,
                                         const gl::Defines& extra = {}) {
  const gl::Format io = setup.settings().input_format;
  const bool raw = mid == gl::Format::rgba32f;
  gl::Defines h = pass_defines(io, io, false, raw, 1), v = pass_defines(io, mid, raw, false, 1);
  h.push_back({"AXIS", std::to_string(first_axis)});
  v.push_back({"AXIS", "1"});
  h.insert(h.end(), extra.begin(), extra.end());
  v.insert(v.end(), extra.begin(), extra.end());
  return {&setup.compute(file, io, mid, h), &setup.compute(file, mid, io, v)};
}

// Float input: the fp32 roundings one output of a running sum can accumulate, in units of
// 2^-24 times the input's peak once the sum is normalized (each rounding is at most 2^-24 of
// the value rounded). A warm-up of 2r+1 texels is 2r additions of partial window sums (at most
// one unit each); each of `steps` slide steps rounds the difference entering - leaving (at most
// two texels: 2/(2r+1) units) and the running sum (one unit).
inline double slide_terms(int r, double steps) { return 2.0 * r + (1.0 + 2.0 / (2.0 * r + 1.0)) * steps; }
// Normalizing a sum: the weight 1/(2r+1) is rounded once, squared (one more), and multiplied.
inline constexpr double kScaleTerms = 3.0;

// The longest stretch one invocation slides over: a segment, or the whole line.
inline double segment_steps(int segment, int length) { return std::min(segment, length); }

// Own bounds (VariantInfo::own_bound): the least one pass moves, its source read once and its
// destination written once; and the least a box's running sums add per pixel of one pass: one
// texel entering and one leaving each channel's sum.
inline double pass_bytes(glm::ivec2 size, gl::Format src, gl::Format dst) {
  return static_cast<double>(size.x) * size.y * (gl::info(src).bytes_per_texel + gl::info(dst).bytes_per_texel);
}
inline constexpr double kSlideAdds = 2.0 * 4.0;
// Rows into the intermediate `mid`, then columns back: two passes of running sums.
inline WorkBound rows_then_columns_bound(const BlurSettings& s, glm::ivec2 size, gl::Format mid) {
  const gl::Format io = s.input_format;
  return {.bytes = pass_bytes(size, io, mid) + pass_bytes(size, mid, io), .fmas = 2.0 * kSlideAdds * size.x * size.y};
}
inline WorkBound two_pass_bound(const BlurSettings& s, glm::ivec2 size) { return rows_then_columns_bound(s, size, s.intermediate_format()); }
// The one-dispatch boxes (compute-box-prefix, compute-box-blocked): the source read once, the
// output written once; per pixel a column running sum, a row's prefix sum and a window's difference.
inline WorkBound one_pass_box_bound(const BlurSettings& s, glm::ivec2 size) {
  return {.bytes = pass_bytes(size, s.input_format, s.input_format), .fmas = (kSlideAdds + 2.0 * 4.0) * size.x * size.y};
}

}  // namespace blurlab::sliding
