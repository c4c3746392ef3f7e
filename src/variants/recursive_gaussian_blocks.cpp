// recursive-gaussian-blocks: recursive-gaussian's filter (variants/recursive.h: the same rounded
// coefficients, the same clamp-to-edge border states, the same rounding of the causal output to
// the intermediate's format, so the same fidelity), block parallel after Nehab, Maximo, Lima and
// Hoppe ("GPU-efficient recursive filtering and summed-area tables", 2011). One invocation per line
// is latency bound on a big GPU (4096 lines for 100k+ invocations); here a line is split into
// blocks of BLOCK texels (the block-length knob), one invocation each, a line's blocks in one
// workgroup. Per direction (causal forwards, then anticausal backwards), in
// glsl/recursive_gaussian_blocks.comp:
//   1. each block is filtered from a zero state (the first block from the line's true start state),
//      giving its end state f_k (3 components: the sections' u, v[n], v[n-1]);
//   2. the end states are scanned across the line in shared memory: s_k = A s_k-1 + f_k, with A the
//      zero-input transition over one block (A1^BLOCK, A1 the one-step transition), by Hillis and
//      Steele's scan: ceil(log2 blocks) steps, step i adding A^(2^i) times the state 2^i blocks away
//      (the powers computed on the host in double, baked in as float constants);
//   3. each block is filtered again from its true initial state.
// The block stays in registers from the loads to the stores, as bits (the causal output replaces
// the input, in the intermediate's format), so the line is read once and written once per axis, as
// by a separable pass, with coalesced accesses: the rows go through shared memory, the columns'
// workgroups put neighbouring columns side by side. The anticausal pass starts from the right
// border's state (M applied to the true causal state at the line's end) in the block holding the
// end; blocks past the line's end hold zeros, which add nothing to the scan.
//
// Rounding points: the causal output along each line (in the intermediate's format, as
// recursive-gaussian's scratch texture); the rows' result (the intermediate); the columns' (the
// output). The CPU model runs the same blocks, scans, refilters and roundings in double precision.
#include <algorithm>
#include <cmath>

#include "blur/check.h"
#include "blur/model.h"
#include "variants/recursive.h"
#include "variants/sliding.h"

namespace blurlab {
namespace {

using recursive::Filter;
using recursive::Matrix3;

// The block lives in registers as bits, one to four words a texel (63 rgba16f texels are 126 of
// the 255 registers an NVIDIA invocation may hold, leaving room for the states).
constexpr int kMaxBlock = 63;

// The workgroup knob WxH: W blocks per line, H neighbouring columns per columns workgroup (a rows
// workgroup takes one row). A block is the line's share of W, made odd, so that a warp's blocks
// (BLOCK texels apart) read distinct banks of the rows' staging.
int block_length(const BlurSettings& s, int length) { return ((length + s.workgroup().x - 1) / s.workgroup().x) | 1; }
int blocks_for(int length, int block) { return (length + block - 1) / block; }
// A rows workgroup's staging of its row through shared memory: what 32 KiB leave beside the W
// blocks' scan states, between 4 and 16 KiB; the texels of a round, no more than the row.
long long staging_bytes(const BlurSettings& s) { return std::clamp(32768LL - 48LL * s.workgroup().x, 4096LL, 16384LL); }
int round_texels(const BlurSettings& s, int length, gl::Format widest) {
  return static_cast<int>(std::min<long long>(staging_bytes(s) / gl::info(widest).bytes_per_texel, length));
}
gl::Format wider(gl::Format a, gl::Format b) { return gl::info(a).bytes_per_texel >= gl::info(b).bytes_per_texel ? a : b; }
int scan_steps(int blocks) {
  int steps = 0;
  while ((1 << steps) < blocks) ++steps;
  return steps;
}

Matrix3 power(Matrix3 a, long long n) {
  Matrix3 result{1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (; n > 0; n >>= 1, a = recursive::multiply(a, a))
    if (n & 1) result = recursive::multiply(result, a);
  return result;
}

// The scan's carries, A^(2^i) for i < scan_steps(blocks), A the transition over a block of `block`
// texels.
std::vector<Matrix3> carries(const Filter& f, int block, int blocks) {
  std::vector<Matrix3> list;
  Matrix3 a = power(f.transition(), block);
  for (int i = 0; i < scan_steps(blocks); ++i, a = recursive::multiply(a, a)) list.push_back(a);
  return list;
}

// One pass's workgroup: `lines` lines (rows: 1) of `blocks` blocks.
struct Shape {
  int lines, blocks, block;
};
Shape shape(const BlurSettings& s, glm::ivec2 size, int axis) {
  const int length = axis == 0 ? size.x : size.y, block = block_length(s, length);
  return {axis == 0 ? 1 : s.workgroup().y, blocks_for(length, block), block};
}

class RecursiveGaussianBlocks final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    const Filter f = recursive::filter_for(s.kernel.sigma);
    const gl::Format io = s.input_format, mid = s.intermediate_format();
    auto defines = [&](int axis) {
      const Shape w = shape(s, setup.size(), axis);
      std::string carry;
      for (const Matrix3& a : carries(f, w.block, w.blocks))
        for (double v : a) carry += (carry.empty() ? "" : ", ") + recursive::literal(v);
      if (carry.empty()) carry = "0, 0, 0, 0, 0, 0, 0, 0, 0";  // one block per line: no scan step reads it
      gl::Defines d = recursive::filter_defines(f);
      d.insert(d.end(), {{"AXIS", std::to_string(axis)},
                         {"BLOCK", std::to_string(w.block)},
                         {"BLOCKS", std::to_string(w.blocks)},
                         {"LINES", std::to_string(w.lines)},
                         {"SCAN_STEPS", std::to_string(scan_steps(w.blocks))},
                         {"RG_CARRY", carry},
                         {"CAUSAL_BYTES", std::to_string(gl::info(mid).bytes_per_texel)},
                         {"ROUND", std::to_string(round_texels(s, setup.size().x, wider(io, mid)))}});
      return d;
    };
    rows_ = &setup.compute("recursive_gaussian_blocks.comp", io, mid, defines(0));
    columns_ = &setup.compute("recursive_gaussian_blocks.comp", mid, io, defines(1));
  }

