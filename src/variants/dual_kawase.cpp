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
// eight fetches per texel written, the last at full resolution: bound by the fetch rate, far above
// its bytes. Here the up passes run as one chain per dispatch
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
// is two dispatches at any sigma. It measured slower (the few workgroups that finish the small
// levels read their children back one after another), so passes stay the default
// (docs/EXPERIMENTS.md). The chain's last pass, the one at full resolution, held
// it most: on large images (knob last-pass) it is a dispatch of its own, from level 1 stored,
// each invocation writing one column of the output (its warp's stores consecutive texels) down K
// rows of level 1, with nothing staged.
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

// Its binding units beside the generic ones (gl/bindings.h): the fused down chain's levels below
// the last, side by side, and each tile's count of finished children (r32ui, as AMD's SPD).
constexpr gl::NamedUnit kDownLevels{"DOWN_LEVELS", 2, gl::kImageUnit};
constexpr gl::NamedUnit kCounters{"COUNTERS", 3, gl::kImageUnit};
constexpr std::array kSlots{kDownLevels, kCounters};

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
//
// Where the chain runs from the smallest level (every border but wrap), it also computes that level
// (DK_FOLD 1): the workgroup fetches the region of level N its tile needs from level N - 1, with
// the downsampling pass's five bilinear fetches per texel, into shared memory (fp32, never stored).
// The last downsampling pass, the smallest and bound by a dispatch's latency whatever its size, is
// no dispatch of its own; at one level the blur is one dispatch. Level
// N is then neither stored nor rounded.
// Knob fold: on (the default) or off (every level a down pass of its own, stored, as before).
const Knob kFold{.name = "fold",
                 .help = "dual-kawase: the upsampling chain computes the smallest level itself (no down pass of its own) or reads it",
                 // No define: the shader reads DK_FOLD, which the host sets (never a fold with wrap).
                 .type = KnobType::Choice,
                 .choices = {{"on", 1}, {"off", 0}},
                 .candidates = {{1}, {0}}};

// The pass that writes the output. In the chain (chain): each 64x64 tile of the output computes its
// regions of every level above it, one barrier phase after another. Or a pass of its own (stream:
// glsl/dual_kawase.comp DK_UP 3), reading level 1, which the chain from the smallest level then
// stores in the intermediate format (rounded once more, as the model rounds it): an invocation per
// target column walks K rows of level 1 down through the texture cache, no shared memory and no
// barrier, a warp's stores 32 consecutive texels. The split wins on large images and loses on small
// ones, where the extra dispatch costs more than the stream saves: fitted as a + b x texels, the
// two cross at about 3.1 M texels at sigma 10 and 30 alike (docs/EXPERIMENTS.md); at one level (no chain to level 1, the first down pass instead) the chain won at
// both sizes. So auto, the default, streams from two levels where the image has at least
// kStreamFromTexels, else runs the chain. With wrap, whose passes are a dispatch each, the stream
// replaces the last of them.
enum LastPass { kLastAuto = 0, kLastInChain = 1, kLastStream = 2 };
constexpr double kStreamFromTexels = 3.1e6;
const Knob kLastPass{.name = "last-pass",
                     .help = "dual-kawase: the pass writing the output at the end of the upsampling chain (chain), or on its own from "
                             "level 1 stored, streamed through the texture cache (stream); auto: stream from two levels and 3.1 M texels",
                     // No define: the host picks the programs and the dispatches.
                     .type = KnobType::Choice,
                     .choices = {{"auto", kLastAuto}, {"chain", kLastInChain}, {"stream", kLastStream}},
                     .candidates = {{kLastAuto}, {kLastInChain}, {kLastStream}}};
// The level-1 rows each invocation of the streamed last pass writes for (K): it fetches the K + 4
// rows of their windows, so (K + 4) / 2K rows of texels per texel written, with five rows' sums
// live whatever K. 8 measured the fastest on a large image, the three alike on a small one.
const Knob kStreamRows{.name = "stream-rows",
                       .help = "dual-kawase: level-1 rows each invocation of last-pass stream writes for, 8, 4 or 16 (fewer fetches per "
                               "texel written, fewer invocations)",
                       .define = "DK_STREAM_ROWS",
                       .type = KnobType::Choice,
                       .choices = {{"8", 8}, {"4", 4}, {"16", 16}},
                       .candidates = {{8}, {4}, {16}}};
constexpr glm::ivec2 kStreamGroup{64, 4};  // glsl/dual_kawase.comp DK_UP 3's local size

