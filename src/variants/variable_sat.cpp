// variable-sat: blur that varies across the image (blur/radius_map.h) by a summed-area table:
// Crow, "Summed-area tables for texture mapping" (SIGGRAPH 1984); on the GPU, Hensley et al., "Fast
// summed-area table generation and its applications" (Eurographics 2005). The table of the source
// padded by R texels on each side with the border rule is built blocked, after Nehab et al., "GPU-
// efficient recursive filtering and summed-area tables" (SIGGRAPH Asia 2011): tiles summed in
// shared memory, then the carries between tiles along rows and down columns (glsl/variable_sat.comp
// says how), so each pass has work for the whole GPU. Then each pixel's own box is four table
// reads, whatever its radius: the cost does not grow with r. Box kernel only (a table of sums
// weights every tap the same).
//
// Exact: the table holds integers (glsl/variable_sat.comp says why sums modulo 2^32 are enough for
// rgba8 at any size, 16384^2 included, and 64-bit ones for float input in fixed point), and the
// average is rounded to the nearest rgba8 step in integers: 0 LSB against the reference.
#include <algorithm>
#include <cmath>

#include "blur/check.h"
#include "util/strings.h"

namespace blurlab {
namespace {

// Its binding units beside the generic ones (gl/bindings.h), above the levels and their weights
// (variable_common.glsl): the summed-area table's low words and, for float input, its high words.
constexpr gl::NamedUnit kSatLo{"SAT_LO", 4, gl::kImageUnit};
constexpr gl::NamedUnit kSatHi{"SAT_HI", 5, gl::kImageUnit};
constexpr std::array kSlots{kSatLo, kSatHi};

// Float input: the fixed point the table sums, 2^14 units per 1 (glsl/variable_sat.comp).
constexpr double kFixedScale = 16384.0;

bool wide(const BlurSettings& s) { return gl::info(s.input_format).is_float; }

// The table's tiles (glsl/variable_sat.comp: TILE_W, TILE_H, and why they are small), and the padded
// image they cover.
constexpr glm::ivec2 kTile{16, 16};
glm::ivec2 padded_size(const BlurSettings& s, glm::ivec2 size) { return size + glm::ivec2(2 * s.kernel.radius); }
glm::ivec2 tiles(const BlurSettings& s, glm::ivec2 size) { return (padded_size(s, size) + kTile - 1) / kTile; }
// One texture holds the tiles' sums (the padded image in whole tiles), a column per tile column
// (the row carries) and a row per tile row (the column carries).
glm::ivec2 table_size(const BlurSettings& s, glm::ivec2 size) { return tiles(s, size) * (kTile + 1); }

// The carry passes' workgroups: 32 lines (rows or columns), each walked in 8 segments by as many
// invocations (glsl/variable_sat.comp: CARRY_LINES, CARRY_SEGMENTS).
constexpr int kCarryLines = 32;

class VariableSat final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    gl::Defines extra;
    if (wide(s)) extra.push_back({"WIDE", "1"});
    for (size_t pass = 0; pass < programs_.size(); ++pass) {
      gl::Defines defines = extra;
      defines.push_back({"PASS", std::to_string(pass)});
      programs_[pass] = &setup.compute("variable_sat.comp", s.input_format, s.input_format, defines);
    }
  }
  void run(BlurPasses& passes) override {
    const BlurSettings& s = passes.settings();
    const glm::ivec2 size = passes.size(), table = table_size(s, size), n = tiles(s, size);
    const std::string pad = std::to_string(2 * s.kernel.radius);
    const glm::vec4 pass_values{static_cast<float>(s.kernel.radius), 0.0f, 0.0f, 0.0f};
    const DispatchGrid tile_grid({n.x, n.y, 1}, "ceil((W + " + pad + ") / " + std::to_string(kTile.x) + ") x ceil((H + " + pad + ") / " +
                                                    std::to_string(kTile.y) + ") x 1");
    // kCarryLines rows, then columns, of the tiled padded image a workgroup (a whole number of tiles).
    const int tiles_per_row_group = kCarryLines / kTile.y, tiles_per_column_group = kCarryLines / kTile.x;
    const DispatchGrid rows({(n.y + tiles_per_row_group - 1) / tiles_per_row_group, 1, 1},
                            "ceil((H + " + pad + ") / " + std::to_string(kCarryLines) + ") x 1 x 1");
    const DispatchGrid columns({(n.x + tiles_per_column_group - 1) / tiles_per_column_group, 1, 1},
                               "ceil((W + " + pad + ") / " + std::to_string(kCarryLines) + ") x 1 x 1");
    const DispatchGrid pixels = groups_covering(size, s.workgroup());
    // The table's low words on SatLo, the high ones (float input) on SatHi.
    const gl::Texture& lo = passes.intermediate(0, gl::Format::rgba32f, table);
    if (wide(s)) {
      const gl::Texture& hi = passes.intermediate(1, gl::Format::rgba32f, table);
      passes.dispatch("edges", *programs_[0], {Binding::read(passes.source()), Binding::write_raw(lo, kSatLo), Binding::write_raw(hi, kSatHi)},
                      tile_grid, pass_values);
      passes.dispatch("rows", *programs_[1], {Binding::read_write_raw(lo, kSatLo), Binding::read_write_raw(hi, kSatHi)}, rows, pass_values);
      passes.dispatch("columns", *programs_[2], {Binding::read_write_raw(lo, kSatLo), Binding::read_write_raw(hi, kSatHi)}, columns, pass_values);
      passes.dispatch("table", *programs_[3],
                      {Binding::read(passes.source()), Binding::read_write_raw(lo, kSatLo), Binding::read_write_raw(hi, kSatHi)}, tile_grid,
                      pass_values);
      passes.dispatch("lookup", *programs_[4],
                      {Binding::read_raw(lo, kSatLo), Binding::read_raw(hi, kSatHi), Binding::read(passes.radius_levels(), gl::Unit::Levels),
                       Binding::write(passes.destination())},
                      pixels, pass_values);
    } else {
      passes.dispatch("edges", *programs_[0], {Binding::read(passes.source()), Binding::write_raw(lo, kSatLo)}, tile_grid, pass_values);
      passes.dispatch("rows", *programs_[1], {Binding::read_write_raw(lo, kSatLo)}, rows, pass_values);
      passes.dispatch("columns", *programs_[2], {Binding::read_write_raw(lo, kSatLo)}, columns, pass_values);
      passes.dispatch("table", *programs_[3], {Binding::read(passes.source()), Binding::read_write_raw(lo, kSatLo)}, tile_grid, pass_values);
      passes.dispatch("lookup", *programs_[4],
                      {Binding::read_raw(lo, kSatLo), Binding::read(passes.radius_levels(), gl::Unit::Levels), Binding::write(passes.destination())}, pixels,
                      pass_values);
    }
  }

