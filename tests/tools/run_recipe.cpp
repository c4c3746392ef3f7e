// blurlab-run-recipe DIR/recipe.json
// Runs a blur exported by `blurlab --export` from its recipe and shader files alone, with plain GL
// calls (none of blurlab's variant, pipeline or program-cache code), on a noise image of the
// recipe's size, and compares the result with the CPU reference of the recipe's kernel and border
// (for an approximation, blurlab's CPU model of its algorithm) within the tolerance the recipe
// states. So an export that misses a define, a binding, a barrier or a
// dispatch fails here. Exit: 0 match, 1 differs or GL fails, 2 usage or unreadable recipe.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "blur/border.h"
#include "blur/check.h"
#include "blur/kernel.h"
#include "blur/reference.h"
#include "blur/registry.h"
#include "gl/context.h"
#include "gl/texture.h"
#include "util/error.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace blurlab;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

GLenum stage_of(const std::string& name) {
  if (name == "compute") return GL_COMPUTE_SHADER;
  if (name == "vertex") return GL_VERTEX_SHADER;
  if (name == "fragment") return GL_FRAGMENT_SHADER;
  throw Error("unknown shader stage '" + name + "'");
}

GLuint build(const fs::path& dir, const json& shaders) {
  const GLuint program = glCreateProgram();
  std::vector<GLuint> attached;
  for (const auto& [stage, file] : shaders.items()) {
    const std::string text = read_text(dir / file.get<std::string>());
    const char* source = text.c_str();
    const GLuint shader = glCreateShader(stage_of(stage));
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
      char log[4096];
      glGetShaderInfoLog(shader, sizeof log, nullptr, log);
      throw Error(file.get<std::string>() + " does not compile: " + log);
    }
    glAttachShader(program, shader);
    attached.push_back(shader);
  }
  glLinkProgram(program);
  for (GLuint s : attached) glDeleteShader(s);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) throw Error("the program of " + shaders.dump() + " does not link");
  return program;
}

GLint wrap_mode(const std::string& name) {
  for (auto [mode, text] : {std::pair{GL_CLAMP_TO_EDGE, "GL_CLAMP_TO_EDGE"}, std::pair{GL_MIRRORED_REPEAT, "GL_MIRRORED_REPEAT"},
                            std::pair{GL_REPEAT, "GL_REPEAT"}, std::pair{GL_CLAMP_TO_BORDER, "GL_CLAMP_TO_BORDER"}})
    if (name == text) return static_cast<GLint>(mode);
  throw Error("unknown sampler wrap mode '" + name + "'");
}

GLenum image_format(const std::string& name) {
  for (const gl::FormatInfo& f : gl::kFormats) {
    if (f.name == name) return f.internal_format;
    if (f.raw_name == name) return f.raw_format;
  }
  throw Error("unknown image format '" + name + "'");
}

// Values k/255: exact in every format, and noise, the hardest input for a blur's indexing.
Image noise(int width, int height) {
  Image image(width, height);
  uint32_t state = 12345u;
  for (float& v : image.texels) {
    state = state * 1664525u + 1013904223u;
    v = static_cast<float>((state >> 24) & 0xffu) / 255.0f;
  }
  return image;
}

// What the output must match: the exact blur of the recipe's kernel and border, or for an
// approximation ("reference": "model") the CPU model of its algorithm with the recipe's settings.
ReferenceImage expected(const json& recipe, const Image& input, const Kernel& kernel, const Border& border) {
  if (recipe.value("reference", "kernel") != "model") return reference_blur(input, kernel_weights(kernel), border);
  const VariantInfo* variant = find_variant(recipe["variant"].get<std::string>());
  if (!variant || !variant->approximation.model) throw Error("no CPU model of " + recipe["variant"].dump());
  BlurSettings s;
  s.kernel = kernel;
  s.border = border;
  const auto input_format = gl::parse_format(recipe["input_format"].get<std::string>());
  const auto intermediate = gl::parse_format(recipe["intermediate_format"].get<std::string>());
  if (!input_format || !intermediate) throw Error("unknown texture format in the recipe");
  s.input_format = *input_format;
  s.intermediate = *intermediate;
  s.linear = recipe["linear_light"];
  for (const auto& [name, text] : recipe["knobs"].items()) {
    const Knob* knob = find_knob(*variant, name);
    std::string why;
    const auto value = knob ? knob->parse(text.get<std::string>(), &why) : std::nullopt;
    if (!value) throw Error("knob " + name + " " + text.dump() + ": " + (knob ? why : "not one of the variant's"));
    s.knobs[name] = *value;
  }
  return variant->approximation.model(input, resolve(*variant, s));
}

