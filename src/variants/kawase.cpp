// kawase: the Kawase blur (Masaki Kawase, "Frame buffer postprocessing effects in DOUBLE-S.T.E.A.L",
// GDC 2003), the bloom filter of many engines: passes at full resolution, each the average of four
// bilinear fetches at the diagonal offsets (+-(o + 1/2), +-(o + 1/2)) texels, with the offset o
// growing from pass to pass. Each fetch lands on the corner between four texels and averages that
// 2x2 block: a pass is the mean of 16 texels, 4 along each axis at -o-1, -o, o and o+1.
//
// Textbook passes issue those four fetches per texel and are bound by the texture units' fetch rate
// (a plain GL pass takes about twice a copy). Shared passes (knob pass=shared) fetch every texel
// once into shared memory and apply the weights there (glsl/kawase.comp), to be bound by their
// bytes; on rgba8 they sum integers, exactly, where texture units blend with 8-bit weights and may
// round each fetch. The CPU model is the exact mean of the 16
// texels, each rgba8 pass rounded half up as the integer path does (the textbook path's tolerance
// counts its filtering).
//
// The sigma it stands in for: along each axis a pass's kernel is 1/4 at -o-1, -o, o and o+1, of
// variance ((o+1)^2 + o^2 + o^2 + (o+1)^2) / 4 = o^2 + o + 1/2, and the variances of passes run one
// after another add up (the 2D kernel is separable: the four fetches are all sign combinations).
// For a requested sigma the passes take offsets 0, 1, 2, ... while their variances fit under
// sigma^2, then one more pass whose offset brings the total closest to sigma^2 (the classic
// 0, 1, 2, 2, 3 sequence is sigma 5.3). The declared sigma is the square root of that total.
#include <algorithm>
#include <cmath>
#include <vector>

#include "blur/check.h"
#include "blur/model.h"
#include "util/strings.h"

