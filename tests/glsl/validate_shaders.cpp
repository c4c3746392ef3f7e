// Every shader blurlab compiles, checked by the Khronos reference compiler (glslangValidator), so
// a shader that only a lenient driver accepts (NVIDIA's) fails here, on a machine with no GPU.
//
// No GL context: program_sources() (blur/pipeline.h) lists the (files, defines) that each variant's prepare()
// asks for over a grid of settings (both kernels, r = 0, 1, 16, 64, every intermediate format,
// both input formats, the variant's default knobs, clamp borders; each other border mode at
// r = 16 with both kernels and every intermediate format, skipping what the variant refuses on a
// 48 KiB-shared-memory GPU); each unique expansion, made by gl::expand_source() as the program
// cache makes it, is written to a file named for its stage and validated, and multi-stage
// programs are linked too. Shader files no variant uses (scene, present, roofline,
// fullscreen.vert alone) are validated with their callers' defines (kOtherShaderDefines). One
// test per variant and per such file, so a failure names it.
//
// glslangValidator runs without --target-env: "--target-env opengl" implies -G, SPIR-V for
// OpenGL, whose rules (ARB_gl_spirv: a location on every uniform) are not those of the GLSL that
// blurlab hands the driver; the plain validator applies GLSL 4.30 core as the #version says.
// glslang does not check that barrier() sits in uniform control flow (no compiler can in general).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include "../cli/run_program.h"
#include "bench/roofline.h"
#include "blur/blur.h"
#include "blur/pipeline.h"
#include "blur/registry.h"
#include "gl/shader.h"

namespace blurlab {
namespace {

namespace fs = std::filesystem;

struct Request {
  std::vector<gl::ShaderFile> files;
  gl::Defines defines;
  std::string settings;  // for messages
  bool operator<(const Request& o) const {
    auto key = [](const Request& r) {
      std::string k;
      for (const auto& f : r.files) k += f.name + ";";
      for (const auto& [name, value] : r.defines) k += name + "=" + value + ";";
      return k;
    };
    return key(*this) < key(o);
  }
};

// What a big GPU offers (48 KiB of shared memory, 1024 invocations), so every setting a GPU can run is validated.
gl::GlLimits generous_limits() {
  gl::GlLimits limits;
  limits.max_compute_shared_memory = 49152;
  limits.max_compute_invocations = 1024;
  limits.max_compute_workgroup_size[0] = limits.max_compute_workgroup_size[1] = 1024;
  limits.max_compute_workgroup_size[2] = 64;
  for (int& n : limits.max_compute_workgroup_count) n = 65535;
  limits.max_texture_size = 32768;
  limits.max_uniform_block_size = 65536;
  limits.max_loop_iterations = 0;  // no loop limiter
  limits.subgroup_size = 32;
  limits.subgroup_arithmetic = limits.subgroup_shuffle = true;
  return limits;
}

struct Collected {
  std::set<Request> requests;
  size_t settings = 0, refused = 0;
  std::set<BorderMode> modes;  // the border modes of the settings that ran
};

Collected collect(const VariantInfo& variant) {
  Collected out;
  const glm::ivec2 size{517, 389};
  // Records the programs one setting asks for, unless the variant refuses it there.
  auto add = [&](BlurSettings s) {
    s = resolve(variant, s);
    ++out.settings;
    if (unsupported_reason(variant, s, size, generous_limits())) {
      ++out.refused;
      return;
    }
    for (ProgramSource& p : program_sources(variant, s, size)) out.requests.insert({std::move(p.files), std::move(p.defines), describe(variant, s)});
    out.modes.insert(s.border.mode);
  };
  // Each mode is a #if of its own in the source hooks (and constant a scaled value in running
  // sums): every mode, on a smaller grid than clamp's.
  for (BorderMode mode : kBorderModes)
    for (KernelType type : {KernelType::Box, KernelType::Gauss})
      for (int radius : {0, 1, 16, 64})
        for (gl::Format input : {gl::Format::rgba8, gl::Format::rgba16f})
          for (std::optional<gl::Format> mid : variant.uses_intermediate
                                                   ? std::vector<std::optional<gl::Format>>{gl::Format::rgba8, gl::Format::rgba16f,
                                                                                            gl::Format::rgba32f}
                                                   : std::vector<std::optional<gl::Format>>{std::nullopt}) {
            // The other modes at r = 16, in rgba8 (constant in rgba16f too: float sums take its
            // value another way), so the suite's time stays in check.
            if (mode != BorderMode::Clamp &&
                (radius != 16 || (input != gl::Format::rgba8 && mode != BorderMode::Constant)))
              continue;
            BlurSettings s;
            s.kernel = make_kernel(type, radius, std::nullopt);
            s.border = {mode, mode == BorderMode::Constant ? Rgba{0.25f, 0.5f, 0.75f, 1.0f} : Rgba{}};
            s.input_format = input;
            s.intermediate = mid;
            add(s);
          }
  // Each value of each Choice knob (e.g. scan=subgroup, cache=fp16), the others at their defaults:
  // paths a #if selects that llvmpipe may not run, at the clamp border, r = 16, rgba8.
  for (const Knob& knob : variant.knobs) {
    if (knob.type != KnobType::Choice) continue;
    for (const KnobChoice& choice : knob.choices)
      for (KernelType type : {KernelType::Box, KernelType::Gauss}) {
        BlurSettings s;
        s.kernel = make_kernel(type, 16, std::nullopt);
        s.knobs[std::string(knob.name)] = {choice.value, 0};
        add(s);
      }
  }
  return out;
}

std::string extension(GLenum stage) { return stage == GL_VERTEX_SHADER ? ".vert" : stage == GL_FRAGMENT_SHADER ? ".frag" : ".comp"; }

// "ERROR: 3:12: ..." names GLSL source-string 3 (a #line directive); say which file that is.
std::string map_to_files(const std::string& log, const std::vector<std::string>& files) {
  static const std::regex location(R"((ERROR|WARNING): (\d+):(\d+):)");
  std::string out;
  std::sregex_iterator it(log.begin(), log.end(), location), end;
  size_t last = 0;
  for (; it != end; ++it) {
    const size_t index = std::stoul((*it)[2].str());
    out += log.substr(last, static_cast<size_t>(it->position()) - last);
    out += (*it)[1].str() + ": " + (index < files.size() ? files[index] : "source " + (*it)[2].str()) + ":" + (*it)[3].str() + ":";
    last = static_cast<size_t>(it->position() + it->length());
  }
  return out + log.substr(last);
}

class Validator {
 public:
  explicit Validator(const std::string& test)
      : dir_(fs::path(BLURLAB_GLSL_OUT) / test), sources_(gl::ShaderSources::directory(BLURLAB_GLSL_DIR)) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }

  // Validates each stage of the program, then links them; a failure is a test failure naming
  // the files, the defines and where the expanded sources are.
  void validate(const Request& r) {
    std::vector<std::string> paths;
    bool compiled = true;
    for (const gl::ShaderFile& file : r.files) {
      const gl::ExpandedSource source = gl::expand_source(sources_, file.name, r.defines);
      const fs::path path = dir_ / (std::to_string(count_++) + "_" + fs::path(file.name).stem().string() + extension(file.stage));
      std::ofstream(path, std::ios::binary) << source.text;
      paths.push_back(path.string());
      const test::ProgramResult result = test::run_program(BLURLAB_GLSLANG, {path.string()}, dir_);
      if (result.crashed || result.exit_code != 0) {
        compiled = false;
        ADD_FAILURE() << "glslangValidator rejects " << file.name << " for " << r.settings << " (" << defines_text(r)
                      << "); expanded source: " << path.string() << "\n"
                      << map_to_files(result.out + result.err, source.files);
      }
    }
    if (compiled && paths.size() > 1) {
      std::vector<std::string> args{"-l"};
      args.insert(args.end(), paths.begin(), paths.end());
      const test::ProgramResult result = test::run_program(BLURLAB_GLSLANG, args, dir_);
      if (result.crashed || result.exit_code != 0)
        ADD_FAILURE() << "glslangValidator cannot link " << r.files.front().name << " + " << r.files.back().name << " for "
                      << r.settings << ":\n" << result.out << result.err;
    }
    ++validated_;
  }
  size_t validated() const { return validated_; }
  const gl::ShaderSources& sources() const { return sources_; }