int run(const fs::path& recipe_path) {
  const json recipe = json::parse(read_text(recipe_path));
  if (recipe.value("format", "") != "blurlab-recipe" || recipe.value("version", 0) != 1)
    throw Error(recipe_path.string() + " is not a blurlab recipe of version 1");
  const fs::path dir = recipe_path.parent_path();
  auto context = gl::HeadlessContext::create(false);

  const int width = recipe["width"], height = recipe["height"];
  std::map<std::string, gl::Texture> textures;
  for (const json& t : recipe["textures"]) {
    const auto format = gl::parse_format(t["format"].get<std::string>());
    if (!format) throw Error("unknown texture format " + t["format"].dump());
    textures.emplace(t["name"].get<std::string>(), gl::Texture(t["width"], t["height"], *format));
  }
  const Image input = noise(width, height);
  textures.at("source").upload(input);

  GLuint samplers[2];
  glGenSamplers(2, samplers);
  for (int i = 0; i < 2; ++i) {
    const GLint filter = i == 0 ? GL_NEAREST : GL_LINEAR;
    glSamplerParameteri(samplers[i], GL_TEXTURE_MIN_FILTER, filter);
    glSamplerParameteri(samplers[i], GL_TEXTURE_MAG_FILTER, filter);
  }
  GLuint vao = 0, framebuffer = 0;
  glGenVertexArrays(1, &vao);
  glGenFramebuffers(1, &framebuffer);

  for (const json& pass : recipe["passes"]) {
    const GLuint program = build(dir, pass["shaders"]);
    glUseProgram(program);
    for (const json& b : pass["bindings"]) {
      const gl::Texture& t = textures.at(b["texture"].get<std::string>());
      const GLuint unit = b["unit"];
      const std::string kind = b["kind"];
      if (kind == "image_read" || kind == "image_write" || kind == "image_read_write") {
        const GLenum access = kind == "image_read" ? GL_READ_ONLY : kind == "image_write" ? GL_WRITE_ONLY : GL_READ_WRITE;
        glBindImageTexture(unit, t.id(), 0, GL_FALSE, 0, access,
                           image_format(b["image_format"]));
      } else if (kind == "sampled_nearest" || kind == "sampled_linear") {
        const GLuint sampler = samplers[kind == "sampled_nearest" ? 0 : 1];
        const GLint wrap = wrap_mode(b["wrap"].get<std::string>());
        glSamplerParameteri(sampler, GL_TEXTURE_WRAP_S, wrap);
        glSamplerParameteri(sampler, GL_TEXTURE_WRAP_T, wrap);
        if (b.contains("border_color")) glSamplerParameterfv(sampler, GL_TEXTURE_BORDER_COLOR, b["border_color"].get<Rgba>().data());
        glActiveTexture(GL_TEXTURE0 + unit);
        glBindTexture(GL_TEXTURE_2D, t.id());
        glBindSampler(unit, sampler);
      } else {
        throw Error("unknown binding kind '" + kind + "'");
      }
    }
    if (const GLbitfield bits = pass["barriers_before"]; bits != 0) glMemoryBarrier(bits);
    if (pass["stage"] == "compute") {
      glDispatchCompute(pass["groups"][0], pass["groups"][1], pass["groups"][2]);
    } else {
      const gl::Texture& target = textures.at(pass["target"].get<std::string>());
      glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
      glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target.id(), 0);
      glViewport(0, 0, target.width(), target.height());
      glBindVertexArray(vao);
      glDrawArrays(GL_TRIANGLES, 0, 3);
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
    }
    glDeleteProgram(program);
  }
  glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT);  // the read-back of image stores
  if (const GLenum error = glGetError(); error != GL_NO_ERROR) throw Error("GL error " + std::to_string(error) + " running the recipe");
  const Image output = textures.at("destination").download();

  const json& k = recipe["kernel"];
  const auto type = parse_kernel_type(k["type"].get<std::string>());
  if (!type) throw Error("unknown kernel type " + k["type"].dump());
  const Kernel kernel{*type, k["radius"].get<int>(), k["sigma"].get<double>()};
  const json& tol = recipe["tolerance"];
  const Tolerance tolerance{.lsb = tol["lsb"], .lsb_limit = tol["lsb_limit"], .relative = tol["relative"], .absolute = tol["absolute"],
                            .reason = tol["reason"]};
  const json& b = recipe["border"];
  const auto mode = parse_border_mode(b["mode"].get<std::string>());
  if (!mode) throw Error("unknown border mode " + b["mode"].dump());
  const Border border{*mode, b["value"].get<Rgba>()};
  const CheckResult result = compare_to_reference(output, expected(recipe, input, kernel, border), tolerance);
  std::printf("%s from %s: %s %s (allowed: %s)\n", recipe["variant"].get<std::string>().c_str(), recipe_path.c_str(),
              result.ok ? "ok" : "FAIL", result.text().c_str(), tolerance.reason.c_str());
  return result.ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: blurlab-run-recipe DIR/recipe.json\n");
    return 2;
  }
  try {
    return run(argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "blurlab-run-recipe: %s\n", e.what());
    return 1;
  }
}