 private:
  std::array<const gl::Program*, 5> programs_{};
};

std::optional<Refusal> check(const BlurSettings& s, glm::ivec2 size, const gl::GlLimits& limits) {
  const glm::ivec2 table = table_size(s, size);
  if (const int side = std::max(table.x, table.y); side > limits.max_texture_size)
    return Refusal{Limit::TextureSize,
                   "the summed-area table of the image padded by r = " + std::to_string(s.kernel.radius) +
                       " on each side (in whole tiles, with the carries) is " + size_text(table) + ", above GL_MAX_TEXTURE_SIZE " +
                       std::to_string(limits.max_texture_size),
                   static_cast<double>(side), static_cast<double>(limits.max_texture_size)};
  return std::nullopt;
}

// The carries' walks: along a row of tiles, down a column of tiles.
double loop_iterations(const BlurSettings& s, glm::ivec2 size) {
  const glm::ivec2 n = tiles(s, size);
  return std::max(n.x, n.y);
}

Tolerance tolerance(const BlurSettings& s, glm::ivec2 /*size*/, double input_peak) {
  Tolerance t;
  if (!wide(s)) {
    t.lsb = true;
    t.lsb_limit = 0;
    t.reason = "exact: integer sums (modulo 2^32, box sums below 2^24) rounded to the nearest step in integers (odd counts: no ties)";
    return t;
  }
  // Float input: each texel in fixed point is off by at most half a unit, 2^-15, and so is their
  // average; the 64-bit sum's conversion to float (2 roundings), the division (1) and the scaling
  // are fp32 roundings of at most 2^-24 of the values (up to the peak) each; the output stored as
  // fp16 (or fp32) rounds once more, relative to the value.
  const double peak = std::max(input_peak, 1e-30);
  t.lsb = false;
  t.relative = s.input_format == gl::Format::rgba16f ? std::ldexp(1.0, -10) : 0.0;
  t.absolute = 0.5 / kFixedScale + 4.0 * std::ldexp(peak, -24) + std::ldexp(1.0, -24);
  t.reason = "float: 1 ulp of the fp16 output + 2^-15 (the texels in fixed point, 2^14 units) + 4 fp32 roundings of the input peak " +
             format_double(peak, 4);
  return t;
}

