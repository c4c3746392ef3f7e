// blurlab-run-recipe DIR/recipe.json IN.png OUT.png
// Runs a blur exported by `blurlab --export` as someone shipping it would: from recipe.json and the
// shader files beside it alone, with plain OpenGL (libepoxy, an EGL context without a surface),
// nlohmann-json and libpng, and none of blurlab's code. Every texture, sampler, framebuffer,
// barrier, dispatch and draw comes from the recipe: the textures' formats, sizes and levels, each
// binding's access, image format and sampler state, each pass's barriers before it, workgroup
// counts or framebuffer and viewport, the barrier after the last pass, and whether the source
// holds linear light. It blurs IN.png (8-bit RGBA, the recipe's size) and writes the destination
// to OUT.png (8-bit; from linear light encoded to sRGB, as the recipe says); the test compares it
// with the CPU reference (tests/export_round_trip.cmake). It also evaluates each size and
// workgroup formula of the recipe it can read ("ceil(W / 32) x ceil(H / 16) x 1", "H x W") at
// the recipe's size and fails if one disagrees with the counts the recipe gives. Textures with
// "contents" (a variable-radius variant's levels and weights) are filled from their data files,
// each checked first: its size, and for a "radius_map" the levels within 0..max_level and each
// level's weights a kernel. A bad or missing file is one line on stderr and exit 1.
// Exit: 0 ran, 1 the recipe is wrong or GL failed, 2 usage.
#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <png.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Failure("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The GL names a recipe uses, by name: formats, accesses, filters, wraps, primitives.
GLenum gl_enum(const std::string& name) {
  static const std::map<std::string, GLenum> names = {
      {"GL_RGBA8", GL_RGBA8},           {"GL_RGBA16F", GL_RGBA16F},         {"GL_RGBA32F", GL_RGBA32F},
      {"GL_R32UI", GL_R32UI},           {"GL_RG32UI", GL_RG32UI},           {"GL_RGBA32UI", GL_RGBA32UI},
      {"GL_READ_ONLY", GL_READ_ONLY},   {"GL_WRITE_ONLY", GL_WRITE_ONLY},   {"GL_READ_WRITE", GL_READ_WRITE},
      {"GL_NEAREST", GL_NEAREST},       {"GL_LINEAR", GL_LINEAR},           {"GL_CLAMP_TO_EDGE", GL_CLAMP_TO_EDGE},
      {"GL_REPEAT", GL_REPEAT},         {"GL_MIRRORED_REPEAT", GL_MIRRORED_REPEAT},
      {"GL_CLAMP_TO_BORDER", GL_CLAMP_TO_BORDER}, {"GL_TRIANGLES", GL_TRIANGLES},
      {"GL_RGBA", GL_RGBA},             {"GL_UNSIGNED_BYTE", GL_UNSIGNED_BYTE}, {"GL_HALF_FLOAT", GL_HALF_FLOAT},
      {"GL_FLOAT", GL_FLOAT}};
  const auto it = names.find(name);
  if (it == names.end()) throw Failure("the recipe names an unknown GL enum '" + name + "'");
  return it->second;
}

// An OpenGL 4.3 core context without a window: Mesa's surfaceless platform, else the default display.
void make_context() {
  EGLDisplay display = EGL_NO_DISPLAY;
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (client && std::strstr(client, "EGL_MESA_platform_surfaceless"))
    display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (display == EGL_NO_DISPLAY) display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, nullptr, nullptr) || !eglBindAPI(EGL_OPENGL_API))
    throw Failure("no EGL display with desktop OpenGL");
  EGLConfig config = nullptr;
  EGLint count = 0;
  const EGLint config_attributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  if (!eglChooseConfig(display, config_attributes, &config, 1, &count) || count == 0) config = nullptr;  // no-config context
  const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
                               EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, attributes);
  if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context))
    throw Failure("no OpenGL 4.3 core context without a surface");
}

struct Picture {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;
};

