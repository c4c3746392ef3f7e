#include "export/export.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "blur/kernel.h"
#include "blur/pipeline.h"
#include "blur/radius_map.h"
#include "blur/registry.h"
#include "gl/preprocess.h"
#include "util/error.h"
#include "util/files.h"
#include "report/effect_report.h"
#include "report/report.h"
#include "util/json_text.h"
#include "util/markup.h"
#include "util/strings.h"

namespace blurlab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string float_literal(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", static_cast<double>(static_cast<float>(value)));  // the float exactly
  std::string s = text;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

// "vec4(a, b, c, d), vec4(...)" from a flat list, zero-padded to whole vec4s (at least one).
std::string vec4_list(const std::vector<double>& values) {
  std::string out;
  const size_t count = std::max<size_t>(1, (values.size() + 3) / 4);
  for (size_t v = 0; v < count; ++v) {
    out += v ? ", vec4(" : "vec4(";
    for (size_t c = 0; c < 4; ++c) {
      const size_t i = 4 * v + c;
      out += (c ? ", " : "") + float_literal(i < values.size() ? values[i] : 0.0);
    }
    out += ")";
  }
  return out;
}

std::string_view stage_extension(GLenum stage) {
  switch (stage) {
    case GL_VERTEX_SHADER: return "vert";
    case GL_FRAGMENT_SHADER: return "frag";
    default: return "comp";
  }
}

std::string_view stage_name(GLenum stage) {
  switch (stage) {
    case GL_VERTEX_SHADER: return "vertex";
    case GL_FRAGMENT_SHADER: return "fragment";
    default: return "compute";
  }
}

std::string barrier_names(GLbitfield bits) {
  std::string out;
  for (auto [bit, name] : {std::pair{GL_SHADER_IMAGE_ACCESS_BARRIER_BIT, "GL_SHADER_IMAGE_ACCESS_BARRIER_BIT"},
                           std::pair{GL_TEXTURE_FETCH_BARRIER_BIT, "GL_TEXTURE_FETCH_BARRIER_BIT"},
                           std::pair{GL_FRAMEBUFFER_BARRIER_BIT, "GL_FRAMEBUFFER_BARRIER_BIT"},
                           std::pair{GL_TEXTURE_UPDATE_BARRIER_BIT, "GL_TEXTURE_UPDATE_BARRIER_BIT"}})
    if (bits & static_cast<GLbitfield>(bit)) out += (out.empty() ? "" : " | ") + std::string(name);
  return out;
}

std::string_view binding_kind(Binding::Kind kind) {
  switch (kind) {
    case Binding::Kind::ImageRead: return "image_read";
    case Binding::Kind::ImageWrite: return "image_write";
    case Binding::Kind::ImageReadWrite: return "image_read_write";
    case Binding::Kind::Sampled: return "sampled_nearest";
    case Binding::Kind::SampledLinear: return "sampled_linear";
  }
  return "?";
}

// The sampler wrap mode of a hardware-linear fetch for a border mode (BlurPipeline::set_linear_wrap:
// reflect101 has none, the shader folds the position and fetches clamped to the edge).
std::string sampler_wrap_name(BorderMode mode) {
  switch (mode) {
    case BorderMode::Reflect: return "GL_MIRRORED_REPEAT";
    case BorderMode::Wrap: return "GL_REPEAT";
    case BorderMode::Constant: return "GL_CLAMP_TO_BORDER";
    default: return "GL_CLAMP_TO_EDGE";
  }
}

std::string_view image_access(Binding::Kind kind) {
  return kind == Binding::Kind::ImageRead ? "GL_READ_ONLY" : kind == Binding::Kind::ImageWrite ? "GL_WRITE_ONLY" : "GL_READ_WRITE";
}

// The GL name of an internal format or image format.
std::string gl_format_name(std::string_view format) {
  std::string upper(format);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return "GL_" + upper;
}

// A texture's size in the image's W x H: the image's, its transpose, or level k of a pyramid of
// halvings (each level ceil(size / 2) of the one before, so level k is ceil(W / 2^k)).
std::string size_formula(glm::ivec2 size, glm::ivec2 image) {
  if (size == image) return "W x H";
  if (size == glm::ivec2(image.y, image.x)) return "H x W (transposed)";
  for (int k = 1; k < 31 && (1 << (k - 1)) < std::max(image.x, image.y); ++k) {
    const int scale = 1 << k;
    if (size == glm::ivec2((image.x + scale - 1) / scale, (image.y + scale - 1) / scale))
      return "ceil(W / " + std::to_string(scale) + ") x ceil(H / " + std::to_string(scale) + ") (level " + std::to_string(k) +
             " of a pyramid)";
  }
  return "fixed for this image size";
}

// The glMemoryBarrier bits a reader of `destination` needs after the last pass, per way of
// reading it: none where only rendering wrote it (GL orders framebuffer writes itself).
json after_last_pass(const Recording& recording) {
  bool stored = false;  // image stores into the destination (texture 1)
  for (const RecordedPass& p : recording.passes)
    for (const RecordedBinding& b : p.bindings)
      if (b.texture == 1 && (b.kind == Binding::Kind::ImageWrite || b.kind == Binding::Kind::ImageReadWrite)) stored = true;
  json after = {{"destination_written_by", stored ? "image stores" : "rendering into a framebuffer"}};
  for (auto [use, bit] : {std::pair{"sample", GL_TEXTURE_FETCH_BARRIER_BIT}, std::pair{"read_back", GL_TEXTURE_UPDATE_BARRIER_BIT},
                          std::pair{"image_load", GL_SHADER_IMAGE_ACCESS_BARRIER_BIT}, std::pair{"framebuffer", GL_FRAMEBUFFER_BARRIER_BIT}}) {
    const GLbitfield bits = stored ? static_cast<GLbitfield>(bit) : 0;
    after[use] = {{"bits", bits}, {"names", barrier_names(bits)}};
  }
  return after;
}

// The GL name of a pixel type a texture's contents are stored in (gl::FormatInfo::storage_type).
std::string_view pixel_type_name(GLenum type) {
  switch (type) {
    case GL_UNSIGNED_BYTE: return "GL_UNSIGNED_BYTE";
    case GL_HALF_FLOAT: return "GL_HALF_FLOAT";
    default: return "GL_FLOAT";
  }
}

// What a texture holds before the first pass that a recipe must say, besides data files: "zeros"
// (the counters, RecordedTexture::zeros: cleared once), "scratch" (a texture whose first pass binds
// it read-write: each pass that binds it writes a texel before it reads it, so it needs nothing),
// else "" (the image, or what a pass writes before any reads it).
std::string initial_contents(const Recording& recording, size_t texture) {
  if (recording.textures[texture].zeros) return "zeros";
  if (texture == 0 || !recording.textures[texture].contents.empty()) return "";
  for (const RecordedPass& p : recording.passes) {
    if (p.stage != Stage::Compute && p.target == texture) return "";
    for (const RecordedBinding& b : p.bindings)
      if (b.texture == texture) return b.kind == Binding::Kind::ImageReadWrite ? "scratch" : "";
  }
  return "";
}

// The data file of a texture the recipe must fill (RecordedTexture::contents).
std::string contents_file(const RecordedTexture& t) { return t.name + ".bin"; }

bool is_image(Binding::Kind kind) {
  return kind == Binding::Kind::ImageRead || kind == Binding::Kind::ImageWrite || kind == Binding::Kind::ImageReadWrite;
}

// The image format a binding uses: the texture's own, or its raw unsigned-integer twin.
std::string_view image_format(const RecordedBinding& b, const Recording& r) {
  const gl::FormatInfo& info = gl::info(r.textures[b.texture].format);
  return b.raw ? info.raw_name : info.name;
}

// What the export is called: the variant, or an effect's chain by its implementation ("bloom by fft").
std::string exported_name(const ExportRequest& r) {
  return r.effect ? std::string(r.effect->name) + " by " + r.effect_settings.implementation : std::string(r.variant->name);
}

// The settings in one line: the blur's, or the effect's parameters, border and blur-stage knobs.
std::string settings_text(const ExportRequest& r) {
  if (!r.effect) return describe(*r.variant, r.settings);
  std::string text;
  for (const auto& [parameter, value] : r.effect_settings.values) text += (text.empty() ? "" : " ") + parameter + "=" + value;
  text += ", border " + describe(r.effect_settings.border);
  for (const auto& [knob, value] : r.effect_settings.knobs) text += ", " + knob + " " + std::to_string(value.x) + "x" + std::to_string(value.y);
  return text;
}

// The border every blur of the export reads by (an effect's blur stages take the effect's).
const Border& border_of(const ExportRequest& r) { return r.effect ? r.effect_settings.border : r.settings.border; }

// What the check compared the output with.
std::string check_reference(const ExportRequest& r) {
  if (r.effect) return "blurlab's CPU expectation of each stage, given the stage's input as the GPU made it";
  return is_approximation(*r.variant) ? "blurlab's CPU model of its algorithm" : "blurlab's CPU reference (the exact blur)";
}

// An effect's fidelity: the shipped picture against the effect's ground truth (EffectInfo::check:
// computed on the CPU in double precision from the same HDR frame), and the effect's layer.
bool effect_meets_bar(const EffectFidelity& f) { return !std::isfinite(f.psnr_db) || f.psnr_db >= report::kEffectBarDb; }

std::string effect_fidelity_against(const ExportRequest& r) {
  return std::string(r.effect->name) + "'s ground truth (the CPU's in double precision from the same HDR frame)";
}

// "PSNR 51.2 dB, max 1 LSB, RMS 0.4 LSB on the picture, bloom layer max 0.1%, RMS 0.02% off, against ..."
std::string effect_fidelity_summary(const ExportRequest& r) {
  const EffectFidelity& f = *r.effect_fidelity;
  std::string text = (std::isfinite(f.psnr_db) ? "PSNR " + format_double(f.psnr_db, 3) + " dB" : std::string("equal (no PSNR)")) +
                     ", max " + format_double(f.max_lsb, 3) + " LSB, RMS " + format_double(f.rms_lsb, 3) + " LSB on the picture";
  if (!f.layer.empty())
    text += "; its " + f.layer + " off by at most " + format_double(100.0 * f.layer_max_relative, 3) + "% and RMS " +
            format_double(100.0 * f.layer_rms_relative, 3) + "% of the truth's";
  return text + ", against " + effect_fidelity_against(r) + ", on " + r.input +
         (effect_meets_bar(f) ? "" : "; below the " + format_double(report::kEffectBarDb) + " dB bar");
}

json effect_fidelity_json(const ExportRequest& r) {
  const EffectFidelity& f = *r.effect_fidelity;
  json j = {{"against", effect_fidelity_against(r)}, {"max_lsb", f.max_lsb}, {"rms_lsb", f.rms_lsb}, {"measured_on", r.input},
            {"bar_psnr_db", report::kEffectBarDb}, {"meets_bar", effect_meets_bar(f)},
            {"unit", "8-bit steps (LSB) of the shipped picture's R, G and B; PSNR 20 log10(255 / RMS)"}};
  if (std::isfinite(f.psnr_db)) j["psnr_db"] = f.psnr_db;
  if (!f.layer.empty())
    j["layer"] = {{"name", f.layer}, {"max_relative", f.layer_max_relative}, {"rms_relative", f.layer_rms_relative},
                  {"unit", "max |layer - truth| / max |truth|, and RMS of the difference / RMS of the truth, over R, G and B"}};
  if (!effect_meets_bar(f)) j["warning"] = fidelity_warning(r);
  return j;
}

// The sigma an approximation realizes, where it blurs a uniform Gaussian for another asked for.
std::optional<double> realized_sigma(const ExportRequest& r) {
  if (!r.approximation || r.variant->variable_radius || r.settings.kernel.type != KernelType::Gauss) return std::nullopt;
  return r.approximation->sigma;
}

// What the fidelity is measured against: the kernel asked for (an approximation of the Gaussian:
// the exact Gaussian of the sigma asked, whichever it realizes), or per pixel by the radius map.
std::string fidelity_against(const ExportRequest& r) {
  const std::string kernel = report::kernel_text(r.settings.kernel);
  if (r.variant->variable_radius) {
    // A map file by its name alone: the fidelity goes into the shaders' headers, not this machine's paths.
    const RadiusMap* map = r.settings.radius_map.get();
    const std::string name = map && map->shape == MapShape::File ? "file " + fs::path(map->name).filename().string() : describe(map);
    return "the exact per-pixel blur by radius map " + name + " (levels 0.." + std::to_string(r.settings.kernel.radius) + " of " +
           kernel + ")";
  }
  if (const auto sigma = realized_sigma(r)) {
    const std::string asked = format_double(r.settings.kernel.sigma, 4), realized = format_double(*sigma, 4);
    return "the exact Gaussian of sigma " + asked + " asked (" + kernel + ")" +
           (realized == asked ? ", which it realizes" : "; " + std::string(r.variant->name) + " realizes sigma " + realized);
  }
  return "the exact " + kernel + " blur";
}

bool meets_bar(const Fidelity& f) { return !std::isfinite(f.psnr_db) || f.psnr_db >= kFidelityBarDb; }

std::string psnr_words(const Fidelity& f) {
  return std::isfinite(f.psnr_db) ? "PSNR " + format_double(f.psnr_db, 3) + " dB" : "equal (no PSNR)";
}

std::string numbers_words(const Fidelity& f) {
  return psnr_words(f) + ", max " + format_double(f.max_lsb, 3) + " LSB, RMS " + format_double(f.rms_lsb, 3) + " LSB";
}

double psnr_of(const Fidelity& f) { return std::isfinite(f.psnr_db) ? f.psnr_db : INFINITY; }

// The inputs, the worst (lowest PSNR against the kernel asked for) first.
std::vector<const ExportFidelity*> worst_first(const ExportRequest& r) {
  std::vector<const ExportFidelity*> list;
  for (const ExportFidelity& f : r.fidelities)
    if (f.refused.empty()) list.push_back(&f);
  std::stable_sort(list.begin(), list.end(), [](const ExportFidelity* a, const ExportFidelity* b) { return psnr_of(a->asked) < psnr_of(b->asked); });
  return list;
}

json fidelity_numbers(const Fidelity& f) {
  json j = {{"max_lsb", f.max_lsb}, {"rms_lsb", f.rms_lsb}};
  if (std::isfinite(f.psnr_db)) j["psnr_db"] = f.psnr_db;
  return j;
}

// The recipe's "fidelity": against the kernel asked for, on each input, the worst's numbers at the
// top (the bar is judged on it), and both sigmas of an approximation.
json fidelity_json(const ExportRequest& r) {
  const ExportFidelity& worst = *worst_fidelity(r);
  json j = fidelity_numbers(worst.asked);
  j.update({{"against", fidelity_against(r)}, {"measured_on", worst.input}, {"bar_psnr_db", kFidelityBarDb},
            {"meets_bar", meets_bar(worst.asked)}, {"judged_on", "the worst of the inputs (those below)"},
            {"unit", "8-bit steps (LSB) of the input's range; PSNR 20 log10(255 / RMS)"}});
  json inputs = json::array();
  for (const ExportFidelity* f : worst_first(r)) {
    json input = fidelity_numbers(f->asked);
    input["input"] = f->input;
    if (f->realized) input["against_realized_sigma"] = fidelity_numbers(*f->realized);
    inputs.push_back(input);
  }
  for (const ExportFidelity& f : r.fidelities)
    if (!f.refused.empty()) inputs.push_back({{"input", f.input}, {"not_measured", f.refused}});
  j["inputs"] = inputs;
  if (const auto sigma = realized_sigma(r)) {
    j["asked_sigma"] = r.settings.kernel.sigma;
    j["realized_sigma"] = *sigma;
  }
  if (!meets_bar(worst.asked)) j["warning"] = fidelity_warning(r);
  return j;
}

}  // namespace

