// compute-sliding-subgroup: compute-sliding's two passes of running sums (rows into the
// intermediate, then columns), with the row pass walked by groups of 32 invocations: each step
// the group loads 32 consecutive entering texels and 32 leaving ones (cache hits: the group read
// them 2r + 1 texels earlier), prefix-sums the 32 changes across its lanes and adds the carry, so
// every access of the pass is coalesced and nothing is staged in shared memory (the box walks of
// compute-sliding-tiles stage tiles there and stay at about one workgroup per SM). The prefix sum
// is a subgroup scan (GL_KHR_shader_subgroup_arithmetic) or its portable twin in shared memory.
// The column pass is compute-sliding's (one invocation per column segment, adjacent invocations on
// adjacent columns) with its own segment. See glsl/compute_sliding_subgroup.comp.
#include <cmath>
#include <string_view>
#include <utility>
#include <vector>

#include "variants/sliding.h"

namespace blurlab {
namespace {

constexpr int kLanes = 32;  // invocations walking one row segment (an NVIDIA warp)

// A walk's length along a line, in texels, after its warm-up: ROW_WALK for the rows' groups of 32,
// COLUMN_WALK for the columns' invocations.
// (A Knob's strings are views: name, define and help are literals.)
Knob walk_knob(std::string_view name, std::string_view define, std::string_view help, std::vector<int> candidates) {
  return {.name = name, .help = help, .define = define, .min = 1, .max = 16384, .candidates = integer_values(std::move(candidates))};
}
// 512 texels (16 steps of 32) give 1080 x 4 = 4320 walkers at 1080p (about 33 an SM of a GPU with
// 132) while the warm-up (ceil((2r + 1) / 32) loads a lane, at most 9) stays at most 28% of a
// walk's 32 loads a lane: the row pass is flat in r, as designed (docs/PERFORMANCE.md, box blurs).
const Knob kRowWalk = walk_knob("row-walk", "ROW_WALK",
                                "Sliding subgroup: texels a group of 32 invocations walks along a row after its warm-up "
                                "(more walkers for small images, or fewer warm-ups)",
                                {512, 256, 1024, 128});
// 64 rows keep 1920 x 17 = 32640 column walkers at 1080p; the warm-up (2r + 1 reads) is 5% of the
// walk's reads at r = 1, 2x at r = 64. 256 rows made r = 128 faster at 4096^2 but slower at 1080p
// (fewer walkers), so 64 stays (docs/EXPERIMENTS.md).
const Knob kColumnWalk = walk_knob("column-walk", "COLUMN_WALK",
                                   "Sliding subgroup: rows one invocation walks down a column after its 2r + 1 warm-up reads "
                                   "(more invocations, or fewer warm-up reads)",
                                   {64, 32, 128, 256});
// The candidates are what --tune tries; walks of odd lengths (a partial last step, several walks a
// line both ways) run in tests/gl/test_variants.cpp (BoxWalks.SubgroupWalksSeveralSegmentsPerLine).
// 4 steps' loads (8 per lane) in flight per group; the shared scan stores UNROLL words a lane.
// 8 made the row pass several times slower (registers; docs/EXPERIMENTS.md).
const Knob kUnroll = sliding::unroll_knob({4, 1, 2, 8});
// shared by default: llvmpipe has no subgroup arithmetic (like compute-box-blocked); on a GPU
// with 32-lane subgroups, --scan subgroup is the form this variant is built for.
const Knob kScan = sliding::scan_knob();

int row_walk(const BlurSettings& s) { return s.integer(kRowWalk); }
int column_walk(const BlurSettings& s) { return s.integer(kColumnWalk); }
bool subgroup(const BlurSettings& s) { return s.knob(knobs::kScan).x == 1; }

class ComputeSlidingSubgroup final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    programs_ = sliding::rows_then_columns(setup, "compute_sliding_subgroup.comp", setup.settings().intermediate_format());
  }
  void run(BlurPasses& passes) override {
    const BlurSettings& s = passes.settings();
    const glm::ivec2 size = passes.size(), group = s.workgroup();
    const gl::Texture& rows = passes.intermediate(0);
    const int rw = row_walk(s), cw = column_walk(s);
    // Rows: 32 invocations per segment of rw texels of each row.
    const long long walkers = static_cast<long long>(size.y) * ((size.x + rw - 1) / rw);
    // rgba8 rows read the source as its bits (SOURCE_RAW in the shader).
    const Binding source = s.input_format == gl::Format::rgba8 ? Binding::read_raw(passes.source()) : Binding::read(passes.source());
    passes.dispatch("h", *programs_.rows, {source, Binding::write(rows)},
                    sliding::flat_groups(kLanes * walkers, group, "32 * H * ceil(W / " + std::to_string(rw) + ")"));
    // Columns: one invocation per segment of cw texels of each column.
    const long long columns = static_cast<long long>(size.x) * ((size.y + cw - 1) / cw);
    passes.dispatch("v", *programs_.columns, {Binding::read(rows), Binding::write(passes.destination())},
                    sliding::flat_groups(columns, group, "W * ceil(H / " + std::to_string(cw) + ")"));
  }

