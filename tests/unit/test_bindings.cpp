// The binding units (src/gl/bindings.h): one table that the shaders and the passes both name, so
// a shader's binding and the host's cannot drift apart.
#include <gtest/gtest.h>

#include <set>
#include <string_view>
#include <type_traits>

#include "blur/blur.h"
#include "gl/bindings.h"
#include "gl/shader.h"

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

// Every shader names its binding units (BINDING_<NAME>) and names only units of the table.
TEST(Bindings, ShadersUseTheUnitsNames) {
  std::set<std::string> names;
  for (const gl::UnitInfo& u : gl::kUnits) names.insert("BINDING_" + std::string(u.name));
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
        EXPECT_TRUE(names.count(std::string(line.substr(at, end_of_name - at)))) << where << ": no such unit in gl/bindings.h: " << line;
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

}  // namespace
}  // namespace blurlab
