// blurlab-run-recipe DIR/recipe.json IN.png OUT.png
// Runs a blur exported by `blurlab --export` as someone shipping it would: from recipe.json and the
// shader files beside it alone, with plain OpenGL (libepoxy, an EGL context without a surface),
// nlohmann-json and libpng, and none of blurlab's code. Every texture, sampler, framebuffer,
// barrier, dispatch and draw comes from the recipe: the textures' formats, sizes and levels, each
// binding's access, image format and sampler state, each pass's barriers before it, workgroup
// counts or framebuffer and viewport, the barrier after the last pass, and whether the source
// holds linear light. It blurs IN.png (8-bit RGBA) and writes the destination to OUT.png (8-bit;
// from linear light encoded to sRGB, as the recipe says); the test compares it with the CPU
// reference (tests/export_round_trip.cmake). It evaluates each size and workgroup formula of the
// recipe it can read ("ceil(W / 32) x ceil(H / 16) x 1", "H x W") at the recipe's size and fails
// if one disagrees with the counts the recipe gives; IN.png may have another size wherever the
// formulas give every texture, workgroup count and viewport for it (at_size). Textures with
// "contents" (a variable-radius variant's levels and weights) are filled from their data files,
// each checked first: its size, and for a "radius_map" the levels within 0..max_level and each
// level's weights a kernel. A bad or missing file is one line on stderr and exit 1.
// Exit: 0 ran, 1 the recipe is wrong or GL failed, 2 usage.
#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <png.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
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

// The arithmetic of the recipe's formulas, exact: a fraction of two integers.
struct Fraction {
  long long n = 0, d = 1;
  static Fraction of(long long num, long long den) {
    if (den < 0) num = -num, den = -den;
    const long long g = std::gcd(num < 0 ? -num : num, den);
    return {num / (g ? g : 1), den / (g ? g : 1)};
  }
  long long ceil() const { return n >= 0 ? (n + d - 1) / d : -((-n) / d); }
};
bool operator<(Fraction a, Fraction b) { return a.n * b.d < b.n * a.d; }

// A recursive-descent reader of one expression of a formula: numbers, W, H, the names bound by
// "with", + - * /, "x" as a product inside parentheses, (...), ceil(...), min(a, b), max(a, b).
// Anything else makes it fail (`ok` false), never guess.
struct Expression {
  std::string_view text;
  const std::map<std::string, Fraction>& names;
  size_t at = 0;
  bool ok = true;

  void space() { while (at < text.size() && text[at] == ' ') ++at; }
  bool take(std::string_view token) {
    space();
    if (text.substr(at, token.size()) != token) return false;
    at += token.size();
    return true;
  }
  Fraction fail() { ok = false; return {}; }
  Fraction sum() {
    Fraction v = product();
    for (;;) {
      if (take("+")) { const Fraction r = product(); v = Fraction::of(v.n * r.d + r.n * v.d, v.d * r.d); }
      else if (take("-")) { const Fraction r = product(); v = Fraction::of(v.n * r.d - r.n * v.d, v.d * r.d); }
      else return v;
    }
  }
  Fraction product() {
    Fraction v = factor();
    for (;;) {
      if (take("*") || take("x ")) { const Fraction r = factor(); v = Fraction::of(v.n * r.n, v.d * r.d); }
      else if (take("/")) {
        const Fraction r = factor();
        if (r.n == 0) return fail();
        v = Fraction::of(v.n * r.d, v.d * r.n);
      } else return v;
    }
  }
  Fraction factor() {
    space();
    if (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) {
      long long v = 0;
      while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])) && v < (1LL << 40)) v = v * 10 + (text[at++] - '0');
      return {v, 1};
    }
    if (take("(")) {
      const Fraction v = sum();
      return take(")") ? v : fail();
    }
    for (const char* function : {"ceil(", "min(", "max("}) {
      if (!take(function)) continue;
      const Fraction a = sum();
      if (function[0] == 'c') return take(")") ? Fraction{a.ceil(), 1} : fail();
      if (!take(",")) return fail();
      const Fraction b = sum();
      if (!take(")")) return fail();
      return function[1] == 'i' ? (b < a ? b : a) : (a < b ? b : a);
    }
    size_t end = at;
    while (end < text.size() && std::isalpha(static_cast<unsigned char>(text[end]))) ++end;
    const auto name = names.find(std::string(text.substr(at, end - at)));
    if (end == at || name == names.end()) return fail();
    at = end;
    return name->second;
  }
};

// Splits `text` at `separator` where it stands outside parentheses.
std::vector<std::string_view> split_outside(std::string_view text, std::string_view separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
    if (depth == 0 && text.substr(i, separator.size()) == separator) {
      parts.push_back(text.substr(start, i - start));
      start = i + separator.size();
      i = start - 1;
    }
  }
  parts.push_back(text.substr(start));
  return parts;
}

