// dof's near-far technique, the engines' way: Jimenez, "Next Generation Post Processing in Call of
// Duty: Advanced Warfare" (SIGGRAPH 2014: near and far fields at half resolution, tiles of the
// largest circle of confusion dilated over the tiles they reach, scatter as gather, a composite
// that lays the blurred foreground over the background); Abadie, "A Life of a Bokeh" (SIGGRAPH
// 2018, Unreal's depth of field); the same structure in FidelityFX's depth of field and Blender
// EEVEE's. Here in five passes, glsl/effects/dof_near_far.comp (which says their formulas):
// prefilter (half resolution, circles from depth), tiles, dilation, gather (the bokeh is a disk:
// rings of samples spread evenly over it, the table below), composite.
//
// Why it beats gathering at each pixel's own radius (dof.cpp's variants): a sample counts only
// where its own circle covers the pixel, so a sharp object's texels (circles under a pixel) never
// spread over the blurred background behind them (no halo); the near field's alpha is the share of
// the pixel its blurred foreground covers, laid over whatever lies behind (a blurred silhouette is
// not cut off at the object's edge); and a far sample farther than the pixel spreads no further
// than the pixel's own circle (what lies behind an object does not bleed over it). Where it still
// breaks: behind a blurred foreground it can only show the frame's own texels (a lens sees around
// the object: the hidden background is missing), the half resolution and the rings' spacing
// (rows of up to kRings rings) undersample circles much smaller than their tile's reach, and a
// half-resolution texel takes the nearest of its four circles.
//
// Each pass is checked against the model below (double precision) given the pass's input as the
// GPU stored it, within the bound its own arithmetic allows.
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "blur/check.h"
#include "blur/model.h"
#include "effects/dof.h"
#include "effects/tonemap.h"
#include "util/error.h"

namespace blurlab::dof {

namespace {

constexpr int kTile = kNearFarTile;  // half-resolution texels a tile's side: a gather workgroup (16 pixels)
constexpr int kRings = 4;  // the most rings of samples a disk gets (1 + 4 K (K + 1) samples: 81)
// The table's rows: reaches up to the largest circle the techniques take, in half-resolution texels.
constexpr int kTableRows = static_cast<int>(kMaxCocRadius / 2) + 2;

glm::ivec2 half_size(glm::ivec2 size) { return {(size.x + 1) / 2, (size.y + 1) / 2}; }
glm::ivec2 tiles_of(glm::ivec2 half) { return {(half.x + kTile - 1) / kTile, (half.y + kTile - 1) / kTile}; }
// The samples of a disk of radius r half-resolution texels: the centre, then rings k = 1..K (K =
// min(kRings, r)) at radius k r / K of 8k samples each (odd rings turned half a step), their
// offsets rounded to texels; texel 0 holds the count n and the area a sample stands for over pi, in
// full-resolution pixels^2: ring k covers the annulus from (k - 1/2) to (k + 1/2) ring spacings
// (2r / K pixels), whose 8k samples stand for pi (r / K)^2 each (the centre's disk too); then each
// sample (dx, dy, distance in full-resolution pixels).
struct SampleTable {
  int width = 1 + 1 + 4 * kRings * (kRings + 1);
  int rows = kTableRows;
  std::vector<float> texels;
  float at(int x, int y, int c) const { return texels[(static_cast<size_t>(y) * width + x) * 4 + c]; }
};

const SampleTable& sample_table() {
  static const SampleTable table = [] {
    SampleTable t;
    t.texels.assign(static_cast<size_t>(t.width) * t.rows * 4, 0.0f);
    for (int r = 0; r < t.rows; ++r) {
      float* row = &t.texels[static_cast<size_t>(r) * t.width * 4];
      const int rings = std::min(kRings, r);
      int n = 0;
      const auto add = [&](int dx, int dy) {
        ++n;
        row[n * 4 + 0] = static_cast<float>(dx);
        row[n * 4 + 1] = static_cast<float>(dy);
        row[n * 4 + 2] = static_cast<float>(2.0 * std::sqrt(static_cast<double>(dx * dx + dy * dy)));
      };
      add(0, 0);
      for (int k = 1; k <= rings; ++k) {
        const double radius = static_cast<double>(k) * r / rings;
        for (int j = 0; j < 8 * k; ++j) {
          const double angle = 2.0 * std::numbers::pi * (j + (k % 2 ? 0.5 : 0.0)) / (8 * k);
          add(static_cast<int>(std::floor(radius * std::cos(angle) + 0.5)), static_cast<int>(std::floor(radius * std::sin(angle) + 0.5)));
        }
      }
      row[0] = static_cast<float>(n);
      row[1] = rings > 0 ? static_cast<float>(static_cast<double>(r) * r / (rings * rings)) : 0.0f;
    }
    return t;
  }();
  return table;
}

class NearFarDof final : public Effect {
 public:
  std::optional<Refusal> prepare(EffectSetup& setup) override {
    const EffectSettings& s = setup.settings();
    if (s.border.mode != BorderMode::Clamp)
      return Refusal{Limit::Border,
                     "the near and far fields gather their samples clamped to the frame (what lies outside it is the frame's edge), so "
                     "they blur with the clamp border only (given " + std::string(name(s.border.mode)) + ")"};
    config_ = config(s.values, setup.size());
    const std::string tile = std::to_string(kTile);
    for (int pass = 0; pass < 5; ++pass)
      programs_[static_cast<size_t>(pass)] = &setup.compute(
          "effects/dof_near_far.comp", {{"DOF_PASS", std::to_string(pass)}, {"TILE", tile}, {"DILATE", std::to_string(near_dilation_tiles(config_, setup.size().y))}});
    if (!table_) {
      const SampleTable& t = sample_table();
      table_ = gl::Texture(t.width, t.rows, gl::Format::rgba32f, "dof sample table");
      Image image(t.width, t.rows);
      image.texels = t.texels;
      table_.upload(image);
    }
    const glm::dvec2 ab = coc_from_window_depth(config_.lens, config_.lens.camera(), setup.size().y);
    values_ = {static_cast<float>(ab.x), static_cast<float>(ab.y), 0.0f, 0.0f};
    return std::nullopt;
  }

