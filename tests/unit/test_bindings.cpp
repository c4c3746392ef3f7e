// The binding units (src/gl/bindings.h): the generic table and each owner's slots, which the
// shaders and the passes both name, so a shader's binding and the host's cannot drift apart.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string_view>
#include <type_traits>

#include "bench/roofline.h"
#include "blur/blur.h"
#include "blur/pass_runner.h"
#include "blur/pipeline.h"
#include "blur/registry.h"
#include "effects/bloom.h"
#include "gl/bindings.h"
#include "gl/shader.h"
#include "util/strings.h"

namespace blurlab {
namespace {

TEST(Bindings, TableFollowsTheEnumAndNamesEachUnitOnce) {
  std::set<std::string_view> names;
  for (size_t i = 0; i < gl::kUnits.size(); ++i) {
    const gl::UnitInfo& u = gl::kUnits[i];
    EXPECT_EQ(static_cast<size_t>(u.unit), i) << u.name << " is out of gl::Unit's order";
    EXPECT_TRUE(names.insert(u.name).second) << u.name << " is named twice";
    EXPECT_NE(u.kinds, 0u) << u.name << " is of no kind";
    // GL 4.3 guarantees 8 image units and 16 texture units a stage (GL_MAX_IMAGE_UNITS, ...).
    if (u.kinds & gl::kImageUnit) {
      EXPECT_LT(u.number, 8u) << u.name;
    }
    if (u.kinds & gl::kTextureUnit) {
      EXPECT_LT(u.number, 16u) << u.name;
    }
  }
}

TEST(Bindings, PreambleDefinesEveryUnit) {
  const std::string defines = gl::binding_defines();
  for (const gl::UnitInfo& u : gl::kUnits)
    EXPECT_NE(defines.find("#define BINDING_" + std::string(u.name) + " " + std::to_string(u.number) + "\n"), std::string::npos) << u.name;
}

// Whoever compiles programs with slots of its own: each variant, fft-2d (bloom's 2D FFT) and the
// roofline, with the shader files it compiles.
struct Owner {
  std::string name;
  std::span<const gl::NamedUnit> slots;
  std::set<std::string> files;
};

std::vector<Owner> owners() {
  std::vector<Owner> out;
  for (const VariantInfo* v : variants()) {
    Owner& owner = out.emplace_back(Owner{std::string(v->name), v->slots, {}});
    for (const ProgramSource& p : program_sources(*v, resolve(*v, BlurSettings{}), {64, 64}))
      for (const gl::ShaderFile& f : p.files) owner.files.insert(f.name);
  }
  out.push_back({"fft-2d", bloom::fft2d_slots(), {"effects/bloom_fft2d.comp"}});
  out.push_back({"roofline", bench::roofline_slots(), {"roofline_ssbo_copy.comp", "roofline_fma.comp", "roofline_bilinear.comp"}});
  return out;
}

// What is wrong with one owner's slots, one line each: a name that a generic unit or another slot
// of the owner has, two slots of one kind on one number (a pass binding both would bind one unit
// twice), a slot of no kind or of two, a number past what GL 4.3 guarantees a stage.
std::vector<std::string> slot_problems(std::span<const gl::NamedUnit> slots) {
  std::vector<std::string> problems;
  std::set<std::string_view> names;
  for (const gl::UnitInfo& u : gl::kUnits) names.insert(u.name);
  std::map<std::pair<unsigned, GLuint>, std::string_view> taken;
  for (const gl::NamedUnit& slot : slots) {
    const std::string name(slot.name);
    if (!names.insert(slot.name).second) problems.push_back(name + ": the name of a generic unit or of another slot");
    if (slot.kinds == 0 || (slot.kinds & (slot.kinds - 1)) != 0) problems.push_back(name + ": not of exactly one kind");
    const auto [at, fresh] = taken.insert({{slot.kinds, slot.number}, slot.name});
    if (!fresh) problems.push_back(name + ": the kind and number of " + std::string(at->second));
    // GL_MAX_IMAGE_UNITS 8, GL_MAX_TEXTURE_IMAGE_UNITS 16, GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS 8,
    // GL_MAX_COMPUTE_UNIFORM_BLOCKS 12.
    const GLuint limit = slot.kinds == gl::kImageUnit ? 8 : slot.kinds == gl::kTextureUnit ? 16 : slot.kinds == gl::kStorageBuffer ? 8 : 12;
    if (slot.number >= limit) problems.push_back(name + ": number " + std::to_string(slot.number) + " is not below " + std::to_string(limit));
  }
  return problems;
}

TEST(Bindings, SlotCheckFindsEachProblem) {
  EXPECT_TRUE(slot_problems(std::array{gl::NamedUnit{"A", 4, gl::kImageUnit}, gl::NamedUnit{"B", 4, gl::kTextureUnit}}).empty());
  EXPECT_EQ(slot_problems(std::array{gl::NamedUnit{"A", 4, gl::kImageUnit}, gl::NamedUnit{"B", 4, gl::kImageUnit}}),
            std::vector<std::string>{"B: the kind and number of A"});
  EXPECT_EQ(slot_problems(std::array{gl::NamedUnit{"A", 4, gl::kImageUnit}, gl::NamedUnit{"A", 5, gl::kImageUnit}}),
            std::vector<std::string>{"A: the name of a generic unit or of another slot"});
  EXPECT_EQ(slot_problems(std::array{gl::NamedUnit{"SOURCE", 4, gl::kImageUnit}}),
            std::vector<std::string>{"SOURCE: the name of a generic unit or of another slot"});
  EXPECT_EQ(slot_problems(std::array{gl::NamedUnit{"A", 4, gl::kImageUnit | gl::kTextureUnit}}),
            std::vector<std::string>{"A: not of exactly one kind"});
  EXPECT_EQ(slot_problems(std::array{gl::NamedUnit{"A", 8, gl::kImageUnit}}), std::vector<std::string>{"A: number 8 is not below 8"});
}

TEST(Bindings, EachOwnersSlotsDifferFromEachOtherAndFromTheGenericUnits) {
  size_t slots = 0;
  for (const Owner& owner : owners()) {
    for (const std::string& problem : slot_problems(owner.slots)) ADD_FAILURE() << owner.name << "'s slot " << problem;
    slots += owner.slots.size();
  }
  EXPECT_GE(slots, 17u) << "fewer slots than the owners declare: are the owners listed?";
}

TEST(Bindings, SlotDefinesNameEachSlot) {
  const std::array slots{gl::NamedUnit{"SPECTRUM", 2, gl::kImageUnit}, gl::NamedUnit{"SINK", 0, gl::kStorageBuffer}};
  EXPECT_EQ(gl::slot_defines(slots), (std::vector<std::pair<std::string, std::string>>{{"BINDING_SPECTRUM", "2"}, {"BINDING_SINK", "0"}}));
}

// The BINDING_ names a line declares a binding with (not those a comment mentions).
std::vector<std::string> binding_names(std::string_view line) {
  std::vector<std::string> names;
  line = line.substr(0, line.find("//"));
  if (line.find("binding") == std::string_view::npos) return names;
  for (size_t at = line.find("BINDING_"); at != std::string_view::npos; at = line.find("BINDING_", at + 1)) {
    size_t end = at;
    while (end < line.size() && (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_')) ++end;
    names.emplace_back(line.substr(at, end - at));
  }
  return names;
}

// Each owner's shaders, expanded with their includes and the owner's slots as its programs get
// them, name only units that the expansion defines: a generic one or a slot of that owner (a slot
// another owner declares is not enough).
TEST(Bindings, EachOwnersShadersNameOnlyItsUnits) {
  const gl::ShaderSources sources = gl::ShaderSources::embedded();
  size_t named = 0;
  for (const Owner& owner : owners())
    for (const std::string& file : owner.files) {
      const std::string text = gl::expand_source(sources, file, gl::slot_defines(owner.slots)).text;
      std::set<std::string> defined;
      for (const std::string& line : split(text, '\n'))
        if (line.substr(0, 8) == "#define ") defined.insert(std::string(line.substr(8, line.find(' ', 8) - 8)));
      for (const std::string& line : split(text, '\n'))
        for (const std::string& name : binding_names(line)) {
          EXPECT_TRUE(defined.count(name)) << owner.name << ": " << file << " binds " << name << ", neither a generic unit nor one of its slots";
          ++named;
        }
    }
  EXPECT_GT(named, 100u) << "the scan found too few bindings: is it reading the shaders?";
}

// `binding = 3` in a layout: where "binding" is followed by "=" and a digit.
bool bare_binding_number(std::string_view line) {
  for (size_t at = line.find("binding"); at != std::string_view::npos; at = line.find("binding", at + 1)) {
    size_t i = at + 7;
    while (i < line.size() && line[i] == ' ') ++i;
    if (i == line.size() || line[i] != '=') continue;
    ++i;
    while (i < line.size() && line[i] == ' ') ++i;
    if (i < line.size() && line[i] >= '0' && line[i] <= '9') return true;
  }
  return false;
}

TEST(Bindings, ScannerFindsBareNumbers) {
  EXPECT_TRUE(bare_binding_number("layout(rgba8, binding = 2) uniform image2D u;"));
  EXPECT_TRUE(bare_binding_number("layout(binding=0) uniform sampler2D u;"));
  EXPECT_FALSE(bare_binding_number("layout(rgba8, binding = BINDING_LEVELS) uniform image2D u;"));
}

// Every shader names its binding units (BINDING_<NAME>) and names only generic units and owners' slots.
TEST(Bindings, ShadersUseTheUnitsNames) {
  std::set<std::string> names;
  for (const gl::UnitInfo& u : gl::kUnits) names.insert("BINDING_" + std::string(u.name));
  for (const Owner& owner : owners())
    for (const gl::NamedUnit& slot : owner.slots) names.insert("BINDING_" + std::string(slot.name));
  size_t named = 0;
  for (const gl::EmbeddedShader& shader : gl::embedded_shaders()) {
    const std::string_view text = shader.text;
    int number = 0;
    for (size_t start = 0; start < text.size();) {
      const size_t end = std::min(text.find('\n', start), text.size());
      const std::string_view line = text.substr(start, end - start);
      start = end + 1;
      ++number;
      if (line.substr(0, line.find("//")).find("binding") == std::string_view::npos) continue;  // comments may say "unit 2"
      const std::string where = std::string(shader.name) + ":" + std::to_string(number);
      EXPECT_FALSE(bare_binding_number(line)) << where << ": a bare binding number: " << line;
      for (size_t at = line.find("BINDING_"); at != std::string_view::npos; at = line.find("BINDING_", at + 1)) {
        size_t end_of_name = at;
        while (end_of_name < line.size() && (std::isalnum(static_cast<unsigned char>(line[end_of_name])) || line[end_of_name] == '_'))
          ++end_of_name;
        EXPECT_TRUE(names.count(std::string(line.substr(at, end_of_name - at)))) << where << ": no such unit in gl/bindings.h or an owner's slots: " << line;
        ++named;
      }
    }
  }
  EXPECT_GT(named, 20u) << "the scan found too few bindings: is it reading the shaders?";
}

// A pass binds a unit of the table or does not compile: Binding's factories take a gl::Unit, and
// no number converts to one.
template <typename Factory>
constexpr bool takes_a_number = std::is_invocable_v<Factory, const gl::Texture&, int> || std::is_invocable_v<Factory, const gl::Texture&, GLuint>;
static_assert(!std::is_convertible_v<int, gl::Unit> && !std::is_convertible_v<GLuint, gl::Unit>);

TEST(Bindings, PassBindingsNameUnitsOfTheTable) {
  EXPECT_FALSE(takes_a_number<decltype(&Binding::read)>);
  EXPECT_FALSE(takes_a_number<decltype(&Binding::write)>);
  EXPECT_FALSE(takes_a_number<decltype(&Binding::read_write)>);
  EXPECT_FALSE(takes_a_number<decltype(&Binding::read_raw)>);
  EXPECT_FALSE(takes_a_number<decltype(&Binding::write_raw)>);
  EXPECT_FALSE(takes_a_number<decltype(&Binding::read_write_raw)>);
  EXPECT_FALSE(takes_a_number<decltype(&Binding::sampled)>);
  EXPECT_FALSE(takes_a_number<decltype(&Binding::sampled_linear)>);
  EXPECT_FALSE((std::is_constructible_v<Binding, Binding::Kind, const gl::Texture*, int>));
  // And of the binding's kind: an image on an image unit, a sampled texture on a texture unit
  // (BlurPipeline refuses a pass that binds otherwise).
  const gl::Texture none;
  EXPECT_TRUE(Binding::read(none).unit_fits());
  EXPECT_TRUE(Binding::sampled(none).unit_fits());
  EXPECT_TRUE(Binding::read(none, gl::Unit::Levels).unit_fits());
  EXPECT_FALSE(Binding::sampled(none, gl::Unit::Levels).unit_fits());
  EXPECT_FALSE(Binding::write(none, gl::Unit::PresentImage).unit_fits());
  EXPECT_FALSE(Binding::read(none, gl::Unit::KernelWeights).unit_fits());
}

// A pass binds each number of one GL namespace once (PassRunner refuses it otherwise): images and
// sampled textures are counted apart, and a slot clashes with a generic unit of its number.
TEST(Bindings, APassBindingOneUnitTwiceIsFound) {
  const gl::Texture none;
  constexpr gl::NamedUnit kOnTwo{"ON_TWO", 2, gl::kImageUnit}, kSampledTwo{"SAMPLED_TWO", 2, gl::kTextureUnit};
  EXPECT_EQ(units_bound_twice(std::array{Binding::read(none), Binding::write(none), Binding::read(none, kOnTwo)}), std::nullopt);
  EXPECT_EQ(units_bound_twice(std::array{Binding::read(none), Binding::read(none, kOnTwo), Binding::sampled(none, kSampledTwo)}), std::nullopt);
  EXPECT_EQ(units_bound_twice(std::array{Binding::read(none), Binding::read(none, gl::Unit::Levels), Binding::write(none, kOnTwo)}),
            "LEVELS and ON_TWO, both image unit 2");
  EXPECT_EQ(units_bound_twice(std::array{Binding::sampled(none, gl::Unit::Stage2), Binding::sampled(none, kSampledTwo)}),
            "STAGE2 and SAMPLED_TWO, both texture unit 2");
}

}  // namespace
}  // namespace blurlab