Picture read_png(const std::string& path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) throw Failure("cannot read " + path + ": " + image.message);
  image.format = PNG_FORMAT_RGBA;
  Picture picture{static_cast<int>(image.width), static_cast<int>(image.height), std::vector<uint8_t>(PNG_IMAGE_SIZE(image))};
  if (!png_image_finish_read(&image, nullptr, picture.rgba.data(), 0, nullptr)) throw Failure("cannot decode " + path + ": " + image.message);
  return picture;
}

void write_png(const std::string& path, const Picture& picture) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(picture.width);
  image.height = static_cast<png_uint_32>(picture.height);
  image.format = PNG_FORMAT_RGBA;
  if (!png_image_write_to_file(&image, path.c_str(), 0, picture.rgba.data(), 0, nullptr))
    throw Failure("cannot write " + path + ": " + image.message);
}

// sRGB (IEC 61966-2-1) to linear light and back, for a recipe whose source holds linear light.
double decode_srgb(double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); }
double encode_srgb(double v) { return v <= 0.0031308 ? v * 12.92 : 1.055 * std::pow(v, 1.0 / 2.4) - 0.055; }

GLuint compile(const fs::path& dir, const json& shaders) {
  const GLuint program = glCreateProgram();
  for (const auto& [stage, file] : shaders.items()) {
    const std::map<std::string, GLenum> stages{
        {"compute", GL_COMPUTE_SHADER}, {"vertex", GL_VERTEX_SHADER}, {"fragment", GL_FRAGMENT_SHADER}};
    if (!stages.count(stage)) throw Failure("unknown shader stage '" + stage + "'");
    const GLenum type = stages.at(stage);
    const std::string text = read_text(dir / file.get<std::string>());
    const char* source = text.c_str();
    const GLuint shader = glCreateShader(type);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
      char log[4096] = {};
      glGetShaderInfoLog(shader, sizeof log, nullptr, log);
      throw Failure(file.get<std::string>() + " does not compile: " + log);
    }
    glAttachShader(program, shader);
    glDeleteShader(shader);  // kept while attached
  }
  glLinkProgram(program);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) throw Failure("the program of " + shaders.dump() + " does not link");
  return program;
}

// A formula of the recipe at W x H, if it is one this reader knows: terms "W", "H", "ceil(W / n)",
// "ceil(H / n)" or a number, joined by " x ", with an optional note in parentheses at the end.
std::optional<std::vector<long long>> evaluate(std::string formula, long long w, long long h) {
  formula = std::regex_replace(formula, std::regex(R"( \(.*\)$)"), "");
  static const std::regex term(R"(^(?:(W|H)|ceil\((W|H) / (\d+)\)|(\d+))$)");
  std::vector<long long> values;
  size_t start = 0;
  for (;;) {
    const size_t end = formula.find(" x ", start);
    const std::string part = formula.substr(start, end == std::string::npos ? std::string::npos : end - start);
    std::smatch m;
    if (!std::regex_match(part, m, term)) return std::nullopt;
    if (m[1].matched) values.push_back(m[1] == "W" ? w : h);
    else if (m[2].matched) values.push_back(((m[2] == "W" ? w : h) + std::stoll(m[3]) - 1) / std::stoll(m[3]));
    else values.push_back(std::stoll(m[4]));
    if (end == std::string::npos) return values;
    start = end + 3;
  }
}

// Fails where a formula the reader knows disagrees with the recipe's own numbers; returns how many it checked.
int check_formulas(const json& recipe) {
  const long long w = recipe.at("width"), h = recipe.at("height");
  int checked = 0;
  auto check = [&](const std::string& what, const std::string& formula, std::vector<long long> expected) {
    const auto values = evaluate(formula, w, h);
    if (!values) return;
    if (values->size() == 2 && expected.size() == 3 && expected[2] == 1) expected.pop_back();
    if (*values != expected) throw Failure(what + ": '" + formula + "' is not what the recipe gives at " + std::to_string(w) + "x" + std::to_string(h));
    ++checked;
  };
  for (const json& t : recipe.at("textures"))
    check("texture " + t.at("name").get<std::string>(), t.at("size_formula"), {t.at("width"), t.at("height")});
  for (const json& p : recipe.at("passes")) {
    if (p.contains("groups")) check("pass " + p.at("name").get<std::string>(), p.at("groups_formula"), p.at("groups").get<std::vector<long long>>());
    else check("pass " + p.at("name").get<std::string>(), p.at("viewport_formula"), {p.at("viewport")[2], p.at("viewport")[3]});
  }
  return checked;
}