bool SizeRange::contains(glm::ivec2 z) const {
  const long long texels = static_cast<long long>(z.x) * z.y;
  return z.x >= min_width && z.x <= max_width && z.y >= min_height && z.y <= max_height && texels >= min_texels && texels <= max_texels;
}

namespace {

// The last value from `from` towards `limit` (step +1 or -1) for which `same` holds, every one
// between holding too (each rule of the variants that bakes a size is monotone in it): doubling
// steps, then halving them.
int last_same(int from, int limit, int direction, const std::function<bool(int)>& same) {
  int good = from;
  long long step = 1;
  while (good != limit) {  // gallop to the first that differs
    const long long next = good + direction * step;
    const int probe = static_cast<int>(direction > 0 ? std::min<long long>(next, limit) : std::max<long long>(next, limit));
    if (!same(probe)) {
      int bad = probe;  // good holds, bad does not: halve the gap
      while (std::abs(bad - good) > 1) {
        const int mid = good + (bad - good) / 2;
        (same(mid) ? good : bad) = mid;
      }
      return good;
    }
    good = probe;
    step *= 2;
  }
  return good;
}

}  // namespace

SizeRange sizes_holding(const VariantInfo& v, const BlurSettings& asked, const BlurSettings& made_with, glm::ivec2 z,
                        const gl::GlLimits& limits) {
  const std::vector<ProgramSource> made = program_sources(v, made_with, z);
  const auto same = [&](glm::ivec2 size) {
    const BlurSettings s = resolve(v, asked, size);
    return !unsupported_reason(v, s, size, limits) && program_sources(v, s, size) == made;
  };
  const int limit = limits.max_texture_size;
  SizeRange h;
  h.max_texture_size = limit;
  h.min_width = last_same(z.x, 1, -1, [&](int w) { return same({w, z.y}); });
  h.max_width = last_same(z.x, limit, +1, [&](int w) { return same({w, z.y}); });
  h.min_height = last_same(z.y, 1, -1, [&](int y) { return same({z.x, y}); });
  h.max_height = last_same(z.y, limit, +1, [&](int y) { return same({z.x, y}); });
  h.min_texels = static_cast<long long>(h.min_width) * h.min_height;
  h.max_texels = static_cast<long long>(h.max_width) * h.max_height;
  if (!same({h.max_width, h.max_height}))  // the widest that holds at the tallest
    h.max_texels = static_cast<long long>(last_same(h.min_width, h.max_width, +1, [&](int w) { return same({w, h.max_height}); })) * h.max_height;
  if (!same({h.min_width, h.min_height}))  // the narrowest that holds at the shortest
    h.min_texels = static_cast<long long>(last_same(h.max_width, h.min_width, -1, [&](int w) { return same({w, h.min_height}); })) * h.min_height;
  return h;
}

