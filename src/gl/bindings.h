#pragma once
// Every binding point a blurlab shader declares, named once. A shader says
// `layout(rgba8, binding = BINDING_LEVELS)`, never a bare number, and the host binds
// gl::Unit::Levels: both read the number from kUnits, so they cannot drift apart. The shader
// preamble (gl::expand_source, src/gl/shader.cpp) defines BINDING_<NAME> for every unit, so every
// expansion has them: the programs the cache compiles, the shaders --export writes and those the
// GLSL tests validate.
//
// Units of different kinds share numbers (GL counts image units, texture units, uniform and
// storage buffer bindings apart), and one pass's scratch units may reuse another's: the causal
// state, the spectrum and the radius levels are all image unit 2, never in the same pass.
#include <array>
#include <string>
#include <string_view>

#include "gl/gl.h"

namespace blurlab::gl {

enum class Unit {
  Source,        // a pass's input: image unit or texture unit (source_image.glsl, source_sampler.glsl)
  Target,        // a compute pass's output image (target_image.glsl)
  Causal,        // recursive_gaussian.comp: the causal pass's state, read back by the anticausal one
  Spectrum,      // fft.comp: the kernel's spectrum
  Levels,        // variable radius: each pixel's level (variable_common.glsl)
  LevelWeights,  // variable radius: every level's weights
  Scratch,       // variable_layers.comp: the row-blurred image
  Layer,         // variable_layers.comp: the layer a column pass writes
  Layer1,        // variable_layers.comp: the blend pass's four layers
  Layer2,
  Layer3,
  Layer4,
  Atlas,         // variable_pyramid.comp: the pyramid's levels side by side
  SatLo,         // variable_sat.comp: the summed-area table's low words
  SatHi,         //   and its high words (float input)
  DownLevels,    // dual_kawase.comp: the fused down chain's levels below the last, side by side
  Counters,      // dual_kawase.comp: each tile's count of finished children (r32ui, as AMD's SPD)
  PresentImage,  // present.frag: the image shown
  PresentOther,  // present.frag: what it is compared with
  KernelWeights, // blur_common.glsl: the weights uniform block (BlurPipeline's KernelBlock)
  BufferSource,  // roofline_ssbo_copy.comp: the buffer copied
  BufferTarget,  //   and the buffer copied into
  Sink,          // roofline_fma.comp, roofline_bilinear.comp: results kept so nothing is optimised away
  RooflineTexture,  // roofline_bilinear.comp: the texture fetched
  Stage1,        // an effect pass's further sampled inputs: earlier stages' outputs (bloom's terms)
  Stage2,
  Stage3,
  Stage4,
  Stage5,
  Stage6,
  Image2,        // an effect pass's further images (depth of field's fields, tiles and tables)
  Image3,
  Image4,
  Image5,
};

// Which of GL's binding namespaces a unit lives in; Source is both an image and a texture unit.
enum UnitKinds : unsigned {
  kImageUnit = 1u << 0,
  kTextureUnit = 1u << 1,
  kUniformBuffer = 1u << 2,
  kStorageBuffer = 1u << 3,
};

struct UnitInfo {
  Unit unit;
  std::string_view name;  // the shaders' BINDING_<name>
  GLuint number;
  unsigned kinds;  // UnitKinds
};

// In the order of Unit, so kUnits[i].unit is Unit(i) (unit.bindings.* checks it). The image units
// stay below 8, the least GL 4.3 guarantees (GL_MAX_IMAGE_UNITS).
inline constexpr std::array kUnits = {
    UnitInfo{Unit::Source, "SOURCE", 0, kImageUnit | kTextureUnit},
    UnitInfo{Unit::Target, "TARGET", 1, kImageUnit},
    UnitInfo{Unit::Causal, "CAUSAL", 2, kImageUnit},
    UnitInfo{Unit::Spectrum, "SPECTRUM", 2, kImageUnit},
    UnitInfo{Unit::Levels, "LEVELS", 2, kImageUnit},
    UnitInfo{Unit::LevelWeights, "LEVEL_WEIGHTS", 3, kImageUnit},
    UnitInfo{Unit::Scratch, "SCRATCH", 4, kImageUnit},
    UnitInfo{Unit::Layer, "LAYER", 5, kImageUnit},
    UnitInfo{Unit::Layer1, "LAYER1", 4, kImageUnit},
    UnitInfo{Unit::Layer2, "LAYER2", 5, kImageUnit},
    UnitInfo{Unit::Layer3, "LAYER3", 6, kImageUnit},
    UnitInfo{Unit::Layer4, "LAYER4", 7, kImageUnit},
    UnitInfo{Unit::Atlas, "ATLAS", 4, kImageUnit},
    UnitInfo{Unit::SatLo, "SAT_LO", 4, kImageUnit},
    UnitInfo{Unit::SatHi, "SAT_HI", 5, kImageUnit},
    UnitInfo{Unit::DownLevels, "DOWN_LEVELS", 2, kImageUnit},
    UnitInfo{Unit::Counters, "COUNTERS", 3, kImageUnit},
    UnitInfo{Unit::PresentImage, "PRESENT_IMAGE", 0, kTextureUnit},
    UnitInfo{Unit::PresentOther, "PRESENT_OTHER", 1, kTextureUnit},
    UnitInfo{Unit::KernelWeights, "KERNEL_WEIGHTS", 0, kUniformBuffer},
    UnitInfo{Unit::BufferSource, "BUFFER_SOURCE", 0, kStorageBuffer},
    UnitInfo{Unit::BufferTarget, "BUFFER_TARGET", 1, kStorageBuffer},
    UnitInfo{Unit::Sink, "SINK", 0, kStorageBuffer},
    UnitInfo{Unit::RooflineTexture, "ROOFLINE_TEXTURE", 0, kTextureUnit},
    UnitInfo{Unit::Stage1, "STAGE1", 1, kTextureUnit},
    UnitInfo{Unit::Stage2, "STAGE2", 2, kTextureUnit},
    UnitInfo{Unit::Stage3, "STAGE3", 3, kTextureUnit},
    UnitInfo{Unit::Stage4, "STAGE4", 4, kTextureUnit},
    UnitInfo{Unit::Stage5, "STAGE5", 5, kTextureUnit},
    UnitInfo{Unit::Stage6, "STAGE6", 6, kTextureUnit},
    UnitInfo{Unit::Image2, "IMAGE2", 2, kImageUnit},
    UnitInfo{Unit::Image3, "IMAGE3", 3, kImageUnit},
    UnitInfo{Unit::Image4, "IMAGE4", 4, kImageUnit},
    UnitInfo{Unit::Image5, "IMAGE5", 5, kImageUnit},
};

constexpr const UnitInfo& unit_info(Unit u) { return kUnits[static_cast<size_t>(u)]; }
constexpr GLuint unit_number(Unit u) { return unit_info(u).number; }

// "#define BINDING_SOURCE 0\n..." for every unit: the shader preamble's part.
std::string binding_defines();

}  // namespace blurlab::gl
