// blurlab-run-recipe DIR/recipe.json [IN.png] OUT.png   (OUT's name must end in .png)
// Runs a blur exported by `blurlab --export` as someone shipping it would: from recipe.json and the
// shader files beside it alone, with plain OpenGL (libepoxy, an EGL context without a surface),
// nlohmann-json and libpng, and none of blurlab's blurs or GL code. Every texture, sampler,
// framebuffer, barrier, dispatch and draw comes from the recipe: the textures' formats, sizes and
// levels, each binding's access, image format and sampler state, each pass's barriers before it,
// workgroup counts or framebuffer and viewport, the barrier after the last pass, and whether the
// source holds linear light. It blurs IN.png (8-bit RGBA) and writes the destination to OUT.png
// (8-bit; from linear light encoded to sRGB, as the recipe says); the test compares it with the CPU
// reference (tests/export_round_trip.cmake). It evaluates every size and workgroup formula of the
// recipe ("ceil(W / 32) x ceil(H / 16) x 1", "H x W") at the recipe's size and fails if one
// disagrees with the counts the recipe gives or cannot be read (only "fixed for this image size"
// says a count has none); IN.png may have another size wherever the formulas give every texture,
// workgroup count and viewport for it (at_size). Textures with "contents" (a variable-radius
// variant's levels and weights) are filled from their data files, each checked first: its size,
// and for a "radius_map" the levels within 0..max_level and each level's weights a kernel; a
// texture whose "initial_contents" are "zeros" is cleared once. A bad or missing file is one line
// on stderr and exit 1. An effect's chain (`blurlab --effect NAME --export`) runs the same way, on
// the frame its recipe carries: its "frame" names the data files of the HDR frame (texture
// "source", rgba16f: radiance, finite and at least 0) and of its depth (depth32f, in [0, 1]), each
// checked before GL sees it; it takes no IN.png (given one, or a blur's recipe without one, it says
// which command line the recipe takes, exit 2), and writes the picture the chain ships (rgba8,
// already tonemapped and encoded) to OUT.png.
// It ships with every export and is one of blurlab's programs, so it keeps blurlab's rules, from
// blurlab's own code for them (src/util: files, messages, the GLSL bounds; nothing of GL or blurs):
// every file it reads is a regular file of bounded size, opened without waiting (a FIFO or
// /dev/zero once hung it; util/files.h), shaders and data files are plain names in the recipe's
// folder, each shader is within the bounds blurlab's --shader-dir keeps (util/glsl_limits.h: a
// chain of macros or one huge #define once crashed the driver's compiler), every value has its
// type and range before GL sees it (groups [0, 0, 0] once blurred nothing, exit 0), each pass's
// bindings agree with the textures the recipe declares (one binding a unit, an image format that is
// the texture's or its raw twin, the access its kind says; tampered ones ran with exit 0 and a
// wrong image), a texture filled from a file is checked by the recipe's radius_map (a recipe
// without one once blurred with NaN weights) and no texture is read before something fills it.
// OUT.png is written as blurlab writes an output (util/files.h): whole or not at all, through a
// device or FIFO, over the file a link leads to, never by replacing a link through /proc
// (/dev/stdout once became a regular file for the whole machine), a read-only file or a file the
// run reads. Every message is one line with control characters escaped (util/error.h).
// Exit: 0 ran, 1 the recipe is wrong or GL failed, 2 usage (OUT.png one of the files it reads).
#include <epoxy/egl.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <epoxy/gl.h>
#include <png.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "util/error.h"
#include "util/files.h"
#include "util/glsl_limits.h"
#include "util/strings.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// blurlab's own failure: its message made one line when it is made, so a name holding a NUL or a
// line break cannot cut or split it, whoever prints what() (util/error.h).
struct Failure : blurlab::Error {
  using blurlab::Error::Error;
};

// What a recipe may ask for: beyond these it is refused before any of it is read or allocated.
constexpr size_t kMaxRecipeBytes = 16u << 20, kMaxShaderBytes = 1u << 20, kMaxImageBytes = 512u << 20;
constexpr size_t kMaxContentsBytes = 1u << 30;
constexpr long long kMaxSide = 16384, kMaxGroups = 65535;  // GL 4.3's least GL_MAX_TEXTURE_SIZE and work group count
constexpr int kMaxDepth = 32;                              // JSON nesting and formula parentheses
constexpr size_t kMaxFormula = 1000, kMaxItems = 64;
// The internal format of a depth texture (an effect's frame's depth): filled from its data file
// (one float a texel), only ever sampled.
constexpr std::string_view kDepthFormat = "GL_DEPTH_COMPONENT32F";

// Text from a recipe, a file name or a driver on one line (blurlab::single_line: control
// characters as \n, \e, \xNN, \u0080..), so no name can end the line or drive the terminal; at
// most 2000 bytes of it.
std::string printable(std::string_view text) {
  return blurlab::single_line(blurlab::shortened(text, 2000));
}

// "'NAME'" of a path, for messages.
std::string named(const fs::path& path) { return "'" + path.string() + "'"; }

// A file the recipe or the command line names, read whole as blurlab reads one
// (blurlab::read_regular_file): a regular file of at most `limit` bytes, else one line saying what
// it is instead. `what` names it in the message ("the recipe", "shader", "IN.png").
std::string read_file(const fs::path& path, size_t limit, const std::string& what) {
  return blurlab::read_regular_file(path, limit, what);
}

// A name in the recipe's folder (a shader or a data file): no folder part, so no absolute path and
// no "..", nothing outside the folder the recipe came in.
fs::path file_in(const fs::path& dir, const std::string& name, const std::string& what) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos || name.find('\0') != std::string::npos)
    throw Failure(what + " '" + name + "' is not a file name in the recipe's folder");
  return dir / name;
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
      {"GL_FLOAT", GL_FLOAT},           {"GL_DEPTH_COMPONENT32F", GL_DEPTH_COMPONENT32F}, {"GL_DEPTH_COMPONENT", GL_DEPTH_COMPONENT}};
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

