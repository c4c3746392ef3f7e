// Every exportable setting runs from its recipe alone (gl.ExportStructures/*): for each variant, its
// default knobs and each value of each knob (every choice, every candidate) that changes what the
// recording holds (its textures, passes, bindings, barriers and formulas: another recipe, not only
// other shader code, which the GL grid checks) are exported as --export writes them, run by
// blurlab-run-recipe from the recipe and its files alone, and compared with the CPU reference (an
// approximation's model) at the tolerance the recipe states; and, where the recipe says it runs at
// any size (every size and workgroup count a formula of W x H, no data made per pixel), run at
// another size too and compared with that image's reference. An export its own runner refused once
// shipped (dual-kawase's fused chain, its counters "filled from a file" the runner could not check).
// A setting this device refuses is no export (--export refuses it before any work, with the reason):
// only the device's limits and a structure's reach may refuse, with numbers that hold, or knob
// values that do not go with the others' defaults (Limit::Knobs).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "blur/check.h"
#include "blur/pipeline.h"
#include "blur/registry.h"
#include "cli/run_program.h"
#include "export/export.h"
#include "gl_fixture.h"
#include "image/image_file.h"
#include "util/strings.h"

namespace blurlab::test {
namespace {

namespace fs = std::filesystem;

// What makes one recipe another: everything of the recording but the programs' defines.
std::string recipe_structure(const Recording& r) {
  std::ostringstream s;
  for (const RecordedTexture& t : r.textures)
    s << "T " << t.name << " " << gl::name(t.format) << " " << t.size.x << "x" << t.size.y << " " << t.fixed_size << t.zeros
      << !t.contents.empty() << "\n";
  for (const RecordedPass& p : r.passes) {
    s << "P " << p.name << " " << static_cast<int>(p.stage) << " " << p.barriers_before << " " << p.grid.formula << " "
      << p.pass_values.has_value() << " " << p.target << " " << p.program.files.size() << ":";
    for (const RecordedBinding& b : p.bindings) s << " " << static_cast<int>(b.kind) << "/" << b.unit << "/" << b.raw << "/" << b.texture;
    s << "\n";
  }
  return s.str();
}

// The settings to export: the defaults, then each value of each knob (choices, candidates) with the
// others at their defaults, at a radius where the variant's structures show (several levels, tiles
// and segments at 131x97).
std::vector<std::pair<std::string, BlurSettings>> export_settings(const VariantInfo& v, int radius) {
  BlurSettings base;
  base.kernel = make_kernel(v.kernels == KernelSupport::BoxOnly ? KernelType::Box : KernelType::Gauss, radius, std::nullopt);
  std::vector<std::pair<std::string, BlurSettings>> list{{"defaults", base}};
  for (const Knob& k : v.knobs) {
    std::vector<KnobValue> values = k.candidates;
    for (const KnobChoice& c : k.choices)
      if (std::find(values.begin(), values.end(), KnobValue{c.value, 0}) == values.end()) values.push_back(KnobValue{c.value, 0});
    for (const KnobValue& value : values) {
      BlurSettings s = base;
      s.knobs[std::string(k.name)] = value;
      list.emplace_back(std::string(k.name) + "=" + k.text(value), s);
    }
  }
  return list;
}

// Runs the runner; returns its output image, failing the test with its stderr when it refuses.
std::optional<Image> run_exported(const fs::path& recipe, const fs::path& in, const fs::path& out, const std::string& what) {
  const ProgramResult r = run_program(run_recipe_program(), {recipe.string(), in.string(), out.string()}, recipe.parent_path().parent_path());
  if (r.crashed || r.exit_code != 0) {
    ADD_FAILURE() << what << ": blurlab-run-recipe " << (r.crashed ? "crashed" : "exit " + std::to_string(r.exit_code)) << ": " << r.err;
    return std::nullopt;
  }
  return load_image(out).image;
}

// The runner's output against the reference of `input` at the tolerance the recipe states.
void expect_runner_matches(const VariantInfo& v, const BlurSettings& resolved, const Image& input, const Image& output, const std::string& what) {
  const Tolerance tolerance = tolerance_for(v, resolved, {input.width, input.height}, 1.0);
  const CheckResult check = compare_to_reference(output, expected_output(v, resolved, input), tolerance);
  EXPECT_TRUE(check.ok) << what << ": the runner's image is off by " << check.text() << " (" << check.worst_text() << ")";
}

class ExportEveryStructure : public GlTestWithParam<std::string> {};  // a variant's name

TEST_P(ExportEveryStructure, RunsFromItsRecipeAlone) {
  const VariantInfo& v = *find_variant(GetParam());
  const fs::path dir = fs::temp_directory_path() / ("blurlab_export_structures_" + std::to_string(::getpid()) + "_" + std::string(v.name));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const glm::ivec2 size{131, 97}, other{83, 61};
  // The images as the runner reads them (8-bit PNGs), and the reference made from the same.
  save_image(blocks_under_noise(size, gl::Format::rgba8, 11, {9, 7}), dir / "in.png");
  save_image(blocks_under_noise(other, gl::Format::rgba8, 12, {9, 7}), dir / "other.png");
  const Image input = load_image(dir / "in.png").image, other_input = load_image(dir / "other.png").image;

  gl::ProgramCache programs(gl::ShaderSources::embedded());
  BlurPipeline pipeline(programs, gl_info().limits);
  gl::Texture source(size.x, size.y, gl::Format::rgba8, "export source"), destination(size.x, size.y, gl::Format::rgba8, "export destination");
  source.upload(input);
  std::set<std::string> seen;
  int exported = 0, refused = 0;
  // r = 33 where the defaults run it (several levels, tiles wider than 64), else r = 7.
  const int radius = unsupported_reason(v, resolve(v, export_settings(v, 33).front().second), size, gl_info().limits) ? 7 : 33;
  for (const auto& [name, settings] : export_settings(v, radius)) {
    const std::string what = std::string(v.name) + " " + name + " r=" + std::to_string(radius);
    const BlurSettings resolved = resolve(v, settings);
    if (const auto refusal = unsupported_reason(v, resolved, size, gl_info().limits)) {
      EXPECT_TRUE(is_device_limit(refusal->limit) || refusal->limit == Limit::Reach || refusal->limit == Limit::Knobs)
          << what << " is refused for what a setting cannot be: " << refusal->reason;
      if (refusal->limit != Limit::Knobs) {
        EXPECT_GT(refusal->needed, refusal->available) << what << ": a refusal's numbers do not hold: " << refusal->reason;
      }
      ++refused;
      continue;
    }
    if (const auto why = pipeline.configure(v, resolved, size)) {
      ADD_FAILURE() << what << ": configure() refused what unsupported_reason() ran: " << why->reason;
      continue;
    }
    const Recording recording = pipeline.record(source, destination);
    if (!seen.insert(recipe_structure(recording)).second) continue;  // a recipe already run, other shader code
    const fs::path out = dir / ("export_" + std::to_string(exported++));
    ExportRequest request{.variant = &v, .settings = resolved, .size = size, .gpu = gl_info().renderer, .cpu_rasterizer = true,
                          .tolerance = tolerance_for(v, resolved, size, 1.0), .input = "the test's image",
                          .holds_for = sizes_holding(v, settings, resolved, size, gl_info().limits)};
    {
      StagedOutputs staged;
      write_export(recording, request, programs.sources(), out);
      staged.commit();
    }
    // Counters the passes leave zero are cleared by the recipe, not shipped as a data file (whose
    // check the runner had no way to make: it refused the export).
    for (const RecordedTexture& t : recording.textures) {
      if (t.zeros) {
        EXPECT_FALSE(fs::exists(out / (t.name + ".bin"))) << what << ": " << t.name << " shipped as a data file of zeros";
      }
    }
    if (const auto blurred = run_exported(out / "recipe.json", dir / "in.png", dir / "out.png", what)) expect_runner_matches(v, resolved, input, *blurred, what);
    // At another size, where the recipe says it holds for it.
    std::ifstream readme(out / "README.md");
    const std::string text((std::istreambuf_iterator<char>(readme)), std::istreambuf_iterator<char>());
    if (text.find("it runs at that size only") != std::string::npos || !request.holds_for.contains(other)) continue;
    if (const auto blurred = run_exported(out / "recipe.json", dir / "other.png", dir / "other_out.png", what + " at " + size_text(other)))
      expect_runner_matches(v, resolved, other_input, *blurred, what + " at " + size_text(other));
  }
  EXPECT_GT(exported, 0) << v.name << ": no setting exported";
  RecordProperty("exported", exported);
  RecordProperty("refused", refused);
  if (!HasFailure()) fs::remove_all(dir);
}

std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const VariantInfo* v : variants()) names.emplace_back(v->name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(ExportStructures, ExportEveryStructure, ::testing::ValuesIn(variant_names()), [](const auto& p) {
  std::string name = p.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
});

}  // namespace
}  // namespace blurlab::test