// Five passes, each reading its input once and writing its output once: the edges read the padded
// source and write each tile's last column and last row; the rows read and write the last columns
// (as row carries); the columns read and write the last rows (as column carries) and read the row
// carry of each tile's last row; the table reads the padded source again and the carries, and writes
// the tiles' entries (the padded image in whole tiles); the lookup reads those (neighbours share
// their corners) and the levels (rgba8) and writes the output. Adds per channel: two per tiled texel
// in each of the two tile passes and two more for the carries, four per pixel in the lookup (twice
// with 64-bit words).
WorkBound own_bound(const BlurSettings& s, glm::ivec2 size) {
  const glm::ivec2 padded = padded_size(s, size), n = tiles(s, size), tiled = n * kTile;
  const double words = wide(s) ? 2.0 : 1.0, entry = 16.0 * words, pixels = static_cast<double>(size.x) * size.y;
  const double in = gl::info(s.input_format).bytes_per_texel, tiled_texels = static_cast<double>(tiled.x) * tiled.y;
  const double source = static_cast<double>(padded.x) * padded.y * in;
  const double last_columns = static_cast<double>(tiled.y) * n.x, last_rows = static_cast<double>(tiled.x) * n.y;
  const double bytes = source + (last_columns + last_rows) * entry                             // edges
                       + 2.0 * last_columns * entry                                            // rows
                       + (2.0 * last_rows + static_cast<double>(n.x) * n.y) * entry            // columns
                       + source + (last_columns + last_rows + tiled_texels) * entry            // table
                       + tiled_texels * entry + pixels * (4.0 + in);                           // lookup
  return {.bytes = bytes, .fmas = 4.0 * words * (6.0 * tiled_texels + 4.0 * pixels)};
}

// The table's texture (two for float input, the high words), rgba32f-sized texels.
double intermediate_bytes(const BlurSettings& s, glm::ivec2 size) {
  const glm::ivec2 table = table_size(s, size);
  return (wide(s) ? 32.0 : 16.0) * table.x * table.y;
}

}  // namespace

namespace variant {
extern const VariantInfo variable_sat{
    .name = "variable-sat",
    .stage = Stage::Compute,
    .family = Family::VariableRadius,
    .summary = "per-pixel radius (--radius-map): a summed-area table in exact integers, then each pixel's box in four reads",
    .kernels = KernelSupport::BoxOnly,
    .knobs = {knobs::workgroup({{16, 16}, {8, 8}})},
    .loop_iterations = loop_iterations,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new VariableSat); },
    .variable_radius = true,
    .own_tolerance = tolerance,
    .own_bound = own_bound,
    .intermediate_bytes = intermediate_bytes,
    .slots = kSlots,
};
}  // namespace variant
}  // namespace blurlab
