// dual-kawase: the dual filter of Marius Bjorge, "Bandwidth-efficient rendering" (SIGGRAPH 2015),
// as Android's compositor and KDE's KWin blur wide regions: N downsampling passes, each writing a
// level of half the size, then N upsampling passes back to full size. Most passes run at a
// fraction of the resolution, so a wide blur costs little more than a narrow one.
//
// The passes, as KWin writes them, with h half a texel of the pass's target times the offset o:
//   down: 4 x the fetch at the target texel's centre + the four at (+-h, +-h), / 8;
//   up:   the four fetches at (+-2h, 0), (0, +-2h) + 2 x the four at (+-h, +-h), / 12.
// In texel units of the level read: down, the target texel i sits on the corner 2i + 1 between two
// source texels and h = o; up, target texel i sits at (i + 1/2) / 2 and h = o / 4. Levels are
// ceil(size / 2), with exactly that 2:1 mapping: at an odd size the last texel of a level reads
// past the edge (clamped) rather than the mapping stretching by size / ceil(size / 2), which would
// make the bilinear weights fractions the texture units' 8-bit weights round. With offsets in steps
// of 1/2 every fetch blends at fractions that are multiples of 1/8: exact in 8-bit weights.
//
// The sigma it stands in for, from the kernel's variance. The weights of one output over the input
// are those of a random walk from the output down the passes: at each pass it moves to a fetch
// position with probability the fetch's weight, then to one of the two texels of each axis a
// bilinear fetch blends (probability its weight). Every pass is centred (the taps are symmetric
// about the target texel's centre, and a bilinear fetch's mean is its position), so the position
// is a martingale and the variance of the walk's end, the kernel's variance, is the sum of the
// passes' variances: sum over the taps of weight x (offset^2 + t (1 - t)), t the fetch's fraction,
// per axis, in units of the level's texels; a pass reading level l counts 4^l times that in texels
// of the image. Down passes read level l = 0..N-1, up passes level l + 1, so
//   sigma^2 = sum_{l=0..N-1} 4^l (var_down + 4 var_up).
// (Up passes have two phases, even and odd target texels; they are mirror images, of one variance.)
// For a requested sigma the variant picks the levels N and the offset o (1 to 3, in steps of 1/2)
// whose sigma is closest; at the image's borders the clamp makes the kernel narrower.
//
// How it runs. The down passes are the textbook ones: five bilinear fetches per texel written blend
// 1.25 fetches per texel read, so fetches and bytes bound them alike; at integer offsets every fetch
// sits on a corner that neighbouring texels written share, and a workgroup fetches each corner its
// tile reads once (1.3 to 2.4 fetches a texel, the same values bit for bit). The textbook up passes issue
// eight fetches per texel written, the last at full resolution: bound by the fetch rate (on an
// H100, a textbook dual filter takes 6x a copy). Here the up passes run as one chain per dispatch
// (glsl/dual_kawase.comp): each workgroup fetches the region of level N its 64x64 output tile needs
// into shared memory once, computes the regions of the levels in between there, and applies the
// eight fetches' weights to the texels they blend (exact, where texture units blend with 8-bit
// weights and may round each fetch), so the levels between are neither stored nor rounded. Where
// that chain runs to the output (every border but wrap) it computes level N itself too, from level
// N - 1 with the down pass's five fetches per texel of its region: the last down pass is folded in
// (no dispatch of its own; level N is not stored, so not rounded either). The down passes before it
// are a dispatch each by default; knob down-chain fused runs them as one dispatch: each tile of a
// level is computed by the workgroup that finishes the last of the tiles below it that its footprint
// reads (per-tile counters, as AMD's single-pass downsampler counts its last workgroup), so a blur
// is two dispatches at any sigma. Measured on an H200 it is slower (the down levels 2.12x a copy
// against 1.51x at sigma 10, 4096x4096; 6.67x against 2.34x at sigma 30, 1920x1080: the few
// workgroups that finish the small levels read their children back one after another), so passes
// stay the default (docs/PERFORMANCE.md).
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "blur/check.h"
#include "blur/model.h"
#include "util/strings.h"