// IN.png, its size refused from its header before anything is decoded.
Picture read_png(const std::string& path) {
  const std::string bytes = read_file(path, kMaxImageBytes, "IN.png");
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, bytes.data(), bytes.size())) throw Failure("cannot read " + named(path) + ": " + image.message);
  if (image.width > kMaxSide || image.height > kMaxSide) {
    png_image_free(&image);
    throw Failure(named(path) + " says it is " + std::to_string(image.width) + "x" + std::to_string(image.height) +
                  ", more than the " + std::to_string(kMaxSide) + " per side a texture is sure to take");
  }
  image.format = PNG_FORMAT_RGBA;
  Picture picture{static_cast<int>(image.width), static_cast<int>(image.height), std::vector<uint8_t>(PNG_IMAGE_SIZE(image))};
  if (!png_image_finish_read(&image, nullptr, picture.rgba.data(), 0, nullptr)) throw Failure("cannot decode " + named(path) + ": " + image.message);
  return picture;
}

void write_png(const std::string& path, const Picture& picture) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(picture.width);
  image.height = static_cast<png_uint_32>(picture.height);
  image.format = PNG_FORMAT_RGBA;
  png_alloc_size_t size = 0;
  if (!png_image_write_get_memory_size(image, size, 0, picture.rgba.data(), 0, nullptr))
    throw Failure("cannot encode " + named(path) + ": " + image.message);
  std::string png(size, '\0');
  if (!png_image_write_to_memory(&image, png.data(), &size, 0, picture.rgba.data(), 0, nullptr))
    throw Failure("cannot encode " + named(path) + ": " + image.message);
  png.resize(size);
  // As blurlab writes an output (util/files.h): a new file beside OUT.png renamed over it once
  // whole (a failed write leaves what was there), the file a link leads to replaced and the link
  // kept, a device or FIFO written through, anything else refused (check_output_target, before).
  blurlab::write_file_atomically(path, png, "OUT.png");
}

// OUT.png is checked before anything is read or computed, by blurlab's rules for an output
// (util/files.h): never a file the run reads (IN.png, the recipe, compared by identity, so a link or
// a hard link of one counts) nor in the recipe's folder (its shaders and data files: an export's
// folder holds the export alone), and a target blurlab would write: not a link that leads through
// /proc (/dev/stdout of a shell that redirected it to a file), not read-only (root writes anything,
// and renaming replaces any file), not a directory, block device or socket.
void check_output(const std::string& out, const std::optional<std::string>& in, const fs::path& recipe_path) {
  const fs::path dir = recipe_path.parent_path().empty() ? fs::path(".") : recipe_path.parent_path();
  blurlab::NamedPaths inputs{{recipe_path, "the recipe"}};
  if (in) inputs.emplace_back(*in, "IN.png");
  blurlab::check_outputs_spare_inputs({{out, "OUT.png"}}, {}, inputs, {{dir, "the recipe's folder"}});
  blurlab::check_output_target(out, "OUT.png");
}

// sRGB (IEC 61966-2-1) to linear light and back, for a recipe whose source holds linear light.
double decode_srgb(double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); }
double encode_srgb(double v) { return v <= 0.0031308 ? v * 12.92 : 1.055 * std::pow(v, 1.0 / 2.4) - 0.055; }

// The text of every shader the passes name, read and checked before GL starts: a regular file of
// at most 1 MiB, no NUL (GL would read it only up to there), and within the bounds blurlab keeps
// for what it hands a GLSL compiler (util/glsl_limits.h: no #define past 64 KiB, no statement past
// 16384 tokens once its macros are expanded, no macros that name one another in a cycle), which a
// driver's compiler once crashed on or ran out of memory with.
std::map<std::string, std::string> read_shaders(const fs::path& dir, const json& passes) {
  std::map<std::string, std::string> texts;
  for (const json& pass : passes)
    for (const auto& [stage, file] : pass.at("shaders").items()) {
      const std::string name = file.get<std::string>();
      if (texts.count(name)) continue;
      std::string text = read_file(file_in(dir, name, "shader"), kMaxShaderBytes, "shader");
      if (text.find('\0') != std::string::npos) throw Failure("shader '" + name + "' holds a NUL byte (GL would read it only up to there)");
      blurlab::check_glsl_limits(text, {name});
      texts.emplace(name, std::move(text));
    }
  return texts;
}