struct Texture {
  GLuint id = 0;
  int width = 0, height = 0;
  bool unorm8 = false;
};

// A texture's contents from its data file (the recipe's "contents": a variable-radius variant's
// levels and weights), checked against what the recipe says of it before any of it reaches GL.
std::vector<uint8_t> read_contents(const fs::path& dir, const json& texture) {
  const json& c = texture.at("contents");
  const std::string name = texture.at("name"), file = c.at("file");
  if (file.empty() || fs::path(file).has_parent_path()) throw Failure("texture " + name + ": contents file '" + file + "' is not a name in the recipe's folder");
  if (c.at("pixel_format") != "GL_RGBA") throw Failure("texture " + name + ": contents are not GL_RGBA");
  const std::map<std::string, size_t> component_bytes{{"GL_UNSIGNED_BYTE", 1}, {"GL_HALF_FLOAT", 2}, {"GL_FLOAT", 4}};
  const std::string type = c.at("pixel_type");
  if (!component_bytes.count(type)) throw Failure("texture " + name + ": unknown pixel type '" + type + "'");
  const size_t texel = 4 * component_bytes.at(type);
  if (c.at("bytes_per_texel") != texel) throw Failure("texture " + name + ": " + type + " RGBA texels are " + std::to_string(texel) + " bytes, not " + c.at("bytes_per_texel").dump());
  const char* native = std::endian::native == std::endian::little ? "little-endian" : "big-endian";
  if (texel > 4 && c.at("byte_order") != native) throw Failure("texture " + name + ": contents are " + c.at("byte_order").dump() + ", this machine " + native);
  const size_t expected = static_cast<size_t>(texture.at("width").get<int>()) * texture.at("height").get<int>() * texel;
  if (c.at("bytes") != expected)
    throw Failure("texture " + name + ": the recipe gives " + c.at("bytes").dump() + " bytes of contents, its size needs " + std::to_string(expected));
  const std::string bytes = read_text(dir / file);
  if (bytes.size() != expected)
    throw Failure(file + " holds " + std::to_string(bytes.size()) + " bytes, texture " + name + " needs " + std::to_string(expected));
  return {bytes.begin(), bytes.end()};
}

// A variable-radius recipe's levels and weights (its "radius_map") hold what the shaders assume:
// every level within 0..max_level, every level's weights finite, zero past its radius and summing
// to 1. A damaged file would otherwise blur with nonsense, or read past the weights.
void check_radius_map(const json& recipe, const std::map<std::string, std::vector<uint8_t>>& contents) {
  const json& map = recipe.at("radius_map");
  const int max_level = map.at("max_level");
  if (max_level < 0 || max_level > 255) throw Failure("radius_map: max_level " + std::to_string(max_level) + " is not in 0..255");
  auto texture = [&](const json& part, const char* format) -> const json& {
    const std::string name = part.at("texture");
    for (const json& t : recipe.at("textures"))
      if (t.at("name") == name) {
        if (!contents.count(name)) throw Failure("radius_map: texture " + name + " has no contents");
        if (t.at("internal_format") != format) throw Failure("radius_map: texture " + name + " is not " + format);
        return t;
      }
    throw Failure("radius_map: no texture " + name);
  };
  // Every variable variant reads the levels; the weights only those that blur with them.
  const json& levels = texture(map.at("levels"), "GL_RGBA8");
  const std::vector<uint8_t>& level_bytes = contents.at(levels.at("name"));
  const int width = levels.at("width");
  for (size_t i = 0; i < level_bytes.size(); i += 4) {
    const std::string where = levels.at("contents").at("file").get<std::string>() + ": texel (" + std::to_string(i / 4 % width) + ", " +
                              std::to_string(i / 4 / width) + ")";
    if (level_bytes[i] > max_level)
      throw Failure(where + " holds level " + std::to_string(level_bytes[i]) + ", above max_level " + std::to_string(max_level));
    if (level_bytes[i + 1] || level_bytes[i + 2] || level_bytes[i + 3]) throw Failure(where + " has green, blue or alpha set");
  }
  if (!map.contains("weights")) return;
  const json& weights = texture(map.at("weights"), "GL_RGBA32F");
  if (weights.at("width") != max_level + 1 || weights.at("height") != max_level + 1)
    throw Failure("radius_map: texture " + weights.at("name").get<std::string>() + " is not (max_level + 1)^2 texels");
  const std::vector<uint8_t>& weight_bytes = contents.at(weights.at("name"));
  std::vector<float> w(weight_bytes.size() / sizeof(float));
  std::memcpy(w.data(), weight_bytes.data(), w.size() * sizeof(float));
  for (int r = 0; r <= max_level; ++r) {
    double sum = 0.0;
    for (int i = 0; i <= max_level; ++i) {
      const float* texel = &w[(static_cast<size_t>(r) * (max_level + 1) + i) * 4];
      if (!std::isfinite(texel[0]) || texel[1] != 0.0f || texel[2] != 0.0f || texel[3] != 0.0f || (i > r && texel[0] != 0.0f))
        throw Failure(weights.at("contents").at("file").get<std::string>() + ": texel (" + std::to_string(i) + ", " + std::to_string(r) +
                      ") is not a weight of level " + std::to_string(r));
      sum += (i == 0 ? 1.0 : 2.0) * texel[0];
    }
    if (std::abs(sum - 1.0) > 1e-4)
      throw Failure(weights.at("contents").at("file").get<std::string>() + ": the weights of level " + std::to_string(r) + " sum to " + std::to_string(sum) + ", not 1");
  }
}