namespace blurlab {
namespace {

constexpr int kMaxLevels = 12;  // sigma ~ 2900 at offset 1: beyond any request (levels of 1x1 repeat)
constexpr std::array<double, 5> kOffsets = {1.0, 1.5, 2.0, 2.5, 3.0};

struct Tap {
  double x, y, weight;
};

// The taps of a pass about the target texel's centre, in texel units of the level read.
std::vector<Tap> down_taps(double offset) {
  const double h = offset;
  return {{0, 0, 4.0 / 8}, {-h, -h, 1.0 / 8}, {h, h, 1.0 / 8}, {h, -h, 1.0 / 8}, {-h, h, 1.0 / 8}};
}
std::vector<Tap> up_taps(double offset) {
  const double h = offset / 4;
  return {{-2 * h, 0, 1.0 / 12}, {-h, h, 2.0 / 12}, {0, 2 * h, 1.0 / 12}, {h, h, 2.0 / 12},
          {2 * h, 0, 1.0 / 12},  {h, -h, 2.0 / 12}, {0, -2 * h, 1.0 / 12}, {-h, -h, 2.0 / 12}};
}

// A pass's variance along x, for a target centre at `centre` (texel units of the level read):
// sum of weight x (offset^2 + t (1 - t)), t the fraction the fetch at centre + offset blends at.
double pass_variance(const std::vector<Tap>& taps, double centre) {
  double variance = 0.0;
  for (const Tap& t : taps) {
    const double p = centre + t.x - 0.5, frac = p - std::floor(p);
    variance += t.weight * (t.x * t.x + frac * (1.0 - frac));
  }
  return variance;
}

double sigma_of(int levels, double offset) {
  const double down = pass_variance(down_taps(offset), 1.0);  // target centres sit on corners
  const double up = 0.5 * (pass_variance(up_taps(offset), 0.25) + pass_variance(up_taps(offset), 0.75));
  double variance = 0.0;
  for (int l = 0; l < levels; ++l) variance += std::pow(4.0, l) * (down + 4.0 * up);
  return std::sqrt(variance);
}

struct Choice {
  int levels = 1;
  double offset = 1.0;
  double sigma = 0.0;
};

// The (levels, offset) whose sigma is closest to the request on a log scale; of equals, fewer
// levels, then the smaller offset.
Choice choice_for(double sigma) {
  Choice best;
  double best_miss = INFINITY;
  for (int levels = 1; levels <= kMaxLevels; ++levels)
    for (double offset : kOffsets) {
      const double s = sigma_of(levels, offset), miss = std::abs(std::log(s / sigma));
      if (miss < best_miss - 1e-12) {
        best_miss = miss;
        best = {levels, offset, s};
      }
    }
  return best;
}

ApproxChoice choose(const BlurSettings& s) {
  const Choice c = choice_for(s.kernel.sigma);
  char text[64];
  std::snprintf(text, sizeof text, "%d level%s, offset %g", c.levels, c.levels == 1 ? "" : "s", c.offset);
  return {c.sigma, text};
}

glm::ivec2 half_size(glm::ivec2 size) { return {(size.x + 1) / 2, (size.y + 1) / 2}; }

// A down pass whose offset is an integer fetches every corner its tile reads once (glsl/
// dual_kawase.comp, DK_DOWN_SHARED: all its fetches sit on corners of the texel grid, shared by
// neighbouring texels written): the offset there, 0 at half-integer offsets, whose diagonal fetches
// are single texels, each read by one texel written.
int shared_down_offset(double offset) { return offset == std::floor(offset) ? static_cast<int>(offset) : 0; }
// The distinct fetches of a down pass writing `target` texels: with an integer offset o the corners
// of the diagonal lattice ((x + o) (y + o)) and, for odd o, the centres (x y); else 5 a texel.
double down_fetches(glm::ivec2 target, double offset) {
  const double o = shared_down_offset(offset), x = target.x, y = target.y;
  if (o == 0) return 5.0 * x * y;
  return (x + o) * (y + o) + (static_cast<int>(o) % 2 == 1 ? x * y : 0.0);
}
// A down pass's shared memory with a workgroup of `wg`: the diagonal corners and, for odd o, the
// centres of its tile, vec4 each.
int down_shared_bytes(glm::ivec2 wg, double offset) {
  const int o = shared_down_offset(offset);
  if (o == 0) return 0;
  return ((wg.x + o) * (wg.y + o) + (o % 2 == 1 ? wg.x * wg.y : 0)) * 16;
}

std::string offset_literal(double offset) {
  char literal[32];
  std::snprintf(literal, sizeof literal, "%.1f", offset);  // steps of 1/2: exact
  return literal;
}

// The upsampling passes run as chains in one dispatch each (glsl/dual_kawase.comp, DK_UP 1): every
// pass from level N to the output in one, its levels between held in shared memory (fp32, never
// stored). With wrap borders a level's edge reads texels across the whole level, which a tile's
// region does not hold: there each pass is a chain of its own, stored in the intermediate format.
int up_chain(const BlurSettings& s, int levels) { return s.border.mode == BorderMode::Wrap ? 1 : levels; }

// Where the chain runs from the smallest level to the output (every border but wrap), it also
// computes that level (DK_FOLD 1): the workgroup fetches the region of level N its tile needs from
// level N - 1, with the downsampling pass's five bilinear fetches per texel, into shared memory
// (fp32, never stored). The last downsampling pass, the smallest and bound by a dispatch's latency
// (6.5 us measured on an H100 whatever its size), is no dispatch of its own; at one level the blur
// is one dispatch. Level N is then neither stored nor rounded.
// Knob fold: on (the default) or off (every level a down pass of its own, stored, as before).
const Knob kFold{.name = "fold",
                 .help = "dual-kawase: the upsampling chain computes the smallest level itself (no down pass of its own) or reads it",
                 // No define: the shader reads DK_FOLD, which the host sets (never a fold with wrap).
                 .type = KnobType::Choice,
                 .choices = {{"on", 1}, {"off", 0}},
                 .candidates = {{1}, {0}}};
// Not with wrap, even at one level: a level's texels past its edge are its own from the far side,
// which are not those the fetches past the edge of the level below make (at odd sizes).
bool folds(const BlurSettings& s, int /*levels*/) { return s.integer(kFold) == 1 && s.border.mode != BorderMode::Wrap; }
// The levels the downsampling dispatches write (and store): 1 .. N - 1 where the chain folds the
// last, else 1 .. N.
int stored_down_levels(const BlurSettings& s, int levels) { return folds(s, levels) ? levels - 1 : levels; }

// The chain's invocations per 64x64 tile: 256, each writing 16 texels (two halves of 8, one after the
// other), or 512 writing 8 (twice the warps in flight, half the registers held). On an H100 the
// 256-invocation chain took 6-9 us per tile and SM, whatever the size and sigma, as if one
// workgroup at a time ran on each SM: time both.
const Knob kUpThreads{.name = "up-threads",
                      .help = "dual-kawase: invocations per 64x64 tile of the upsampling chain, 256 (16 texels each) or 512 (8 each)",
                      .define = "DK_UP_THREADS",
                      .type = KnobType::Choice,
                      .choices = {{"256", 256}, {"512", 512}},
                      .candidates = {{256}, {512}}};

// The rows of level 1 an invocation of the chain's last pass reads for: 2 (8 target texels a round;
// at 256 invocations the tile in two rounds, level 1 staged 20 rows at a time) or 4 (16 texels a
// round, 2 level-1 rows read per row of outputs against 3, the tile in one round with all 36 rows
// of level 1 staged). Not 4 with 512 invocations: 64 rows, a tile has 32.
const Knob kUpBlock{.name = "up-block",
                    .help = "dual-kawase: level-1 rows each invocation of the upsampling chain's last pass writes for, 2 or 4 (fewer shared loads per output, more staged rows)",
                    .define = "DK_UP_BLOCK",
                    .type = KnobType::Choice,
                    .choices = {{"2", 2}, {"4", 4}},
                    .candidates = {{2}, {4}}};
// The precision of the levels the chain stages in shared memory: fp32 (exact sums) or fp16 (half the
// bytes per workgroup, so twice as many fit; each staged level rounded once to fp16, as the model
// rounds it). Not with rgba32f data: fp16 holds 11 significant bits of its 24.
const Knob kUpStage{.name = "up-stage",
                    .help = "dual-kawase: the upsampling chain's staged levels in fp32 or fp16 (half the shared memory, a rounding per level)",
                    .define = "DK_UP_FP16",
                    .type = KnobType::Choice,
                    .choices = {{"fp32", 0}, {"fp16", 1}},
                    .candidates = {{0}, {1}}};
bool stages_fp16(const BlurSettings& s) { return s.integer(kUpStage) == 1; }

// The downsampling chain: a dispatch per level (passes), or one dispatch for them all (fused: the
// tiles of each level computed by the last workgroup to finish the tiles below it, counted with
// image atomics; glsl/dual_kawase.comp, DK_UP 2). The same levels, stored in the same format; the
// fused chain weights the texels of levels 2 and up itself (exact 1/32 weights, at most 20 products
// and a scale in fp32, against the bilinear fetches' 41 roundings the tolerance counts), since
// texture fetches do not see stores made in the same dispatch.
const Knob kDownChain{.name = "down-chain",
                      .help = "dual-kawase: the downsampling levels as a dispatch each (passes) or one dispatch (fused, the last workgroup to finish a tile's children computes it)",
                      // No define: the host picks the program (DK_UP 2) and the dispatches.
                      .type = KnobType::Choice,
                      .choices = {{"passes", 0}, {"fused", 1}},
                      .candidates = {{0}, {1}}};
bool fuses_down(const BlurSettings& s) { return s.integer(kDownChain) == 1; }

// The chain's tiles: 64x64 target texels, their levels staged in two buffers of vec4: level 1 a
// part at a time, the rows of its 36 columns that one round of the last pass reads (2 x 8 + 4 rows
// at 256 invocations, all 36 at 512), and the 22x22 region of level 2, only for chains of two passes
// or more. Shared memory per workgroup decides how many are resident (docs/PERFORMANCE.md).
constexpr int kUpTile = 64;
int level1_part_rows(const BlurSettings& s) { return s.integer(kUpBlock) * (s.integer(kUpThreads) / 32) + 4; }
int up_shared_bytes(const BlurSettings& s, int chain) {
  return (36 * level1_part_rows(s) + (chain > 1 ? 22 * 22 : 0)) * (stages_fp16(s) ? 8 : 16);
}

// The fused downsampling chain's 16x16 tiles and the texels of the level below that a tile of the
// next reads: 2p + lo .. 2p + hi about each of its texels p (the down pass's fetches), staged as
// their bits (the intermediate format's bytes) in a square of 2 x 16 - 1 + hi - lo, beside the work
// list of tiles won (16 per level, 12 levels).
constexpr int kFusedTile = 16;
struct DownTap {
  int dy, dx, weight;  // texel 2p + (dx, dy), weight in units of 1/32
};
std::vector<DownTap> down_texels(double offset) {
  std::map<std::array<int, 2>, double> weights;
  for (const Tap& t : down_taps(offset)) {
    // The fetch at 2p + 1 + t: texel floor(2p + 1/2 + t) and the next, per axis.
    const double px = 0.5 + t.x, py = 0.5 + t.y;
    const int x0 = static_cast<int>(std::floor(px)), y0 = static_cast<int>(std::floor(py));
    const double fx = px - x0, fy = py - y0;
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) weights[{y0 + j, x0 + i}] += t.weight * (i ? fx : 1.0 - fx) * (j ? fy : 1.0 - fy);
  }
  std::vector<DownTap> texels;
  for (const auto& [at, w] : weights)
    if (const int units = static_cast<int>(std::lround(w * 32.0)); units != 0) texels.push_back({at[0], at[1], units});
  return texels;
}
glm::ivec2 down_reach(double offset) {  // lo, hi
  glm::ivec2 reach{1 << 20, -(1 << 20)};
  for (const DownTap& t : down_texels(offset)) reach = {std::min({reach.x, t.dx, t.dy}), std::max({reach.y, t.dx, t.dy})};
  return reach;
}
int fused_shared_bytes(const BlurSettings& s, double offset) {
  const glm::ivec2 reach = down_reach(offset);
  const int side = 2 * kFusedTile - 1 + reach.y - reach.x;
  return side * side * gl::info(s.intermediate_format()).bytes_per_texel + (16 * 12 + 1) * 4;
}

// What an upsampling pass's eight fetches blend, per target phase: target texel q = 2n + b sits at
// n + (b + 1/2) / 2 in the level read; each fetch blends the two texels floor(p - 1/2) and the next
// of each axis. The texels (dy, dx) relative to n with their summed weights, in units of 1/768 (the
// taps' 1/12 times bilinear weights in eighths, squared: exact).
struct UpTexel {
  int by, bx, dy, dx, weight;
};
std::vector<UpTexel> up_texels(double offset) {
  std::map<std::array<int, 4>, double> weights;
  for (int by = 0; by < 2; ++by)
    for (int bx = 0; bx < 2; ++bx)
      for (const Tap& t : up_taps(offset)) {
        const double px = (bx + 0.5) / 2 + t.x - 0.5, py = (by + 0.5) / 2 + t.y - 0.5;
        const int x0 = static_cast<int>(std::floor(px)), y0 = static_cast<int>(std::floor(py));
        const double fx = px - x0, fy = py - y0;
        for (int j = 0; j < 2; ++j)
          for (int i = 0; i < 2; ++i)
            weights[{by, bx, y0 + j, x0 + i}] += t.weight * (i ? fx : 1.0 - fx) * (j ? fy : 1.0 - fy);
      }
  std::vector<UpTexel> texels;
  for (const auto& [at, w] : weights)
    if (const int units = static_cast<int>(std::lround(w * 768.0)); units != 0) texels.push_back({at[0], at[1], at[2], at[3], units});
  return texels;
}

// DK_ROW_0 .. DK_ROW_4: for each row dy = -2..2 of an upsampling pass's window, TAP(by, bx, dx,
// weight) for every texel of that row the phase (by, bx) blends.
gl::Defines row_defines(double offset) {
  std::array<std::string, 5> rows;
  for (const UpTexel& t : up_texels(offset))
    rows[static_cast<size_t>(t.dy + 2)] += "TAP(" + std::to_string(t.by) + ", " + std::to_string(t.bx) + ", " + std::to_string(t.dx) +
                                           ", " + std::to_string(t.weight) + ".0) ";
  gl::Defines defines;
  for (size_t i = 0; i < rows.size(); ++i) defines.push_back({"DK_ROW_" + std::to_string(i), rows[i]});
  return defines;
}

std::vector<glm::ivec2> level_sizes(glm::ivec2 size, int levels) {
  std::vector<glm::ivec2> sizes{size};
  for (int l = 1; l <= levels; ++l) sizes.push_back(half_size(sizes.back()));
  return sizes;
}

class DualKawase final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    const gl::Format io = s.input_format, mid = s.intermediate_format();
    choice_ = choice_for(s.kernel.sigma);
    chain_ = up_chain(s, choice_.levels);
    fold_ = folds(s, choice_.levels);
    fused_ = fuses_down(s);
    stored_ = stored_down_levels(s, choice_.levels);
    const std::string offset = offset_literal(choice_.offset);
    const std::string shared = std::to_string(shared_down_offset(choice_.offset));
    first_down_ = &setup.compute("dual_kawase.comp", io, mid, {{"DK_UP", "0"}, {"DK_OFFSET", offset}, {"DK_DOWN_SHARED", shared}});
    down_ = &setup.compute("dual_kawase.comp", mid, mid, {{"DK_UP", "0"}, {"DK_OFFSET", offset}, {"DK_DOWN_SHARED", shared}});
    if (fused_ && stored_ > 0) {
      const glm::ivec2 reach = down_reach(choice_.offset);
      std::string taps;
      for (const DownTap& t : down_texels(choice_.offset))
        taps += "DTAP(" + std::to_string(t.dy) + ", " + std::to_string(t.dx) + ", " + std::to_string(t.weight) + ".0) ";
      fused_down_ = &setup.compute("dual_kawase.comp", io, mid,
                                   {{"DK_UP", "2"},
                                    {"DK_OFFSET", offset},
                                    {"DK_STORED", std::to_string(stored_)},
                                    {"DK_DOWN_LO", std::to_string(reach.x)},
                                    {"DK_DOWN_HI", std::to_string(reach.y)},
                                    {"DK_DOWN_TAPS", taps},
                                    {"MID_FORMAT", std::string(gl::name(mid))},
                                    {"MID_BYTES", std::to_string(gl::info(mid).bytes_per_texel)}});
    }
    gl::Defines up = row_defines(choice_.offset);
    up.insert(up.begin(), {{"DK_UP", "1"}, {"DK_OFFSET", offset}, {"DK_CHAIN", std::to_string(chain_)}, {"DK_FOLD", fold_ ? "1" : "0"}});
    up_ = &setup.compute("dual_kawase.comp", mid, mid, up);
    // The last chain reads level N - 1 where it folds (the input itself at one level).
    last_up_ = &setup.compute("dual_kawase.comp", fold_ && choice_.levels == 1 ? io : mid, io, up);
  }

  // Separate down passes: level l (1..N) lives in intermediate slot l - 1, written by down pass l,
  // read by down pass l + 1 and by the chain that starts there; a chain ending at level l > 0
  // overwrites it. Fused: the stored level s (N - 1 where the chain folds level N, else N) in slot
  // 0, levels 1 .. s - 1 in an atlas in slot 1 (stacked, level k below level k - 1), the counters of
  // the tiles of levels 2 .. s (BlurPasses::counters, stacked alike); with wrap the chains of one
  // pass write levels 1 .. N - 1 into slots 2 .. N. Where the chain folds level N, no pass writes it:
  // the chain reads level N - 1 (at one level, the source).
  void run(BlurPasses& passes) override {
    const glm::ivec2 wg = passes.settings().workgroup();
    const std::vector<glm::ivec2> sizes = level_sizes(passes.size(), choice_.levels);
    std::vector<const gl::Texture*> levels{&passes.source()};
    if (fused_ && stored_ > 0) {
      for (int l = 1; l <= choice_.levels; ++l)
        levels.push_back(l == stored_ ? &passes.intermediate(0, std::nullopt, sizes[static_cast<size_t>(l)])
                         : l < stored_ && chain_ == 1 ? &passes.intermediate(l + 1, std::nullopt, sizes[static_cast<size_t>(l)])
                                                      : nullptr);
      const std::string name = stored_ == 1 ? "d1" : "d1-" + std::to_string(stored_);
      const DispatchGrid grid = groups_covering(sizes[1], {kFusedTile, kFusedTile}, 1);
      if (stored_ == 1) {
        passes.dispatch(name, *fused_down_, {Binding::sampled_linear(passes.source()), Binding::write(*levels[1])}, grid);
      } else {
        glm::ivec2 atlas{sizes[1].x, 0}, counters{(sizes[2].x + kFusedTile - 1) / kFusedTile, 0};
        for (int l = 1; l < stored_; ++l) atlas.y += sizes[static_cast<size_t>(l)].y;
        for (int l = 2; l <= stored_; ++l) counters.y += (sizes[static_cast<size_t>(l)].y + kFusedTile - 1) / kFusedTile;
        passes.dispatch(name, *fused_down_,
                        {Binding::sampled_linear(passes.source()), Binding::write(*levels[static_cast<size_t>(stored_)]),
                         Binding::read_write(passes.intermediate(1, std::nullopt, atlas), gl::Unit::DownLevels),
                         Binding::read_write_raw(passes.counters(counters), gl::Unit::Counters)},
                        grid);
      }
    } else {
      for (int l = 1; l <= choice_.levels; ++l)
        levels.push_back(&passes.intermediate(l - 1, std::nullopt, sizes[static_cast<size_t>(l)]));
      for (int l = 1; l <= stored_; ++l)
        passes.dispatch("d" + std::to_string(l), l == 1 ? *first_down_ : *down_,
                        {Binding::sampled_linear(*levels[static_cast<size_t>(l - 1)]), Binding::write(*levels[static_cast<size_t>(l)])},
                        groups_covering(sizes[static_cast<size_t>(l)], wg, l));
    }
    if (fold_) {
      const int n = choice_.levels;
      passes.dispatch("d" + std::to_string(n) + "u" + std::to_string(n - 1) + "-0", *last_up_,
                      {Binding::sampled_linear(*levels[static_cast<size_t>(n - 1)]), Binding::write(passes.destination())},
                      groups_covering(passes.size(), {kUpTile, kUpTile}, 0));
      return;
    }
    for (int l = choice_.levels; l > 0; l -= chain_) {
      const int target_level = l - chain_;
      const gl::Texture& target = target_level == 0 ? passes.destination() : *levels[static_cast<size_t>(target_level)];
      passes.dispatch(chain_ == 1 ? "u" + std::to_string(target_level) : "u" + std::to_string(l - 1) + "-0",
                      target_level == 0 ? *last_up_ : *up_,
                      {Binding::sampled(*levels[static_cast<size_t>(l)]), Binding::write(target)},
                      groups_covering({target.width(), target.height()}, {kUpTile, kUpTile}, target_level));
    }
  }

 private:
  Choice choice_;
  int chain_ = 1, stored_ = 0;
  bool fold_ = false, fused_ = false;
  const gl::Program *first_down_ = nullptr, *down_ = nullptr, *fused_down_ = nullptr, *up_ = nullptr, *last_up_ = nullptr;
};