bool SizeRange::any_size() const {
  return min_width == 1 && min_height == 1 && max_width >= max_texture_size && max_height >= max_texture_size && min_texels <= 1 &&
         max_texels >= static_cast<long long>(max_width) * max_height;
}

const ExportFidelity* worst_fidelity(const ExportRequest& r) {
  const auto list = worst_first(r);
  return list.empty() ? nullptr : list.front();
}

std::string fidelity_warning(const ExportRequest& r) {
  if (r.effect) {
    if (!r.effect_fidelity || effect_meets_bar(*r.effect_fidelity)) return "";
    return exported_name(r) + " comes to PSNR " + format_double(r.effect_fidelity->psnr_db, 3) + " dB (max " +
           format_double(r.effect_fidelity->max_lsb, 3) + " LSB) of " + effect_fidelity_against(r) + ", below the " +
           format_double(report::kEffectBarDb) + " dB at which blurlab's report counts an implementation as close enough";
  }
  const ExportFidelity* worst = worst_fidelity(r);
  if (!worst || meets_bar(worst->asked)) return "";
  return std::string(r.variant->name) + " comes to " + psnr_words(worst->asked) + " (max " + format_double(worst->asked.max_lsb, 3) +
         " LSB) of " + fidelity_against(r) + ", on " + worst->input + ", below the " + format_double(kFidelityBarDb) +
         " dB at which blurlab counts an approximation as standing in for it";
}

std::string fidelity_summary(const ExportRequest& r) {
  if (r.effect) return effect_fidelity_summary(r);
  std::string text = "against " + fidelity_against(r) + ": ";
  const auto list = worst_first(r);
  for (size_t i = 0; i < list.size(); ++i)
    text += (i == 0 ? "" : "; ") + numbers_words(list[i]->asked) + " on " + list[i]->input + (i == 0 && list.size() > 1 ? " (the worst)" : "");
  text += meets_bar(list.front()->asked) ? "; at or above the " + format_double(kFidelityBarDb) + " dB bar"
                                         : "; below the " + format_double(kFidelityBarDb) + " dB bar";
  for (const ExportFidelity& f : r.fidelities)
    if (!f.refused.empty()) text += "; not measured on " + f.input + " (refused there: " + f.refused + ")";
  if (const auto sigma = realized_sigma(r); sigma && list.front()->realized) {
    text += ". Against the exact Gaussian of the sigma it realizes (" + format_double(*sigma, 4) + "): ";
    for (size_t i = 0; i < list.size(); ++i)
      if (list[i]->realized) text += (i == 0 ? "" : "; ") + psnr_words(*list[i]->realized) + " on " + list[i]->input;
  }
  return text;
}

std::optional<std::string> without_source_pointers(const std::string& line) {
  const size_t slash = line.find("//");
  if (slash == std::string::npos) return line;
  // A path in blurlab's tree ("src/blur/kernel.h", "blur/radius_map.h", "docs/PERFORMANCE.md") or an issue.
  static const std::regex pointer(
      R"((?:\b(?:src|docs|tests|glsl)/[\w./-]*\w|\b(?:util|image|gl|blur|variants|bench|report|export|cli|ui|scene|app)/[\w.-]+\.(?:h|cpp)\b|\bissue \d+))");
  const std::string comment = line.substr(slash);
  if (!std::regex_search(comment, pointer)) return line;
  // Each outermost parenthesis (which may hold calls, "f()"): its parts (split at ";" and "," outside
  // inner parentheses) that name a pointer go, and the parenthesis with them when none is left.
  std::string out;
  size_t at = 0;
  while (at < comment.size()) {
    const size_t open = comment.find('(', at);
    if (open == std::string::npos) break;
    size_t close = open;
    for (int depth = 0; close < comment.size(); ++close)
      if (comment[close] == '(') ++depth;
      else if (comment[close] == ')' && --depth == 0) break;
    if (close == comment.size()) break;  // unbalanced: leave the rest as it is
    const std::string inside = comment.substr(open + 1, close - open - 1);
    out += comment.substr(at, open - at);
    at = close + 1;
    if (!std::regex_search(inside, pointer)) {
      out += "(" + inside + ")";
      continue;
    }
    std::string kept, separator;
    size_t start = 0;
    for (size_t i = 0, depth = 0; i <= inside.size(); ++i) {
      if (i < inside.size()) {
        depth += inside[i] == '(' ? 1 : 0;
        depth -= inside[i] == ')' && depth > 0 ? 1 : 0;
        if (depth > 0 || (inside[i] != ';' && inside[i] != ',')) continue;
      }
      const std::string part(trim(std::string_view(inside).substr(start, i - start)));
      if (!part.empty() && !std::regex_search(part, pointer)) {
        kept += separator + part;
        separator = i < inside.size() ? std::string(1, inside[i]) + " " : "";
      }
      start = i + 1;
    }
    if (kept.empty()) {
      while (!out.empty() && out.back() == ' ') out.pop_back();  // the space before the parenthesis
    } else {
      out += "(" + kept + ")";
    }
  }
  out += comment.substr(std::min(at, comment.size()));
  const std::string code = line.substr(0, slash);
  if (out.find_first_not_of("/ .") == std::string::npos)  // nothing left of the comment
    return trim(code).empty() ? std::nullopt : std::optional(code);
  return code + out;
}