  // Rows from the source into intermediate 0, a workgroup per row; columns from there into the
  // destination, a workgroup per `lines` neighbouring columns. The texels move as their bits.
  void run(BlurPasses& passes) override {
    const glm::ivec2 size = passes.size();
    const gl::Texture& rows = passes.intermediate(0);
    const int lines = shape(passes.settings(), size, 1).lines;
    passes.dispatch("h", *rows_, {Binding::read_raw(passes.source()), Binding::write_raw(rows)}, sliding::flat_groups(size.y, {1, 1}, "H"));
    passes.dispatch("v", *columns_, {Binding::read_raw(rows), Binding::write_raw(passes.destination())},
                    sliding::flat_groups(size.x, {lines, 1}, "W"));
  }

 private:
  const gl::Program* rows_ = nullptr;
  const gl::Program* columns_ = nullptr;
};

// One axis of the model, as the shader runs it, in double: blocks of BLOCK texels filtered from
// zero states, the Hillis-Steele scan of their end states (with the exact powers of A: the GPU's
// float carries are counted by the tolerance), the blocks filtered again from their true states,
// the causal output stored in `causal`'s format. In double the result does not depend on the blocks
// beyond 1e-15 (the blocked filter is the serial one, reassociated), so one model serves every
// block length.
ReferenceImage model_axis(const ReferenceImage& in, int axis, const Filter& f, int block, gl::Format causal) {
  using State = std::array<double, 3>;
  ReferenceImage out = model::blank(in.width, in.height);
  const int lines = axis == 0 ? in.height : in.width, length = axis == 0 ? in.width : in.height;
  const int used = blocks_for(length, block);
  const std::vector<Matrix3> carry = carries(f, block, used);
  const double p = f.p, g1 = f.g1, c1 = f.c1, c2 = f.c2, g2 = f.g2;
  auto step = [&](double x, State& s) {
    s[0] = g1 * x + p * s[0];
    const double v = g2 * s[0] + c1 * s[1] + c2 * s[2];
    s[2] = s[1];
    s[1] = v;
  };
  // The inclusive scan towards higher blocks (direction 1) or lower (-1); blocks past the end are 0.
  auto scan = [&](std::vector<State>& e, int direction) {
    for (size_t i = 0; i < carry.size(); ++i) {
      const std::vector<State> before = e;
      const int d = 1 << i;
      for (int k = 0; k < used; ++k) {
        const int from = k - direction * d;
        if (from < 0 || from >= used) continue;
        const State& t = before[static_cast<size_t>(from)];
        const Matrix3& a = carry[i];
        for (size_t r = 0; r < 3; ++r)
          e[static_cast<size_t>(k)][r] += a[3 * r] * t[0] + a[3 * r + 1] * t[1] + a[3 * r + 2] * t[2];
      }
    }
  };
  model::parallel_rows(lines, [&](int l0, int l1) {
    std::vector<double> x(static_cast<size_t>(length));
    std::vector<State> e(static_cast<size_t>(used));
    for (int l = l0; l < l1; ++l)
      for (int c = 0; c < 4; ++c) {
        auto index = [&](int i) {
          return (axis == 0 ? static_cast<size_t>(l) * in.width + i : static_cast<size_t>(i) * in.width + l) * 4 + c;
        };
        for (int i = 0; i < length; ++i) x[static_cast<size_t>(i)] = in.texels[index(i)];
        auto first_of = [&](int k) { return k * block; };
        auto end_of = [&](int k) { return std::min(length, (k + 1) * block); };
        // Causal.
        const double first = x[0], last = x[static_cast<size_t>(length - 1)];
        const State left{first, first, first};
        for (int k = 0; k < used; ++k) {
          State s = k == 0 ? left : State{};
          for (int i = first_of(k); i < end_of(k); ++i) step(x[static_cast<size_t>(i)], s);
          e[static_cast<size_t>(k)] = s;
        }
        scan(e, 1);
        State s{};
        for (int k = 0; k < used; ++k) {
          s = k == 0 ? left : e[static_cast<size_t>(k - 1)];
          for (int i = first_of(k); i < end_of(k); ++i) {
            step(x[static_cast<size_t>(i)], s);
            x[static_cast<size_t>(i)] = model::stored(s[1], causal);
          }
        }
        // Anticausal, from the border state of the causal state at the end (s).
        const double d[3] = {s[0] - last, s[1] - last, s[2] - last};
        State right;
        for (size_t r = 0; r < 3; ++r) right[r] = last + f.m[3 * r] * d[0] + f.m[3 * r + 1] * d[1] + f.m[3 * r + 2] * d[2];
        for (int k = used - 1; k >= 0; --k) {
          State t = k == used - 1 ? right : State{};
          for (int i = end_of(k) - 1; i >= first_of(k); --i) step(x[static_cast<size_t>(i)], t);
          e[static_cast<size_t>(k)] = t;
        }
        scan(e, -1);
        for (int k = used - 1; k >= 0; --k) {
          State t = k == used - 1 ? right : e[static_cast<size_t>(k + 1)];
          for (int i = end_of(k) - 1; i >= first_of(k); --i) {
            step(x[static_cast<size_t>(i)], t);
            out.texels[index(i)] = t[1];
          }
        }
      }
  });
  return out;
}

ReferenceImage model_blur(const Image& input, const BlurSettings& s) {
  const Filter f = recursive::filter_for(s.kernel.sigma);
  const gl::Format mid = s.intermediate_format();
  ReferenceImage rows = model_axis(model::from_image(input), 0, f, block_length(s, input.width), mid);
  model::store(rows, mid);
  return model_axis(rows, 1, f, block_length(s, input.height), mid);
}

// One direction along a line of `length` texels in fp32, in units of 2^-24 times the values' size
// (states included: a state is a zero-state filter's output over part of the line, bounded like
// the filter's). A rounding in the zero-state pass reaches an output through the scan and the
// refilter by the same powers of A1 the serial recursion would carry it by (the blocked filter is
// the serial one, reassociated): recursive::filter_terms bounds those, and the refilter's own. Each
// scan step i rounds each state component at most 6 times (3 products, 3 sums) values up to
// (|A^(2^i)| + 1) times the size, and its float carry is off by 2^-24 |A^(2^i)| (a 7th term); an
// error of a block's scanned state reaches an output o texels into a later block through A1^o times
// powers of A, at most once per block: H = the largest over o < BLOCK of sum_m |A1^(o + m BLOCK)|.
double direction_terms(const Filter& f, int length, int block) {
  const int blocks = blocks_for(length, block);
  double scan = 0.0;
  for (const Matrix3& a : carries(f, block, blocks)) scan += 7.0 * recursive::row_norm(a) + 6.0;
  double reach = 0.0;
  if (scan > 0.0) {
    const Matrix3 a1 = f.transition(), over_block = power(a1, block);
    Matrix3 start{1, 0, 0, 0, 1, 0, 0, 0, 1};  // A1^o
    for (int o = 0; o < block; ++o, start = recursive::multiply(a1, start)) {
      double sum = 0.0;
      Matrix3 m = start;
      for (int k = 0; k < blocks; ++k, m = recursive::multiply(over_block, m)) sum += recursive::row_norm(m);
      reach = std::max(reach, sum);
    }
  }
  return 2.0 * recursive::filter_terms(f) + reach * scan;
}

// As recursive-gaussian's: per axis the causal direction, its output stored in the intermediate's
// format, the anticausal direction from the border state; the rows' result stored.
Tolerance tolerance(const BlurSettings& s, glm::ivec2 size, double input_peak) {
  const Filter f = recursive::filter_for(s.kernel.sigma);
  const gl::Format mid = s.intermediate_format();
  ModelErrorBound bound(s.input_format, input_peak);
  for (int axis = 0; axis < 2; ++axis) {
    const int length = axis == 0 ? size.x : size.y;
    const double terms = direction_terms(f, length, block_length(s, length));
    bound.gain(f.l1());
    bound.fp32(terms);  // causal
    bound.store(mid);   // the causal output, held in the intermediate's format
    bound.gain(f.l1());
    bound.fp32(terms + recursive::border_terms(f));  // anticausal, from the right border's state
    if (axis == 0) bound.store(mid);
  }
  return bound.tolerance("recursive filter in blocks, 2 passes");
}

// WxH = blocks per line x neighbouring columns per columns workgroup. W blocks of at most kMaxBlock
// texels hold lines of up to 63 W texels: 128 up to 8064, so from a longer side of 8065 texels the
// default is 256x2 (up to 16128), from 16129 512x1 (up to 32256; past that no workgroup's blocks
// fit in the shared memory of the GPUs measured: refused, with the numbers).
const Knob kWorkgroup{[] {
  Knob k = knobs::workgroup({{128, 4}, {256, 2}, {64, 8}, {512, 1}});
  k.default_by_side = {{128 * kMaxBlock + 1, {256, 2}}, {256 * kMaxBlock + 1, {512, 1}}};
  return k;
}()};

// A block lives in registers: at most kMaxBlock texels.
std::optional<Refusal> check(const BlurSettings& s, glm::ivec2 size, const gl::GlLimits& /*limits*/) {
  const auto text = [](long long v) { return std::to_string(v); };
  for (int axis = 0; axis < 2; ++axis) {
    const Shape w = shape(s, size, axis);
    if (w.block > kMaxBlock)
      return Refusal{Limit::Reach,
                     std::string(axis == 0 ? "a row" : "a column") + " of " + text(axis == 0 ? size.x : size.y) + " texels in " +
                         text(s.workgroup().x) + " blocks (the workgroup's width) needs " + text(w.block) +
                         " texels per invocation, more than the " + text(kMaxBlock) + " held in registers; a --workgroup " +
                         text((static_cast<long long>(axis == 0 ? size.x : size.y) + kMaxBlock - 1) / kMaxBlock) + " or more wide holds it",
                     static_cast<double>(w.block), static_cast<double>(kMaxBlock)};
  }
  return std::nullopt;
}

// The scan's block states, three vec4 per block (at most W x H blocks: the columns'); a rows
// workgroup's W blocks and its staging.
SharedMemory shared_memory(const BlurSettings& s) {
  const glm::ivec2 wg = s.workgroup();
  const long long columns = 48LL * wg.x * wg.y, rows = 48LL * wg.x + staging_bytes(s);
  return {std::max(columns, rows), columns >= rows ? std::to_string(wg.y) + "x" + std::to_string(wg.x) + " block states of 3 vec4"
                                                   : std::to_string(wg.x) + " block states of 3 vec4 and " + kib_text(static_cast<double>(staging_bytes(s))) +
                                                         " of a row's texels"};
}

// Per invocation: the rows' staging rounds, four passes over the block (zero state and refilter,
// both ways), two scans.
double loop_iterations(const BlurSettings& s, glm::ivec2 size) {
  const Shape rows = shape(s, size, 0), columns = shape(s, size, 1);
  const double rounds = std::ceil(static_cast<double>(size.x) / round_texels(s, size.x, wider(s.input_format, s.intermediate_format())));
  return 6.0 * std::max(rows.block, columns.block) + 2.0 * scan_steps(std::max(rows.blocks, columns.blocks)) + 4.0 * rounds;
}

// Two passes, each line read once and written once; per texel and axis the filter's 5 FMAs a
// channel in four sweeps (zero state and refilter, both ways).
WorkBound own_bound(const BlurSettings& s, glm::ivec2 size) {
  WorkBound b = sliding::two_pass_bound(s, size);
  b.fmas = 2.0 * 4.0 * 5.0 * 4.0 * size.x * size.y;
  return b;
}

}  // namespace

namespace variant {
extern const VariantInfo recursive_gaussian_blocks{
    .name = "recursive-gaussian-blocks",
    .stage = Stage::Compute,
    .family = Family::Recursive,
    .summary = "approximate Gaussian: recursive-gaussian's filter, each line split into blocks filtered in parallel, "
               "their states carried by a scan (Nehab et al. 2011); cost independent of sigma",
    .role = Role::Approximation,
    .kernels = KernelSupport::GaussOnly,
    .uses_intermediate = true,
    // As recursive-gaussian: the rows' output feeds a recursion, 8 bits would cost more than a step.
    .default_intermediate = gl::Format::rgba16f,
    .max_radius = kMaxRadius,  // a recursion of the same few taps at every sigma
    .knobs = {kWorkgroup},
    .refused_borders = recursive::refused_borders(),
    .loop_iterations = loop_iterations,
    .shared_memory = shared_memory,
    .transposed_workgroup = true,  // the columns' pass: lines x blocks
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new RecursiveGaussianBlocks); },
    .approximation = {.choose = recursive::choose, .model = model_blur, .tolerance = tolerance},
    .own_bound = own_bound,
};
}  // namespace variant
}  // namespace blurlab