// One pass of the model: `taps` about each target texel's centre, mapped into `source`.
ReferenceImage model_pass(const ReferenceImage& source, glm::ivec2 target_size, const std::vector<Tap>& taps, bool up,
                          const Border& border) {
  ReferenceImage out = model::blank(target_size.x, target_size.y);
  model::parallel_rows(target_size.y, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y)
      for (int x = 0; x < target_size.x; ++x) {
        const double cx = up ? (x + 0.5) * 0.5 : 2.0 * x + 1.0, cy = up ? (y + 0.5) * 0.5 : 2.0 * y + 1.0;
        for (int c = 0; c < 4; ++c) {
          double sum = 0.0;
          for (const Tap& t : taps) sum += t.weight * model::bilinear(source, cx + t.x, cy + t.y, c, border);
          out.texels[(static_cast<size_t>(y) * target_size.x + x) * 4 + c] = sum;
        }
      }
  });
  return out;
}

// The passes as the GPU runs them: down passes stored in the intermediate format, but level N where
// the chain folds it (computed in fp32 in shared memory, never stored); the upsampling chain's
// levels kept exact (the GPU holds them in fp32), stored only where a chain ends short of the
// output (wrap), and with up-stage fp16 each level an up pass reads rounded to fp16 where the
// chain stages it (the constant border too, which the chain stages at the level's edges). The GPU's
// up passes weight texels exactly where texture units would blend with 8-bit weights; at the
// fractions used (multiples of 1/8) both are exact. The fused down chain stores the same levels
// (it weights levels 2 and up in fp32 itself: another order of the same exact weights).
ReferenceImage model_blur(const Image& input, const BlurSettings& s) {
  const Choice choice = choice_for(s.kernel.sigma);
  const int chain = up_chain(s, choice.levels);
  const gl::Format mid = s.intermediate_format();
  std::vector<ReferenceImage> levels{model::from_image(input)};
  const int stored = stored_down_levels(s, choice.levels);
  for (int l = 1; l <= choice.levels; ++l) {
    const ReferenceImage& source = levels.back();
    levels.push_back(model_pass(source, half_size({source.width, source.height}), down_taps(choice.offset), false, s.border));
    if (l <= stored) model::store(levels.back(), mid);
  }
  Border staged_border = s.border;
  if (stages_fp16(s))
    for (auto& v : staged_border.value) v = static_cast<float>(model::stored(v, gl::Format::rgba16f));
  for (int l = choice.levels - 1; l >= 0; --l) {
    const glm::ivec2 size{levels[static_cast<size_t>(l)].width, levels[static_cast<size_t>(l)].height};
    if (stages_fp16(s)) model::store(levels[static_cast<size_t>(l + 1)], gl::Format::rgba16f);
    levels[static_cast<size_t>(l)] = model_pass(levels[static_cast<size_t>(l + 1)], size, up_taps(choice.offset), true, staged_border);
    if (l > 0 && l % chain == 0) model::store(levels[static_cast<size_t>(l)], mid);
  }
  return std::move(levels.front());
}

