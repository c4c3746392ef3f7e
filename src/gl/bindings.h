#pragma once
// The binding units blurlab shaders declare, each named once. A shader says
// `layout(rgba8, binding = BINDING_SOURCE)`, never a bare number, and the host binds
// gl::Unit::Source: both read the number from one table, so they cannot drift apart.
//
// Two kinds of table. kUnits, here, holds the generic units any owner of programs may bind: a
// pass's source and target, the variable radius's levels and weights, the weights block, the
// present pass's images, an effect pass's further stages and images. A variant (or an effect
// implementation, or the roofline) that needs units of its own declares them in its own file as
// its slots, a constexpr std::array of NamedUnit, and its programs get them as defines
// (slot_defines(): the blur pipeline adds a variant's VariantInfo::slots, fft-2d and the roofline
// add theirs). The shader preamble (gl::expand_source, src/gl/shader.cpp) defines BINDING_<NAME>
// for every generic unit, then the caller's defines, the owner's slots among them: so the programs
// the cache compiles, the shaders --export writes and those the GLSL tests validate all carry the
// numbers.
//
// Units of different kinds share numbers (GL counts image units, texture units, uniform and
// storage buffer bindings apart), and one owner's slots may reuse another owner's numbers, or a
// generic unit's that its passes do not bind. What holds: one owner's slots differ from each
// other in kind or number and from every generic unit in name (unit.Bindings.*), and no pass binds
// two textures to one number of one kind (PassRunner::bind refuses it).
#include <array>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gl/gl.h"

namespace blurlab::gl {

// Which of GL's binding namespaces a unit lives in; Source is both an image and a texture unit.
enum UnitKinds : unsigned {
  kImageUnit = 1u << 0,
  kTextureUnit = 1u << 1,
  kUniformBuffer = 1u << 2,
  kStorageBuffer = 1u << 3,
};

enum class Unit {
  Source,        // a pass's input: image unit or texture unit (source_image.glsl, source_sampler.glsl)
  Target,        // a compute pass's output image (target_image.glsl)
  Levels,        // variable radius: each pixel's level (variable_common.glsl, BlurPasses::radius_levels)
  LevelWeights,  // variable radius: every level's weights (BlurPasses::level_weights)
  PresentImage,  // present.frag: the image shown
  PresentOther,  // present.frag: what it is compared with
  KernelWeights, // blur_common.glsl: the weights uniform block (BlurPipeline's KernelBlock)
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
    UnitInfo{Unit::Levels, "LEVELS", 2, kImageUnit},
    UnitInfo{Unit::LevelWeights, "LEVEL_WEIGHTS", 3, kImageUnit},
    UnitInfo{Unit::PresentImage, "PRESENT_IMAGE", 0, kTextureUnit},
    UnitInfo{Unit::PresentOther, "PRESENT_OTHER", 1, kTextureUnit},
    UnitInfo{Unit::KernelWeights, "KERNEL_WEIGHTS", 0, kUniformBuffer},
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

// A unit a pass binds: a generic one (it converts from gl::Unit) or one of its owner's slots,
// declared as `constexpr gl::NamedUnit kSpectrum{"SPECTRUM", 2, gl::kImageUnit};`. No number
// converts to one.
struct NamedUnit {
  std::string_view name;  // the shaders' BINDING_<name>
  GLuint number = 0;
  unsigned kinds = 0;  // UnitKinds
  constexpr NamedUnit(std::string_view unit_name, GLuint unit_number, unsigned unit_kinds)
      : name(unit_name), number(unit_number), kinds(unit_kinds) {}
  constexpr NamedUnit(Unit generic)  // NOLINT: implicit, a pass names a generic unit and a slot alike
      : NamedUnit(unit_info(generic).name, unit_info(generic).number, unit_info(generic).kinds) {}
};

// "#define BINDING_SOURCE 0\n..." for every generic unit: the shader preamble's part.
std::string binding_defines();
// {"BINDING_SPECTRUM", "2"} for each of an owner's slots: the defines its programs get.
std::vector<std::pair<std::string, std::string>> slot_defines(std::span<const NamedUnit> slots);

}  // namespace blurlab::gl