namespace {

// One stage of one pass as a file that needs nothing else: the expansion the program cache
// compiles (#version, the defines, the includes inlined), with the weights baked in, the #line
// directives (they name source-string numbers of blurlab's files) turned into comments, and a
// header saying what it is; then the program the preprocessor chooses from it (gl/preprocess.h:
// the #if groups resolved, the defines nothing uses left out, comments kept), which is what the
// recipe runs. The licence line first (GLSL allows comments before #version).
std::string exported_shader(const gl::ShaderSources& sources, const gl::ShaderFile& file, const gl::Defines& defines,
                            const std::string& header) {
  const gl::ExpandedSource expanded = gl::expand_source(sources, file.name, defines);
  std::istringstream in(expanded.text);
  std::string line, out = "// " + std::string(kSpdxLine) + "\n";
  bool first = true;
  while (std::getline(in, line)) {
    if (line.rfind("#line ", 0) == 0) {
      int number = 0, index = 0;
      if (std::sscanf(line.c_str(), "#line %d %d", &number, &index) == 2 && number == 1 && index >= 0 &&
          static_cast<size_t>(index) < expanded.files.size())
        out += "// ---- " + expanded.files[static_cast<size_t>(index)] + "\n";
      continue;
    }
    if (const auto kept = without_source_pointers(line)) out += *kept + "\n";
    if (first) out += header;  // right after #version, which must come first
    first = false;
  }
  const gl::ChosenProgram chosen = gl::choose_program(out);
  if (chosen.unresolved.empty()) return chosen.text;
  return out + "// Its #if groups are left to the compiler: " + glsl_comment_text(chosen.unresolved) + ".\n";
}

std::string shader_header(const ExportRequest& r, const RecordedPass& pass, size_t index, size_t count) {
  std::ostringstream h;
  // What a user or a driver named (a radius map's file, GL_RENDERER) stays inside its comment.
  h << "// Exported by blurlab --export: " << exported_name(r) << ", pass " << index + 1 << " of " << count << " (\""
    << pass.name << "\")\n"
    << "// Copyright 2026 the blurlab authors; MIT licence (LICENSE beside this file).\n"
    << "// settings: " << glsl_comment_text(settings_text(r)) << "\n"
    << "// image:    " << r.size.x << "x" << r.size.y << " (workgroup counts for other sizes: recipe.md)\n"
    << "// made on:  " << glsl_comment_text(r.gpu) << (r.cpu_rasterizer ? ", a CPU rasterizer (its time says nothing of a GPU's: none given)" : "") << "\n";
  if (r.median_ms) h << "// measured: " << format_double(*r.median_ms, 4) << " ms for the whole " << (r.effect ? "chain" : "blur") << " (median)\n";
  if (!r.check.empty()) h << "// check:    " << glsl_comment_text(r.check) << " against " << check_reference(r) << "\n";
  if (r.effect_fidelity || worst_fidelity(r)) h << "// fidelity: " << wrapped(glsl_comment_text(fidelity_summary(r)), 88, "//           ") << "\n";
  if (r.variant && r.variant->variable_radius)
    h << "// Per-pixel radius: each pixel's level and every level's weights are textures filled from data\n"
         "// files (recipe.md, \"The radius map\").\n";
  if (pass.program.kernel)  // the weights of this program's own kernel (an effect's stages blur by several)
    h << "// The kernel's weights are constants (BAKED_TAPS" << (r.effect ? ": " + report::kernel_text(*pass.program.kernel) : "") << ")"
      << (pass.pass_values ? ", so are this pass's values (BAKED_PASS)" : "") << "; no uniform\n// needs setting. Bindings, barriers and dispatch: recipe.md.\n";
  else
    h << "// No kernel weights: "
      << (!pass.program.border                 ? "a pass of the effect's own"
          : r.variant && !is_blur(*r.variant) ? "this pass copies"
                                               : "this approximation blurs with its own passes")
      << (pass.pass_values ? ", this pass's values are constants (BAKED_PASS)" : "")
      << "; no uniform\n// needs setting. Bindings, barriers and dispatch: recipe.md.\n";
  return h.str();
}

}  // namespace

gl::Defines baked_weight_defines(const Kernel& kernel, const Border& border, bool with_weights) {
  const gl::Defines border_value{{"BAKED_BORDER_VALUE", vec4_list({border.value[0], border.value[1], border.value[2], border.value[3]})}};
  if (!with_weights) return border_value;
  const std::vector<double> weights = kernel_weights(kernel);
  std::vector<double> linear;
  for (const LinearTap& t : linear_taps(weights)) {
    linear.push_back(t.offset);
    linear.push_back(t.weight);
  }
  return {{"BAKED_TAPS", vec4_list(weights)}, {"BAKED_LINEAR", vec4_list(linear)}, border_value.front()};
}

namespace {

// What the source must hold and what the destination holds: the picture's values as they are, or
// (--linear) linear light, decoded from sRGB before and encoded after.
json light_json(const BlurSettings& s) {
  if (!s.linear)
    return {{"linear", false}, {"source", "the picture's values as they are (sRGB-encoded for an ordinary picture)"},
            {"destination", "the same encoding as the source"}};
  return {{"linear", true},
          {"source", "linear light: decode the sRGB picture to linear (IEC 61966-2-1) before filling the source, into a "
                     "float texture"},
          {"destination", "linear light: encode it to sRGB to show or save it"}};
}

// What a variable-radius variant's passes read from the radius map (glsl/variable_common.glsl):
// the textures of it the passes bind (variable-sat and variable-pyramid take no weights), filled
// from files, what their texels mean, and R.
json radius_map_json(const Recording& recording, const BlurSettings& s) {
  const int max_level = s.kernel.radius;
  json map = {{"map", describe(s.radius_map.get())},
              {"max_level", max_level},
              {"uniforms", "none: the shaders take max_level from their baked pass values (pass_values) or from the weights "
                           "texture's width (max_level + 1)"}};
  const auto recorded = [&](std::string_view name) {
    return std::any_of(recording.textures.begin(), recording.textures.end(), [&](const RecordedTexture& t) { return t.name == name; });
  };
  if (recorded(kLevelsTexture))
    map["levels"] = {{"texture", kLevelsTexture},
                     {"meaning", "each pixel's level r (0..max_level) as the byte r in red (read as the unorm r / 255); green, "
                                 "blue and alpha 0; texel (x, y) is the image's pixel (x, y)"}};
  if (recorded(kLevelWeightsTexture))
    map["weights"] = {{"texture", kLevelWeightsTexture},
                      {"meaning", "(max_level + 1) x (max_level + 1) floats in red: texel (i, r) is the weight of taps i and -i "
                                  "of level r's kernel for i = 0..r (each row sums to 1 over -r..r), 0 for i > r; green, blue "
                                  "and alpha 0"}};
  return map;
}

// The names of an effect's frame textures in its recording (EffectPipeline::record): the HDR
// frame and its depth, which the recipe fills from data files.
constexpr std::string_view kFrameTexture = "source", kDepthTexture = "depth";

// What an effect's recipe fills its frame with (the runner checks each file by this): the HDR
// frame, and its depth where a pass reads it.
json frame_json(const Recording& recording) {
  json frame = json::object();
  for (const RecordedTexture& t : recording.textures) {
    if (t.contents.empty()) continue;
    if (t.name == kFrameTexture && t.format == gl::Format::rgba16f)
      frame["source"] = {{"texture", t.name}, {"file", contents_file(t)},
                         {"meaning", "the HDR frame the effect takes: linear radiance (the scene's brightest faces are about 100), "
                                     "GL_RGBA texels of 4 IEEE half floats (GL_HALF_FLOAT, 8 bytes), row y = 0 first (the top row "
                                     "of the picture the runner writes), x = 0 first in a row, no padding; R, G and B finite and at "
                                     "least 0, A finite"}};
    else if (t.name == kDepthTexture && t.format == gl::Format::depth32f)
      frame["depth"] = {{"texture", t.name}, {"file", contents_file(t)},
                        {"meaning", "the frame's depth: window-space depth in [0, 1] (0 at the near plane, 1 at the far), one "
                                    "float a texel (GL_DEPTH_COMPONENT, GL_FLOAT, 4 bytes), in the frame's order of texels"}};
    else
      throw Error("--export: texture " + t.name + " of an effect carries data, but is neither its frame nor its depth");
  }
  return frame;
}

// An effect's recipe: its name, implementation, parameters (as text, and as numbers where the
// effect gives them: bloom's PSF terms), border and knobs, its frame, the checks of its stages.
json effect_recipe_json(const Recording& recording, const ExportRequest& r, const json& textures, const json& passes) {
  json parameters = json::object();
  for (const auto& [parameter, value] : r.effect_settings.values) parameters[parameter] = value;
  json knobs = json::object();
  const VariantInfo* stage_variant = find_variant(r.effect_settings.implementation);
  for (const auto& [knob, value] : r.effect_settings.knobs)
    if (const Knob* k = stage_variant ? find_knob(*stage_variant, knob) : nullptr) knobs[knob] = k->text(value);
  const Border& border = border_of(r);
  json recipe = {{"format", "blurlab-recipe"},
                 {"version", 3},
                 {"effect", r.effect->name},
                 {"implementation", r.effect_settings.implementation},
                 {"description", r.effect_description},
                 {"settings", settings_text(r)},
                 {"parameters", parameters},
                 {"border", {{"mode", name(border.mode)}, {"value", border.value}}},
                 {"knobs", knobs},
                 // What the picture is judged against: the effect's ground truth on the CPU.
                 {"reference", "ground_truth"},
                 {"width", r.size.x},
                 {"height", r.size.y},
                 {"gpu", r.gpu},
                 {"command", r.command},
                 {"light", {{"linear", false},
                            {"source", "the HDR frame: linear radiance, filled from its data file (\"frame\")"},
                            {"destination", "the picture the effect ships: tonemapped and sRGB-encoded by its last pass; save or "
                                            "show it as it is"}}},
                 {"frame", frame_json(recording)},
                 {"textures", textures},
                 {"passes", passes},
                 {"after_last_pass", after_last_pass(recording)}};
  if (r.effect->recipe_values) recipe["parameter_values"] = r.effect->recipe_values(r.effect_settings.values, r.size);
  if (!r.stage_checks.empty()) {
    json stages = json::array();
    for (const StageCheck& st : r.stage_checks)
      stages.push_back({{"stage", st.stage}, {"ok", st.result.ok}, {"max_error", st.result.text()}, {"tolerance", st.tolerance.reason}});
    recipe["stages_checked"] = stages;
  }
  return recipe;
}

}  // namespace