// fp32 roundings of a down pass: each of its 5 bilinear fetches three lerps (two roundings each),
// then a multiply-add per fetch and the scale; of an up pass: a multiply-add per texel its
// fetches blend (at most 25) and the scale.
constexpr double kDownTerms = 5 * 6.0 + 5 * 2.0 + 1.0, kUpTerms = 25.0 + 1.0;

Tolerance tolerance(const BlurSettings& s, glm::ivec2 size, double input_peak) {
  const Choice choice = choice_for(s.kernel.sigma);
  const int chain = up_chain(s, choice.levels);
  const gl::Format mid = s.intermediate_format();
  const std::vector<glm::ivec2> levels = level_sizes(size, choice.levels);
  const int stored = stored_down_levels(s, choice.levels);
  ModelErrorBound bound(s.input_format, input_peak);
  for (int l = 1; l <= choice.levels; ++l) {
    const glm::ivec2 read = levels[static_cast<size_t>(l - 1)];
    bound.filtered_fetches(l == 1 ? s.input_format : mid, std::max(read.x, read.y) + 2.0 * choice.offset + 1.0);
    bound.fp32(kDownTerms);
    if (l <= stored) bound.store(mid);
  }
  for (int l = choice.levels - 1; l >= 0; --l) {
    if (stages_fp16(s)) bound.store(gl::Format::rgba16f);  // the level this pass reads, staged
    bound.fp32(kUpTerms);
    if (l > 0 && l % chain == 0) bound.store(mid);
  }
  return bound.tolerance(std::to_string(choice.levels) + " levels down and up");
}