namespace blurlab {
namespace {

// Passes at full resolution: sigma 42.7 (r = 128) takes 18; 32 reach sigma 104.
constexpr int kMaxPasses = 32;

double pass_variance(int offset) { return offset * offset + offset + 0.5; }

std::vector<int> offsets_for(double sigma) {
  const double target = sigma * sigma;
  std::vector<int> offsets;
  double total = 0.0;
  int next = 0;
  while (total + pass_variance(next) <= target) {
    total += pass_variance(next);
    offsets.push_back(next++);
  }
  // One more pass, of the offset (up to `next`) that lands closest to sigma^2, if that is closer
  // than stopping here; at least one pass (offset 0: sigma 0.71, Kawase's smallest blur).
  int best = -1;
  double best_miss = offsets.empty() ? INFINITY : target - total;
  for (int o = 0; o <= next; ++o)
    if (const double miss = std::abs(target - total - pass_variance(o)); miss < best_miss) {
      best_miss = miss;
      best = o;
    }
  if (best >= 0) offsets.push_back(best);
  return offsets;
}

double sigma_of(const std::vector<int>& offsets) {
  double total = 0.0;
  for (int o : offsets) total += pass_variance(o);
  return std::sqrt(total);
}

ApproxChoice choose(const BlurSettings& s) {
  const std::vector<int> offsets = offsets_for(s.kernel.sigma);
  std::string list;
  for (int o : offsets) list += (list.empty() ? "" : ",") + std::to_string(o);
  return {sigma_of(offsets), std::to_string(offsets.size()) + (offsets.size() == 1 ? " pass, offset " : " passes, offsets ") + list};
}

// How a pass runs (glsl/kawase.comp). "textbook" (the default): Kawase's four bilinear fetches per
// texel, the texture units blending, shared between neighbouring outputs (knob share; the workgroup
// and share knobs apply to it alone);
// "shared": each texel fetched once into shared memory and the 16 weighted there. It stays a knob,
// not the default: its region grows with the offset, and it measured slower than the textbook
// pass with shared fetches (docs/EXPERIMENTS.md).
const Knob kPass{.name = "pass",
                 .help = "Kawase: four bilinear fetches per texel, or each texel fetched once into shared memory and weighted there",
                 .define = "SHARED",
                 .type = KnobType::Choice,
                 .choices = {{"textbook", 0}, {"shared", 1}},
                 .candidates = {{0}, {1}}};
bool shared_pass(const BlurSettings& s) { return s.integer(kPass) == 1; }

// The textbook pass's outputs per invocation, n x n at s = 2o + 1 apart: neighbouring outputs' fetches
// land on the same corners, so n^2 outputs take (n + 1)^2 fetches, not 4 n^2 (glsl/kawase.comp).
// The knob is n. At offsets 0 and 1 outputs are 1 or 3 texels apart and an invocation's stores land
// n texels from its neighbour's: there at most 2 across, and at offset 1 a column of 8 down (rows do
// not spread the stores). Sharing took a pass from its fetch bound toward its bytes, the more so
// as n grows; at offset 1, 2 x 8 was faster than 2 x 2, at offset 0 slower (docs/EXPERIMENTS.md).
const Knob kShare{.name = "share",
                  .help = "Kawase textbook pass: n x n outputs per invocation, 2o + 1 texels apart, sharing their bilinear "
                          "fetches ((n + 1)^2 fetches, not 4 n^2; at offsets 0 and 1 at most 2 across, 2 or 8 down)",
                  // No define: the shader reads SHARE_X and SHARE_Y, the block the host picks per pass.
                  .min = 1,
                  .max = 4,
                  .candidates = {{3}, {2}, {1}}};
// The outputs per invocation of a textbook pass at `offset`, across and down.
glm::ivec2 share(const BlurSettings& s, int offset) {
  if (shared_pass(s)) return {1, 1};
  const int n = s.integer(kShare);
  if (offset >= 2 || n == 1) return {n, n};
  return {2, offset == 1 ? 8 : 2};
}
// The bilinear fetches per output of a textbook pass at `offset`.
double fetches_per_output(const BlurSettings& s, int offset) {
  const glm::dvec2 n = share(s, offset);
  return (n.x + 1) * (n.y + 1) / (n.x * n.y);
}
// Invocations of a textbook pass at `offset` along an axis of `length` texels: each run of n s
// texels (s = 2o + 1) takes s invocations.
int textbook_invocations(int length, int offset, int n) {
  const int s = 2 * offset + 1;
  return (length + n * s - 1) / (n * s) * s;
}
// The workgroups of a textbook pass at `offset` over a `size` image: one invocation per n x m outputs.
DispatchGrid textbook_grid(const BlurSettings& s, glm::ivec2 size, int offset) {
  const glm::ivec2 n = share(s, offset), wg = s.workgroup();
  const glm::ivec2 invocations{textbook_invocations(size.x, offset, n.x), textbook_invocations(size.y, offset, n.y)};
  const std::string per_run = std::to_string(2 * offset + 1);
  const std::string run_x = std::to_string(n.x * (2 * offset + 1)), run_y = std::to_string(n.y * (2 * offset + 1));
  return {groups_covering(invocations, wg).groups, "ceil(ceil(W / " + run_x + ") x " + per_run + " / " + std::to_string(wg.x) +
                                                       ") x ceil(ceil(H / " + run_y + ") x " + per_run + " / " + std::to_string(wg.y) + ") x 1"};
}

// The shared pass's tiles: rgba8 to rgba8 passes sum raw texels as integers (two channels per
// word): 8 bytes a staged texel, 32x24 tiles, 3 outputs down a column per invocation; passes that
// read or write a float format sum fp32 vec4s: 16 bytes, 16x16 tiles of 2. 256 and 128 invocations.
struct Tiling {
  bool packed;
  glm::ivec2 tile;
  int rows;
  int texel_bytes;
};
Tiling tiling(gl::Format src, gl::Format dst) {
  if (src == gl::Format::rgba8 && dst == gl::Format::rgba8) return {true, {32, 24}, 3, 8};
  return {false, {16, 16}, 2, 16};
}
// The staged region of a tile at `offset`: the tile, one texel, and the gap between the two runs of
// texels each axis needs (the shader's run_gap); at most (2 tile + 2)^2 texels: 26.4 KiB packed,
// 18.5 KiB of floats.
glm::ivec2 region(const Tiling& t, int offset) {
  auto length = [&](int tile) { return tile + 1 + std::min(2 * offset + 1, tile + 1); };
  return {length(t.tile.x), length(t.tile.y)};
}

// A program per pass: its formats (first, between intermediates, last) and, for the shared pass,
// its offset (the staged region's size); the offset itself is a value of the pass (u_pass.x).
class Kawase final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    const gl::Format io = s.input_format, mid = s.intermediate_format();
    offsets_ = offsets_for(s.kernel.sigma);
    passes_.clear();
    for (size_t k = 0; k < offsets_.size(); ++k) {
      const gl::Format src = k == 0 ? io : mid, dst = k + 1 == offsets_.size() ? io : mid;
      if (!shared_pass(s)) {
        const glm::ivec2 n = share(s, offsets_[k]);
        passes_.push_back(
            {&setup.compute("kawase.comp", src, dst, {{"SHARED", "0"}, {"SHARE_X", std::to_string(n.x)}, {"SHARE_Y", std::to_string(n.y)}}), {}});
        continue;
      }
      const Tiling t = tiling(src, dst);
      const glm::ivec2 r = region(t, offsets_[k]);
      passes_.push_back({&setup.compute("kawase.comp", src, dst,
                                        {{"PACKED", t.packed ? "1" : "0"},
                                         {"TILE_W", std::to_string(t.tile.x)},
                                         {"THREADS_Y", std::to_string(t.tile.y / t.rows)},
                                         {"ROWS", std::to_string(t.rows)},
                                         {"REGION_TEXELS", std::to_string(r.x * r.y)}}),
                         t});
    }
  }