  void run(EffectPasses& p) override {
    const glm::ivec2 size = p.size(), half = half_size(size), tiles = tiles_of(half);
    const gl::Texture& half_frame = p.texture(kHalfSlot, gl::Format::rgba16f, half, "dof half frame");
    const gl::Texture& tile_circles = p.texture(kTilesSlot, gl::Format::rgba16f, tiles, "dof tiles");
    const gl::Texture& dilated = p.texture(kDilatedSlot, gl::Format::rgba16f, tiles, "dof dilated tiles");
    const gl::Texture& far = p.texture(kFarSlot, gl::Format::rgba16f, half, "dof far field");
    const gl::Texture& near = p.texture(kNearSlot, gl::Format::rgba16f, half, "dof near field");
    p.dispatch("prefilter", *programs_[0], {Binding::read(p.color()), Binding::sampled(p.depth(), gl::Unit::Stage1), Binding::write(half_frame)},
               groups_covering(half, {16, 16}, 1), values_);
    p.dispatch("tiles", *programs_[1], {Binding::read(half_frame), Binding::write(tile_circles)}, groups_covering(tiles, {8, 8}, 4));
    p.dispatch("dilate", *programs_[2], {Binding::read(tile_circles), Binding::write(dilated)}, groups_covering(tiles, {8, 8}, 4));
    p.dispatch("gather", *programs_[3],
               {Binding::sampled(half_frame), Binding::read(dilated, gl::Unit::Image2), Binding::read(table_, gl::Unit::Image3),
                Binding::write(far), Binding::write(near, gl::Unit::Image4)},
               groups_covering(half, {kTile, kTile}, 1));
    p.dispatch("composite", *programs_[4],
               {Binding::read(p.color()), Binding::sampled(p.depth(), gl::Unit::Stage1), Binding::sampled(far, gl::Unit::Stage2),
                Binding::sampled(near, gl::Unit::Stage3), Binding::write(p.output())},
               groups_covering(size, {16, 16}), values_);
  }