GLuint compile(const json& shaders, const std::map<std::string, std::string>& texts) {
  const GLuint program = glCreateProgram();
  for (const auto& [stage, file] : shaders.items()) {
    const std::map<std::string, GLenum> stages{
        {"compute", GL_COMPUTE_SHADER}, {"vertex", GL_VERTEX_SHADER}, {"fragment", GL_FRAGMENT_SHADER}};
    if (!stages.count(stage)) throw Failure("unknown shader stage '" + stage + "'");
    const GLenum type = stages.at(stage);
    const char* source = texts.at(file.get<std::string>()).c_str();
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
  if (!ok) {
    char log[4096] = {};
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    throw Failure("the program of " + shaders.dump() + " does not link: " + log);
  }
  return program;
}

__extension__ typedef __int128 Wide;  // GCC's and clang's 128-bit integer

// The arithmetic of the recipe's formulas, exact: a fraction of two integers, each within 2^40
// (products are taken in 128 bits, so nothing overflows; a result past the bound is no formula).
struct Fraction {
  long long n = 0, d = 1;
  static constexpr Wide kBound = Wide{1} << 40;
  static std::optional<Fraction> of(Wide num, Wide den) {
    if (den == 0) return std::nullopt;
    if (den < 0) num = -num, den = -den;
    Wide a = num < 0 ? -num : num, b = den;
    while (b) a = std::exchange(b, a % b);  // gcd; den > 0, so a > 0
    num /= a, den /= a;
    if (num > kBound || -num > kBound || den > kBound) return std::nullopt;
    return Fraction{static_cast<long long>(num), static_cast<long long>(den)};
  }
  long long ceil() const { return n >= 0 ? (n + d - 1) / d : -((-n) / d); }
};
bool operator<(Fraction a, Fraction b) { return Wide{a.n} * b.d < Wide{b.n} * a.d; }

// A recursive-descent reader of one expression of a formula: numbers, W, H, max_level (a radius
// map's largest level), the names bound by "with", + - * /, "x" as a product inside parentheses, (...), ceil(...), min(a, b), max(a, b).
// Anything else makes it fail (`ok` false), never guess.
struct Expression {
  std::string_view text;
  const std::map<std::string, Fraction>& names;
  size_t at = 0;
  bool ok = true;
  int depth = 0;  // of parentheses and calls: bounded, so no formula recurses without end

  void space() { while (at < text.size() && text[at] == ' ') ++at; }
  bool take(std::string_view token) {
    space();
    if (text.substr(at, token.size()) != token) return false;
    at += token.size();
    return true;
  }
  Fraction fail() { ok = false; at = text.size(); return {}; }
  Fraction made(std::optional<Fraction> f) { return f ? *f : fail(); }
  Fraction sum() {
    Fraction v = product();
    while (ok) {
      if (take("+")) { const Fraction r = product(); v = made(Fraction::of(Wide{v.n} * r.d + Wide{r.n} * v.d, Wide{v.d} * r.d)); }
      else if (take("-")) { const Fraction r = product(); v = made(Fraction::of(Wide{v.n} * r.d - Wide{r.n} * v.d, Wide{v.d} * r.d)); }
      else return v;
    }
    return v;
  }
  Fraction product() {
    Fraction v = factor();
    while (ok) {
      if (take("*") || take("x ")) { const Fraction r = factor(); v = made(Fraction::of(Wide{v.n} * r.n, Wide{v.d} * r.d)); }
      else if (take("/")) {
        const Fraction r = factor();
        v = made(Fraction::of(Wide{v.n} * r.d, Wide{v.d} * r.n));  // none for a zero divisor
      } else return v;
    }
    return v;
  }
  Fraction factor() {
    if (++depth > kMaxDepth) return fail();
    struct Leave {
      int& depth;
      ~Leave() { --depth; }
    } leave{depth};
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
    while (end < text.size() && (std::isalpha(static_cast<unsigned char>(text[end])) || (end > at && text[end] == '_'))) ++end;
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
std::optional<std::vector<long long>> evaluate(std::string formula, long long w, long long h, std::optional<long long> max_level) {
  // The note at the end, " (transposed)": a parenthesis opened by a lower-case word, none inside it.
  if (!formula.empty() && formula.back() == ')')
    if (const size_t open = formula.rfind(" ("); open != std::string::npos && open + 2 < formula.size() &&
                                                 std::islower(static_cast<unsigned char>(formula[open + 2])) &&
                                                 formula.find_first_of("()", open + 2) == formula.size() - 1)
      formula.erase(open);
  std::map<std::string, Fraction> names{{"W", {w, 1}}, {"H", {h, 1}}};
  if (max_level) names["max_level"] = {*max_level, 1};
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

// "fixed for this image size": a count the recipe gives for its own image alone.
constexpr std::string_view kFixed = "fixed for this image size";

// The radius map's largest level, which a formula may name (the weights' "(max_level + 1) x ...").
std::optional<long long> max_level_of(const json& recipe) {
  if (!recipe.contains("radius_map")) return std::nullopt;
  return recipe.at("radius_map").at("max_level").get<long long>();
}

// Fails where a formula disagrees with the recipe's own numbers or cannot be read: every size,
// workgroup count and viewport has a formula this reader evaluates, or says it has none (kFixed);
// a formula read as something else (a constant) would leave part of another size's image unblurred.
// Returns how many it checked.
int check_formulas(const json& recipe) {
  const long long w = recipe.at("width"), h = recipe.at("height");
  int checked = 0;
  auto check = [&](const std::string& what, const std::string& formula, std::vector<long long> expected) {
    if (formula == kFixed) return;
    const auto values = evaluate(formula, w, h, max_level_of(recipe));
    if (!values) throw Failure(what + ": '" + formula + "' is no formula this runner can evaluate (nor '" + std::string(kFixed) + "')");
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
  // Every formula was read at the recipe's size (check_formulas): one the image's size changes, or
  // a constant; only a count without one (kFixed) keeps the recipe at its own size.
  auto resized = [&](const std::string& what, const std::string& formula, std::vector<long long> values) {
    if (formula == kFixed) throw Failure(sizes + ": " + what + " has no size formula ('" + formula + "')" + again);
    const auto at = evaluate(formula, w, h, max_level_of(recipe));
    if (!at) throw Failure(sizes + ": " + what + " has no size formula this runner can evaluate ('" + formula + "')" + again);
    // Two numbers, or for workgroups three of which the last may be left out: not what a formula of one or four gives.
    if (at->size() != values.size() && !(values.size() == 3 && at->size() == 2))
      throw Failure(what + ": '" + formula + "' gives " + std::to_string(at->size()) + " numbers, not " + std::to_string(values.size()));
    return *at;
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
  const fs::path path = file_in(dir, file, "texture " + name + ": contents file");
  // A depth texture's texels are one float each; every other's four components.
  const bool depth = texture.at("internal_format") == kDepthFormat;
  const std::string pixel_format = depth ? "GL_DEPTH_COMPONENT" : "GL_RGBA";
  if (c.at("pixel_format") != pixel_format) throw Failure("texture " + name + ": contents are not " + pixel_format);
  const std::map<std::string, size_t> component_bytes{{"GL_UNSIGNED_BYTE", 1}, {"GL_HALF_FLOAT", 2}, {"GL_FLOAT", 4}};
  const std::string type = c.at("pixel_type");
  if (!component_bytes.count(type)) throw Failure("texture " + name + ": unknown pixel type '" + type + "'");
  if (depth && type != "GL_FLOAT") throw Failure("texture " + name + ": depth contents are GL_FLOAT, not " + type);
  const size_t texel = (depth ? 1 : 4) * component_bytes.at(type);
  if (c.at("bytes_per_texel") != texel)
    throw Failure("texture " + name + ": " + type + " " + pixel_format + " texels are " + std::to_string(texel) + " bytes, not " + c.at("bytes_per_texel").dump());
  const char* native = std::endian::native == std::endian::little ? "little-endian" : "big-endian";
  if (texel > 4 && c.at("byte_order") != native) throw Failure("texture " + name + ": contents are " + c.at("byte_order").dump() + ", this machine " + native);
  const size_t expected = static_cast<size_t>(texture.at("width").get<int>()) * texture.at("height").get<int>() * texel;
  if (c.at("bytes") != expected)
    throw Failure("texture " + name + ": the recipe gives " + c.at("bytes").dump() + " bytes of contents, its size needs " + std::to_string(expected));
  if (expected > kMaxContentsBytes) throw Failure("texture " + name + ": " + std::to_string(expected) + " bytes of contents, more than 1 GiB");
  // A byte more than it needs, so that a file one byte long is named with its size exactly.
  const std::string bytes = read_file(path, expected + 1, "the contents of texture " + name);
  if (bytes.size() != expected)
    throw Failure(file + " holds " + std::to_string(bytes.size()) + " bytes, texture " + name + " needs " + std::to_string(expected) + " (" +
                  std::to_string(texture.at("width").get<int>()) + "x" + std::to_string(texture.at("height").get<int>()) + " texels of " +
                  std::to_string(texel) + " bytes)");
  return {bytes.begin(), bytes.end()};
}

// An IEEE half float's value (binary16: 1 sign bit, 5 exponent bits, 10 fraction bits).
double half_value(uint16_t h) {
  const int exponent = (h >> 10) & 0x1f, fraction = h & 0x3ff;
  const double magnitude = exponent == 0    ? std::ldexp(fraction, -24)
                           : exponent == 31 ? (fraction ? NAN : INFINITY)
                                            : std::ldexp(1024 + fraction, exponent - 25);
  return (h & 0x8000) ? -magnitude : magnitude;
}

// An effect's frame (its "frame"): the HDR frame's texels hold radiance (R, G and B finite and at
// least 0, alpha finite) and the depth's window-space depths in [0, 1]. A damaged or foreign file
// would otherwise tonemap NaN or infinities into the picture, or read depths no camera makes.
void check_frame(const json& recipe, const std::map<std::string, std::vector<uint8_t>>& contents) {
  const json& frame = recipe.at("frame");
  const auto texture_of = [&](const char* part) -> const json& {
    for (const json& t : recipe.at("textures"))
      if (t.at("name") == frame.at(part).at("texture")) {
        if (!contents.count(t.at("name"))) throw Failure("\"frame\" " + std::string(part) + ": texture " + t.at("name").get<std::string>() + " has no contents");
        return t;
      }
    throw Failure("\"frame\" " + std::string(part) + ": no such texture");
  };
  const auto where = [](const json& t, size_t texel, const char* channel) {
    const int width = t.at("width");
    return t.at("contents").at("file").get<std::string>() + ": texel (" + std::to_string(texel % width) + ", " + std::to_string(texel / width) +
           ")" + channel;
  };
  const json& source = texture_of("source");
  if (source.at("contents").at("pixel_type") != "GL_HALF_FLOAT") throw Failure("\"frame\" source: the frame is not GL_HALF_FLOAT");
  const std::vector<uint8_t>& texels = contents.at(source.at("name"));
  for (size_t i = 0; i + 1 < texels.size(); i += 2) {
    uint16_t bits = 0;
    std::memcpy(&bits, &texels[i], sizeof bits);
    const double v = half_value(bits);
    const size_t component = i / 2 % 4;
    if (!std::isfinite(v) || (component < 3 && v < 0.0))
      throw Failure(where(source, i / 8, component == 0 ? " red" : component == 1 ? " green" : component == 2 ? " blue" : " alpha") +
                    " is " + std::to_string(v) + ", not " + (component < 3 ? "a radiance (finite, at least 0)" : "finite"));
  }
  if (!frame.contains("depth")) return;
  const json& depth = texture_of("depth");
  const std::vector<uint8_t>& depths = contents.at(depth.at("name"));
  for (size_t i = 0; i + 3 < depths.size(); i += 4) {
    float d = 0.0f;
    std::memcpy(&d, &depths[i], sizeof d);
    if (!(d >= 0.0f && d <= 1.0f)) throw Failure(where(depth, i / 4, "") + " holds depth " + std::to_string(d) + ", not one in [0, 1]");
  }
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
  if (!map.contains("levels")) throw Failure("radius_map: no \"levels\"");
  const json& levels = texture(map.at("levels"), "GL_RGBA8");
  if (levels.at("contents").at("pixel_type") != "GL_UNSIGNED_BYTE") throw Failure("radius_map: the levels are not GL_UNSIGNED_BYTE");
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
  if (weights.at("contents").at("pixel_type") != "GL_FLOAT") throw Failure("radius_map: the weights are not GL_FLOAT");
  if (weights.at("width") != max_level + 1 || weights.at("height") != max_level + 1)
    throw Failure("radius_map: texture " + weights.at("name").get<std::string>() + " is not (max_level + 1)^2 texels");
  const std::vector<uint8_t>& weight_bytes = contents.at(weights.at("name"));
  std::vector<float> w(weight_bytes.size() / sizeof(float));
  if (w.size() < static_cast<size_t>(max_level + 1) * (max_level + 1) * 4) throw Failure("radius_map: the weights are too few");
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

// recipe.json's text as JSON, nested at most kMaxDepth deep (a value copied or printed recurses
// as deep as it nests).
json parse_recipe(std::string_view text, const std::string& name) {
  try {
    return json::parse(text, [&](int depth, json::parse_event_t, json&) {
      if (depth > kMaxDepth) throw Failure(name + " nests deeper than " + std::to_string(kMaxDepth) + " levels");
      return true;
    });
  } catch (const json::parse_error& e) {
    const std::string what = e.what();
    throw Failure(name + " is not JSON: " + what.substr(what.find("] ") == std::string::npos ? 0 : what.find("] ") + 2));
  }
}

// The member `key` of `object` (`where` names it in messages), of the kind `is` checks.
const json& member(const json& object, const char* key, const std::string& where, bool (json::*is)() const noexcept,
                   const char* kind) {
  if (!object.is_object() || !object.contains(key)) throw Failure(where + " has no \"" + key + "\"");
  const json& value = object.at(key);
  if (!(value.*is)()) throw Failure(where + ": \"" + key + "\" is not " + kind);
  return value;
}
const std::string& text_member(const json& object, const char* key, const std::string& where) {
  const json& value = member(object, key, where, &json::is_string, "a string");
  if (value.get_ref<const std::string&>().size() > kMaxFormula) throw Failure(where + ": \"" + key + "\" is longer than 1000 bytes");
  return value.get_ref<const std::string&>();
}
long long whole_member(const json& object, const char* key, const std::string& where, long long low, long long high) {
  const json& value = member(object, key, where, &json::is_number_integer, "a whole number");
  const long long v = value.is_number_unsigned() && value.get<unsigned long long>() > static_cast<unsigned long long>(high) ? high + 1
                                                                                                                          : value.get<long long>();
  if (v < low || v > high)
    throw Failure(where + ": \"" + key + "\" " + value.dump() + " is out of range " + std::to_string(low) + ".." + std::to_string(high));
  return v;
}
const json& list_member(const json& object, const char* key, const std::string& where, size_t low, size_t high) {
  const json& value = member(object, key, where, &json::is_array, "a list");
  if (value.size() < low || value.size() > high)
    throw Failure(where + ": \"" + key + "\" has " + std::to_string(value.size()) + " entries, not " + std::to_string(low) + ".." +
                  std::to_string(high));
  return value;
}
// A list of whole numbers in low..high, of exactly `count`.
void wholes(const json& object, const char* key, const std::string& where, size_t count, long long low, long long high) {
  const json& list = list_member(object, key, where, count, count);
  for (size_t i = 0; i < count; ++i) {
    if (!list[i].is_number_integer()) throw Failure(where + ": \"" + key + "\" holds " + list[i].dump() + ", not a whole number");
    const long long v = list[i].is_number_unsigned() && list[i].get<unsigned long long>() > static_cast<unsigned long long>(high)
                            ? high + 1
                            : list[i].get<long long>();
    if (v < low || v > high)
      throw Failure(where + ": \"" + key + "\" holds " + list[i].dump() + ", out of range " + std::to_string(low) + ".." + std::to_string(high));
  }
}

// The formats a texture of a recipe has, and the raw (unsigned-integer) image format of each, of
// the same size a texel: an image binding reads and writes a texture in one of the two.
// A depth texture (an effect's frame's depth, filled from its data file) is only ever sampled: it
// has no image format, so no raw twin.
// Each by the name the recipe's "format" gives it (blurlab's).
const std::map<std::string, std::string> kTextureFormatNames = {
    {"GL_RGBA8", "rgba8"}, {"GL_RGBA16F", "rgba16f"}, {"GL_RGBA32F", "rgba32f"}, {"GL_DEPTH_COMPONENT32F", "depth32f"}};
const std::set<std::string> kTextureFormats = {"GL_RGBA8", "GL_RGBA16F", "GL_RGBA32F", "GL_DEPTH_COMPONENT32F"};
const std::map<std::string, std::string> kRawTwin = {{"GL_RGBA8", "GL_R32UI"}, {"GL_RGBA16F", "GL_RG32UI"}, {"GL_RGBA32F", "GL_RGBA32UI"}};

// "rgba8" of "GL_RGBA8": the recipe's lower-case name of a GL format.
std::string lower_name(std::string gl_name) {
  gl_name.erase(0, 3);
  for (char& c : gl_name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return gl_name;
}

// The text member `key` of `object`, one of `allowed`.
const std::string& one_of(const json& object, const char* key, const std::string& where, const std::set<std::string>& allowed) {
  const std::string& value = text_member(object, key, where);
  if (!allowed.count(value)) {
    std::string list;
    for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
    throw Failure(where + ": \"" + key + "\" '" + value + "' is not one of " + list);
  }
  return value;
}

// Every value of the recipe the runner uses, with its type and range, and what the passes need:
// groups of at least 1 (with [0, 0, 0] nothing ran and the destination came out black, exit 0),
// shaders by plain names, every texture filled from a file checked by the radius_map or the frame, a
// depth texture only sampled, and no texture read before something fills it (the source by the
// image or its data file, others by their data file or an earlier pass), the destination written.
// After this, run() reads nothing it has not checked.
void check_recipe(const json& r) {
  if (!r.is_object() || r.value("format", json()) != "blurlab-recipe" || r.value("version", json()) != 3)
    throw Failure("not a blurlab recipe of version 3");
  if (r.contains("effect")) {  // an effect's chain, by its implementation
    text_member(r, "effect", "the recipe");
    text_member(r, "implementation", "the recipe");
  } else {
    text_member(r, "variant", "the recipe");
  }
  whole_member(r, "width", "the recipe", 1, kMaxSide);
  whole_member(r, "height", "the recipe", 1, kMaxSide);
  member(member(r, "light", "the recipe", &json::is_object, "an object"), "linear", "\"light\"", &json::is_boolean, "true or false");
  whole_member(member(member(r, "after_last_pass", "the recipe", &json::is_object, "an object"), "read_back", "\"after_last_pass\"",
                      &json::is_object, "an object"),
               "bits", "\"read_back\"", 0, 0xffffffffLL);
  std::set<std::string> names, filled{"source"}, scratch;
  std::map<std::string, std::string> formats;  // texture -> internal_format
  std::vector<std::string> with_contents;
  for (const json& t : list_member(r, "textures", "the recipe", 2, kMaxItems)) {
    const std::string where = "a texture";
    const std::string& name = text_member(t, "name", where);
    const std::string what = "texture '" + name + "'";
    if (!names.insert(name).second) throw Failure("two textures are named '" + name + "'");
    whole_member(t, "width", what, 1, kMaxSide);
    whole_member(t, "height", what, 1, kMaxSide);
    whole_member(t, "levels", what, 1, 15);
    const std::string& format = one_of(t, "internal_format", what, kTextureFormats);
    if (t.contains("format") && t.at("format") != kTextureFormatNames.at(format))
      throw Failure(what + ": \"format\" " + printable(t.at("format").dump()) + " is not its internal_format " + format);
    formats[name] = format;
    text_member(t, "size_formula", what);
    if (t.contains("initial_contents")) {
      if (t.contains("contents")) throw Failure(what + " has both \"contents\" and \"initial_contents\"");
      if (format == kDepthFormat) throw Failure(what + " is a depth texture: its contents come from a file, not \"initial_contents\"");
      if (one_of(t, "initial_contents", what, {"zeros", "scratch"}) == "zeros") filled.insert(name);
      else scratch.insert(name);
    }
    if (t.contains("contents")) {
      const json& c = member(t, "contents", what, &json::is_object, "an object");
      text_member(c, "file", what + " contents");
      for (const char* key : {"pixel_format", "pixel_type", "byte_order"}) text_member(c, key, what + " contents");
      whole_member(c, "bytes", what + " contents", 0, 1LL << 40);
      whole_member(c, "bytes_per_texel", what + " contents", 1, 16);
      with_contents.push_back(name);
      filled.insert(name);
    }
  }
  for (const char* needed : {"source", "destination"})
    if (!names.count(needed)) throw Failure("the recipe has no texture '" + std::string(needed) + "'");
  if (formats.at("destination") == kDepthFormat) throw Failure("texture 'destination' is a depth texture, not a picture");
  if (r.contains("radius_map")) whole_member(member(r, "radius_map", "the recipe", &json::is_object, "an object"), "max_level", "\"radius_map\"", 0, 255);
  // Data files hold what only the radius_map or the frame says how to check: without them, any bytes
  // (NaN weights, a frame of infinities) would pass.
  std::set<std::string> checked;
  if (r.contains("radius_map")) {
    const json& map = r.at("radius_map");
    for (const char* part : {"levels", "weights"})
      if (map.contains(part)) checked.insert(text_member(member(map, part, "\"radius_map\"", &json::is_object, "an object"), "texture", part));
  }
  if (r.contains("frame")) {
    const json& frame = member(r, "frame", "the recipe", &json::is_object, "an object");
    for (const auto& [part, format] : {std::pair{"source", "GL_RGBA16F"}, std::pair{"depth", kDepthFormat.data()}}) {
      if (!frame.contains(part)) continue;
      const std::string where = "\"frame\" " + std::string(part);
      const std::string& texture = text_member(member(frame, part, "\"frame\"", &json::is_object, "an object"), "texture", where);
      if (part == std::string("source") && texture != "source") throw Failure(where + " is texture '" + texture + "', not 'source'");
      if (!formats.count(texture)) throw Failure(where + ": no texture '" + texture + "'");
      if (formats.at(texture) != format) throw Failure(where + ": texture '" + texture + "' is " + formats.at(texture) + ", not " + format);
      if (std::find(with_contents.begin(), with_contents.end(), texture) == with_contents.end())
        throw Failure(where + ": texture '" + texture + "' has no \"contents\" to fill it from");
      checked.insert(texture);
    }
    if (!frame.contains("source")) throw Failure("\"frame\" has no \"source\"");
  }
  for (const std::string& name : with_contents)
    if (!checked.count(name))
      throw Failure("texture '" + name + "' is filled from a file, but neither the recipe's \"radius_map\" nor its \"frame\" checks it");
  for (const auto& [name, format] : formats)
    if (format == kDepthFormat && !checked.count(name)) throw Failure("depth texture '" + name + "' is not the frame's depth");
  const json& passes = list_member(r, "passes", "the recipe", 1, kMaxItems);
  for (size_t i = 0; i < passes.size(); ++i) {
    const json& p = passes[i];
    const std::string what = "pass " + std::to_string(i + 1) + " ('" + text_member(p, "name", "a pass") + "')";
    const json& shaders = member(p, "shaders", what, &json::is_object, "an object");
    if (shaders.empty() || shaders.size() > 3) throw Failure(what + ": " + std::to_string(shaders.size()) + " shaders, not 1..3");
    for (const auto& [stage, file] : shaders.items()) {
      if (!file.is_string()) throw Failure(what + ": shader " + printable(stage) + " is not a file name");
      file_in(".", file.get<std::string>(), "shader");
    }
    std::vector<std::string> written;
    std::set<long long> image_units, texture_units;
    for (const json& b : list_member(p, "bindings", what, 0, 32)) {
      const std::string& texture = text_member(b, "texture", what + ", a binding");
      if (!names.count(texture)) throw Failure(what + " binds texture '" + texture + "', which the recipe does not list");
      const std::string where = what + ", binding of " + texture;
      const long long unit = whole_member(b, "unit", where, 0, 31);
      const std::string& kind = one_of(b, "kind", where, {"image_read", "image_write", "image_read_write", "sampled_nearest", "sampled_linear"});
      const bool image = kind.rfind("image_", 0) == 0;
      // Image units and texture units are two sets of units: two bindings on one unit of a set
      // leave one of them unbound (the other texture read or written in its place).
      if (!(image ? image_units : texture_units).insert(unit).second)
        throw Failure(where + ": " + (image ? "image" : "texture") + " unit " + std::to_string(unit) + " is bound twice in the pass");
      bool reads = true;
      if (image) {
        if (!b.contains("image_format") || b.contains("sampler")) throw Failure(where + ": an image binding names an image format and no sampler");
        const std::string& access = one_of(b, "access", where, {"GL_READ_ONLY", "GL_WRITE_ONLY", "GL_READ_WRITE"});
        const std::string expected_access = kind == "image_read" ? "GL_READ_ONLY" : kind == "image_write" ? "GL_WRITE_ONLY" : "GL_READ_WRITE";
        if (access != expected_access) throw Failure(where + ": access " + access + " is not what " + kind + " takes (" + expected_access + ")");
        // The texture's own format, or its raw twin of the same size (bits read as they are): any
        // other reads the texels as values they are not.
        const std::string& gl_format = text_member(b, "gl_image_format", where);
        const std::string& own = formats.at(texture);
        if (own == kDepthFormat) throw Failure(where + ": a depth texture is sampled, never bound as an image");
        if (gl_format != own && gl_format != kRawTwin.at(own))
          throw Failure(where + ": image format " + gl_format + " is neither the texture's " + own + " nor its raw twin " + kRawTwin.at(own));
        if (b.at("image_format") != lower_name(gl_format))
          throw Failure(where + ": \"image_format\" " + printable(b.at("image_format").dump()) + " is not " + gl_format);
        reads = access != "GL_WRITE_ONLY";
        if (access != "GL_READ_ONLY") written.push_back(texture);
        // A texture nothing filled, bound to be read and written: only one the recipe declares its
        // passes' scratch (each writes a texel before reading it) may be; any other reads what GL
        // left there.
        if (access == "GL_READ_WRITE" && !filled.count(texture) && !scratch.count(texture))
          throw Failure(what + " reads and writes texture '" + texture + "' (GL_READ_WRITE) before anything fills it, and the recipe "
                        "does not declare it scratch (\"initial_contents\")");
      } else {
        if (b.contains("image_format") || b.contains("access")) throw Failure(where + ": a sampled binding names an image format or access");
        const json& sampler = member(b, "sampler", where, &json::is_object, "an object");
        const std::string filter = kind == "sampled_linear" ? "GL_LINEAR" : "GL_NEAREST";
        for (const char* key : {"min_filter", "mag_filter"})
          if (one_of(sampler, key, what + ", sampler of " + texture, {"GL_NEAREST", "GL_LINEAR"}) != filter)
            throw Failure(what + ", sampler of " + texture + ": \"" + key + "\" is not " + filter + ", which " + kind + " takes");
        for (const char* key : {"wrap_s", "wrap_t"})
          one_of(sampler, key, what + ", sampler of " + texture, {"GL_CLAMP_TO_EDGE", "GL_REPEAT", "GL_MIRRORED_REPEAT", "GL_CLAMP_TO_BORDER"});
        if (sampler.contains("border_color")) {
          const json& colour = list_member(sampler, "border_color", what + ", sampler of " + texture, 4, 4);
          for (const json& v : colour)
            if (!v.is_number()) throw Failure(what + ", sampler of " + texture + ": \"border_color\" holds " + v.dump() + ", not a number");
        }
      }
      // A texture nothing filled reads as whatever GL leaves there: the blur of an image never given.
      if (reads && !filled.count(texture) && !(scratch.count(texture) && b.value("access", "") == "GL_READ_WRITE"))
        throw Failure(what + " reads texture '" + texture + "' before anything fills it");
    }
    whole_member(p, "barriers_before", what, 0, 0xffffffffLL);
    if (p.contains("groups")) {
      wholes(p, "groups", what, 3, 1, kMaxGroups);
      text_member(p, "groups_formula", what);
    } else {
      const json& fb = member(p, "framebuffer", what + " (no \"groups\")", &json::is_object, "an object");
      const std::string& target = text_member(fb, "color_attachment0", what + ", framebuffer");
      if (!names.count(target)) throw Failure(what + " draws into texture '" + target + "', which the recipe does not list");
      if (formats.at(target) == kDepthFormat) throw Failure(what + " draws into depth texture '" + target + "' as a colour attachment");
      whole_member(fb, "level", what + ", framebuffer", 0, 14);
      wholes(p, "viewport", what, 4, 0, kMaxSide);
      if (p.at("viewport")[2] == 0 || p.at("viewport")[3] == 0) throw Failure(what + ": the viewport is empty");
      text_member(p, "viewport_formula", what);
      const json& draw = member(p, "draw", what, &json::is_object, "an object");
      text_member(draw, "mode", what + ", draw");
      whole_member(draw, "first", what + ", draw", 0, 1 << 20);
      whole_member(draw, "count", what + ", draw", 1, 1 << 20);
      written.push_back(target);
    }
    filled.insert(written.begin(), written.end());
  }
  bool destination = false;
  for (const json& p : passes) {
    if (p.contains("framebuffer") && p.at("framebuffer").at("color_attachment0") == "destination") destination = true;
    for (const json& b : p.at("bindings"))
      if (b.at("texture") == "destination" && b.value("access", "") != "" && b.value("access", "") != "GL_READ_ONLY") destination = true;
  }
  if (!destination) throw Failure("no pass writes texture 'destination'");
}

// A library's exception as one line of ours: nlohmann's "[json.exception.type_error.302] type must
// be number, but is string" without its tag, so a field of the wrong kind reads as what it is.
std::string message_of(const std::exception& e) {
  std::string what = e.what();
  if (dynamic_cast<const json::exception*>(&e) && what.rfind("[json.exception.", 0) == 0 && what.find("] ") != std::string::npos)
    what = "the recipe has a value of the wrong kind: " + what.substr(what.find("] ") + 2);
  else if (dynamic_cast<const std::bad_alloc*>(&e))
    what = "out of memory";
  return printable(what);
}

// The texture "source" of a recipe that fills it from a data file (an effect's HDR frame), or nullptr
// for one that takes IN.png.
const json* frame_source(const json& recipe) {
  for (const json& t : recipe.at("textures"))
    if (t.at("name") == "source" && t.contains("contents")) return &t;
  return nullptr;
}

// The sizes the recipe holds for ("holds_for": width, height and texels, each [low, high]): those
// at which blurlab makes the programs it carries. Another size is refused, as a recipe of another
// size without formulas is: blurlab would run other programs there.
void check_holds_for(const json& recipe, long long w, long long h, const std::string& in) {
  if (!recipe.contains("holds_for")) return;
  const json& holds = recipe.at("holds_for");
  const auto range = [&](const char* key) {
    const json* r = holds.is_object() && holds.contains(key) ? &holds.at(key) : nullptr;
    if (!r || !r->is_array() || r->size() != 2 || !r->at(0).is_number_integer() || !r->at(1).is_number_integer() ||
        r->at(0).get<long long>() < 1 || r->at(1).get<long long>() < r->at(0).get<long long>())
      throw Failure(std::string("holds_for.") + key + " is not [low, high], whole numbers from 1 up");
    return std::pair{r->at(0).get<long long>(), r->at(1).get<long long>()};
  };
  const auto [w0, w1] = range("width");
  const auto [h0, h1] = range("height");
  const auto [t0, t1] = range("texels");
  if (w >= w0 && w <= w1 && h >= h0 && h <= h1 && w * h >= t0 && w * h <= t1) return;
  const auto span = [](long long lo, long long hi) { return lo == hi ? std::to_string(lo) : std::to_string(lo) + ".." + std::to_string(hi); };
  std::string decided;
  if (holds.contains("decided_by_size") && holds.at("decided_by_size").is_string()) decided = " (" + holds.at("decided_by_size").get<std::string>() + ")";
  throw Failure(in + " is " + size_text(w, h) + ": the recipe holds for widths " + span(w0, w1) + ", heights " + span(h0, h1) + " and " +
                span(t0, t1) + " texels" + decided + ", where blurlab makes the programs it carries; export the blur again at " +
                size_text(w, h));
}

// `in`: IN.png, for a recipe that blurs an image; none for one whose frame comes from its data file.
int run(const fs::path& recipe_path, const std::optional<std::string>& in, const std::string& out) {
  check_output(out, in, recipe_path);
  // OUT.png gets PNG bytes: another extension (x.jpg) would name a format the file is not.
  if (const std::string tail = out.substr(out.size() - std::min<size_t>(4, out.size())); tail != ".png" && tail != ".PNG")
    throw Failure("OUT.png " + named(out) + " does not end in .png: the runner writes PNG files only");
  const json exported = parse_recipe(read_file(recipe_path, kMaxRecipeBytes, "the recipe"), named(recipe_path));
  int formulas = 0;
  try {
    check_recipe(exported);
    formulas = check_formulas(exported);
  } catch (const Failure& e) {
    throw Failure(named(recipe_path) + ": " + e.what());
  }
  // Which frame the recipe takes decides the command line: a usage mistake, before any file is read.
  const json* from_data = frame_source(exported);
  if (from_data && in)
    throw blurlab::UsageError(named(*in) + " given, but " + named(recipe_path) + " takes its frame from its data file " +
                              from_data->at("contents").at("file").get<std::string>() + ": run blurlab-run-recipe RECIPE OUT.png");
  if (!from_data && !in)
    throw blurlab::UsageError(named(recipe_path) + " blurs an image and none was given: run blurlab-run-recipe RECIPE IN.png OUT.png");
  const fs::path dir = recipe_path.parent_path();
  // Every data file is read and checked before GL starts: a bad one costs no context.
  std::map<std::string, std::vector<uint8_t>> contents;
  for (const json& t : exported.at("textures"))
    if (t.contains("contents")) contents[t.at("name")] = read_contents(dir, t);
  if (exported.contains("radius_map")) check_radius_map(exported, contents);
  if (exported.contains("frame")) check_frame(exported, contents);
  const std::map<std::string, std::string> shader_texts = read_shaders(dir, exported.at("passes"));
  // A frame from data runs at the recipe's size; an image at its own, where the recipe holds for it
  // and the formulas allow: what the recipe's own formulas and data files say of the size first (a
  // map made per pixel, a texture without a formula: the specific reason), then the sizes blurlab
  // makes its programs for.
  const std::optional<Picture> picture = in ? std::optional(read_png(*in)) : std::nullopt;
  const json recipe = picture ? at_size(exported, picture->width, picture->height, *in) : exported;
  if (picture) check_holds_for(exported, picture->width, picture->height, *in);
  const long long width = recipe.at("width"), height = recipe.at("height");
  try {
    check_recipe(recipe);  // the sizes its formulas give for IN.png's, within range too
  } catch (const Failure& e) {
    throw Failure(named(recipe_path) + " at " + size_text(width, height) + ": " + e.what());
  }
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
    } else if (t.value("initial_contents", "") == "zeros") {  // counters the passes count in and leave zero again
      const std::vector<float> zeros(static_cast<size_t>(texture.width) * texture.height * 4, 0.0f);
      glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
      glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, texture.width, texture.height, GL_RGBA, GL_FLOAT, zeros.data());
    }
    textures[t.at("name")] = texture;
  }
  const bool linear = recipe.at("light").at("linear");
  const Texture& source = textures.at("source");
  const Texture& destination = textures.at("destination");
  if (picture) {  // else its data file filled it above
    if (picture->width != source.width || picture->height != source.height)
      throw Failure(*in + " is " + size_text(picture->width, picture->height) + ", the source texture " + size_text(source.width, source.height));
    glBindTexture(GL_TEXTURE_2D, source.id);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    if (source.unorm8 && !linear) {
      glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, source.width, source.height, GL_RGBA, GL_UNSIGNED_BYTE, picture->rgba.data());
    } else {
      std::vector<float> values(picture->rgba.size());
      for (size_t i = 0; i < values.size(); ++i) {
        const double v = picture->rgba[i] / 255.0;
        values[i] = static_cast<float>(linear && i % 4 != 3 ? decode_srgb(v) : v);  // alpha is not encoded
      }
      glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, source.width, source.height, GL_RGBA, GL_FLOAT, values.data());
    }
    glBindTexture(GL_TEXTURE_2D, 0);
  }

  GLuint vertex_array = 0;
  glGenVertexArrays(1, &vertex_array);
  std::vector<GLuint> samplers, framebuffers;
  // Every program compiled before the first pass, as an engine does at load time: passes then go
  // to the GPU back to back, so a pass can start while the one before still runs, and only the
  // recipe's barriers keep it from reading what that one has not yet written (compiled between
  // passes, a GPU had long finished each pass before the next reached it).
  std::vector<GLuint> programs;
  for (const json& pass : recipe.at("passes")) programs.push_back(compile(pass.at("shaders"), shader_texts));
  for (size_t index = 0; index < programs.size(); ++index) {
    const json& pass = recipe.at("passes")[index];
    glUseProgram(programs[index]);
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
  }
  for (const GLuint program : programs) glDeleteProgram(program);
  if (const GLbitfield bits = recipe.at("after_last_pass").at("read_back").at("bits"); bits != 0) glMemoryBarrier(bits);
  std::vector<float> result(static_cast<size_t>(destination.width) * destination.height * 4);
  glBindTexture(GL_TEXTURE_2D, destination.id);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, result.data());
  if (const GLenum error = glGetError(); error != GL_NO_ERROR) throw Failure("GL error " + std::to_string(error) + " running the recipe");

  Picture blurred{destination.width, destination.height, std::vector<uint8_t>(result.size())};
  for (size_t i = 0; i < result.size(); ++i) {
    if (!std::isfinite(result[i]))  // no pixel of a blur is; std::lround of a NaN is undefined
      throw Failure("the blur gives " + std::to_string(result[i]) + " at texel (" + std::to_string(i / 4 % destination.width) + ", " +
                    std::to_string(i / 4 / destination.width) + ")");
    const double v = linear && i % 4 != 3 ? encode_srgb(result[i]) : result[i];
    blurred.rgba[i] = static_cast<uint8_t>(std::lround(std::clamp(v, 0.0, 1.0) * 255.0));
  }
  write_png(out, blurred);
  const std::string what = recipe.contains("effect") ? recipe.at("effect").get<std::string>() + " by " + recipe.at("implementation").get<std::string>()
                                                     : recipe.at("variant").get<std::string>();
  std::printf("%s: ran %zu passes at %s from %s alone%s (%d formulas agree with its counts at %s); wrote %s\n", printable(what).c_str(),
              recipe.at("passes").size(), size_text(width, height).c_str(), printable(recipe_path.string()).c_str(),
              from_data ? (" and its frame " + printable(from_data->at("contents").at("file").get<std::string>())).c_str() : "", formulas,
              size_text(exported.at("width"), exported.at("height")).c_str(), printable(out).c_str());
  return 0;
}

}  // namespace

#ifndef RUN_RECIPE_NO_MAIN  // tests/fuzz/fuzz_recipe.cpp takes the reader without it
int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {  // IN.png for a recipe that blurs an image; none for one whose frame is its data file
    std::fprintf(stderr, "usage: blurlab-run-recipe DIR/recipe.json [IN.png] OUT.png\n");
    return 2;
  }
  // As blurlab (app/main.cpp): a write that cannot be done is an error with its reason (EPIPE,
  // EFBIG), not a signal that ends the process without a word.
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGXFSZ, SIG_IGN);
  try {
    const int code = argc == 4 ? run(argv[1], std::string(argv[2]), argv[3]) : run(argv[1], std::nullopt, argv[2]);
    blurlab::check_standard_output();  // the line it printed reached its reader, or the exit code says so
    return code;
  } catch (const blurlab::Error& e) {  // Failure, and blurlab's own (files, GLSL bounds): 2 for a usage mistake
    std::fprintf(stderr, "blurlab-run-recipe: %s\n", printable(e.what()).c_str());
    return e.exit_code();
  } catch (const std::exception& e) {  // nlohmann's, std::filesystem's, no memory: one line of ours too
    std::fprintf(stderr, "blurlab-run-recipe: %s\n", message_of(e).c_str());
  }
  return 1;
}
#endif