// The upsampling dispatches, smallest level first: each reads level `from` (where it folds, computes
// it from level from - 1) and writes level `to`, with the chain's program (DK_UP 1, from - to passes)
// or the streamed last pass (DK_UP 3).
struct UpPass {
  int from = 0, to = 0;
  bool fold = false, stream = false;
};
// Whether the pass writing the output is the stream (last-pass, auto resolved at the image's size;
// with no size, as for the shared memory every program declares, auto counts as the chain).
bool streams(const BlurSettings& s, int levels, std::optional<glm::ivec2> size) {
  const int last = s.integer(kLastPass);
  if (last != kLastAuto) return last == kLastStream;
  return levels > 1 && size && double(size->x) * size->y >= kStreamFromTexels;
}
std::vector<UpPass> up_passes(const BlurSettings& s, int levels, std::optional<glm::ivec2> size) {
  const bool stream = streams(s, levels, size);
  std::vector<UpPass> passes;
  // Wrap: never a fold, even at one level: a level's texels past its edge are its own from the far
  // side, which are not those the fetches past the edge of the level below make (at odd sizes).
  if (s.border.mode == BorderMode::Wrap) {
    for (int l = levels; l > 0; --l) passes.push_back({l, l - 1, false, l == 1 && stream});
    return passes;
  }
  const bool fold = s.integer(kFold) == 1;
  if (!stream) return {{levels, 0, fold, false}};
  if (levels > 1) passes.push_back({levels, 1, fold, false});
  passes.push_back({1, 0, false, true});
  return passes;
}
bool folds(const BlurSettings& s, int levels, std::optional<glm::ivec2> size) { return up_passes(s, levels, size).front().fold; }
// The levels the downsampling dispatches write (and store): 1 .. N - 1 where the chain folds the
// last, else 1 .. N.
int stored_down_levels(const BlurSettings& s, int levels, std::optional<glm::ivec2> size) {
  return folds(s, levels, size) ? levels - 1 : levels;
}
// Whether an upsampling pass ends at level l > 0, which is then stored in the intermediate format.
bool up_stores(const std::vector<UpPass>& passes, int level) {
  for (const UpPass& p : passes)
    if (p.to == level && level > 0) return true;
  return false;
}
// Whether the pass computing level l (from level l + 1) stages the level it reads in shared memory.
bool up_stages(const std::vector<UpPass>& passes, int level) {
  for (const UpPass& p : passes)
    if (level >= p.to && level < p.from) return !p.stream;
  return true;
}