  void run(BlurPasses& passes) override {
    const BlurSettings& s = passes.settings();
    const gl::Texture* src = &passes.source();
    const size_t n = offsets_.size();
    for (size_t k = 0; k < n; ++k) {
      const Pass& pass = passes_[k];
      const gl::Texture& dst = k + 1 == n ? passes.destination() : passes.intermediate(static_cast<int>(k % 2));
      const glm::vec4 offset(static_cast<float>(offsets_[k]), 0.0f, 0.0f, 0.0f);
      if (!shared_pass(s))
        passes.dispatch("p" + std::to_string(k + 1), *pass.program, {Binding::sampled_linear(*src), Binding::write(dst)},
                        textbook_grid(s, passes.size(), offsets_[k]), offset);
      else if (pass.tiling.packed)
        passes.dispatch("p" + std::to_string(k + 1), *pass.program, {Binding::read_raw(*src), Binding::write_raw(dst)},
                        groups_covering(passes.size(), pass.tiling.tile), offset);
      else
        passes.dispatch("p" + std::to_string(k + 1), *pass.program, {Binding::read(*src), Binding::write(dst)},
                        groups_covering(passes.size(), pass.tiling.tile), offset);
      src = &dst;
    }
  }

 private:
  struct Pass {
    const gl::Program* program;
    Tiling tiling;
  };
  std::vector<int> offsets_;
  std::vector<Pass> passes_;
};

// Every pass from rgba8 to rgba8 (the shader's integer path)?
bool packed_chain(const BlurSettings& s) { return s.input_format == gl::Format::rgba8 && s.intermediate_format() == gl::Format::rgba8; }

// The passes as the GPU runs them: each output the mean of the 16 texels at -o-1, -o, o and o+1
// along each axis (the four bilinear fetches of the textbook pass, exactly), each through the
// border rule, stored in the intermediate format but the last. On the integer path every pass,
// the last too, rounds the exact mean half up to rgba8: the texels are k/255, so 255 x their sum is
// an integer s the double sum lands within 1e-12 of, and the stored step is floor((s + 8) / 16).
ReferenceImage model_blur(const Image& input, const BlurSettings& s) {
  const std::vector<int> offsets = offsets_for(s.kernel.sigma);
  const bool packed = packed_chain(s);
  ReferenceImage image = model::from_image(input);
  for (size_t k = 0; k < offsets.size(); ++k) {
    const int taps[4] = {-offsets[k] - 1, -offsets[k], offsets[k], offsets[k] + 1};
    ReferenceImage out = model::blank(image.width, image.height);
    model::parallel_rows(image.height, [&](int y0, int y1) {
      for (int y = y0; y < y1; ++y)
        for (int x = 0; x < image.width; ++x)
          for (int c = 0; c < 4; ++c) {
            double sum = 0.0;
            for (int dy : taps)
              for (int dx : taps) sum += model::texel(image, x + dx, y + dy, c, s.border);
            out.texels[(static_cast<size_t>(y) * image.width + x) * 4 + c] =
                packed ? std::floor((std::round(255.0 * sum) + 8.0) / 16.0) / 255.0 : sum / 16.0;
          }
    });
    image = std::move(out);
    if (!packed && k + 1 < offsets.size()) model::store(image, s.intermediate_format());
  }
  return image;
}

// fp32 roundings of a shared float pass: four row sums of four texels (three adds each), three adds
// of them and the scale; of a textbook pass: each 2D bilinear fetch three lerps (two roundings
// each), three adds and the scale.
constexpr double kSharedPassTerms = 4 * 3 + 3 + 1, kTextbookPassTerms = 4 * 6 + 4;