// Why the recipe runs at its own size only, if it does: a data file made per pixel of the image, a
// texture or a pass without a formula in W x H (an FFT's line count).
std::optional<std::string> own_size_only(const json& recipe) {
  for (const json& t : recipe["textures"]) {
    const std::string formula = t["size_formula"];
    if (t.contains("contents") && formula.find('W') != std::string::npos)
      return "`" + t["contents"]["file"].get<std::string>() + "` holds data made per pixel of it (recipe.md says how to make it for another size).";
    if (formula == "fixed for this image size") return "texture `" + t["name"].get<std::string>() + "` has no size formula.";
  }
  for (const json& p : recipe["passes"])
    if (p.value("groups_formula", "") == "fixed for this image size")
      return "pass `" + p["name"].get<std::string>() + "` has no workgroup formula.";
  return std::nullopt;
}

json recipe_json(const Recording& recording, const ExportRequest& r, const std::vector<std::string>& shader_files) {
  json textures = json::array();
  for (size_t index = 0; index < recording.textures.size(); ++index) {
    const RecordedTexture& t = recording.textures[index];
    json texture = {{"name", t.name},
                    {"format", gl::name(t.format)},
                    {"internal_format", t.format == gl::Format::depth32f ? "GL_DEPTH_COMPONENT32F" : gl_format_name(gl::name(t.format))},
                    {"levels", 1},
                    {"width", t.size.x},
                    {"height", t.size.y},
                    {"size_formula", t.name == kLevelWeightsTexture ? "(max_level + 1) x (max_level + 1) (the radius map's largest level)"
                                     : t.fixed_size ? std::to_string(t.size.x) + " x " + std::to_string(t.size.y) + " (at every image size)"
                                                    : size_formula(t.size, r.size)}};
    if (const std::string initial = initial_contents(recording, index); !initial.empty()) texture["initial_contents"] = initial;
    if (!t.contents.empty()) {
      // The texels as GL stores them, so filling the texture is one glTexSubImage2D of the file.
      const gl::FormatInfo& info = gl::info(t.format);
      texture["contents"] = {{"file", contents_file(t)},
                             {"bytes", t.contents.size()},
                             {"pixel_format", t.format == gl::Format::depth32f ? "GL_DEPTH_COMPONENT" : "GL_RGBA"},
                             {"pixel_type", pixel_type_name(info.storage_type)},
                             {"bytes_per_texel", info.bytes_per_texel},
                             {"byte_order", std::endian::native == std::endian::little ? "little-endian" : "big-endian"},
                             {"rows", "row y = 0 first, x = 0 first in a row, no padding (GL_UNPACK_ALIGNMENT 1)"}};
    }
    textures.push_back(texture);
  }
  json passes = json::array();
  size_t file = 0;
  for (const RecordedPass& p : recording.passes) {
    json shaders = json::object();
    for (const gl::ShaderFile& f : p.program.files) shaders[std::string(stage_name(f.stage))] = shader_files.at(file++);
    json bindings = json::array();
    for (const RecordedBinding& b : p.bindings) {
      json binding = {{"kind", binding_kind(b.kind)}, {"unit", b.unit}, {"texture", recording.textures[b.texture].name}};
      if (is_image(b.kind)) {
        binding["image_format"] = image_format(b, recording);
        binding["gl_image_format"] = gl_format_name(image_format(b, recording));
        binding["access"] = image_access(b.kind);
      } else {
        // texelFetch ignores the wrap mode (the shader maps the border); a linear fetch uses it.
        // One level, and a filter without mipmaps.
        const bool linear = b.kind == Binding::Kind::SampledLinear;
        const char* filter = linear ? "GL_LINEAR" : "GL_NEAREST";
        const std::string wrap = linear ? sampler_wrap_name(border_of(r).mode) : "GL_CLAMP_TO_EDGE";
        json sampler = {{"min_filter", filter}, {"mag_filter", filter}, {"wrap_s", wrap}, {"wrap_t", wrap}};
        if (linear && border_of(r).mode == BorderMode::Constant) sampler["border_color"] = border_of(r).value;
        binding["sampler"] = sampler;
      }
      bindings.push_back(binding);
    }
    json pass = {{"name", p.name}, {"stage", name(p.stage)}, {"shaders", shaders}, {"bindings", bindings},
                 {"barriers_before", p.barriers_before}, {"barriers_before_names", barrier_names(p.barriers_before)}};
    if (p.pass_values) pass["pass_values"] = {p.pass_values->x, p.pass_values->y, p.pass_values->z, p.pass_values->w};
    if (r.effect && p.program.kernel)  // a blur stage's pass: the kernel whose weights its shader holds
      pass["kernel"] = {{"type", name(p.program.kernel->type)}, {"radius", p.program.kernel->radius}, {"sigma", p.program.kernel->sigma}};
    if (p.stage == Stage::Compute) {
      pass["groups"] = {p.grid.groups.x, p.grid.groups.y, p.grid.groups.z};
      pass["groups_formula"] = p.grid.formula.empty() ? "fixed for this image size" : p.grid.formula;
    } else {
      const RecordedTexture& target = recording.textures[p.target];
      pass["target"] = target.name;
      pass["framebuffer"] = {{"color_attachment0", target.name}, {"level", 0}};
      pass["viewport"] = {0, 0, target.size.x, target.size.y};
      pass["viewport_formula"] = size_formula(target.size, r.size);
      pass["draw"] = {{"mode", "GL_TRIANGLES"}, {"first", 0}, {"count", 3},
                      {"vertex_array", "an empty vertex array object: the vertex shader makes the triangle from gl_VertexID"}};
    }
    passes.push_back(pass);
  }
  json recipe;
  if (r.effect) {
    recipe = effect_recipe_json(recording, r, textures, passes);
  } else {
    const Kernel kernel = reference_kernel(*r.variant, r.settings);  // what the output must match (copy: the identity)
    json knobs = json::object();
    for (const Knob& k : r.variant->knobs) knobs[std::string(k.name)] = k.text(r.settings.knob(k.name));
    recipe = {{"format", "blurlab-recipe"},
              {"version", 3},
              {"variant", r.variant->name},
              {"settings", describe(*r.variant, r.settings)},
              {"kernel", {{"type", name(kernel.type)}, {"radius", kernel.radius}, {"sigma", kernel.sigma}}},
              {"border", {{"mode", name(r.settings.border.mode)}, {"value", r.settings.border.value}}},
              {"knobs", knobs},
              {"intermediate_format", gl::name(r.settings.intermediate_format())},
              // What the output must match: the exact blur of `kernel`, or for an approximation
              // the CPU model of its own algorithm (blurlab's VariantInfo::approximation).
              {"reference", is_approximation(*r.variant) ? "model" : "kernel"},
              {"input_format", gl::name(r.settings.input_format)},
              {"linear_light", r.settings.linear},
              {"width", r.size.x},
              {"height", r.size.y},
              {"gpu", r.gpu},
              {"command", r.command},
              {"tolerance", {{"lsb", r.tolerance.lsb}, {"lsb_limit", r.tolerance.lsb_limit}, {"relative", r.tolerance.relative},
                             {"absolute", r.tolerance.absolute}, {"reason", r.tolerance.reason}}},
              {"light", light_json(r.settings)},
              {"textures", textures},
              {"passes", passes},
              {"after_last_pass", after_last_pass(recording)}};
  }
  if (r.median_ms) recipe["median_ms"] = *r.median_ms;
  recipe["cpu_rasterizer"] = r.cpu_rasterizer;  // then no time: a CPU's says nothing of a GPU's
  if (!r.check.empty()) recipe["check"] = r.check;
  if (worst_fidelity(r)) recipe["fidelity"] = fidelity_json(r);
  if (r.effect_fidelity) recipe["fidelity"] = effect_fidelity_json(r);
  // Where blurlab would make other programs (another baked length, an auto knob deciding
  // otherwise), the runner refuses: a recipe never runs silently other than blurlab would.
  // (An effect's chain runs on the frame it carries, at its size only: no other size to hold for.)
  if (!r.effect) {
    // A texture or pass without a formula in W x H (an FFT's line count, a map made per pixel) ties
    // the recipe to this size whatever programs blurlab would make elsewhere.
    SizeRange h = r.holds_for;
    const bool own_size = own_size_only(recipe).has_value();
    if (own_size) {
      h.min_width = h.max_width = r.size.x;
      h.min_height = h.max_height = r.size.y;
      h.min_texels = h.max_texels = static_cast<long long>(r.size.x) * r.size.y;
    }
    json holds = {{"width", {h.min_width, h.max_width}}, {"height", {h.min_height, h.max_height}},
                  {"texels", {h.min_texels, h.max_texels}},
                  {"why", own_size ? "the recipe's own size: a texture or pass of it has no formula in W x H"
                          : h.any_size() ? "every size up to GL_MAX_TEXTURE_SIZE " + std::to_string(h.max_texture_size) + " of the GPU it was made on"
                                       : "the sizes at which blurlab makes the programs this recipe carries; at others it makes other ones: "
                                         "export the blur again at that size"}};
    if (!r.size_choices.empty()) holds["decided_by_size"] = r.size_choices;
    recipe["holds_for"] = holds;
  }
  recipe["SPDX-License-Identifier"] = "MIT";  // kSpdxLine, as JSON has no comments
  recipe["copyright"] = "2026 the blurlab authors (LICENSE)";
  if (r.variant && r.variant->variable_radius) recipe["radius_map"] = radius_map_json(recording, r.settings);
  return recipe;
}