int run(const fs::path& recipe_path, const std::string& in, const std::string& out) {
  const json recipe = json::parse(read_text(recipe_path));
  if (recipe.value("format", "") != "blurlab-recipe" || recipe.value("version", 0) != 3)
    throw Failure(recipe_path.string() + " is not a blurlab recipe of version 3");
  const fs::path dir = recipe_path.parent_path();
  const int formulas = check_formulas(recipe);
  // Every data file is read and checked before GL starts: a bad one costs no context.
  std::map<std::string, std::vector<uint8_t>> contents;
  for (const json& t : recipe.at("textures"))
    if (t.contains("contents")) contents[t.at("name")] = read_contents(dir, t);
  if (recipe.contains("radius_map")) check_radius_map(recipe, contents);
  make_context();

  std::map<std::string, Texture> textures;
  for (const json& t : recipe.at("textures")) {
    Texture texture{0, t.at("width"), t.at("height"), t.at("internal_format") == "GL_RGBA8"};
    glGenTextures(1, &texture.id);
    glBindTexture(GL_TEXTURE_2D, texture.id);
    glTexStorage2D(GL_TEXTURE_2D, t.at("levels"), gl_enum(t.at("internal_format")), texture.width, texture.height);
    if (const auto data = contents.find(t.at("name")); data != contents.end()) {
      glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
      glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, texture.width, texture.height, gl_enum(t.at("contents").at("pixel_format")),
                      gl_enum(t.at("contents").at("pixel_type")), data->second.data());
    }
    textures[t.at("name")] = texture;
  }
  const bool linear = recipe.at("light").at("linear");
  const Texture& source = textures.at("source");
  const Texture& destination = textures.at("destination");
  const Picture picture = read_png(in);
  if (picture.width != source.width || picture.height != source.height) throw Failure(in + " is not the recipe's size");
  glBindTexture(GL_TEXTURE_2D, source.id);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  if (source.unorm8 && !linear) {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, source.width, source.height, GL_RGBA, GL_UNSIGNED_BYTE, picture.rgba.data());
  } else {
    std::vector<float> values(picture.rgba.size());
    for (size_t i = 0; i < values.size(); ++i) {
      const double v = picture.rgba[i] / 255.0;
      values[i] = static_cast<float>(linear && i % 4 != 3 ? decode_srgb(v) : v);  // alpha is not encoded
    }
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, source.width, source.height, GL_RGBA, GL_FLOAT, values.data());
  }
  glBindTexture(GL_TEXTURE_2D, 0);

  GLuint vertex_array = 0;
  glGenVertexArrays(1, &vertex_array);
  std::vector<GLuint> samplers, framebuffers;
  for (const json& pass : recipe.at("passes")) {
    const GLuint program = compile(dir, pass.at("shaders"));
    glUseProgram(program);
    for (const json& b : pass.at("bindings")) {
      const Texture& t = textures.at(b.at("texture").get<std::string>());
      const GLuint unit = b.at("unit");
      if (b.contains("image_format")) {
        glBindImageTexture(unit, t.id, 0, GL_FALSE, 0, gl_enum(b.at("access")), gl_enum(b.at("gl_image_format")));
      } else {
        const json& state = b.at("sampler");
        GLuint sampler = 0;
        glGenSamplers(1, &sampler);
        samplers.push_back(sampler);
        glSamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, static_cast<GLint>(gl_enum(state.at("min_filter"))));
        glSamplerParameteri(sampler, GL_TEXTURE_MAG_FILTER, static_cast<GLint>(gl_enum(state.at("mag_filter"))));
        glSamplerParameteri(sampler, GL_TEXTURE_WRAP_S, static_cast<GLint>(gl_enum(state.at("wrap_s"))));
        glSamplerParameteri(sampler, GL_TEXTURE_WRAP_T, static_cast<GLint>(gl_enum(state.at("wrap_t"))));
        if (state.contains("border_color"))
          glSamplerParameterfv(sampler, GL_TEXTURE_BORDER_COLOR, state.at("border_color").get<std::vector<float>>().data());
        glActiveTexture(GL_TEXTURE0 + unit);
        glBindTexture(GL_TEXTURE_2D, t.id);
        glBindSampler(unit, sampler);
      }
    }
    if (const GLbitfield bits = pass.at("barriers_before"); bits != 0) glMemoryBarrier(bits);
    if (pass.contains("groups")) {
      glDispatchCompute(pass.at("groups")[0], pass.at("groups")[1], pass.at("groups")[2]);
    } else {
      const json& fb = pass.at("framebuffer");
      GLuint framebuffer = 0;
      glGenFramebuffers(1, &framebuffer);
      framebuffers.push_back(framebuffer);
      glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
      glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                             textures.at(fb.at("color_attachment0").get<std::string>()).id, fb.at("level"));
      if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        throw Failure("the framebuffer of pass " + pass.at("name").get<std::string>() + " is not complete");
      const json& v = pass.at("viewport");
      glViewport(v[0], v[1], v[2], v[3]);
      const json& draw = pass.at("draw");
      glBindVertexArray(vertex_array);
      glDrawArrays(gl_enum(draw.at("mode")), draw.at("first"), draw.at("count"));
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
    }
    glDeleteProgram(program);
  }
  if (const GLbitfield bits = recipe.at("after_last_pass").at("read_back").at("bits"); bits != 0) glMemoryBarrier(bits);
  std::vector<float> result(static_cast<size_t>(destination.width) * destination.height * 4);
  glBindTexture(GL_TEXTURE_2D, destination.id);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, result.data());
  if (const GLenum error = glGetError(); error != GL_NO_ERROR) throw Failure("GL error " + std::to_string(error) + " running the recipe");

  Picture blurred{destination.width, destination.height, std::vector<uint8_t>(result.size())};
  for (size_t i = 0; i < result.size(); ++i) {
    const double v = linear && i % 4 != 3 ? encode_srgb(result[i]) : result[i];
    blurred.rgba[i] = static_cast<uint8_t>(std::lround(std::clamp(v, 0.0, 1.0) * 255.0));
  }
  write_png(out, blurred);
  std::printf("%s: ran %zu passes from %s alone (%d formulas agree with its counts); wrote %s\n",
              recipe.at("variant").get<std::string>().c_str(), recipe.at("passes").size(), recipe_path.c_str(), formulas, out.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: blurlab-run-recipe DIR/recipe.json IN.png OUT.png\n");
    return 2;
  }
  try {
    return run(argv[1], argv[2], argv[3]);
  } catch (const std::exception& e) {  // Failure, and nlohmann's for a field missing or of the wrong type
    std::fprintf(stderr, "blurlab-run-recipe: %s\n", e.what());
    return 1;
  }
}
