#pragma once
// How much memory a headless run needs for an image of a given size, and how much this machine
// lets it have, so a run that would not fit is refused up front with the numbers instead of being
// killed for memory after minutes (a 16384x16384 run needs about 34 GiB).
#include <cstdint>
#include <optional>
#include <string>

namespace blurlab {

// What a headless run holds. Textures are counted as memory of the process: on llvmpipe they
// are; with a GPU they are counted anyway (the bound then has room to spare).
struct RunMemoryPlan {
  bool image_file = false;           // the image from --image, kept as float RGBA for the run
  uint64_t file_bytes = 0;           // its file, read whole while it is decoded
  int decoder_bytes_per_texel = 0;   // the decoder's own buffers while it runs
  // A texel of the source and destination textures (the largest input format of the sweep): 4 for
  // rgba8, 8 for rgba16f. A number, so the image layer needs nothing of the GL layer.
  int texture_bytes_per_texel = 4;
  size_t kernels = 1;                // kernels (x border modes) of the sweep: one double-precision reference each
  // The largest intermediates a variant of the sweep keeps, per texel of the image (rounded up):
  // one rgba32f texture at most (16), unless a variant declares more (VariantInfo::intermediate_bytes:
  // variable-sat's summed-area table).
  int intermediate_bytes_per_texel = 16;
};

// The program, its shaders and the GL driver, whatever the size: about 90 MiB on llvmpipe.
inline constexpr uint64_t kFixedRunBytes = uint64_t{128} << 20;

struct MemoryEstimate {
  uint64_t bytes = 0;            // kFixedRunBytes plus the larger of decoding and the run
  uint64_t bytes_per_texel = 0;  // of the run
  std::string parts;             // "image 16 + textures 8 + ...", bytes per texel, for messages
};

// Per texel, at the run's peak (the first reference of a group being computed):
//   image 16          the decoded file as float RGBA (none for the scene)
//   textures 2 x B    source and destination: 4 bytes rgba8, 8 rgba16f (the largest input format)
//   intermediate 16   a multi-pass variant's intermediate, at most rgba32f (or what a variant
//                     declares: RunMemoryPlan::intermediate_bytes_per_texel)
//   read-backs 32     the source and the output read back as float RGBA for the check
//   references 32 K   one double RGBA reference per kernel (K kernels), kept for the group
//   reference pass 32 the horizontal pass of the reference being computed
// Measured on llvmpipe (peak RSS less the 90 MiB of a tiny run), 4096x4096 compute-scan with
// --output: 2167 MiB for 2176 estimated (rgba8), 2315 MiB for 2304 (rgba16f).
// The window mode does not load images and is not counted.
MemoryEstimate estimate_run_memory(int width, int height, const RunMemoryPlan& plan);

struct MemoryBound {
  uint64_t bytes = 0;
  std::string source;  // how it was found, e.g. "3/4 of 23.4 GiB of physical memory"
};
// 3/4 of the memory this process can have: physical memory, or less where a cgroup (container)
// limit or RLIMIT_AS / RLIMIT_DATA says so. The quarter left is for the system, the GL driver's
// own copies and what the estimate does not see.
MemoryBound memory_bound();
// The same from given numbers (memory_bound() reads them from the system).
MemoryBound memory_bound_from(uint64_t physical, std::optional<uint64_t> cgroup_limit, std::optional<uint64_t> rlimit);

// What is wrong when a radius map of width x height (seen by its header) would not fit while it is
// decoded: the file, the decoder's buffers, the decoded float RGBA (16 bytes per texel) and the
// map's values (2), with the program's fixed share.
std::optional<std::string> map_memory_problem(int width, int height, uint64_t file_bytes, int decoder_bytes_per_texel,
                                              const MemoryBound& bound);

// What is wrong when the run would not fit, in one sentence for a message: "16384x16384 needs
// about 34.0 GiB (136 bytes per texel: ...), more than the bound of 17.3 GiB (3/4 of ...)".
std::optional<std::string> run_memory_problem(int width, int height, const RunMemoryPlan& plan, const MemoryBound& bound);

}  // namespace blurlab