 private:
  static std::string defines_text(const Request& r) {
    std::string text;
    for (const auto& [name, value] : r.defines) text += (text.empty() ? "" : " ") + name + "=" + value;
    return text;
  }
  fs::path dir_;
  gl::ShaderSources sources_;
  size_t count_ = 0, validated_ = 0;
};

std::string test_name(std::string_view text) {
  std::string name(text);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

class Variant : public ::testing::TestWithParam<const VariantInfo*> {};

TEST_P(Variant, ShadersValidate) {
  const VariantInfo& variant = *GetParam();
  const Collected collected = collect(variant);
  // Every variant runs somewhere: a variant all of whose settings were refused validated nothing.
  ASSERT_FALSE(collected.requests.empty()) << variant.name << ": all " << collected.settings << " settings refused";
  for (BorderMode mode : kBorderModes) {
    const bool declared = std::any_of(variant.refused_borders.begin(), variant.refused_borders.end(),
                                      [&](const auto& refused) { return refused.first == mode; });
    const bool runs = is_blur(variant) ? !declared : mode == BorderMode::Clamp;  // the copy pass has no border
    EXPECT_EQ(collected.modes.count(mode), runs ? 1u : 0u) << variant.name << ": border " << name(mode);
  }
  Validator validator(test_name(variant.name));
  for (const Request& r : collected.requests) validator.validate(r);
  std::printf("%s: %zu programs validated from %zu settings (%zu refused by the variant)\n", std::string(variant.name).c_str(),
              validator.validated(), collected.settings, collected.refused);
}

INSTANTIATE_TEST_SUITE_P(Glsl, Variant, ::testing::ValuesIn(variants().begin(), variants().end()),
                         [](const auto& p) { return test_name(p.param->name); });

// The roofline kernels' defines: `own`, then the roofline's binding units (its slots), as
// src/bench/roofline.cpp gives them.
gl::Defines with_roofline_slots(gl::Defines own) {
  for (auto& define : gl::slot_defines(bench::roofline_slots())) own.push_back(std::move(define));
  return own;
}

// Shader files that no variant uses: the scene, the window's present pass, the roofline kernels,
// fullscreen.vert on its own. Most take no defines; those that do get them here, as their caller
// gives them (a new one fails with "undeclared identifier" until it is listed).
const std::map<std::string, gl::Defines> kOtherShaderDefines = {
    {"roofline_fma.comp", with_roofline_slots({{"ITERATIONS", "512"}})},  // src/bench/roofline.cpp: 512 on a GPU, 64 on llvmpipe
    {"roofline_bilinear.comp", with_roofline_slots({{"FETCHES", "64"}})},  // src/bench/roofline.cpp: 64 on a GPU, 16 on llvmpipe
    {"roofline_ssbo_copy.comp", with_roofline_slots({})},
};

std::vector<std::string> files_outside_variants() {
  std::set<std::string> used;
  for (const VariantInfo* v : variants())
    for (const Request& r : collect(*v).requests)
      for (const gl::ShaderFile& f : r.files)
        if (f.stage != GL_VERTEX_SHADER) used.insert(f.name);
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(BLURLAB_GLSL_DIR)) {
    const std::string ext = entry.path().extension().string(), name = entry.path().filename().string();
    if ((ext == ".vert" || ext == ".frag" || ext == ".comp") && !used.count(name)) files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  return files;
}

class OtherShader : public ::testing::TestWithParam<std::string> {};

TEST_P(OtherShader, Validates) {
  const std::string& file = GetParam();
  const std::string ext = fs::path(file).extension().string();
  const GLenum stage = ext == ".vert" ? GL_VERTEX_SHADER : ext == ".frag" ? GL_FRAGMENT_SHADER : GL_COMPUTE_SHADER;
  const auto defines = kOtherShaderDefines.find(file);
  Validator validator(test_name(file));
  validator.validate({{{stage, file}}, defines == kOtherShaderDefines.end() ? gl::Defines{} : defines->second, "its caller's defines"});
}

INSTANTIATE_TEST_SUITE_P(Glsl, OtherShader, ::testing::ValuesIn(files_outside_variants()),
                         [](const auto& p) { return test_name(p.param); });

}  // namespace
}  // namespace blurlab