// The largest of the programs': the up chain's, and the fused down chain's where it runs.
SharedMemory shared_memory(const BlurSettings& s) {
  const Choice c = choice_for(s.kernel.sigma);
  const int chain = up_chain(s, c.levels);
  const std::string part = "36x" + std::to_string(level1_part_rows(s)) + " of level 1";
  const std::string precision = stages_fp16(s) ? "fp16" : "fp32";
  SharedMemory up = chain == 1 ? SharedMemory{up_shared_bytes(s, chain), "the upsampling pass's " + part + " of a 64x64 tile, " + precision + " vec4"}
                               : SharedMemory{up_shared_bytes(s, chain), "the upsampling chain's " + part + " and 22x22 of level 2 of a 64x64 tile, " + precision + " vec4"};
  if (fuses_down(s) && stored_down_levels(s, c.levels) > 1 && fused_shared_bytes(s, c.offset) > up.bytes) {
    const glm::ivec2 reach = down_reach(c.offset);
    const int side = 2 * kFusedTile - 1 + reach.y - reach.x;
    up = {fused_shared_bytes(s, c.offset), "the fused downsampling chain's " + std::to_string(side) + "x" + std::to_string(side) +
                                               " texels of a level (their bits) and its list of 192 tiles"};
  }
  // The down passes' programs (compiled whatever the levels): their tile's corners.
  const glm::ivec2 wg = s.workgroup();
  if (const int down = down_shared_bytes(wg, c.offset); down > up.bytes) {
    const int o = shared_down_offset(c.offset);
    up = {down, "a downsampling pass's " + std::to_string(wg.x + o) + "x" + std::to_string(wg.y + o) + " corners" +
                    (o % 2 == 1 ? " and " + std::to_string(wg.x) + "x" + std::to_string(wg.y) + " centres" : "") + ", fp32 vec4"};
  }
  return up;
}