namespace {

std::string recipe_markdown(const ExportRequest& r, const json& recipe) {
  std::ostringstream md;
  auto text = [](const json& value) { return value.get<std::string>(); };
  md << "<!-- " << kSpdxLine << " -->\n# " << exported_name(r) << (r.effect ? ": exported effect chain\n\n" : ": exported blur\n\n")
     << (r.effect ? markdown_text(r.effect_description) + ".\n\n" : "")
     << "Settings: " << markdown_code(settings_text(r)) << ", made for " << r.size.x << "x" << r.size.y << " on "
     << markdown_text(r.gpu)
     << (r.median_ms        ? " (" + format_double(*r.median_ms, 4) + " ms measured)"
         : r.cpu_rasterizer ? ", a CPU rasterizer (no time given: a CPU's says nothing of a GPU's; time it on yours)"
                            : "")
     << ".\n" << (r.check.empty() ? "" : "Check against " + check_reference(r) + ": " + markdown_text(r.check) + ".\n") << "\nCommand: "
     << markdown_code(r.command) << "\n\n";
  if (recipe.contains("fidelity")) {
    md << "## Fidelity\n\n" << markdown_text(fidelity_summary(r))
       << (r.effect ? " (the bar: PSNR " + format_double(report::kEffectBarDb) + " dB)" : "") << ".\n";
    if (const std::string warning = fidelity_warning(r); !warning.empty()) md << "\n**Warning: " << markdown_text(warning) << ".**\n";
    md << "\n";
  }
  md << "Everything below is also in `recipe.json`, for programs; README.md says how to run the " << (r.effect ? "chain" : "blur")
     << " without blurlab (`blurlab-run-recipe`).\n\n";

  const json& light = recipe["light"];
  if (r.effect) {
    md << "## The frame\n\nFill these textures before the first pass, each with one `glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width,\n"
          "height, FORMAT, TYPE, bytes)` of its file, whole (no header; `GL_UNPACK_ALIGNMENT` 1; the byte order recipe.json names):\n\n";
    for (const json& frame : recipe["frame"]) {
      const auto texture = std::find_if(recipe["textures"].begin(), recipe["textures"].end(), [&](const json& t) { return t["name"] == frame["texture"]; });
      md << "- `" << text(frame["texture"]) << "` from `" << text(frame["file"]) << "` (" << (*texture)["contents"]["bytes"].get<size_t>()
         << " bytes, `" << text((*texture)["contents"]["pixel_format"]) << "`, `" << text((*texture)["contents"]["pixel_type"])
         << "`): " << markdown_text(text(frame["meaning"])) << ".\n";
    }
    md << "- `destination` receives " << text(light["destination"]) << ".\n"
       << "- Border: " << describe(border_of(r)) << " (the shaders map taps outside the frame themselves; a linear fetch\n"
          "  relies on the sampler's wrap mode named at its binding, on both axes).\n"
       << "- Each shader has its constants baked in (each blur stage's own kernel's weights where it blurs with them, each\n"
          "  pass's own values): no uniform, no uniform buffer to set.\n\n";
  } else {
    md << "## The image\n\n- `source` holds " << text(light["source"]) << ".\n- `destination` receives the blur: "
       << text(light["destination"]) << ".\n"
       << "- Fill `source` before the first pass (`glTexSubImage2D`; if a shader wrote it with image stores, issue\n"
          "  `glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT)` first).\n"
       << "- Border: " << describe(r.settings.border) << " (the shaders map taps outside the image themselves; a linear\n"
          "  fetch relies on the sampler's wrap mode named at its binding, on both axes).\n"
       << "- Each shader has its constants baked in (the kernel's weights where it blurs with them, its pass's own values):\n"
          "  no uniform, no uniform buffer to set.\n\n";
  }

  md << "## Textures\n\nEach one immutable, with one level and no mipmaps: `glGenTextures`, `glBindTexture(GL_TEXTURE_2D, t)`,\n"
        "`glTexStorage2D(GL_TEXTURE_2D, 1, FORMAT, width, height)`.\n\n"
        "| name | format | size (W x H: the image) |\n|---|---|---|\n";
  for (const json& t : recipe["textures"])
    md << "| " << text(t["name"]) << " | " << text(t["internal_format"]) << " | " << text(t["size_formula"]) << " (here "
       << t["width"].get<int>() << "x" << t["height"].get<int>() << ")"
       << (t.contains("contents") ? "; filled from `" + text(t["contents"]["file"]) + "`" : "")
       << (t.value("initial_contents", "") == "zeros" ? "; zeros: clear it once before the first pass (its passes count in it and "
                                                        "leave it zero)"
           : t.value("initial_contents", "") == "scratch" ? "; scratch: no contents needed (each pass that binds it writes a "
                                                            "texel before it reads it)"
                                                          : "")
       << " |\n";
  if (recipe.contains("radius_map")) {
    const json& map = recipe["radius_map"];
    md << "\n## The radius map\n\nThe passes read each pixel's radius from data made from the map (" << markdown_text(text(map["map"]))
       << ", largest level R = " << map["max_level"].get<int>()
       << "): fill these textures before the first pass, each with one\n"
          "`glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RGBA, TYPE, bytes)` of its file, whole (no header;\n"
          "`GL_UNPACK_ALIGNMENT` 1, row y = 0 first; floats in the byte order named in recipe.json). For another map or\n"
          "size, make the same data: a level r = round(v R) per pixel from the map's value v in [0, 1].\n\n";
    for (const json& t : recipe["textures"])
      if (t.contains("contents"))
        md << "- `" << text(t["name"]) << "` from `" << text(t["contents"]["file"]) << "` (" << t["contents"]["bytes"].get<size_t>()
           << " bytes, " << text(t["contents"]["pixel_type"]) << ")\n";
    for (const char* part : {"levels", "weights"})
      if (map.contains(part)) md << "- `" << text(map[part]["texture"]) << "`: " << text(map[part]["meaning"]) << ".\n";
    md << "- Uniforms: " << text(map["uniforms"]) << ".\n";
  }

  md << "\n## How to bind\n\n"
        "- An image binding: `glBindImageTexture(unit, texture, 0, GL_FALSE, 0, access, format)` with the access and format\n"
        "  named (a `GL_R32UI`-like format reads the texture's bits raw).\n"
        "- A sampled binding: the texture bound to unit `unit` (`glActiveTexture(GL_TEXTURE0 + unit)`,\n"
        "  `glBindTexture(GL_TEXTURE_2D, texture)`) and a sampler object with the state named\n"
        "  (`glSamplerParameteri` for `GL_TEXTURE_MIN_FILTER`, `GL_TEXTURE_MAG_FILTER`, `GL_TEXTURE_WRAP_S`,\n"
        "  `GL_TEXTURE_WRAP_T`; `glSamplerParameterfv(GL_TEXTURE_BORDER_COLOR)` where a border colour is named), bound\n"
        "  with `glBindSampler(unit, sampler)`.\n"
        "- A fragment pass draws into a framebuffer object with its target as `GL_COLOR_ATTACHMENT0` (level 0), the\n"
        "  viewport its size, blending, depth and scissor tests off (GL's defaults), and an empty vertex array bound.\n\n"
        "## Passes, in order\n\n";
  size_t index = 0;
  for (const json& p : recipe["passes"]) {
    md << "### " << ++index << ". `" << text(p["name"]) << "` (" << text(p["stage"]) << ")\n\n";
    for (const auto& [stage, file] : p["shaders"].items()) md << "- " << stage << " shader: `" << text(file) << "`\n";
    const std::string barriers = p["barriers_before"] == 0 ? "" : text(p["barriers_before_names"]);
    md << "- before it: " << (barriers.empty() ? "no barrier" : "`glMemoryBarrier(" + barriers + ")`") << "\n";
    for (const json& b : p["bindings"]) {
      md << "- unit " << b["unit"].get<int>() << ": `" << text(b["texture"]) << "` as " << text(b["kind"]);
      if (b.contains("image_format")) md << ", `" << text(b["access"]) << "`, `" << text(b["gl_image_format"]) << "`";
      if (b.contains("sampler")) {
        const json& sm = b["sampler"];
        md << ", sampler " << text(sm["min_filter"]) << " (min and mag), wrap " << text(sm["wrap_s"]) << " (S and T)";
        if (sm.contains("border_color")) md << ", border colour " << sm["border_color"].dump();
      }
      md << "\n";
    }
    if (p.contains("groups"))
      md << "- `glDispatchCompute(" << p["groups"][0].get<int>() << ", " << p["groups"][1].get<int>() << ", "
         << p["groups"][2].get<int>() << ")`; for a W x H image: " << text(p["groups_formula"]) << "\n\n";
    else
      md << "- draw into `" << text(p["framebuffer"]["color_attachment0"]) << "` (its framebuffer), viewport 0, 0, "
         << p["viewport"][2].get<int>() << ", " << p["viewport"][3].get<int>() << " (" << text(p["viewport_formula"])
         << "): `glDrawArrays(GL_TRIANGLES, 0, 3)`\n\n";
  }
  const json& after = recipe["after_last_pass"];
  md << "## After the last pass\n\n";
  if (after["read_back"]["bits"] == 0) {
    md << "The destination was written by rendering: GL orders its later uses itself, no barrier is needed.\n";
  } else {
    md << "The destination was written with image stores: before the next command reads it, issue the barrier for how it "
          "reads:\n\n";
    for (auto [use, how] : {std::pair{"sample", "sampled (texture(), texelFetch())"}, std::pair{"read_back", "read back or copied (glGetTexImage, glReadPixels, glCopyImageSubData)"},
                            std::pair{"image_load", "loaded as an image (imageLoad)"}, std::pair{"framebuffer", "attached to a framebuffer"}})
      md << "- " << how << ": `glMemoryBarrier(" << text(after[use]["names"]) << ")`\n";
  }
  return md.str();
}

// The sizes the recipe runs at: any, when every texture and pass gives its size as a formula in W x
// H and no data file was made for this size; else this size alone, and why.
std::string sizes_text(const ExportRequest& r, const json& recipe) {
  const std::string made = "Made for " + size_text(r.size);
  if (r.effect)  // a chain planned for its frame's size: the kernels' radii in pixels, a chain's levels
    return made + "; it runs at that size only, on the frame it carries or another of that size (below): its stages were "
                  "planned for a frame of that size (each blur's kernel in pixels, the levels of a chain). For another size, "
                  "export it again (blurlab --size).";
  if (const std::optional<std::string> why = own_size_only(recipe)) return made + "; it runs at that size only: " + *why;
  const SizeRange& h = r.holds_for;
  const std::string choices = r.size_choices.empty() ? "" : " (" + r.size_choices + ")";
  if (h.any_size())
    return made + "; it runs at any size up to " + std::to_string(h.max_texture_size) + " texels a side" + choices +
           ": recipe.md and recipe.json give every texture's size and every pass's workgroups as a formula in the image's W x H.";
  const auto range = [](long long lo, long long hi) { return lo == hi ? std::to_string(lo) : std::to_string(lo) + ".." + std::to_string(hi); };
  std::string sizes = "widths " + range(h.min_width, h.max_width) + " and heights " + range(h.min_height, h.max_height);
  if (h.min_texels > static_cast<long long>(h.min_width) * h.min_height || h.max_texels < static_cast<long long>(h.max_width) * h.max_height)
    sizes += ", " + range(h.min_texels, h.max_texels) + " texels in all";
  return made + "; it holds for " + sizes + choices +
         ", where blurlab makes the programs it carries; at other sizes blurlab makes others, and blurlab-run-recipe refuses them "
         "(export the blur again at that size). Within them recipe.md and recipe.json give every texture's size and every pass's "
         "workgroups as a formula in the image's W x H.";
}

// The export's README: what the files are, the blur's fidelity and licence, and how to run it
// without blurlab.
std::string export_readme(const ExportRequest& r, const json& recipe, const std::vector<std::string>& shaders,
                          const std::vector<std::string>& data) {
  std::ostringstream md;
  const auto list = [](const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& name : names) text += (text.empty() ? "`" : ", `") + name + "`";
    return text;
  };
  md << "<!-- " << kSpdxLine << " -->\n# " << r.variant->name << ", exported by blurlab\n\n"
     << "`" << r.variant->name << "` as OpenGL 4.3 shaders that need nothing of blurlab: " << r.variant->summary << " ("
     << markdown_code(describe(*r.variant, r.settings)) << "). " << sizes_text(r, recipe) << "\n\n";
  if (worst_fidelity(r)) {
    md << "Fidelity: " << markdown_text(fidelity_summary(r)) << ".\n";
    if (const std::string warning = fidelity_warning(r); !warning.empty()) md << "\n**Warning: " << markdown_text(warning) << ".**\n";
    md << "\n";
  }
  md << "## Files\n\n"
     << "- " << list(shaders) << ": one self-contained shader per pass and stage, its constants baked in\n"
     << "- `recipe.md`: how to run them (textures, bindings, barriers, dispatches), and `recipe.json`, the same for programs\n";
  if (!data.empty()) md << "- " << list(data) << ": data to fill textures with before the first pass (recipe.md says how)\n";
  md << "- `LICENSE`: the MIT licence, copyright 2026 the blurlab authors. Each text file says so in its first line (`"
     << kSpdxLine << "`)" << (data.empty() ? "" : ", each data file in the `.license` file beside it") << ".\n\n"
     << "## Run it without blurlab\n\n"
     << "`blurlab-run-recipe` runs the blur from `recipe.json` and the shaders alone, with plain OpenGL (libepoxy and EGL, no\n"
        "window), nlohmann-json and libpng, as an engine would. blurlab's `./run.sh` builds it with the program, as\n"
        "`build-release/app/blurlab-run-recipe` (`cmake --build build-release --target blurlab-run-recipe` alone). From\n"
        "blurlab's folder:\n\n"
        "```sh\nbuild-release/app/blurlab-run-recipe THIS_FOLDER/recipe.json IN.png OUT.png\n```\n\n"
        "IN.png is an 8-bit PNG"
     << (r.settings.linear ? " (sRGB: the runner decodes it to linear light first and encodes the result)" : "")
     << "; OUT.png gets the blur, 8-bit. A size the recipe cannot run is refused with both sizes. The runner's source\n"
        "(`tests/tools/run_recipe.cpp` in blurlab) shows every GL call the recipe asks for.\n";
  return md.str();
}

