#pragma once
// Shared by compute-sliding-tiles (one box per axis) and box-iterated (three boxes per axis): a
// cascade of box blurs along lines in one pass per axis, from tiles in shared memory
// (glsl/box_walk.glsl): the cascade's taps and weights, the tile's shape, the shader's defines,
// the dispatch, the limits, the fp32 error of float sums and the pass's own bound.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "blur/blur.h"

namespace blurlab::box_walk {

// Boxes of these radii, one after another along a line: the kernel K = B_1 * ... * B_n.
struct Cascade {
  std::vector<int> radii;

  int order() const { return static_cast<int>(radii.size()); }
  int reach() const;      // R: the sum of the radii
  long long sum() const;  // W: the kernel's sum, prod (2 r + 1)
  // K at offsets -R .. R (integers: the number of ways to reach each offset).
  std::vector<long long> kernel() const;
  // The n-th difference of K, prod (z^r - z^(-r-1)): (offset, coefficient), equal offsets merged.
  std::vector<std::pair<int, int>> taps() const;
  // K, its first and its second difference (D1 K[j] = K[j] - K[j+1]) at offsets -R - 2 .. R: the
  // weights of the state (y, D1 y, D2 y) of three boxes (glsl/box_walk.glsl).
  std::vector<long long> state_weights() const;
};

// Texels one invocation walks after computing its own start; 0 chooses it (tile()).
Knob chunk_knob(std::vector<int> candidates);

// Chunks one invocation walks side by side (independent recursions in flight); 0 chooses (tile()).
Knob chains_knob(std::vector<int> candidates);

// One pass's tile: `lines` lines (the neighbouring columns of a 32-byte sector: 8 of rgba8, 4 of
// rgba16f, 2 of rgba32f; or 1 row) by `chunks` x `chains` chunks of `chunk` outputs; one invocation
// per `chains` chunks of a line (chunks c, c + chunks, ...), the workgroup knob's N = lines x chunks.
struct Tile {
  int axis = 0;
  int lines = 1, chunks = 1, chunk = 1, chains = 1;
  int extent = 0;          // positions per line: the segment and its apron
  int segments = 1;        // along a line
  int groups = 1;          // across lines
  long long shared_bytes = 0;
  bool raw_source = true;  // the tile holds the source's bits (the source bound raw)
  int segment() const { return chunks * chains * chunk; }
};

// The tile of the pass along `axis` from a `src` texture into a `dst` one of an image of `size`.
// Explicit chains and chunk knobs are taken as they are. Chains 0 takes 4 or 2 chunks per invocation
// where a tile of chunks of shortest_chunk() fits kTileBudget, else 1. Chunk 0 takes the longest odd
// chunk whose tile fits kTileBudget (odd, so that a warp's chunks read distinct banks), shortened
// (not below shortest_chunk()) until the pass has kFillGroups workgroups, then evens the segments
// out over the line with chunks no longer than that.
constexpr long long kTileBudget = 24 * 1024;
constexpr int kFillGroups = 132 * 8;  // a large GPU's 132 SMs, 8 workgroups each
constexpr int kShortestChunk = 15;
// The shortest chunk chosen by default: the start's texels over the chunk stay below about half of
// the walk's work.
int shortest_chunk(const Cascade& cascade);
Tile tile(const BlurSettings& s, glm::ivec2 size, int axis, const Cascade& cascade, gl::Format src, gl::Format dst);
// The two passes of a variant: the rows from the source into the intermediate, the columns back.
struct Passes {
  Tile rows, columns;
};
Passes passes(const BlurSettings& s, glm::ivec2 size, const Cascade& cascade);

// A variant's blur: `file` (a shader that includes box_walk.glsl) run by the two passes of the
// cascade its settings ask for.
class TwoPasses final : public Blur {
 public:
  TwoPasses(std::string file, Cascade (*cascade)(const BlurSettings&)) : file_(std::move(file)), cascade_(cascade) {}
  void prepare(BlurSetup& setup) override;
  void run(BlurPasses& passes) override;

 private:
  std::string file_;
  Cascade (*cascade_)(const BlurSettings&);
  Passes tiles_;
  const gl::Program* rows_ = nullptr;
  const gl::Program* columns_ = nullptr;
};

// The larger of the two passes' tiles at their longest chunks (a tile for a shorter line is no
// larger): what a workgroup declares (VariantInfo::shared_memory).
SharedMemory shared_memory(const BlurSettings& s, const Cascade& cascade);

// The shader's defines (besides the knobs'): the cascade, the tile and how texels are held.
// EXACT integer sums for rgba8 input.
gl::Defines defines(const BlurSettings& s, const Tile& t, const Cascade& cascade, gl::Format src);

// EXACT: the fixed-point scale F of a float source (an rgba8 input's float intermediate): the
// largest power of two up to 2^15 with F W + W / 2 below 2^32.
double fixed_scale(const Cascade& cascade);

void dispatch(BlurPasses& passes, std::string_view name, const gl::Program& program, const Tile& t, const gl::Texture& src,
              const gl::Texture& dst);

// Why the passes cannot run: the workgroup's shape, integer sums past 32 bits; nullopt when they can.
std::optional<Refusal> check(const BlurSettings& s, const Cascade& cascade);

// Loop iterations of the longest-running invocation of either pass: the tile's loads, the start,
// the walk.
double loop_iterations(const BlurSettings& s, glm::ivec2 size, const Cascade& cascade);

// Float input: fp32 roundings of one pass's output, in units of 2^-24 of the values' size: the
// start's dot products carried through the chunk's running sums, each step's roundings, the
// scale.
double float_terms(const Cascade& cascade, int chunk);

}  // namespace blurlab::box_walk