// A formula of the recipe at W x H, if this reader can evaluate it: expressions joined by " x "
// (one per dimension), then optionally " with NAME = EXPR, NAME = EXPR" (each may use those before
// it), and a note in parentheses at the end ("H x W (transposed)"). Every dimension must come out
// a whole number.
std::optional<std::vector<long long>> evaluate(std::string formula, long long w, long long h) {
  formula = std::regex_replace(formula, std::regex(R"( \([a-z][^()]*\)$)"), "");
  std::map<std::string, Fraction> names{{"W", {w, 1}}, {"H", {h, 1}}};
  const std::vector<std::string_view> halves = split_outside(formula, " with ");
  if (halves.size() > 2) return std::nullopt;
  if (halves.size() == 2)
    for (std::string_view binding : split_outside(halves[1], ", ")) {
      const size_t equals = binding.find(" = ");
      if (equals == std::string_view::npos) return std::nullopt;
      Expression e{binding.substr(equals + 3), names};
      const Fraction v = e.sum();
      e.space();
      if (!e.ok || e.at != e.text.size()) return std::nullopt;
      names[std::string(binding.substr(0, equals))] = v;
    }
  std::vector<long long> values;
  for (std::string_view part : split_outside(halves[0], " x ")) {
    Expression e{part, names};
    const Fraction v = e.sum();
    e.space();
    if (!e.ok || e.at != e.text.size() || v.d != 1) return std::nullopt;
    values.push_back(v.n);
  }
  return values;
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

std::string size_text(long long w, long long h) { return std::to_string(w) + "x" + std::to_string(h); }

// The recipe for an image of w x h: every texture size, workgroup count and viewport from its
// formula. A size other than the recipe's runs where every formula that depends on the image can
// be evaluated, and no data file was made per pixel of the recipe's image; otherwise the error
// names both sizes. A formula without W or H ("(R + 1) x (R + 1)") does not change.
json at_size(json recipe, long long w, long long h, const std::string& in) {
  const long long rw = recipe.at("width"), rh = recipe.at("height");
  if (w == rw && h == rh) return recipe;
  const std::string sizes = in + " is " + size_text(w, h) + ", the recipe's image " + size_text(rw, rh);
  const std::string again = "; export the blur again at " + size_text(w, h) + " (blurlab --size or --image)";
  static const std::regex image_term(R"(\b[WH]\b)");
  auto resized = [&](const std::string& what, const std::string& formula, std::vector<long long> values) {
    if (const auto at = evaluate(formula, w, h)) return *at;
    if (formula != "fixed for this image size" && !std::regex_search(formula, image_term)) return values;
    throw Failure(sizes + ": " + what + " has no size formula this runner can evaluate ('" + formula + "')" + again);
  };
  for (json& t : recipe.at("textures")) {
    const std::string name = t.at("name");
    const std::vector<long long> size = resized("texture " + name, t.at("size_formula"), {t.at("width"), t.at("height")});
    if (t.contains("contents") && (size[0] != t.at("width") || size[1] != t.at("height")))
      throw Failure(sizes + ": " + t.at("contents").at("file").get<std::string>() + " holds the texels of texture " + name + " for " +
                    size_text(t.at("width"), t.at("height")) + again);
    t["width"] = size[0];
    t["height"] = size[1];
  }
  for (json& p : recipe.at("passes")) {
    const std::string what = "pass " + p.at("name").get<std::string>();
    if (p.contains("groups")) {
      std::vector<long long> groups = resized(what, p.at("groups_formula"), p.at("groups").get<std::vector<long long>>());
      if (groups.size() == 2) groups.push_back(1);
      p["groups"] = groups;
    } else {
      const std::vector<long long> size = resized(what, p.at("viewport_formula"), {p.at("viewport")[2], p.at("viewport")[3]});
      p["viewport"][2] = size[0];
      p["viewport"][3] = size[1];
    }
  }
  recipe["width"] = w;
  recipe["height"] = h;
  return recipe;
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
  const json exported = json::parse(read_text(recipe_path));
  if (exported.value("format", "") != "blurlab-recipe" || exported.value("version", 0) != 3)
    throw Failure(recipe_path.string() + " is not a blurlab recipe of version 3");
  const fs::path dir = recipe_path.parent_path();
  const int formulas = check_formulas(exported);
  // Every data file is read and checked before GL starts: a bad one costs no context.
  std::map<std::string, std::vector<uint8_t>> contents;
  for (const json& t : exported.at("textures"))
    if (t.contains("contents")) contents[t.at("name")] = read_contents(dir, t);
  if (exported.contains("radius_map")) check_radius_map(exported, contents);
  const Picture picture = read_png(in);
  const json recipe = at_size(exported, picture.width, picture.height, in);
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
  if (picture.width != source.width || picture.height != source.height)
    throw Failure(in + " is " + size_text(picture.width, picture.height) + ", the source texture " + size_text(source.width, source.height));
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
  std::printf("%s: ran %zu passes at %s from %s alone (%d formulas agree with its counts at %s); wrote %s\n",
              recipe.at("variant").get<std::string>().c_str(), recipe.at("passes").size(), size_text(picture.width, picture.height).c_str(),
              recipe_path.c_str(), formulas, size_text(exported.at("width"), exported.at("height")).c_str(), out.c_str());
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
