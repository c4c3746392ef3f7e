// variable-sat: blur that varies across the image (blur/radius_map.h) by a summed-area table:
// Crow, "Summed-area tables for texture mapping" (SIGGRAPH 1984); on the GPU, Hensley et al., "Fast
// summed-area table generation and its applications" (Eurographics 2005). Two scans build the
// table of the source padded by R texels on each side with the border rule (rows, then columns,
// one invocation per line: the simplest scan; Nehab et al. 2011 block it), then each pixel's own
// box is four reads, whatever its radius: the cost does not grow with r. Box kernel only (a table
// of sums weights every tap the same).
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

// Float input: the fixed point the table sums, 2^14 units per 1 (glsl/variable_sat.comp).
constexpr double kFixedScale = 16384.0;

bool wide(const BlurSettings& s) { return gl::info(s.input_format).is_float; }

// The table: the padded image (W + 2R) x (H + 2R) and a row and a column of zeros.
glm::ivec2 table_size(const BlurSettings& s, glm::ivec2 size) {
  return size + glm::ivec2(2 * s.kernel.radius + 1);
}

constexpr int kScanGroup = 64;  // local_size_x of the scans

class VariableSat final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    gl::Defines extra;
    if (wide(s)) extra.push_back({"WIDE", "1"});
    for (int pass = 0; pass < 3; ++pass) {
      gl::Defines defines = extra;
      defines.push_back({"PASS", std::to_string(pass)});
      programs_[static_cast<size_t>(pass)] = &setup.compute("variable_sat.comp", s.input_format, s.input_format, defines);
    }
  }
  void run(BlurPasses& passes) override {
    const BlurSettings& s = passes.settings();
    const glm::ivec2 size = passes.size(), table = table_size(s, size);
    const int r = s.kernel.radius;
    const glm::vec4 pass_values{static_cast<float>(r), 0.0f, 0.0f, 0.0f};
    const gl::Texture& lo = passes.intermediate(0, gl::Format::rgba32f, table);
    const std::string rows_formula = "ceil((H + " + std::to_string(2 * r) + ") / " + std::to_string(kScanGroup) + ") x 1 x 1";
    const std::string columns_formula = "ceil((W + " + std::to_string(2 * r + 1) + ") / " + std::to_string(kScanGroup) + ") x 1 x 1";
    const DispatchGrid rows({(size.y + 2 * r + kScanGroup - 1) / kScanGroup, 1, 1}, rows_formula);
    const DispatchGrid columns({(table.x + kScanGroup - 1) / kScanGroup, 1, 1}, columns_formula);
    const DispatchGrid pixels = groups_covering(size, s.workgroup());
    if (wide(s)) {
      const gl::Texture& hi = passes.intermediate(1, gl::Format::rgba32f, table);
      passes.dispatch("rows", *programs_[0], {Binding::read(passes.source()), Binding::write_raw(lo, 4), Binding::write_raw(hi, 5)}, rows,
                      pass_values);
      passes.dispatch("columns", *programs_[1], {raw_read_write(lo, 4), raw_read_write(hi, 5)}, columns, pass_values);
      passes.dispatch("lookup", *programs_[2],
                      {Binding::read_raw(lo, 4), Binding::read_raw(hi, 5), Binding::read(passes.radius_levels(), 2),
                       Binding::write(passes.destination())},
                      pixels, pass_values);
    } else {
      passes.dispatch("rows", *programs_[0], {Binding::read(passes.source()), Binding::write_raw(lo, 4)}, rows, pass_values);
      passes.dispatch("columns", *programs_[1], {raw_read_write(lo, 4)}, columns, pass_values);
      passes.dispatch("lookup", *programs_[2],
                      {Binding::read_raw(lo, 4), Binding::read(passes.radius_levels(), 2), Binding::write(passes.destination())}, pixels,
                      pass_values);
    }
  }

 private:
  static Binding raw_read_write(const gl::Texture& t, GLuint unit) { return {Binding::Kind::ImageReadWrite, &t, unit, true}; }
  std::array<const gl::Program*, 3> programs_{};
};

std::optional<Refusal> check(const BlurSettings& s, glm::ivec2 size, const gl::GlLimits& limits) {
  const glm::ivec2 table = table_size(s, size);
  if (const int side = std::max(table.x, table.y); side > limits.max_texture_size)
    return Refusal{Limit::TextureSize,
                   "the summed-area table of the image padded by r = " + std::to_string(s.kernel.radius) + " on each side is " +
                       size_text(table) + ", above GL_MAX_TEXTURE_SIZE " + std::to_string(limits.max_texture_size),
                   static_cast<double>(side), static_cast<double>(limits.max_texture_size)};
  return std::nullopt;
}

// The scans' lines: a padded row, a table column.
double loop_iterations(const BlurSettings& s, glm::ivec2 size) {
  const glm::ivec2 table = table_size(s, size);
  return std::max(table.x, table.y);
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

// Three passes: the rows read the padded source and write the table, the columns read and write
// it, the lookup reads four entries (and the level) per pixel and writes the output; about 5 adds
// per channel and texel.
WorkBound own_bound(const BlurSettings& s, glm::ivec2 size) {
  const glm::ivec2 table = table_size(s, size), padded = table - 1;
  const double words = wide(s) ? 2.0 : 1.0, entry = 16.0 * words, pixels = static_cast<double>(size.x) * size.y;
  const double table_texels = static_cast<double>(table.x) * table.y;
  const double in = gl::info(s.input_format).bytes_per_texel;
  const double bytes = static_cast<double>(padded.x) * padded.y * in + table_texels * entry  // rows
                       + 2.0 * table_texels * entry                                          // columns
                       + pixels * (4.0 * entry + 4.0 + in);                                  // lookup
  return {.bytes = bytes, .fmas = 4.0 * 5.0 * pixels * words};
}

}  // namespace

namespace variant {
extern const VariantInfo variable_sat{
    .name = "variable-sat",
    .stage = Stage::Compute,
    .summary = "per-pixel radius (--radius-map): a summed-area table in exact integers, then each pixel's box in four reads",
    .kernels = KernelSupport::BoxOnly,
    .knobs = {knobs::workgroup({{16, 16}, {8, 8}})},
    .loop_iterations = loop_iterations,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new VariableSat); },
    .variable_radius = true,
    .own_tolerance = tolerance,
    .own_bound = own_bound,
};
}  // namespace variant
}  // namespace blurlab
