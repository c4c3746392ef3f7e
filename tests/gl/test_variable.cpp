// The variable-radius variants (blur/radius_map.h) against the per-pixel CPU reference
// (reference_variable_blur; an approximation against its CPU model, its fidelity to the exact
// per-pixel kernel printed), gl.Variable.*: a map of random levels 0..R (every pixel its own
// kernel, at the borders too) at 131x97 (odd: partial workgroups) with R = 6, and at 5x3 with R = 9
// (boxes reaching past the image on both sides: repeated reflections), every border mode, rgba8
// and rgba16f input, each kernel the variant blurs. The levels and R are data to these shaders (no
// RADIUS define), so a variant compiles one program per border mode and input format, whatever
// the radius, size or map. The uniform map (no --radius-map) is the GL grid's (test_variants.cpp).
#include <cstdio>
#include <limits>
#include <random>

#include "blur/check.h"
#include "blur/pipeline.h"
#include "blur/registry.h"
#include "gl_fixture.h"
#include "util/strings.h"

namespace blurlab::test {
namespace {

// The grid's image (gl_fixture.h) with smaller blocks: a wrong tap or border shows.
constexpr glm::ivec2 kBlock{5, 3};

// A map file's worth of random 8-bit values, the image's size.
std::shared_ptr<const RadiusMap> random_map(glm::ivec2 size, unsigned seed) {
  auto map = std::make_shared<RadiusMap>();
  map->shape = MapShape::File;
  map->name = "random";
  map->width = size.x;
  map->height = size.y;
  map->max_value = 255;
  std::mt19937 rng(seed);
  map->values.resize(static_cast<size_t>(size.x) * size.y);
  for (uint16_t& v : map->values) v = static_cast<uint16_t>(rng() % 256);
  return map;
}

struct Case {
  glm::ivec2 size;
  int radius;
};
// 283 x 141 at r = 4: variable-sat's table (padded by 4) is 10 x 10 tiles, so each of the carry
// passes' 8 segments of a line walks one or two tiles.
constexpr Case kCases[] = {{{131, 97}, 6}, {{5, 3}, 9}, {{283, 141}, 4}};

class Variable : public GlTestWithParam<const VariantInfo*> {};

TEST_P(Variable, MatchesThePerPixelReference) {
  const VariantInfo& variant = *GetParam();
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  BlurPipeline pipeline(programs, gl_info().limits);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float poison_float[4] = {nan, nan, nan, nan}, poison_unorm[4] = {1.0f, 0.0f, 1.0f, 0.5f};
  pipeline.poison_intermediates_when_taken(poison_float);
  int checked = 0;
  for (gl::Format format : {gl::Format::rgba8, gl::Format::rgba16f})
    for (const Case& c : kCases) {
      gl::Texture source(c.size.x, c.size.y, format), destination(c.size.x, c.size.y, format);
      source.upload(blocks_under_noise(c.size, format, static_cast<unsigned>(c.size.x + c.radius), kBlock));
      const Image uploaded = source.download();
      const auto map = random_map(c.size, static_cast<unsigned>(c.size.y));
      for (KernelType type : {KernelType::Box, KernelType::Gauss})
        for (BorderMode mode : kBorderModes) {
          BlurSettings s;
          s.kernel = make_kernel(type, c.radius, std::nullopt);
          s.border = {mode, mode == BorderMode::Constant ? Rgba{0.25f, 1.0f, 0.5f, 0.75f} : Rgba{}};
          s.input_format = format;
          s.radius_map = map;
          const BlurSettings resolved = resolve(variant, s);
          const std::string what = std::string(variant.name) + " " + describe(variant, resolved) + " " + size_text(c.size);
          const auto refusal = pipeline.configure(variant, s, c.size);
          if (variant.kernels == KernelSupport::BoxOnly && type != KernelType::Box) {
            ASSERT_TRUE(refusal) << what << " must be refused";
            EXPECT_EQ(refusal->limit, Limit::Kernel) << what << ": " << refusal->reason;
            continue;
          }
          ASSERT_FALSE(refusal) << what << " refused: " << refusal->reason;
          gl::fill(destination, gl::info(format).is_float ? poison_float : poison_unorm);
          pipeline.run(source, destination);
          const ReferenceImage reference = expected_output(variant, resolved, uploaded);
          const Tolerance tolerance = tolerance_for(variant, resolved, c.size, peak_magnitude(uploaded));
          const CheckResult result = compare_to_reference(destination.download(), reference, tolerance);
          EXPECT_TRUE(result.ok) << what << ": " << result.text() << ", " << result.worst_fraction << "x tolerance at (" << result.worst_x
                                 << "," << result.worst_y << ") channel " << result.worst_channel << " [" << tolerance.reason << "]";
          ++checked;
          if (is_approximation(variant) && c.size.x > 100 && mode == BorderMode::Clamp) {
            // How close it comes to the exact per-pixel kernel (information: its check is its model's).
            const Fidelity f = measure_fidelity(destination.download(), fidelity_reference(variant, resolved, uploaded),
                                                format, peak_magnitude(uploaded), 0.0);
            std::printf("%s: fidelity against the exact per-pixel kernel: max %.1f LSB, RMS %.2f LSB, PSNR %.1f dB\n", what.c_str(),
                        f.max_lsb, f.rms_lsb, f.psnr_db);
          }
        }
    }
  EXPECT_GT(checked, 0);
}

// Levels past 64, on the ramp (0 at the left edge to R at the right, about 3 levels a pixel here):
// a variant that clamps, wraps or misreads large levels, or reads a pixel's level from its
// neighbour along x, shows. R = 100 on 37x23 (rgba8, clamp; each kernel the variant blurs): every
// box reaches far past the image, and variable-naive's (2R+1)^2 taps stay under llvmpipe's loop limit.
TEST_P(Variable, LargeLevelsOnARamp) {
  const VariantInfo& variant = *GetParam();
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  BlurPipeline pipeline(programs, gl_info().limits);
  const glm::ivec2 size{37, 23};
  gl::Texture source(size.x, size.y, gl::Format::rgba8), destination(size.x, size.y, gl::Format::rgba8);
  source.upload(blocks_under_noise(size, gl::Format::rgba8, 100, kBlock));
  const Image uploaded = source.download();
  int checked = 0;
  for (KernelType type : {KernelType::Box, KernelType::Gauss}) {
    if (variant.kernels == KernelSupport::BoxOnly && type != KernelType::Box) continue;
    BlurSettings s;
    s.kernel = make_kernel(type, 100, std::nullopt);
    s.radius_map = builtin_radius_map("ramp");
    const BlurSettings resolved = resolve(variant, s);
    const std::string what = std::string(variant.name) + " " + describe(variant, resolved) + " " + size_text(size);
    const auto refusal = pipeline.configure(variant, s, size);
    ASSERT_FALSE(refusal) << what << " refused: " << refusal->reason;
    const float poison[4] = {1.0f, 0.0f, 1.0f, 0.5f};
    gl::fill(destination, poison);
    pipeline.run(source, destination);
    const Tolerance tolerance = tolerance_for(variant, resolved, size, peak_magnitude(uploaded));
    const CheckResult result = compare_to_reference(destination.download(), expected_output(variant, resolved, uploaded), tolerance);
    EXPECT_TRUE(result.ok) << what << ": " << result.text() << ", " << result.worst_text() << " [" << tolerance.reason << "]";
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

std::vector<const VariantInfo*> variable_variants() {
  std::vector<const VariantInfo*> list;
  for (const VariantInfo* v : variants())
    if (v->variable_radius) list.push_back(v);
  return list;
}

INSTANTIATE_TEST_SUITE_P(Variable, Variable, ::testing::ValuesIn(variable_variants()), [](const auto& p) {
  std::string name(p.param->name);
  for (char& ch : name)
    if (ch == '-') ch = '_';
  return name;
});

// The map makes the blur vary: a ramp's pixels differ from the uniform blur's where their level is
// below R (a map that were ignored would pass the grid's uniform cases).
class VariableMap : public GlTest {};

TEST_F(VariableMap, ChangesTheOutput) {
  const VariantInfo& variant = *find_variant("variable-naive");
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  BlurPipeline pipeline(programs, gl_info().limits);
  const glm::ivec2 size{31, 9};
  gl::Texture source(size.x, size.y, gl::Format::rgba8), uniform(size.x, size.y, gl::Format::rgba8), ramp(size.x, size.y, gl::Format::rgba8);
  source.upload(blocks_under_noise(size, gl::Format::rgba8, 5, kBlock));
  BlurSettings s;
  s.kernel = make_kernel(KernelType::Box, 4, std::nullopt);
  ASSERT_FALSE(pipeline.configure(variant, s, size));
  pipeline.run(source, uniform);
  s.radius_map = builtin_radius_map("ramp");
  ASSERT_FALSE(pipeline.configure(variant, s, size));
  pipeline.run(source, ramp);
  const Image a = uniform.download(), b = ramp.download(), in = source.download();
  for (int y = 0; y < size.y; ++y) {
    for (int c = 0; c < 4; ++c) EXPECT_EQ(b.at(0, y, c), in.at(0, y, c)) << "level 0 is the identity";
    for (int c = 0; c < 4; ++c) EXPECT_EQ(b.at(size.x - 1, y, c), a.at(size.x - 1, y, c)) << "level R is the uniform blur";
  }
}

}  // namespace
}  // namespace blurlab::test