std::optional<Refusal> check(const BlurSettings& s, glm::ivec2 /*size*/, const gl::GlLimits& /*limits*/) {
  const Choice c = choice_for(s.kernel.sigma);
  if (const int rows = s.integer(kUpBlock) * (s.integer(kUpThreads) / 32); rows > kUpTile / 2)
    return Refusal{Limit::Knobs,
                   "up-block " + std::to_string(s.integer(kUpBlock)) + " at up-threads " + std::to_string(s.integer(kUpThreads)) + " is " +
                       std::to_string(rows) + " rows of level 1 a round, a 64x64 tile has " + std::to_string(kUpTile / 2),
                   double(rows), double(kUpTile / 2)};
  if (stages_fp16(s) && (s.input_format == gl::Format::rgba32f || s.intermediate_format() == gl::Format::rgba32f))
    return Refusal{Limit::Knobs, "up-stage fp16 keeps 11 significant bits of rgba32f's 24: use up-stage fp32 with rgba32f", 24.0, 11.0};
  if (c.sigma < s.kernel.sigma / 1.5)
    return Refusal{Limit::Reach,
                   "sigma " + format_double(s.kernel.sigma, 4) + " is beyond " + std::to_string(kMaxLevels) + " levels (sigma " +
                       format_double(c.sigma, 4) + ")",
                   s.kernel.sigma, 1.5 * c.sigma};
  return std::nullopt;
}