 private:
  sliding::RowsThenColumns programs_;
};

std::optional<Refusal> check(const BlurSettings& s, glm::ivec2 /*size*/, const gl::GlLimits& limits) {
  const glm::ivec2 g = s.workgroup();
  const int n = g.x * g.y;
  if (n % kLanes != 0)
    return Refusal{Limit::Knobs,
                   "workgroup " + std::to_string(g.x) + "x" + std::to_string(g.y) + " (" + std::to_string(n) +
                       " invocations) is not whole groups of 32 (each walks a row segment)",
                   static_cast<double>(n), static_cast<double>(kLanes)};
  if (subgroup(s) && limits.subgroup_arithmetic && limits.subgroup_size != kLanes)
    return Refusal{Limit::Knobs,
                   "scan=subgroup scans the 32 lanes of a row walk in one subgroup; this device's subgroups have " +
                       std::to_string(limits.subgroup_size) + " invocations (use --scan shared)",
                   static_cast<double>(kLanes), static_cast<double>(limits.subgroup_size)};
  return std::nullopt;
}

// The shared scan's words: UNROLL per invocation (two uints packed for rgba8, a vec4 for float).
SharedMemory shared_memory(const BlurSettings& s) {
  if (subgroup(s)) return {0, "none: the scan runs in subgroups"};
  const long long n = static_cast<long long>(s.workgroup().x) * s.workgroup().y, unroll = s.integer(kUnroll);
  const long long word = s.input_format == gl::Format::rgba8 ? 8 : 16;
  return {unroll * n * word, std::to_string(unroll) + " scan values per invocation"};
}

// Float input. Units of 2^-24 times the input peak once normalized (sliding::slide_terms); a
// rounding of a value of up to k peaks is k / (2r + 1) units. Rows, over a walk of n texels in
// ceil(n / 32) steps: the warm-up (2r additions of partial window sums), each texel's change
// (2 / (2r + 1)), each step's scan (any order of adding 32 changes: 31 roundings of values up to
// 32 peaks) and carry (1), and the output's own prefix and addition. Columns: compute-sliding's
// slide over a walk. Then the weights.
double terms(const BlurSettings& s, glm::ivec2 size) {
  const double r = s.kernel.radius, window = 2.0 * r + 1.0;
  const double n = sliding::segment_steps(row_walk(s), size.x), steps = std::ceil(n / kLanes);
  const double scan = 31.0 * kLanes / window + 1.0;
  const double rows = 2.0 * r + 2.0 * n / window + (steps + 1.0) * scan;
  return rows + sliding::slide_terms(s.kernel.radius, sliding::segment_steps(column_walk(s), size.y)) + 2 * sliding::kScaleTerms;
}

}  // namespace

namespace variant {
extern const VariantInfo compute_sliding_subgroup{
    .name = "compute-sliding-subgroup",
    .stage = Stage::Compute,
    .family = Family::RunningSums,
    .summary = "box only: running sums along rows walked by 32 invocations with a prefix sum per step, then columns",
    .kernels = KernelSupport::BoxOnly,
    .uses_intermediate = true,
    // 128 invocations: 4 row walkers a workgroup, 1080p's 4320 walkers in 1080 workgroups.
    .knobs = {knobs::workgroup({{128, 1}, {32, 1}, {64, 1}, {256, 1}}), kRowWalk, kColumnWalk, kUnroll, kScan},
    .accumulated_terms = terms,
    .shared_memory = shared_memory,
    .extension = sliding::scan_extension,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new ComputeSlidingSubgroup); },
    .own_bound = sliding::two_pass_bound,
};
}  // namespace variant
}  // namespace blurlab
