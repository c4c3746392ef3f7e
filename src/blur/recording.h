#pragma once
// One run of a variant written down pass by pass as GL sees it (BlurPipeline::record()): the
// programs with their defines, the textures, bindings, barriers and dispatches. What --export
// turns into self-contained shaders and a recipe (src/export/export.h).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "blur/blur.h"
#include "blur/border.h"
#include "blur/kernel.h"

namespace blurlab {

struct RecordedProgram {
  std::vector<gl::ShaderFile> files;  // glsl/ files, one per stage
  gl::Defines defines;                // as the pipeline gave them (RADIUS, knobs, formats, ...)
  // The weights block a blur variant's program reads (BlurPipeline's KernelBlock), which an export
  // bakes into it as constants: the border's constant value for every program of a blur, and the
  // taps of `kernel` where the variant blurs with them (uses_kernel_weights: an exact blur; an
  // approximation's passes use values of their own). Each program carries its own: the blur stages
  // of an effect blur by different kernels (a PSF's terms). None for an effect's own programs.
  std::optional<Border> border;
  std::optional<Kernel> kernel;
};

struct RecordedTexture {
  // "source", "destination", "intermediate0", "radius_levels", ...; in an effect's recording also
  // "depth", the effect's own ("bloom_term_1") and its blur stages' ("blur1_intermediate0"): unique,
  // and safe as a file name (a data file is NAME.bin).
  std::string name;
  gl::Format format;
  glm::ivec2 size;
  // A texture the pipeline fills from the CPU (a variable-radius variant's levels and weights,
  // BlurPasses::radius_levels(), which the passes only read), or an effect's frame that its passes
  // read and no pass makes (the HDR frame, its depth): its texels as stored
  // (Texture::download_texels), which a recipe must carry. Empty for the others.
  std::vector<uint8_t> contents;
  // The counters of BlurPasses::counters(): zeros when made, and the passes leave them zero, so a
  // recipe clears them once rather than carrying a file of zeros.
  bool zeros = false;
  // Its size is the same at every image size (BlurPasses::fixed_intermediate).
  bool fixed_size = false;
};

// The names of a variable-radius variant's levels and weights textures (BlurPasses::radius_levels(),
// level_weights()) in a recording, and in an export's recipe and data files.
inline constexpr std::string_view kLevelsTexture = "radius_levels";
inline constexpr std::string_view kLevelWeightsTexture = "level_weights";
// The counters of BlurPasses::counters(): zeros a recipe clears once (RecordedTexture::zeros).
inline constexpr std::string_view kCountersTexture = "counters";

struct RecordedBinding {
  Binding::Kind kind;
  GLuint unit;
  bool raw;        // bound with the format's raw (unsigned-integer) image format
  size_t texture;  // index into Recording::textures
};

struct RecordedPass {
  std::string name;  // the timing span: "h", "v", "blur", ...
  Stage stage;
  RecordedProgram program;
  std::vector<RecordedBinding> bindings;
  GLbitfield barriers_before = 0;  // glMemoryBarrier bits the pipeline issued before this pass
  DispatchGrid grid{{0, 0, 0}};    // compute passes
  std::optional<glm::vec4> pass_values;  // the pass's u_pass (BlurPasses::dispatch), if it sets one
  size_t target = 0;               // fragment passes: the texture drawn into (a fullscreen triangle)
};

struct Recording {
  std::vector<RecordedTexture> textures;  // source and destination first
  std::vector<RecordedPass> passes;
};

}  // namespace blurlab