// The chain's invocations per 64x64 tile: 256, each writing 16 texels (two halves of 8, one after the
// other), or 512 writing 8 (twice the warps in flight, half the registers held). The 256-invocation
// chain's time per tile and SM stayed the same whatever the size and sigma, as if one workgroup at
// a time ran on each SM: time both.
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
    up_ = up_passes(s, choice_.levels, setup.size());
    wrap_ = s.border.mode == BorderMode::Wrap;
    fused_ = fuses_down(s);
    stored_ = stored_down_levels(s, choice_.levels, setup.size());
    stream_rows_ = s.integer(kStreamRows);
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
    // Each upsampling pass reads level `from` (where it folds, level from - 1: the input itself at
    // one level) and writes level `to` (the output at 0).
    up_programs_.clear();
    for (const UpPass& p : up_) {
      gl::Defines defines = row_defines(choice_.offset);
      if (p.stream)
        defines.insert(defines.begin(), {{"DK_UP", "3"}, {"DK_OFFSET", offset}});
      else
        defines.insert(defines.begin(), {{"DK_UP", "1"},
                                         {"DK_OFFSET", offset},
                                         {"DK_CHAIN", std::to_string(p.from - p.to)},
                                         {"DK_FOLD", p.fold ? "1" : "0"}});
      const int read = p.fold ? p.from - 1 : p.from;
      up_programs_.push_back(&setup.compute("dual_kawase.comp", read == 0 ? io : mid, p.to == 0 ? io : mid, defines));
    }
  }

  // Separate down passes: level l (1..N) lives in intermediate slot l - 1, written by down pass l,
  // read by down pass l + 1 and by the chain that starts there. Fused: the stored level s (N - 1
  // where the chain folds level N, else N) in slot 0, levels 1 .. s - 1 in an atlas in slot 1
  // (stacked, level k below level k - 1), the counters of the tiles of levels 2 .. s (BlurPasses::
  // counters, stacked alike), and with wrap levels 1 .. N - 1 in slots 2 .. N for the upsampling
  // passes to write. Where the chain folds level N, no pass writes it: the chain reads level N - 1
  // (at one level, the source). An upsampling pass ending at level l > 0 writes it: with wrap over
  // the down level it replaces (read by no pass after it), else (the chain before the stream, level
  // 1) into slot kUpLevelSlot, since a chain folding level 2 reads level 1.
  static constexpr int kUpLevelSlot = kMaxLevels + 1;
  void run(BlurPasses& passes) override {
    const glm::ivec2 wg = passes.settings().workgroup();
    const std::vector<glm::ivec2> sizes = level_sizes(passes.size(), choice_.levels);
    std::vector<const gl::Texture*> levels{&passes.source()};
    if (fused_ && stored_ > 0) {
      for (int l = 1; l <= choice_.levels; ++l)
        levels.push_back(l == stored_ ? &passes.intermediate(0, std::nullopt, sizes[static_cast<size_t>(l)])
                         : l < stored_ && wrap_ ? &passes.intermediate(l + 1, std::nullopt, sizes[static_cast<size_t>(l)])
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
                         Binding::read_write(passes.intermediate(1, std::nullopt, atlas), kDownLevels),
                         Binding::read_write_raw(passes.counters(counters), kCounters)},
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
    for (size_t i = 0; i < up_.size(); ++i) {
      const UpPass& p = up_[i];
      const gl::Texture& source = *levels[static_cast<size_t>(p.fold ? p.from - 1 : p.from)];
      const gl::Texture* target = &passes.destination();
      if (p.to > 0) {
        target = wrap_ ? levels[static_cast<size_t>(p.to)] : &passes.intermediate(kUpLevelSlot, std::nullopt, sizes[static_cast<size_t>(p.to)]);
        levels[static_cast<size_t>(p.to)] = target;
      }
      const std::string up = p.fold || p.from - p.to > 1 ? "u" + std::to_string(p.from - 1) + "-" + std::to_string(p.to) : "u" + std::to_string(p.to);
      passes.dispatch((p.fold ? "d" + std::to_string(p.from) : std::string()) + up, *up_programs_[i],
                      {p.fold ? Binding::sampled_linear(source) : Binding::sampled(source), Binding::write(*target)},
                      // The stream: an invocation per target column and K rows of level 1 (2K target rows).
                      p.stream ? groups_covering(sizes[0], {kStreamGroup.x, 2 * kStreamGroup.y * stream_rows_})
                               : groups_covering(sizes[static_cast<size_t>(p.to)], {kUpTile, kUpTile}, p.to));
    }
  }

 private:
  Choice choice_;
  std::vector<UpPass> up_;
  int stored_ = 0, stream_rows_ = 8;
  bool wrap_ = false, fused_ = false;
  const gl::Program *first_down_ = nullptr, *down_ = nullptr, *fused_down_ = nullptr;
  std::vector<const gl::Program*> up_programs_;
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
  const std::vector<UpPass> up = up_passes(s, choice.levels, glm::ivec2(input.width, input.height));
  const gl::Format mid = s.intermediate_format();
  std::vector<ReferenceImage> levels{model::from_image(input)};
  const int stored = stored_down_levels(s, choice.levels, glm::ivec2(input.width, input.height));
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
    const bool staged_fp16 = stages_fp16(s) && up_stages(up, l);
    if (staged_fp16) model::store(levels[static_cast<size_t>(l + 1)], gl::Format::rgba16f);
    levels[static_cast<size_t>(l)] =
        model_pass(levels[static_cast<size_t>(l + 1)], size, up_taps(choice.offset), true, staged_fp16 ? staged_border : s.border);
    if (up_stores(up, l)) model::store(levels[static_cast<size_t>(l)], mid);
  }
  return std::move(levels.front());
}

// fp32 roundings of a down pass: each of its 5 bilinear fetches three lerps (two roundings each),
// then a multiply-add per fetch and the scale; of an up pass: a multiply-add per texel its
// fetches blend (at most 25) and the scale.
constexpr double kDownTerms = 5 * 6.0 + 5 * 2.0 + 1.0, kUpTerms = 25.0 + 1.0;

Tolerance tolerance(const BlurSettings& s, glm::ivec2 size, double input_peak) {
  const Choice choice = choice_for(s.kernel.sigma);
  const std::vector<UpPass> up = up_passes(s, choice.levels, size);
  const gl::Format mid = s.intermediate_format();
  const std::vector<glm::ivec2> levels = level_sizes(size, choice.levels);
  const int stored = stored_down_levels(s, choice.levels, size);
  ModelErrorBound bound(s.input_format, input_peak);
  for (int l = 1; l <= choice.levels; ++l) {
    const glm::ivec2 read = levels[static_cast<size_t>(l - 1)];
    bound.filtered_fetches(l == 1 ? s.input_format : mid, std::max(read.x, read.y) + 2.0 * choice.offset + 1.0);
    bound.fp32(kDownTerms);
    if (l <= stored) bound.store(mid);
  }
  for (int l = choice.levels - 1; l >= 0; --l) {
    if (stages_fp16(s) && up_stages(up, l)) bound.store(gl::Format::rgba16f);  // the level this pass reads, staged
    bound.fp32(kUpTerms);
    if (up_stores(up, l)) bound.store(mid);
  }
  return bound.tolerance(std::to_string(choice.levels) + " levels down and up");
}

