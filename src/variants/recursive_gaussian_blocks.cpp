// recursive-gaussian-blocks: recursive-gaussian's filter (variants/recursive.h: the same rounded
// coefficients, the same clamp-to-edge border states, so the same fidelity), block parallel after
// Nehab, Maximo, Lima and Hoppe ("GPU-efficient recursive filtering and summed-area tables", 2011).
// One invocation per line is latency bound on a big GPU (4096 lines for 100k+ invocations); here a
// line is split into BLOCKS blocks of BLOCK = ceil(length / BLOCKS) texels, one invocation each,
// BLOCKS x LINES invocations per workgroup (the workgroup knob, WxH = blocks x lines). Per direction
// (causal forwards, then anticausal backwards), in glsl/recursive_gaussian_blocks.comp:
//   1. each block is filtered from a zero state (the first block from the line's true start state),
//      giving its end state f_k (3 components: the sections' u, v[n], v[n-1]);
//   2. the end states are scanned across the line in shared memory: s_k = A s_k-1 + f_k, with A the
//      zero-input transition over one block (A1^BLOCK, A1 the one-step transition), by Hillis and
//      Steele's scan: ceil(log2 BLOCKS) steps, step i adding A^(2^i) times the state 2^i blocks away
//      (the powers computed on the host in double, baked in as float constants); a serial scan would
//      take BLOCKS dependent steps;
//   3. each block is filtered again from its true initial state (the previous block's scanned end).
// The block stays in registers from the loads to the stores (the causal output replaces the input),
// so no scratch image and no rounding point between the directions, and the line is read once and
// written once per axis, as by a separable pass. The anticausal pass starts from the right border's
// state (M applied to the true causal state at the line's end) in the block holding the end; blocks
// past the line's end hold zeros, which add nothing to the scan, so a line of any length up to
// BLOCKS x BLOCK runs without a special case. Rows, then columns; the columns' workgroups take
// LINES neighbouring columns along x, so neighbouring invocations load neighbouring texels of a row.
//
// Rounding points: the rows' result is stored in the intermediate format, the columns' in the
// output. The CPU model runs the same blocks, scans and refilters in double precision.
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

// The block lives in registers (vec4 x[BLOCK]): 32 vec4 are 128 of the 255 registers an NVIDIA
// invocation may hold, leaving room for the states before they spill to memory.
constexpr int kMaxBlock = 32;

int blocks_per_line(const BlurSettings& s) { return s.workgroup().x; }
int block_length(int length, int blocks) { return (length + blocks - 1) / blocks; }
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

class RecursiveGaussianBlocks final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    const Filter f = recursive::filter_for(s.kernel.sigma);
    const gl::Format io = s.input_format, mid = s.intermediate_format();
    const int blocks = blocks_per_line(s);
    auto defines = [&](int axis) {
      const int length = axis == 0 ? setup.size().x : setup.size().y, block = block_length(length, blocks);
      std::string carry;
      for (const Matrix3& a : carries(f, block, blocks))
        for (double v : a) carry += (carry.empty() ? "" : ", ") + recursive::literal(v);
      if (carry.empty()) carry = "0, 0, 0, 0, 0, 0, 0, 0, 0";  // one block per line: no scan step reads it
      gl::Defines d = recursive::filter_defines(f);
      d.insert(d.end(), {{"AXIS", std::to_string(axis)},
                         {"BLOCK", std::to_string(block)},
                         {"SCAN_STEPS", std::to_string(scan_steps(blocks))},
                         {"RG_CARRY", carry}});
      return d;
    };
    rows_ = &setup.compute("recursive_gaussian_blocks.comp", io, mid, defines(0));
    columns_ = &setup.compute("recursive_gaussian_blocks.comp", mid, io, defines(1));
  }

  // Rows from the source into intermediate 0, columns from there into the destination; one
  // workgroup per LINES lines.
  void run(BlurPasses& passes) override {
    const glm::ivec2 size = passes.size(), wg = passes.settings().workgroup();
    const gl::Texture& rows = passes.intermediate(0);
    passes.dispatch("h", *rows_, {Binding::read(passes.source()), Binding::write(rows)},
                    sliding::flat_groups(size.y, {wg.y, 1}, "H"));
    passes.dispatch("v", *columns_, {Binding::read(rows), Binding::write(passes.destination())},
                    sliding::flat_groups(size.x, {wg.y, 1}, "W"));
  }

 private:
  const gl::Program* rows_ = nullptr;
  const gl::Program* columns_ = nullptr;
};