// Down passes read their level and write the next once (the intermediate format), 5 bilinear
// fetches per texel written, each weighted (4 FMAs). The upsampling chains read their first level
// and write their last once; their arithmetic is every level's texels, each the texels its phase's
// eight fetches blend, 4 channels. A chain that folds level N reads level N - 1 instead (level N's
// fetches are counted once, as a down pass's, though its tiles' regions overlap).
WorkBound own_bound(const BlurSettings& s, glm::ivec2 size) {
  const Choice c = choice_for(s.kernel.sigma);
  const int chain = up_chain(s, c.levels);
  const gl::Format in = s.input_format, mid = s.intermediate_format();
  const std::vector<glm::ivec2> levels = level_sizes(size, c.levels);
  WorkBound b;
  const int stored = stored_down_levels(s, c.levels);
  for (int l = 1; l <= c.levels; ++l) {
    const glm::ivec2 target = levels[static_cast<size_t>(l)];
    if (l <= stored) b.bytes += pass_bytes(levels[static_cast<size_t>(l - 1)], l == 1 ? in : mid, target, mid);
    // The down passes' distinct fetches; the fused chain's first level and the folded one fetch 5 a texel.
    b.bilinear_fetches += l <= stored && !fuses_down(s) ? down_fetches(target, c.offset) : 5.0 * target.x * target.y;
    b.fmas += 20.0 * target.x * target.y;  // five fetches weighted, 4 channels
  }
  if (folds(s, c.levels))
    b.bytes += pass_bytes(levels[static_cast<size_t>(c.levels - 1)], c.levels == 1 ? in : mid, levels[0], in);
  else
    for (int l = c.levels; l > 0; l -= chain)
      b.bytes += pass_bytes(levels[static_cast<size_t>(l)], mid, levels[static_cast<size_t>(l - chain)], l == chain ? in : mid);
  std::array<std::array<int, 2>, 2> taps{};
  for (const UpTexel& t : up_texels(c.offset)) ++taps[static_cast<size_t>(t.by)][static_cast<size_t>(t.bx)];
  for (int l = 0; l < c.levels; ++l) {
    const glm::ivec2 v = levels[static_cast<size_t>(l)];
    const int phase_x[2] = {(v.x + 1) / 2, v.x / 2}, phase_y[2] = {(v.y + 1) / 2, v.y / 2};  // texels of each phase
    for (size_t by = 0; by < 2; ++by)
      for (size_t bx = 0; bx < 2; ++bx) b.fmas += 4.0 * phase_x[bx] * phase_y[by] * taps[by][bx];
  }
  return b;
}

}  // namespace

namespace variant {
extern const VariantInfo dual_kawase{
    .name = "dual-kawase",
    .stage = Stage::Compute,
    .summary = "approximate Gaussian: Bjorge's dual filter, the downsampling levels in one dispatch (per-tile counters), then the "
               "N upsampling passes in one dispatch that also computes the smallest level (tiles of every level in shared memory)",
    .role = Role::Approximation,
    .kernels = KernelSupport::GaussOnly,
    .uses_intermediate = true,
    .hardware_filtering = true,
    .knobs = {knobs::workgroup({{16, 16}, {8, 8}, {64, 4}, {256, 1}}), kFold, kUpThreads, kUpBlock, kUpStage, kDownChain},
    .shared_memory = shared_memory,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new DualKawase); },
    .approximation = {.choose = choose, .model = model_blur, .tolerance = tolerance},
    .own_bound = own_bound,
};
}  // namespace variant
}  // namespace blurlab