// The largest of the programs': the up chains' (the streamed last pass stages nothing), and the
// fused down chain's where it runs.
SharedMemory shared_memory(const BlurSettings& s) {
  const Choice c = choice_for(s.kernel.sigma);
  const std::string part = "36x" + std::to_string(level1_part_rows(s)) + " of level 1";
  const std::string precision = stages_fp16(s) ? "fp16" : "fp32";
  SharedMemory up{0, "none: the streamed last pass stages nothing"};
  for (const UpPass& p : up_passes(s, c.levels, std::nullopt)) {
    const int chain = p.from - p.to;
    if (p.stream || up_shared_bytes(s, chain) <= up.bytes) continue;
    up = chain == 1 ? SharedMemory{up_shared_bytes(s, chain), "the upsampling pass's " + part + " of a 64x64 tile, " + precision + " vec4"}
                    : SharedMemory{up_shared_bytes(s, chain), "the upsampling chain's " + part + " and 22x22 of level 2 of a 64x64 tile, " + precision + " vec4"};
  }
  if (fuses_down(s) && stored_down_levels(s, c.levels, std::nullopt) > 1 && fused_shared_bytes(s, c.offset) > up.bytes) {
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
// fetches are counted once, as a down pass's, though its tiles' regions overlap). The streamed last
// pass's texel fetches are not counted: a pass that stages level 1 needs none of them.
WorkBound own_bound(const BlurSettings& s, glm::ivec2 size) {
  const Choice c = choice_for(s.kernel.sigma);
  const gl::Format in = s.input_format, mid = s.intermediate_format();
  const std::vector<glm::ivec2> levels = level_sizes(size, c.levels);
  WorkBound b;
  const int stored = stored_down_levels(s, c.levels, size);
  for (int l = 1; l <= c.levels; ++l) {
    const glm::ivec2 target = levels[static_cast<size_t>(l)];
    if (l <= stored) b.bytes += pass_bytes(levels[static_cast<size_t>(l - 1)], l == 1 ? in : mid, target, mid);
    // The down passes' distinct fetches; the fused chain's first level and the folded one fetch 5 a texel.
    b.bilinear_fetches += l <= stored && !fuses_down(s) ? down_fetches(target, c.offset) : 5.0 * target.x * target.y;
    b.fmas += 20.0 * target.x * target.y;  // five fetches weighted, 4 channels
  }
  for (const UpPass& p : up_passes(s, c.levels, size)) {
    const int read = p.fold ? p.from - 1 : p.from;
    b.bytes += pass_bytes(levels[static_cast<size_t>(read)], read == 0 ? in : mid, levels[static_cast<size_t>(p.to)], p.to == 0 ? in : mid);
  }
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

// last-pass auto, as the image's size resolves it.
std::string size_choices(const BlurSettings& s, glm::ivec2 size) {
  if (s.integer(kLastPass) != kLastAuto) return "";
  const int levels = choice_for(s.kernel.sigma).levels;
  if (levels < 2) return "last-pass auto: chain (one level: never the stream)";
  return streams(s, levels, size) ? "last-pass auto: stream, from 3.1 M texels" : "last-pass auto: chain, below 3.1 M texels";
}

}  // namespace

namespace variant {
extern const VariantInfo dual_kawase{
    .name = "dual-kawase",
    .stage = Stage::Compute,
    .family = Family::Kawase,
    .summary = "approximate Gaussian: Bjorge's dual filter, a dispatch per downsampling level, then the N upsampling passes in one "
               "dispatch that also computes the smallest level (tiles of every level in shared memory); on large images the last "
               "of them a dispatch of its own, streamed",
    .role = Role::Approximation,
    .kernels = KernelSupport::GaussOnly,
    .uses_intermediate = true,
    .max_radius = kMaxRadius,  // a level more per doubling of sigma
    .hardware_filtering = true,
    .knobs = {knobs::workgroup({{16, 16}, {8, 8}, {64, 4}, {256, 1}}), kFold, kUpThreads, kUpBlock, kUpStage, kDownChain, kLastPass,
              kStreamRows},
    .shared_memory = shared_memory,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new DualKawase); },
    .approximation = {.choose = choose, .model = model_blur, .tolerance = tolerance},
    .own_bound = own_bound,
    .size_choices = size_choices,
    .slots = kSlots,
};
}  // namespace variant
}  // namespace blurlab
