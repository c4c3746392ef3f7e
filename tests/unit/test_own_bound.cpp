// Each variant's own bound (VariantInfo::own_bound) against a count made here by hand from what the
// variant says it does (its passes, the texture each reads and writes at which size and format, its
// bilinear fetches, the taps it weights), not from its code: sizes with odd sides, pyramids whose
// levels round up, every intermediate format, both kernels. And the report's fraction of it: the
// hand count's time at the roofline's rates over the row's median.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "blur/registry.h"
#include "report/report.h"
#include "util/strings.h"

namespace blurlab {
namespace {

double texels(glm::ivec2 size) { return static_cast<double>(size.x) * size.y; }
double bytes_per_texel(gl::Format f) { return f == gl::Format::rgba8 ? 4.0 : f == gl::Format::rgba16f ? 8.0 : 16.0; }
// A pass reading `a` texels of format fa and writing `b` of fb, once each.
double pass(glm::ivec2 a, gl::Format fa, glm::ivec2 b, gl::Format fb) { return texels(a) * bytes_per_texel(fa) + texels(b) * bytes_per_texel(fb); }
double taps(const BlurSettings& s) { return 2.0 * s.kernel.radius + 1.0; }
gl::Format in(const BlurSettings& s) { return s.input_format; }
gl::Format mid(const BlurSettings& s) { return s.intermediate.value_or(s.input_format); }

// The leading number of an approximation's choice: "7 passes, offsets ..." -> 7, "3 levels, ..." -> 3.
int leading_number(const VariantInfo& v, const BlurSettings& s) { return std::stoi(v.approximation.choose(s).parameters); }

// The texels the eight fetches of a dual-filter upsampling pass blend, for a target texel of phase
// (bx, by): centred at (b + 1/2) / 2, fetches at (+-2h, 0), (0, +-2h), (+-h, +-h), h = offset / 4;
// a fetch at p blends floor(p - 1/2) and, unless p - 1/2 is whole, the next texel of each axis.
int dual_up_texels(double offset, int bx, int by) {
  const double h = offset / 4;
  const double at[8][2] = {{-2 * h, 0}, {2 * h, 0}, {0, -2 * h}, {0, 2 * h}, {-h, -h}, {-h, h}, {h, -h}, {h, h}};
  std::set<std::pair<int, int>> blended;
  for (const auto& f : at) {
    const double x = (bx + 0.5) / 2 + f[0] - 0.5, y = (by + 0.5) / 2 + f[1] - 0.5;
    const int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
    for (int j = 0; j <= (y == y0 ? 0 : 1); ++j)
      for (int i = 0; i <= (x == x0 ? 0 : 1); ++i) blended.insert({x0 + i, y0 + j});
  }
  return static_cast<int>(blended.size());
}

// The offset of dual-kawase's choice: "3 levels, offset 2" -> 2.
double dual_offset(const VariantInfo& v, const BlurSettings& s) {
  const std::string text = v.approximation.choose(s).parameters;
  return std::stod(text.substr(text.rfind(' ') + 1));
}

// The offsets of kawase's choice: "3 passes, offsets 0,1,2" -> {0, 1, 2}.
std::vector<int> kawase_offsets(const VariantInfo& v, const BlurSettings& s) {
  const std::string text = v.approximation.choose(s).parameters;
  std::vector<int> offsets;
  std::stringstream list(text.substr(text.rfind(' ') + 1));
  for (std::string item; std::getline(list, item, ',');) offsets.push_back(std::stoi(item));
  return offsets;
}

using HandCount = std::function<WorkBound(const BlurSettings&, glm::ivec2)>;

WorkBound direct_2d(const BlurSettings& s, glm::ivec2 n) {
  return {.bytes = pass(n, in(s), n, in(s)), .fmas = 4.0 * taps(s) * taps(s) * texels(n)};
}
// Separable: 2r+1 taps per axis, or a box by running sums (an add and a subtract per axis) where
// the variant says so; in two passes, horizontal into the intermediate and vertical out of it, or
// in one dispatch.
double separable_fmas(const BlurSettings& s, glm::ivec2 n, bool running_box) {
  return 8.0 * (running_box && s.kernel.type == KernelType::Box ? 2.0 : taps(s)) * texels(n);
}
WorkBound two_passes(const BlurSettings& s, glm::ivec2 n, bool running_box) {
  return {.bytes = pass(n, in(s), n, mid(s)) + pass(n, mid(s), n, in(s)), .fmas = separable_fmas(s, n, running_box)};
}
WorkBound one_dispatch(const BlurSettings& s, glm::ivec2 n, bool running_box) {
  return {.bytes = pass(n, in(s), n, in(s)), .fmas = separable_fmas(s, n, running_box)};
}
WorkBound two_passes_of_taps(const BlurSettings& s, glm::ivec2 n) { return two_passes(s, n, false); }
WorkBound one_dispatch_of_taps(const BlurSettings& s, glm::ivec2 n) { return one_dispatch(s, n, false); }
WorkBound one_dispatch_running_box(const BlurSettings& s, glm::ivec2 n) { return one_dispatch(s, n, true); }
// Hardware-linear sampling: r + 1 fetches per axis for even r, r + 2 for odd r, each weighted; two
// passes, or one of n x n fetches.
double linear_fetches(const BlurSettings& s) { return s.kernel.radius % 2 == 0 ? s.kernel.radius + 1.0 : s.kernel.radius + 2.0; }
WorkBound linear_two_passes(const BlurSettings& s, glm::ivec2 n) {
  const double fetches = 2.0 * linear_fetches(s) * texels(n);
  return {pass(n, in(s), n, mid(s)) + pass(n, mid(s), n, in(s)), fetches, 4.0 * fetches};
}
WorkBound linear_2d(const BlurSettings& s, glm::ivec2 n) {
  const double fetches = linear_fetches(s) * linear_fetches(s) * texels(n);
  return {pass(n, in(s), n, in(s)), fetches, 4.0 * fetches};
}

const std::map<std::string, HandCount>& hand_counts() {
  static const std::map<std::string, HandCount> counts = {
      {"copy", [](const BlurSettings& s, glm::ivec2 n) { return WorkBound{.bytes = pass(n, in(s), n, in(s))}; }},
      {"frag-naive", direct_2d},
      {"compute-naive", direct_2d},
      {"compute-naive-lds", direct_2d},
      {"frag-separable", two_passes_of_taps},
      // fft: a spectrum pass writing N rgba32f texels, then rows and columns through the
      // intermediate, each line in segments of N - 2r outputs (overlap-save); per segment two
      // channel pairs, each transformed forward and back (3.5 N log2 N operations a transform: a
      // radix-4 butterfly is 3 complex twiddle products of 4 and 8 complex adds, 28 per 4 points,
      // log4 N steps) and multiplied by the real spectrum (2 N); the spectrum's r + 1 terms per point.
      {"fft",
       [](const BlurSettings& s, glm::ivec2 n) {
         const double points = s.knob("points").x, outputs = points - 2.0 * s.kernel.radius;
         const double segments = std::ceil(n.x / outputs) * n.y + std::ceil(n.y / outputs) * n.x;
         return WorkBound{.bytes = points * 16.0 + pass(n, in(s), n, mid(s)) + pass(n, mid(s), n, in(s)),
                          .fmas = segments * 2.0 * (2.0 * 3.5 * points * std::log2(points) + 2.0 * points) +
                                  points * (s.kernel.radius + 1.0)};
       }},
      {"compute-separable", two_passes_of_taps},
      {"compute-separable-lds", two_passes_of_taps},
      {"compute-separable-regblock", [](const BlurSettings& s, glm::ivec2 n) { return two_passes(s, n, true); }},
      {"compute-inline-lds", one_dispatch_of_taps},
      {"compute-inline-persistent", one_dispatch_of_taps},
      {"compute-inline-regblock", one_dispatch_running_box},
      {"compute-strip-regblock", one_dispatch_running_box},
      {"frag-separable-linear", linear_two_passes},
      {"compute-separable-linear", linear_two_passes},
      {"frag-linear-2d", linear_2d},
      // A pyramid of K levels of ceil(size / 2^k), K the first whose blur, 4^(K-1) texels^2, reaches
      // the widest kernel's variance (box r (r + 1) / 3, Gaussian sigma^2), each a pass reading the
      // level above (the input, then rgba32f) and writing its own in rgba32f, 4 adds a channel per
      // texel written; then the blend per pixel reads the input and its rgba8 level, every level
      // once (its 8 fetches a pixel hit levels a quarter the size or less), writes the output, with
      // 7 lerps a channel.
      {"variable-pyramid",
       [](const BlurSettings& s, glm::ivec2 n) {
         WorkBound b;
         glm::ivec2 above = n;
         const double widest = s.kernel.type == KernelType::Gauss ? s.kernel.sigma * s.kernel.sigma
                                                                  : s.kernel.radius * (s.kernel.radius + 1) / 3.0;
         for (int k = 1; k == 1 ? widest > 0.0 : std::pow(4.0, k - 2) < widest; ++k) {
           const glm::ivec2 level{(n.x + (1 << k) - 1) / (1 << k), (n.y + (1 << k) - 1) / (1 << k)};
           b.bytes += pass(above, k == 1 ? in(s) : gl::Format::rgba32f, level, gl::Format::rgba32f);
           b.bytes += 16.0 * texels(level);  // read once by the blend
           b.fmas += 16.0 * texels(level);
           above = level;
         }
         b.bytes += texels(n) * (2.0 * gl::info(in(s)).bytes_per_texel + 4.0);
         b.fmas += 28.0 * texels(n);
         return b;
       }},
      // Four layers at radii round(j r / 4), each rows (input -> rgba32f scratch) and columns (->
      // rgba32f layer) of 2 rho + 1 taps; the blend reads the input, two layers and the level,
      // writes the output, one lerp a channel.
      {"variable-layers",
       [](const BlurSettings& s, glm::ivec2 n) {
         WorkBound b;
         for (int j = 1; j <= 4; ++j) {
           const int rho = static_cast<int>(std::floor(j * s.kernel.radius / 4.0 + 0.5));
           b.bytes += pass(n, in(s), n, gl::Format::rgba32f) + pass(n, gl::Format::rgba32f, n, gl::Format::rgba32f);
           b.fmas += 8.0 * (2.0 * rho + 1.0) * texels(n);
         }
         b.bytes += texels(n) * (2.0 * gl::info(in(s)).bytes_per_texel + 2.0 * 16.0 + 4.0);
         b.fmas += 4.0 * texels(n);
         return b;
       }},
      // Variable radius: the largest level's direct sum (a map of smaller levels needs less).
      {"variable-naive", direct_2d},
      // The summed-area table of the image padded by r on each side, in tiles of 16 x 16 texels,
      // 16 bytes an entry (4 words; 32 for float input, two words a channel). The padded image is
      // read twice (the edges pass, the table pass). Each tile's last column (one entry per row per
      // tile column) and last row (one per column per tile row) are written by the edges pass, read
      // and written as carries by the rows and columns passes (the columns also read one row carry
      // per tile) and read by the table pass, which writes every tile's entries; the lookup reads
      // those once and the pixel's level (rgba8) and writes the output. Adds a channel: 6 per tiled
      // texel, 4 per pixel.
      {"variable-sat",
       [](const BlurSettings& s, glm::ivec2 n) {
         const int r = s.kernel.radius, w = n.x + 2 * r, h = n.y + 2 * r;
         const int tiles_x = (w + 15) / 16, tiles_y = (h + 15) / 16;
         const double words = s.input_format == gl::Format::rgba8 ? 1.0 : 2.0, entry = 16.0 * words;
         const double source = double(w) * h * gl::info(s.input_format).bytes_per_texel;
         const double tiled = 16.0 * tiles_x * 16.0 * tiles_y;
         const double last_columns = 16.0 * tiles_y * tiles_x, last_rows = 16.0 * tiles_x * tiles_y;
         const double edges = last_columns + last_rows;
         const double carries = 2.0 * edges + double(tiles_x) * tiles_y;
         return WorkBound{.bytes = 2.0 * source + (edges + carries + edges + 2.0 * tiled) * entry +
                                   texels(n) * (4.0 + gl::info(s.input_format).bytes_per_texel),
                          .fmas = 4.0 * words * (6.0 * tiled + 4.0 * texels(n))};
       }},
      // Full-resolution passes, each reading and writing once (the intermediate between them); the
      // shared ones weight 16 texels per texel (4 taps per axis, 4 channels), the textbook ones issue
      // 4 bilinear fetches per texel, or (n + 1)(m + 1) per n x m texels that share them (n = m the
      // knob; at offset 0 2 x 2, at offset 1 2 x 8), and add four per texel.
      {"kawase",
       [](const BlurSettings& s, glm::ivec2 n) {
         const int passes = leading_number(*find_variant("kawase"), s);
         WorkBound b;
         for (int k = 0; k < passes; ++k) b.bytes += pass(n, k == 0 ? in(s) : mid(s), n, k == passes - 1 ? in(s) : mid(s));
         if (s.knob("pass").x == 1) {
           b.fmas = passes * 32.0 * texels(n);
         } else {
           for (int offset : kawase_offsets(*find_variant("kawase"), s)) {
             const int share = s.knob("share").x;
             const bool close = offset < 2 && share > 1;  // 2 across; down 2 at offset 0, 8 at offset 1
             const double across = close ? 2 : share, down = close ? (offset == 1 ? 8 : 2) : share;
             b.bilinear_fetches += (across + 1) * (down + 1) / (across * down) * texels(n);
           }
           b.fmas = passes * 16.0 * texels(n);
         }
         return b;
       }},
      // N levels of ceil(size / 2); down passes read level l - 1 and write level l with 5 weighted
      // bilinear fetches per texel written, at an integer offset o each distinct corner once: (x + o)
      // (y + o) diagonal corners, and for odd o x y centres apart (the fused chain and the level the
      // up chain folds fetch their 5); the up passes read level N and write the output in one
      // dispatch (with wrap, each up pass reads level l + 1 and writes level l), weighting the texels
      // their eight fetches blend for every texel of levels N - 1 .. 0.
      {"dual-kawase",
       [](const BlurSettings& s, glm::ivec2 n) {
         const VariantInfo& v = *find_variant("dual-kawase");
         const int levels = leading_number(v, s);
         const double offset = dual_offset(v, s);
         std::vector<glm::ivec2> level{n};
         for (int l = 1; l <= levels; ++l) level.push_back({(level.back().x + 1) / 2, (level.back().y + 1) / 2});
         WorkBound b;
         // last-pass stream (auto: from two levels where the image has 3.1 M texels or more): the
         // output written by a pass of its own from level 1, which the chain stores (at one level the
         // first down pass). With fold on, every border but wrap, the first chain computes level N
         // from level N - 1 (not at one level with the stream: its level 1 is a down pass's).
         const int last = s.knob("last-pass").x;  // auto 0, chain 1, stream 2
         const bool stream = last == 2 || (last == 0 && levels > 1 && double(n.x) * n.y >= 3.1e6);
         const bool wrap = s.border.mode == BorderMode::Wrap;
         const bool fold = s.knob("fold").x == 1 && !wrap && !(stream && levels == 1);
         const bool fused = s.knob("down-chain").x == 1;
         const int o = offset == std::floor(offset) ? static_cast<int>(offset) : 0;
         for (int l = 1; l <= levels; ++l) {
           const bool stored = !fold || l < levels;
           if (stored) b.bytes += pass(level[l - 1], l == 1 ? in(s) : mid(s), level[l], mid(s));
           const double x = level[l].x, y = level[l].y;
           b.bilinear_fetches += stored && !fused && o > 0 ? (x + o) * (y + o) + (o % 2 == 1 ? x * y : 0.0) : 5.0 * x * y;
           b.fmas += 20.0 * texels(level[l]);
         }
         if (wrap)
           for (int l = levels - 1; l >= 0; --l) b.bytes += pass(level[l + 1], mid(s), level[l], l == 0 ? in(s) : mid(s));
         else {
           const int end = stream ? 1 : 0;  // where the chain ends
           if (levels > end) {
             const int read = fold ? levels - 1 : levels;
             b.bytes += pass(level[read], read == 0 ? in(s) : mid(s), level[end], end == 0 ? in(s) : mid(s));
           }
           if (stream) b.bytes += pass(level[1], mid(s), n, in(s));
         }
         for (int l = 0; l < levels; ++l)
           for (int by = 0; by < 2; ++by)
             for (int bx = 0; bx < 2; ++bx) {
               const int xs = bx == 0 ? (level[l].x + 1) / 2 : level[l].x / 2, ys = by == 0 ? (level[l].y + 1) / 2 : level[l].y / 2;
               b.fmas += 4.0 * xs * ys * dual_up_texels(offset, bx, by);
             }
         return b;
       }},
  };
  return counts;
}

// The variants whose own bounds tests/unit/test_own_bound_box.cpp counts (the running sums and
// recursive filters).
const std::set<std::string> kCountedElsewhere = {"box-iterated",       "recursive-gaussian", "recursive-gaussian-blocks",
                                                 "compute-sliding",    "compute-sliding-inline", "compute-sliding-tiles",
                                                 "compute-sliding-subgroup", "compute-scan", "compute-box-prefix",
                                                 "compute-box-blocked"};

TEST(OwnBound, EveryVariantIsCounted) {
  for (const VariantInfo* v : variants()) {
    const std::string name(v->name);
    EXPECT_TRUE(hand_counts().count(name) || kCountedElsewhere.count(name)) << name << " has no hand count";
    EXPECT_NE(v->own_bound, nullptr) << name << " declares no own bound";
  }
}

void expect_same(const WorkBound& got, const WorkBound& hand, const std::string& what) {
  EXPECT_DOUBLE_EQ(got.bytes, hand.bytes) << what << ": bytes";
  EXPECT_DOUBLE_EQ(got.bilinear_fetches, hand.bilinear_fetches) << what << ": bilinear fetches";
  EXPECT_DOUBLE_EQ(got.fmas, hand.fmas) << what << ": FMAs";
}

TEST(OwnBound, MatchesTheHandCount) {
  const glm::ivec2 sizes[] = {{4096, 4096}, {2048, 1536}, {2048, 1500}, {1920, 1080}, {97, 61}, {3, 2}, {1, 1}};
  for (const auto& [name, count] : hand_counts()) {
    const VariantInfo* v = find_variant(name);
    ASSERT_NE(v, nullptr) << name;
    ASSERT_NE(v->own_bound, nullptr) << name;
    std::vector<BlurSettings> settings;
    for (gl::Format input : {gl::Format::rgba8, gl::Format::rgba16f})
      for (gl::Format intermediate : {gl::Format::rgba8, gl::Format::rgba16f, gl::Format::rgba32f}) {
        std::vector<Kernel> kernels{make_kernel(KernelType::Gauss, std::nullopt, 10.0), make_kernel(KernelType::Gauss, 7, std::nullopt),
                                    make_kernel(KernelType::Gauss, std::nullopt, 30.0), make_kernel(KernelType::Box, 5, std::nullopt),
                                    make_kernel(KernelType::Gauss, kMaxDirectRadius, std::nullopt), make_kernel(KernelType::Box, kMaxDirectRadius, std::nullopt)};
        for (const Kernel& k : kernels)
          if (!is_approximation(*v) || k.type == KernelType::Gauss)
          for (BorderMode border : {BorderMode::Clamp, BorderMode::Wrap}) {
            BlurSettings s;
            s.kernel = k;
            s.border.mode = border;
            s.input_format = input;
            s.intermediate = intermediate;
            settings.push_back(resolve(*v, s));
            // Every knob candidate, the others at their defaults.
            for (const Knob& knob : v->knobs)
              for (const KnobValue& value : knob.candidates) {
                s.knobs = {{std::string(knob.name), value}};
                settings.push_back(resolve(*v, s));
              }
          }
      }
    for (const BlurSettings& s : settings)
      for (glm::ivec2 size : sizes) expect_same(v->own_bound(s, size), count(s, size), name + " " + describe(*v, s) + " " + size_text(size));
  }
}

// A few counts written out as numbers, so the hand counts above are checked once more.
TEST(OwnBound, WrittenOutNumbers) {
  BlurSettings s;
  s.kernel = make_kernel(KernelType::Gauss, std::nullopt, 10.0);
  // dual-kawase, sigma 10 (3 levels, offset 2), 1920x1080 rgba8: levels 960x540, 480x270, 240x135;
  // down passes 4 (2073600 + 518400) + 4 (518400 + 129600) bytes, the last folded into the up
  // passes' one dispatch, which reads level 2 and writes the output: 4 (129600 + 2073600) (fold off:
  // a third down pass 4 (129600 + 32400), the chain 4 (32400 + 2073600)); fetches: the two down passes
  // each distinct corner once (offset 2: (960 + 2) (540 + 2) and (480 + 2) (270 + 2)), the folded level
  // 5 a texel, 5 x 32400 (counted once, though the tiles' regions overlap); each up phase
  // blends 13 texels (at n + 1/4: rows n-2 .. n+1 hold 2, 4, 4 and 3 of them): 4 x 13 x (2073600 +
  // 518400 + 129600) FMAs, plus 20 per texel written down.
  // fft at the largest radius, 4096x4096 rgba8 (rgba8 intermediate), N = 1024: 768 outputs a
  // segment, 6 segments a line, 2 x 6 x 4096 segments of 2 x (2 x 3.5 x 1024 x 10 + 2 x 1024)
  // operations; the spectrum 1024 x 129; bytes: 1024 rgba32f texels, then two passes of 8 bytes a texel.
  const VariantInfo& fft = *find_variant("fft");
  BlurSettings wide;
  wide.kernel = make_kernel(KernelType::Gauss, 128, std::nullopt);
  const WorkBound f = fft.own_bound(resolve(fft, wide), {4096, 4096});
  EXPECT_DOUBLE_EQ(f.bytes, 16384.0 + 268435456.0);
  EXPECT_DOUBLE_EQ(f.fmas, 49152.0 * 147456.0 + 132096.0);
  // compute-separable-regblock at the largest radius, 4096x4096 rgba8 (rgba8 intermediate): two
  // passes each reading and writing 4 bytes a texel; 2 passes x 257 taps x 4 channels of FMAs.
  const VariantInfo& regblock = *find_variant("compute-separable-regblock");
  BlurSettings widest;
  widest.kernel = make_kernel(KernelType::Gauss, 128, std::nullopt);
  const WorkBound rb = regblock.own_bound(resolve(regblock, widest), {4096, 4096});
  EXPECT_DOUBLE_EQ(rb.bytes, 2.0 * 8.0 * 16777216);
  EXPECT_DOUBLE_EQ(rb.fmas, 2.0 * 257.0 * 4.0 * 16777216);
  const VariantInfo& dual = *find_variant("dual-kawase");
  const WorkBound d = dual.own_bound(resolve(dual, s), {1920, 1080});
  EXPECT_DOUBLE_EQ(d.bytes, 4.0 * (2073600 + 518400 + 518400 + 129600 + 129600 + 2073600));
  EXPECT_DOUBLE_EQ(d.bilinear_fetches, 962.0 * 542 + 482.0 * 272 + 5.0 * 32400);
  EXPECT_DOUBLE_EQ(d.fmas, 52.0 * (2073600 + 518400 + 129600) + 20.0 * (518400 + 129600 + 32400));
  // 97x61: levels 49x31, 25x16, 13x8 (rounded up); phases of level 0: 49 even and 48 odd columns,
  // 31 and 30 rows.
  const WorkBound odd = dual.own_bound(resolve(dual, s), {97, 61});
  EXPECT_DOUBLE_EQ(odd.bytes, 4.0 * (97 * 61 + 49 * 31 + 49 * 31 + 25 * 16 + 25 * 16 + 97 * 61));
  // 4096x4096 (16.8 M texels, over last-pass auto's 3.1 M: the stream): levels 2048^2, 1024^2,
  // 512^2; the two down passes, the chain from level 2 (it computes level 3) to level 1, stored, and
  // the stream from level 1 to the output, 4 bytes a texel read and written each.
  const WorkBound large = dual.own_bound(resolve(dual, s), {4096, 4096});
  EXPECT_DOUBLE_EQ(large.bytes, 4.0 * ((16777216.0 + 4194304) + (4194304 + 1048576) + (1048576 + 4194304) + (4194304 + 16777216)));
  // kawase, sigma 10 (7 passes, offsets 0,1,2,3,4,5,5), 4096x4096 rgba8: 7 x 2 x 64 MiB; textbook
  // passes (the default: 3 x 3 outputs per invocation; 2 x 2 at offset 0, 2 x 8 at offset 1) 9
  // fetches per 4 texels at offset 0, 27 per 16 at offset 1, 16 per 9 after, and 16 FMAs per
  // texel; shared ones no fetches and 32 FMAs.
  const VariantInfo& kawase = *find_variant("kawase");
  const WorkBound k = kawase.own_bound(resolve(kawase, s), {4096, 4096});
  EXPECT_DOUBLE_EQ(k.bytes, 7.0 * 2.0 * 4096 * 4096 * 4);
  EXPECT_DOUBLE_EQ(k.bilinear_fetches, (9.0 / 4.0 + 27.0 / 16.0 + 5 * 16.0 / 9.0) * 4096 * 4096);
  EXPECT_DOUBLE_EQ(k.fmas, 7.0 * 16.0 * 4096 * 4096);
  BlurSettings shared = s;
  shared.knobs["pass"] = {1};
  const WorkBound ks = kawase.own_bound(resolve(kawase, shared), {4096, 4096});
  EXPECT_DOUBLE_EQ(ks.bytes, k.bytes);
  EXPECT_DOUBLE_EQ(ks.bilinear_fetches, 0.0);
  EXPECT_DOUBLE_EQ(ks.fmas, 7.0 * 32.0 * 4096 * 4096);
  // Textbook passes of one output per invocation: 4 fetches per texel.
  BlurSettings unshared = s;
  unshared.knobs["share"] = {1};
  const WorkBound ku = kawase.own_bound(resolve(kawase, unshared), {4096, 4096});
  EXPECT_DOUBLE_EQ(ku.bilinear_fetches, 7.0 * 4.0 * 4096 * 4096);
  EXPECT_DOUBLE_EQ(ku.fmas, k.fmas);
  // compute-separable-linear, r = 16 at rgba8 with an rgba16f intermediate, 1920x1080: 17 fetches a
  // pass; each pass reads 4 and writes 8 bytes per texel or the reverse.
  const VariantInfo& linear = *find_variant("compute-separable-linear");
  BlurSettings r16;
  r16.kernel = make_kernel(KernelType::Gauss, 16, std::nullopt);
  r16.intermediate = gl::Format::rgba16f;
  const WorkBound l = linear.own_bound(resolve(linear, r16), {1920, 1080});
  EXPECT_DOUBLE_EQ(l.bytes, 2.0 * 12.0 * 1920 * 1080);
  EXPECT_DOUBLE_EQ(l.bilinear_fetches, 34.0 * 1920 * 1080);
  EXPECT_DOUBLE_EQ(l.fmas, 136.0 * 1920 * 1080);
}

// The report's fraction of the own bound is the hand count's time at the roofline's rates over
// the row's median, in the table, the CSV and the JSON, with the limit that takes longest.
TEST(OwnBound, ReportedFractionIsTheHandCountOverTheMedian) {
  using namespace report;
  Report r;
  r.frames = 3;
  // 2 GB/s texture copy, 1e11 FMA/s, 5e9 bilinear fetches/s.
  r.roofline = Roofline{{4096, 4096}, 2.0, "copy", 3.0, 1e11, 5e9};
  Measurement m;
  m.variant = find_variant("compute-separable-linear");
  m.settings = resolve(*m.variant, BlurSettings{});
  m.settings.kernel = make_kernel(KernelType::Gauss, 16, std::nullopt);
  m.size = {1000, 500};
  m.span_order = {"total"};
  m.spans_ms["total"] = {4.0, 4.0, 4.0};
  r.rows.push_back(m);
  // By hand: 500000 texels; two passes of 8 bytes a texel: 8 MB at 2 GB/s = 4 ms; 17 fetches a
  // pass: 17 M fetches at 5e9/s = 3.4 ms; 68 M FMAs at 1e11/s = 0.68 ms. Memory limits: 4 / 4 ms.
  const std::optional<OwnBound> own = r.own_bound(r.rows[0]);
  ASSERT_TRUE(own);
  EXPECT_EQ(own->limit, "memory");
  EXPECT_DOUBLE_EQ(own->ms, 4.0);
  EXPECT_DOUBLE_EQ(own->fraction, 1.0);
  // Fetches at 2e9/s: 8.5 ms, over the 4 ms measured.
  r.roofline->bilinear_fetch_per_s = 2e9;
  const OwnBound fetches = *r.own_bound(r.rows[0]);
  EXPECT_EQ(fetches.limit, "fetches");
  EXPECT_DOUBLE_EQ(fetches.fraction, 8.5 / 4.0);
  std::ostringstream json, csv, table;
  write_json(r, json);
  write_csv(r, csv);
  write_table(r, table);
  const auto row = nlohmann::json::parse(json.str())["results"][0];
  EXPECT_DOUBLE_EQ(row["own_bound"]["fraction"].get<double>(), 8.5 / 4.0);
  EXPECT_DOUBLE_EQ(row["own_bound"]["ms"].get<double>(), 8.5);
  EXPECT_EQ(row["own_bound"]["limit"], "fetches");
  EXPECT_DOUBLE_EQ(row["own_bound"]["bilinear_fetches"].get<double>(), 17e6);
  EXPECT_DOUBLE_EQ(row["own_bound"]["bytes"].get<double>(), 8e6);
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(json.str())["roofline"]["bilinear_gfetch_per_s"].get<double>(), 2.0);
  // The problem's bound: one read and one write, 4 MB at 2 GB/s = 2 ms, or 8 x 33 FMAs a texel,
  // 132 M at 1e11/s = 1.32 ms: memory, 2 / 4 ms.
  EXPECT_DOUBLE_EQ(row["bound"]["fraction"].get<double>(), 0.5);
  const std::vector<std::string> lines = split(csv.str(), '\n');
  EXPECT_NE(lines[1].find(",memory,0.5,fetches,2.125,"), std::string::npos) << lines[1];
  EXPECT_NE(table.str().find("50% mem  212% tex"), std::string::npos) << table.str();
  // No fetch rate measured: no own bound for a variant that fetches, rather than a wrong one.
  r.roofline->bilinear_fetch_per_s = 0.0;
  EXPECT_FALSE(r.own_bound(r.rows[0]));
}

}  // namespace
}  // namespace blurlab