 private:
  Config config_;
  std::array<const gl::Program*, 5> programs_{};
  gl::Texture table_;
  glm::vec4 values_{0.0f};
};

// The CPU model of the passes, in double, each from what the pass reads.

double ramp(double x) { return std::clamp(x, 0.0, 1.0); }
double cover(double c, double d) { return std::clamp(c - d + 0.5, 0.0, 1.0); }

ReferenceImage model_prefilter(const Image& frame, const Image& depth, const Config& c, ReferenceImage& allowed) {
  const glm::ivec2 half = half_size({frame.width, frame.height});
  const SceneCamera camera = c.lens.camera();
  const glm::dvec2 ab = coc_from_window_depth(c.lens, camera, frame.height);
  // The circle in fp32 from a and b (as floats) and d: a few roundings of terms up to |a| + |b|.
  const double coc_error = 4.0 * std::ldexp(1.0, -24) * (std::abs(ab.x) + std::abs(ab.y));
  const double half_store = std::ldexp(1.0, -10) + std::ldexp(1.0, -20);  // GL's float-to-half may truncate
  ReferenceImage out = model::blank(half.x, half.y);
  allowed = model::blank(half.x, half.y);
  for (int y = 0; y < half.y; ++y)
    for (int x = 0; x < half.x; ++x) {
      double sum[3] = {0, 0, 0}, nearest = 0.0;
      for (int k = 0; k < 4; ++k) {
        const int px = std::min(2 * x + (k & 1), frame.width - 1), py = std::min(2 * y + (k >> 1), frame.height - 1);
        for (int ch = 0; ch < 3; ++ch) sum[ch] += frame.at(px, py, ch);
        const double coc = c.lens.coc(camera.view_depth(depth.at(px, py, 0)), frame.height);
        nearest = k == 0 ? coc : std::min(nearest, coc);
      }
      const size_t i = (static_cast<size_t>(y) * half.x + x) * 4;
      for (int ch = 0; ch < 3; ++ch) {
        out.texels[i + ch] = 0.25 * sum[ch];
        allowed.texels[i + ch] = half_store * 0.25 * std::abs(sum[ch]) + std::ldexp(1.0, -24);
      }
      out.texels[i + 3] = nearest;
      allowed.texels[i + 3] = half_store * std::abs(nearest) + coc_error * (1.0 + half_store) + std::ldexp(1.0, -24);
    }
  return out;
}

// Tiles and their dilation: maxima of the values stored, stored again: exact.
ReferenceImage model_tiles(const Image& half) {
  const glm::ivec2 tiles = tiles_of({half.width, half.height});
  ReferenceImage out = model::blank(tiles.x, tiles.y);
  for (int ty = 0; ty < tiles.y; ++ty)
    for (int tx = 0; tx < tiles.x; ++tx) {
      double near = 0.0, far = 0.0;
      for (int y = ty * kTile; y < std::min(ty * kTile + kTile, half.height); ++y)
        for (int x = tx * kTile; x < std::min(tx * kTile + kTile, half.width); ++x) {
          near = std::max(near, -static_cast<double>(half.at(x, y, 3)));
          far = std::max(far, static_cast<double>(half.at(x, y, 3)));
        }
      const size_t i = (static_cast<size_t>(ty) * tiles.x + tx) * 4;
      out.texels[i] = near;
      out.texels[i + 1] = far;
      out.texels[i + 2] = 0.0;
      out.texels[i + 3] = 1.0;
    }
  return out;
}

ReferenceImage model_dilate(const Image& tiles, int reach) {
  ReferenceImage out = model::blank(tiles.width, tiles.height);
  for (int ty = 0; ty < tiles.height; ++ty)
    for (int tx = 0; tx < tiles.width; ++tx) {
      double near = 0.0, far = 0.0;
      for (int y = std::max(ty - reach, 0); y <= std::min(ty + reach, tiles.height - 1); ++y)
        for (int x = std::max(tx - reach, 0); x <= std::min(tx + reach, tiles.width - 1); ++x) {
          near = std::max(near, static_cast<double>(tiles.at(x, y, 0)));
          far = std::max(far, static_cast<double>(tiles.at(x, y, 1)));
        }
      const size_t i = (static_cast<size_t>(ty) * tiles.width + tx) * 4;
      out.texels[i] = near;
      out.texels[i + 1] = far;
      out.texels[i + 2] = 0.0;
      out.texels[i + 3] = 1.0;
    }
  return out;
}

// The gather's fields, and the error each texel's may have: the weights' factors in fp32 (ramp and
// cover clamp sums of values up to the largest circle and distance: a few 2^-24 of those, absolute,
// each factor in [0, 1]), the n-term sums in fp32, and the stores to half (which may truncate:
// 2^-10 relative, or a step of the smallest halves, 2^-24).
struct Fields {
  ReferenceImage far, near, far_allowed, near_allowed;
};

Fields model_gather(const Image& half, const Image& dilated) {
  const SampleTable& table = sample_table();
  const int w = half.width, h = half.height;
  Fields f{model::blank(w, h), model::blank(w, h), model::blank(w, h), model::blank(w, h)};
  for (ReferenceImage* image : {&f.far, &f.near}) std::fill(image->texels.begin(), image->texels.end(), 0.0);
  const double factor_error = 16.0 * std::ldexp(1.0, -24) * (kMaxCocRadius + 2.0 * kTableRows + 2.0);
  const double half_store = std::ldexp(1.0, -10) + std::ldexp(1.0, -20);
  const auto row_for = [&](float coc) { return std::min(static_cast<int>(std::ceil(coc * 0.5f)), table.rows - 1); };
  model::parallel_rows(h, [&](int begin, int end) {
    for (int y = begin; y < end; ++y)
      for (int x = 0; x < w; ++x) {
        double far[4] = {0, 0, 0, 0}, near[4] = {0, 0, 0, 0}, far_bound[4] = {0, 0, 0, 0}, near_bound[4] = {0, 0, 0, 0};
        int terms = 0;
        // Sample k of `row` around (x, y): its radiance and alpha 1, its circle, its distance.
        const auto sample = [&](int row, int k, double value[4], double& coc, double& d) {
          const int sx = std::clamp(x + static_cast<int>(table.at(k, row, 0)), 0, w - 1);
          const int sy = std::clamp(y + static_cast<int>(table.at(k, row, 1)), 0, h - 1);
          for (int ch = 0; ch < 3; ++ch) value[ch] = half.at(sx, sy, ch);
          value[3] = 1.0;
          coc = half.at(sx, sy, 3);
          d = table.at(k, row, 2);
        };
        const float centre = half.at(x, y, 3);
        if (centre > 1.0f) {
          const int row = row_for(centre), n = static_cast<int>(table.at(0, row, 0));
          terms += n;
          for (int k = 1; k <= n; ++k) {
            double value[4], coc, d;
            sample(row, k, value, coc, d);
            const double c = std::min(coc, static_cast<double>(centre));
            if (!(c > 1.0)) continue;
            const double most = 1.0 / (c * c), weight = ramp(c - 1.0) * cover(c, d) * most;
            for (int ch = 0; ch < 4; ++ch) {
              far[ch] += weight * value[ch];
              far_bound[ch] += most * std::abs(value[ch]);
            }
          }
        }
        const float reach = dilated.at(x / kTile, y / kTile, 0);
        if (reach > 1.0f) {
          const int row = row_for(reach), n = static_cast<int>(table.at(0, row, 0));
          const double share = table.at(0, row, 1);
          terms = std::max(terms, n);
          for (int k = 1; k <= n; ++k) {
            double value[4], coc, d;
            sample(row, k, value, coc, d);
            const double c = -coc;
            if (!(c > 1.0)) continue;
            const double most = std::min(1.0, share / (c * c)), weight = ramp(c - 1.0) * cover(c, d) * most;
            for (int ch = 0; ch < 4; ++ch) {
              near[ch] += weight * value[ch];
              near_bound[ch] += most * std::abs(value[ch]);
            }
          }
        }
        const size_t i = (static_cast<size_t>(y) * w + x) * 4;
        const double sums = factor_error + (terms + 4) * std::ldexp(1.0, -24);
        for (int ch = 0; ch < 4; ++ch) {
          f.far.texels[i + ch] = far[ch];
          f.near.texels[i + ch] = near[ch];
          f.far_allowed.texels[i + ch] = half_store * std::abs(far[ch]) + sums * far_bound[ch] * (1.0 + half_store) + std::ldexp(1.0, -24);
          f.near_allowed.texels[i + ch] = half_store * std::abs(near[ch]) + sums * near_bound[ch] * (1.0 + half_store) + std::ldexp(1.0, -24);
        }
      }
  });
  return f;
}

double upsampled(const Image& field, int px, int py, int ch) {
  const auto axis = [](int p, int last, int& a, int& b) {
    const int i = (p - 1) >> 1;  // an arithmetic shift: -1 for p = 0
    a = std::clamp(i, 0, last);
    b = std::clamp(i + 1, 0, last);
    return (p & 1) == 0 ? 0.75 : 0.25;
  };
  int ax, bx, ay, by;
  const double fx = axis(px, field.width - 1, ax, bx), fy = axis(py, field.height - 1, ay, by);
  const auto v = [&](int x, int y) { return static_cast<double>(field.at(x, y, ch)); };
  return (1.0 - fy) * ((1.0 - fx) * v(ax, ay) + fx * v(bx, ay)) + fy * ((1.0 - fx) * v(ax, by) + fx * v(bx, by));
}

ReferenceImage model_composite(const Image& frame, const Image& depth, const Image& far, const Image& near, const Config& c) {
  const SceneCamera camera = c.lens.camera();
  ReferenceImage out = model::blank(frame.width, frame.height);
  for (int y = 0; y < frame.height; ++y)
    for (int x = 0; x < frame.width; ++x) {
      double shown[3] = {frame.at(x, y, 0), frame.at(x, y, 1), frame.at(x, y, 2)};
      const double coc = c.lens.coc(camera.view_depth(depth.at(x, y, 0)), frame.height);
      const double far_alpha = upsampled(far, x, y, 3), near_alpha = upsampled(near, x, y, 3);
      if (far_alpha > 0.0)
        for (int ch = 0; ch < 3; ++ch) shown[ch] += (upsampled(far, x, y, ch) / far_alpha - shown[ch]) * ramp(coc - 1.0);
      if (near_alpha > 0.0)
        for (int ch = 0; ch < 3; ++ch) shown[ch] += (upsampled(near, x, y, ch) / near_alpha - shown[ch]) * std::min(near_alpha, 1.0);
      const size_t i = (static_cast<size_t>(y) * frame.width + x) * 4;
      for (int ch = 0; ch < 3; ++ch) out.texels[i + ch] = display_value(shown[ch]);
      out.texels[i + 3] = 1.0;
    }
  return out;
}

ReferenceImage zeros(int w, int h) {
  ReferenceImage r = model::blank(w, h);
  std::fill(r.texels.begin(), r.texels.end(), 0.0);
  return r;
}

}  // namespace

std::unique_ptr<Effect> create_near_far() { return std::make_unique<NearFarDof>(); }

// Tiles the scene's largest near circle reaches (plus a pixel of soft edge), in half-resolution
// texels over tiles of kTile: how far the dilation looks (far circles need none: a pixel's far
// field gathers within its own circle).
int near_dilation_tiles(const Config& c, int rows) {
  const double near = std::max(0.0, -c.lens.coc(nearest_surface(), rows));
  const int texels = static_cast<int>(std::ceil((near + 1.0) / 2.0));
  return (texels + kTile - 1) / kTile;
}

std::vector<StageCheck> check_near_far(const EffectReadback& run, const Config& c) {
  std::vector<StageCheck> stages;
  const Image half = run.stage_texture(kHalfSlot);
  ReferenceImage allowed;
  const ReferenceImage expected_half = model_prefilter(*run.color, *run.depth, c, allowed);
  const Tolerance per_texel{.lsb = false, .reason = "per texel: fp32 sums and weights of the pass's own values, stored to half (may truncate: 2^-10 relative)"};
  stages.push_back({"prefilter", compare_within(half, expected_half, allowed),
                    {.lsb = false, .reason = "the mean of four fp16 texels and the circles from depth in fp32 (a few 2^-24 of |a| + |b| of coc = a + b d), "
                                             "stored to half (may truncate: 2^-10 relative)"}});
  const Image tiles = run.stage_texture(kTilesSlot);
  const Tolerance exact{.lsb = false, .reason = "maxima of the stored values, stored again: exact"};
  const ReferenceImage expected_tiles = model_tiles(half);
  stages.push_back({"tiles", compare_within(tiles, expected_tiles, zeros(expected_tiles.width, expected_tiles.height)), exact});
  const Image dilated = run.stage_texture(kDilatedSlot);
  const ReferenceImage expected_dilated = model_dilate(tiles, near_dilation_tiles(c, run.size.y));
  stages.push_back({"dilate", compare_within(dilated, expected_dilated, zeros(expected_dilated.width, expected_dilated.height)), exact});
  const Fields fields = model_gather(half, dilated);
  const Image far = run.stage_texture(kFarSlot), near = run.stage_texture(kNearSlot);
  stages.push_back({"gather far", compare_within(far, fields.far, fields.far_allowed), per_texel});
  stages.push_back({"gather near", compare_within(near, fields.near, fields.near_allowed), per_texel});
  const Tolerance shown{.lsb = true, .lsb_limit = 1,
                        .reason = "the composite and tonemap in fp32 against double, of the GPU's own fields: one rounding to 8 bits, 1 LSB"};
  stages.push_back({"composite", compare_to_reference(*run.output, model_composite(*run.color, *run.depth, far, near, c), shown), shown});
  return stages;
}

std::string describe_near_far(const Config& c, glm::ivec2 size) {
  const glm::ivec2 tiles = tiles_of(half_size(size));
  return "near and far fields at half resolution (" + std::to_string(tiles.x) + "x" + std::to_string(tiles.y) +
         " tiles, the largest near circle dilated over " + std::to_string(near_dilation_tiles(c, size.y)) +
         " around), each pixel gathering up to " + std::to_string(1 + 4 * kRings * (kRings + 1)) +
         " samples a field where a sample's own circle covers it, the near field laid over the far by its coverage, then the tonemap";
}

}  // namespace blurlab::dof