// An effect chain's README: what it is, its fidelity against the effect's ground truth, its files,
// how to run it without blurlab and how to give it a frame of one's own.
std::string effect_readme(const ExportRequest& r, const json& recipe, const std::vector<std::string>& shaders,
                          const std::vector<std::string>& data) {
  std::ostringstream md;
  const auto list = [](const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& name : names) text += (text.empty() ? "`" : ", `") + name + "`";
    return text;
  };
  const json& frame = recipe["frame"];
  md << "<!-- " << kSpdxLine << " -->\n# " << exported_name(r) << ", exported by blurlab\n\n"
     << "The effect " << r.effect->name << " (" << markdown_text(std::string(r.effect->summary)) << ") as OpenGL 4.3 shaders that "
     << "need nothing of blurlab, its whole chain: " << markdown_text(r.effect_description) << " (" << markdown_code(settings_text(r))
     << "). " << sizes_text(r, recipe) << "\n\n";
  if (r.effect_fidelity) {
    md << "Fidelity: " << markdown_text(fidelity_summary(r)) << ".\n";
    if (const std::string warning = fidelity_warning(r); !warning.empty()) md << "\n**Warning: " << markdown_text(warning) << ".**\n";
    md << "\n";
  }
  md << "## Files\n\n"
     << "- " << list(shaders) << ": one self-contained shader per pass and stage, its constants baked in\n"
     << "- `recipe.md`: how to run them (the frame, textures, bindings, barriers, dispatches), and `recipe.json`, the same "
        "for programs (with the parameters as numbers)\n"
     << "- " << list(data) << ": the frame the chain ran on (recipe.md says how to fill the textures with it)\n"
     << "- `LICENSE`: the MIT licence, copyright 2026 the blurlab authors. Each text file says so in its first line (`"
     << kSpdxLine << "`), each data file in the `.license` file beside it.\n\n"
     << "## Run it without blurlab\n\n"
     << "`blurlab-run-recipe` runs the chain from `recipe.json`, the shaders and the frame's data alone, with plain OpenGL\n"
        "(libepoxy and EGL, no window), nlohmann-json and libpng, as an engine would. blurlab's `./run.sh` builds it with the\n"
        "program, as `build-release/app/blurlab-run-recipe` (`cmake --build build-release --target blurlab-run-recipe` alone).\n"
        "From blurlab's folder:\n\n"
        "```sh\nbuild-release/app/blurlab-run-recipe THIS_FOLDER/recipe.json OUT.png\n```\n\n"
        "No IN.png: the frame comes from the data files. OUT.png gets the picture the effect ships (tonemapped, sRGB, 8-bit).\n"
        "The runner's source (`tests/tools/run_recipe.cpp` in blurlab) shows every GL call the recipe asks for.\n\n"
     << "## Your own frame\n\n"
     << "Replace `" << frame["source"]["file"].get<std::string>() << "` with your HDR frame of " << r.size.x << " x " << r.size.y
     << " texels (the recipe's width x height),\n" << r.size.x << " x " << r.size.y << " x 8 = " << static_cast<long long>(r.size.x) * r.size.y * 8
     << " bytes: linear radiance as `GL_RGBA` texels of four IEEE half floats (`GL_HALF_FLOAT`: R, G, B, A,\n"
        "2 bytes each, in the byte order recipe.json names), row 0 at the top (the first row of OUT.png), each row left to\n"
        "right, no header and no padding; R, G and B finite and at least 0, A finite (the runner refuses any other). That is\n"
        "what `glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_HALF_FLOAT, bytes)` of an rgba16f frame gives.\n";
  if (frame.contains("depth"))
    md << "The depth goes into `" << frame["depth"]["file"].get<std::string>() << "` likewise: " << r.size.x << " x " << r.size.y
       << " x 4 bytes, one float a texel (window-space\ndepth in [0, 1], `GL_DEPTH_COMPONENT`, `GL_FLOAT`), in the same order.\n";
  md << "A file of another size is refused with both sizes; for a frame of another size, export the chain again at that size.\n";
  return md.str();
}

}  // namespace