// One axis of the model, as the shader runs it, in double: blocks of BLOCK texels filtered from
// zero states, the Hillis-Steele scan of their end states (with the exact powers of A: the GPU's
// float carries are counted by the tolerance), the blocks filtered again from their true states.
// In double the result does not depend on the number of blocks beyond 1e-15 (the blocked filter is
// the serial one, reassociated), so one model serves every workgroup knob.
ReferenceImage model_axis(const ReferenceImage& in, int axis, const Filter& f, int blocks) {
  using State = std::array<double, 3>;
  ReferenceImage out = model::blank(in.width, in.height);
  const int lines = axis == 0 ? in.height : in.width, length = axis == 0 ? in.width : in.height;
  const int block = block_length(length, blocks), used = block_length(length, block);  // blocks holding texels
  const std::vector<Matrix3> carry = carries(f, block, blocks);
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
            x[static_cast<size_t>(i)] = s[1];
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
  ReferenceImage rows = model_axis(model::from_image(input), 0, f, blocks_per_line(s));
  model::store(rows, mid);
  return model_axis(rows, 1, f, blocks_per_line(s));
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
double direction_terms(const Filter& f, int length, int blocks) {
  const int block = block_length(length, blocks);
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

Tolerance tolerance(const BlurSettings& s, glm::ivec2 size, double input_peak) {
  const Filter f = recursive::filter_for(s.kernel.sigma);
  const gl::Format mid = s.intermediate_format();
  ModelErrorBound bound(s.input_format, input_peak);
  for (int axis = 0; axis < 2; ++axis) {
    const double terms = direction_terms(f, axis == 0 ? size.x : size.y, blocks_per_line(s));
    bound.gain(f.l1());
    bound.fp32(terms);  // causal
    bound.gain(f.l1());
    bound.fp32(terms + recursive::border_terms(f));  // anticausal, from the right border's state
    if (axis == 0) bound.store(mid);
  }
  return bound.tolerance("recursive filter in blocks, 2 passes");
}

// A line's blocks in registers (kMaxBlock texels each) and the scan's states in shared memory.
std::optional<Refusal> check(const BlurSettings& s, glm::ivec2 size, const gl::GlLimits& /*limits*/) {
  const glm::ivec2 wg = s.workgroup();
  const int longest = std::max(size.x, size.y), block = block_length(longest, wg.x);
  const auto text = [](int v) { return std::to_string(v); };
  if (block > kMaxBlock)
    return Refusal{Limit::Reach,
                   "a line of " + text(longest) + " texels in " + text(wg.x) + " blocks (workgroup width) needs " + text(block) +
                       " texels per invocation, more than the " + text(kMaxBlock) + " held in registers (a wider workgroup takes up to " +
                       text(kMaxBlock) + " x width)",
                   static_cast<double>(block), static_cast<double>(kMaxBlock)};
  return std::nullopt;
}

// The scan's block states: three vec4 per block.
SharedMemory shared_memory(const BlurSettings& s) {
  const glm::ivec2 wg = s.workgroup();
  return {48LL * wg.x * wg.y, std::to_string(wg.x) + "x" + std::to_string(wg.y) + " block states of 3 vec4"};
}

// Per invocation: BLOCK loads, four passes over the block (zero state and refilter, both ways), two
// scans.
double loop_iterations(const BlurSettings& s, glm::ivec2 size) {
  const int blocks = blocks_per_line(s);
  return 5.0 * block_length(std::max(size.x, size.y), blocks) + 2.0 * scan_steps(blocks);
}

}  // namespace

namespace variant {
extern const VariantInfo recursive_gaussian_blocks{
    .name = "recursive-gaussian-blocks",
    .stage = Stage::Compute,
    .summary = "approximate Gaussian: recursive-gaussian's filter, each line split into blocks filtered in parallel, "
               "their states carried by a scan (Nehab et al. 2011); cost independent of sigma",
    .role = Role::Approximation,
    .kernels = KernelSupport::GaussOnly,
    .uses_intermediate = true,
    // As recursive-gaussian: the rows' output feeds a recursion, 8 bits would cost more than a step.
    .default_intermediate = gl::Format::rgba16f,
    // WxH = blocks per line x lines per workgroup.
    .knobs = {knobs::workgroup({{128, 2}, {256, 1}, {512, 1}, {64, 4}, {32, 8}})},
    .refused_borders = recursive::refused_borders(),
    .loop_iterations = loop_iterations,
    .shared_memory = shared_memory,
    .transposed_workgroup = true,  // the columns' pass: lines x blocks
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new RecursiveGaussianBlocks); },
    .approximation = {.choose = recursive::choose, .model = model_blur, .tolerance = tolerance},
};
}  // namespace variant
}  // namespace blurlab