Tolerance tolerance(const BlurSettings& s, glm::ivec2 size, double input_peak) {
  const std::vector<int> offsets = offsets_for(s.kernel.sigma);
  const std::string what = std::to_string(offsets.size()) + " Kawase passes";
  if (shared_pass(s) && packed_chain(s))
    return {.lsb = true,
            .lsb_limit = 0,
            .reason = "0 LSB against its CPU model (" + what +
                      " in integers: each sums 16 rgba8 texels exactly and rounds the mean half up, as the model does)"};
  ModelErrorBound bound(s.input_format, input_peak);
  for (size_t k = 0; k < offsets.size(); ++k) {
    if (shared_pass(s)) {
      bound.fp32(kSharedPassTerms);
    } else {
      bound.filtered_fetches(k == 0 ? s.input_format : s.intermediate_format(), std::max(size.x, size.y) + offsets[k] + 1.0);
      bound.fp32(kTextbookPassTerms);
    }
    if (k + 1 < offsets.size()) bound.store(s.intermediate_format());
  }
  return bound.tolerance(what);
}

std::optional<Refusal> check(const BlurSettings& s, glm::ivec2 /*size*/, const gl::GlLimits& /*limits*/) {
  const size_t passes = offsets_for(s.kernel.sigma).size();
  if (passes > kMaxPasses)
    return Refusal{Limit::Reach,
                   "sigma " + format_double(s.kernel.sigma, 4) + " needs " + std::to_string(passes) + " passes at full resolution, more than " +
                       std::to_string(kMaxPasses) + " (dual-kawase blurs wide at a fraction of the cost)",
                   static_cast<double>(passes), static_cast<double>(kMaxPasses)};
  return std::nullopt;
}

// The largest region the shared passes stage (glsl/kawase.comp's s_texel); none for textbook passes.
SharedMemory shared_memory(const BlurSettings& s) {
  SharedMemory most;
  if (!shared_pass(s)) return most;
  const std::vector<int> offsets = offsets_for(s.kernel.sigma);
  for (size_t k = 0; k < offsets.size(); ++k) {
    const Tiling t = tiling(k == 0 ? s.input_format : s.intermediate_format(), k + 1 == offsets.size() ? s.input_format : s.intermediate_format());
    const glm::ivec2 r = region(t, offsets[k]);
    if (const long long bytes = static_cast<long long>(r.x) * r.y * t.texel_bytes; bytes > most.bytes)
      most = {bytes, "a " + std::to_string(t.tile.x) + "x" + std::to_string(t.tile.y) + " tile and the reach of offset " +
                         std::to_string(offsets[k]) + ", " + std::to_string(r.x) + "x" + std::to_string(r.y) + " texels of " +
                         std::to_string(t.texel_bytes) + " bytes"};
  }
  return most;
}

// Each pass reads its source once and writes its target once (the intermediate format between
// passes). Shared passes weight the 16 texels of each output, 4 taps along each axis, 4 channels;
// textbook passes issue (n + 1)^2 bilinear fetches per n x n outputs (4 per texel unshared; n by the
// pass's offset) and add four of them per output.
WorkBound own_bound(const BlurSettings& s, glm::ivec2 size) {
  const size_t n = offsets_for(s.kernel.sigma).size();
  const double texels = static_cast<double>(size.x) * size.y;
  WorkBound b;
  for (size_t k = 0; k < n; ++k)
    b.bytes += pass_bytes(size, k == 0 ? s.input_format : s.intermediate_format(), size, k + 1 == n ? s.input_format : s.intermediate_format());
  if (shared_pass(s)) {
    b.fmas = n * 32.0 * texels;
  } else {
    for (int offset : offsets_for(s.kernel.sigma)) b.bilinear_fetches += fetches_per_output(s, offset) * texels;
    b.fmas = n * 16.0 * texels;
  }
  return b;
}

}  // namespace

namespace variant {
extern const VariantInfo kawase{
    .name = "kawase",
    .stage = Stage::Compute,
    .family = Family::Kawase,
    .summary = "approximate Gaussian: Kawase passes (four bilinear fetches' 16 texels, fetched once and weighted in shared "
               "memory) at growing diagonal offsets, chosen for sigma",
    .role = Role::Approximation,
    .kernels = KernelSupport::GaussOnly,
    .uses_intermediate = true,
    .knobs = {kPass, kShare, knobs::workgroup({{16, 16}, {8, 8}, {64, 4}, {256, 1}})},
    .shared_memory = shared_memory,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new Kawase); },
    .approximation = {.choose = choose, .model = model_blur, .tolerance = tolerance},
    .own_bound = own_bound,
};
}  // namespace variant
}  // namespace blurlab