const OutputFolderKind& export_folder() {
  static const OutputFolderKind kind{"--export", "export", "recipe.json", [](std::string_view text) {
    std::vector<std::string> files{"recipe.md", "README.md", "LICENSE"};  // what every export writes beside its recipe
    json recipe;
    try {
      recipe = json::parse(text);
    } catch (const json::exception& e) {
      throw Error("not JSON: " + json_error_text(e));
    }
    // By reference only: copying a value recurses as deep as the file nests.
    const auto member = [](const json& object, const char* key) -> const json* {
      return object.is_object() && object.contains(key) ? &object.at(key) : nullptr;
    };
    const json* format = member(recipe, "format");
    if (!format || *format != "blurlab-recipe") throw Error("no \"format\": \"blurlab-recipe\"");
    const auto name = [&](const json& value) {
      if (!value.is_string()) throw Error("a file name " + json_value_text(value) + " is not a string");
      files.push_back(value.get<std::string>());
    };
    if (const json* passes = member(recipe, "passes"); passes && passes->is_array())
      for (const json& pass : *passes)
        if (const json* shaders = member(pass, "shaders"); shaders && shaders->is_object())
          for (auto file = shaders->begin(); file != shaders->end(); ++file) name(*file);
    if (const json* textures = member(recipe, "textures"); textures && textures->is_array())
      for (const json& texture : *textures)
        if (const json* contents = member(texture, "contents"))
          if (const json* file = member(*contents, "file")) {
            name(*file);
            files.push_back(files.back() + ".license");  // its licence beside it
          }
    return files;
  }};
  return kind;
}

void check_export_dir(const fs::path& dir) { check_output_directory(dir, export_folder()); }

std::vector<std::string> write_export(const Recording& recording, const ExportRequest& r, const gl::ShaderSources& sources,
                                      const fs::path& dir) {
  std::vector<std::pair<std::string, std::string>> files;  // name, content
  for (size_t i = 0; i < recording.passes.size(); ++i) {
    const RecordedPass& pass = recording.passes[i];
    gl::Defines defines = pass.program.defines;
    if (pass.program.border) {  // a blur's program: the weights block it was run with, as constants
      const gl::Defines baked = baked_weight_defines(pass.program.kernel.value_or(Kernel{}), *pass.program.border, pass.program.kernel.has_value());
      defines.insert(defines.end(), baked.begin(), baked.end());
    }
    if (pass.pass_values) {  // this dispatch's u_pass, a constant of this pass's file
      const glm::vec4 v = *pass.pass_values;
      defines.emplace_back("BAKED_PASS", vec4_list({v.x, v.y, v.z, v.w}));
    }
    const std::string header = shader_header(r, pass, i, recording.passes.size());
    std::string stem = pass.name;  // "blur 1 h", an effect's stage's pass: "3_blur_1_h.comp", no space in a file's name
    std::replace(stem.begin(), stem.end(), ' ', '_');
    for (const gl::ShaderFile& f : pass.program.files)
      files.emplace_back(std::to_string(i + 1) + "_" + stem + "." + std::string(stage_extension(f.stage)),
                         exported_shader(sources, f, defines, header));
  }
  std::vector<std::string> names, data;
  for (const auto& [name, content] : files) names.push_back(name);
  const json recipe = recipe_json(recording, r, names);
  for (const RecordedTexture& t : recording.textures)
    if (!t.contents.empty()) {
      files.emplace_back(contents_file(t), std::string(t.contents.begin(), t.contents.end()));
      // A data file has no room for a comment: its licence is in a file of its own (REUSE's way).
      files.emplace_back(contents_file(t) + ".license", std::string(kSpdxLine) + "\nSPDX-FileCopyrightText: 2026 the blurlab authors\n");
      data.push_back(contents_file(t));
    }
  files.emplace_back("recipe.json", recipe.dump(2, ' ', false, json::error_handler_t::replace) + "\n");  // a name's invalid UTF-8 as U+FFFD
  files.emplace_back("recipe.md", recipe_markdown(r, recipe));
  files.emplace_back("README.md", r.effect ? effect_readme(r, recipe, names, data) : export_readme(r, recipe, names, data));
  files.emplace_back("LICENSE", std::string(embedded_license()));

  names.clear();
  for (const auto& [name, content] : files) names.push_back(name);
  remove_earlier_output(dir, export_folder(), names);  // read before the new recipe.json is staged over it
  for (const auto& [name, content] : files) write_file_into(dir, name, content, "--export");
  return names;
}

}  // namespace blurlab
