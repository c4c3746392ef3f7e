#include "export/export.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "blur/kernel.h"
#include "util/error.h"
#include "util/files.h"
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

bool is_image(Binding::Kind kind) {
  return kind == Binding::Kind::ImageRead || kind == Binding::Kind::ImageWrite || kind == Binding::Kind::ImageReadWrite;
}

// The image format a binding uses: the texture's own, or its raw unsigned-integer twin.
std::string_view image_format(const RecordedBinding& b, const Recording& r) {
  const gl::FormatInfo& info = gl::info(r.textures[b.texture].format);
  return b.raw ? info.raw_name : info.name;
}

// One stage of one pass as a file that needs nothing else: the expansion the program cache
// compiles (#version, the defines, the includes inlined), with the weights baked in, the #line
// directives (they name source-string numbers of blurlab's files) turned into comments, and a
// header saying what it is.
std::string exported_shader(const gl::ShaderSources& sources, const gl::ShaderFile& file, const gl::Defines& defines,
                            const std::string& header) {
  const gl::ExpandedSource expanded = gl::expand_source(sources, file.name, defines);
  std::istringstream in(expanded.text);
  std::string line, out;
  bool first = true;
  while (std::getline(in, line)) {
    if (line.rfind("#line ", 0) == 0) {
      int number = 0, index = 0;
      if (std::sscanf(line.c_str(), "#line %d %d", &number, &index) == 2 && number == 1 && index >= 0 &&
          static_cast<size_t>(index) < expanded.files.size())
        out += "// ---- " + expanded.files[static_cast<size_t>(index)] + "\n";
      continue;
    }
    out += line + "\n";
    if (first) out += header;  // right after #version, which must come first
    first = false;
  }
  return out;
}

std::string shader_header(const ExportRequest& r, const RecordedPass& pass, size_t index, size_t count) {
  std::ostringstream h;
  h << "// Exported by blurlab --export: " << r.variant->name << ", pass " << index + 1 << " of " << count << " (\""
    << pass.name << "\")\n"
    << "// settings: " << describe(*r.variant, r.settings) << "\n"
    << "// image:    " << r.size.x << "x" << r.size.y << " (workgroup counts for other sizes: recipe.md)\n"
    << "// GPU:      " << r.gpu << "\n";
  if (r.median_ms) h << "// measured: " << format_double(*r.median_ms, 4) << " ms for the whole blur (median)\n";
  if (!r.check.empty()) h << "// check:    " << r.check << " against blurlab's CPU reference\n";
  h << "// The kernel's weights are constants (BAKED_TAPS)" << (pass.pass_values ? ", so are this pass's values (BAKED_PASS)" : "")
    << "; no uniform\n// needs setting. Bindings, barriers and dispatch: recipe.md.\n";
  return h.str();
}

}  // namespace

gl::Defines baked_weight_defines(const Kernel& kernel, const Border& border) {
  const std::vector<double> weights = kernel_weights(kernel);
  std::vector<double> linear;
  for (const LinearTap& t : linear_taps(weights)) {
    linear.push_back(t.offset);
    linear.push_back(t.weight);
  }
  return {{"BAKED_TAPS", vec4_list(weights)},
          {"BAKED_LINEAR", vec4_list(linear)},
          {"BAKED_BORDER_VALUE", vec4_list({border.value[0], border.value[1], border.value[2], border.value[3]})}};
}

json recipe_json(const Recording& recording, const ExportRequest& r, const std::vector<std::string>& shader_files) {
  const Kernel kernel = reference_kernel(*r.variant, r.settings);  // what the output must match (copy: the identity)
  json textures = json::array();
  for (const RecordedTexture& t : recording.textures) {
    const char* formula = t.size == r.size                        ? "W x H"
                          : t.size == glm::ivec2(r.size.y, r.size.x) ? "H x W (transposed)"
                                                                     : "fixed for this image size";
    textures.push_back({{"name", t.name},
                        {"format", gl::name(t.format)},
                        {"width", t.size.x},
                        {"height", t.size.y},
                        {"size_formula", formula}});
  }
  json knobs = json::object();
  for (const Knob& k : r.variant->knobs) knobs[std::string(k.name)] = k.text(r.settings.knob(k.name));
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
      } else {
        // texelFetch ignores the wrap mode (the shader maps the border); a linear fetch uses it.
        binding["wrap"] = b.kind == Binding::Kind::SampledLinear ? sampler_wrap_name(r.settings.border.mode) : "GL_CLAMP_TO_EDGE";
        if (b.kind == Binding::Kind::SampledLinear && r.settings.border.mode == BorderMode::Constant)
          binding["border_color"] = r.settings.border.value;
      }
      bindings.push_back(binding);
    }
    json pass = {{"name", p.name}, {"stage", name(p.stage)}, {"shaders", shaders}, {"bindings", bindings},
                 {"barriers_before", p.barriers_before}, {"barriers_before_names", barrier_names(p.barriers_before)}};
    if (p.pass_values) pass["pass_values"] = {p.pass_values->x, p.pass_values->y, p.pass_values->z, p.pass_values->w};
    if (p.stage == Stage::Compute) {
      pass["groups"] = {p.grid.groups.x, p.grid.groups.y, p.grid.groups.z};
      pass["groups_formula"] = p.grid.formula.empty() ? "fixed for this image size" : p.grid.formula;
    } else {
      pass["target"] = recording.textures[p.target].name;
      pass["draw"] = "glDrawArrays(GL_TRIANGLES, 0, 3) with an empty vertex array, viewport = target size";
    }
    passes.push_back(pass);
  }
  json recipe = {{"format", "blurlab-recipe"},
                 {"version", 1},
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
                 {"textures", textures},
                 {"passes", passes}};
  if (r.median_ms) recipe["median_ms"] = *r.median_ms;
  if (!r.check.empty()) recipe["check"] = r.check;
  return recipe;
}

namespace {

std::string recipe_markdown(const Recording& recording, const ExportRequest& r, const json& recipe) {
  std::ostringstream md;
  md << "# " << r.variant->name << ": exported blur\n\n"
     << "Settings: `" << describe(*r.variant, r.settings) << "`, made for " << r.size.x << "x" << r.size.y << " on "
     << r.gpu << (r.median_ms ? " (" + format_double(*r.median_ms, 4) + " ms measured)" : "") << ".\n"
     << (r.check.empty() ? "" : "Check against blurlab's CPU reference: " + r.check + ".\n") << "\nCommand: `" << r.command
     << "`\n\n## Textures\n\n| name | format | size |\n|---|---|---|\n";
  for (const json& t : recipe["textures"])
    md << "| " << t["name"].get<std::string>() << " | " << t["format"].get<std::string>() << " | " << t["size_formula"].get<std::string>()
       << " (here " << t["width"].get<int>() << "x" << t["height"].get<int>() << ") |\n";
  md << "\n`source` holds the image to blur and `destination` receives the result; the others are the blur's own.\n"
     << "Fill `source` before the first pass (if a shader wrote it with image stores, issue\n"
     << "`glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT)` first).\n"
     << "Border: " << describe(r.settings.border) << " (the shaders map taps outside the image themselves; a linear\n"
     << "fetch relies on the sampler's wrap mode named at its binding, on both axes).\n"
     << "Sampled textures use a sampler with the filter and wrap mode named. Image bindings\n"
     << "use `glBindImageTexture(unit, texture, 0, GL_FALSE, 0, access, format)` with the format named (a `r32ui`-like\n"
     << "format reads the texture's bits raw). The weights are baked into the shaders.\n\n## Passes, in order\n\n";
  size_t index = 0;
  for (const json& p : recipe["passes"]) {
    md << "### " << ++index << ". `" << p["name"].get<std::string>() << "` (" << p["stage"].get<std::string>() << ")\n\n";
    for (const auto& [stage, file] : p["shaders"].items()) md << "- " << stage << " shader: `" << file.get<std::string>() << "`\n";
    const std::string barriers = p["barriers_before_names"];
    md << "- before it: " << (barriers.empty() ? "no barrier" : "`glMemoryBarrier(" + barriers + ")`") << "\n";
    for (const json& b : p["bindings"]) {
      md << "- unit " << b["unit"].get<int>() << ": `" << b["texture"].get<std::string>() << "` as " << b["kind"].get<std::string>();
      if (b.contains("image_format")) md << " (" << b["image_format"].get<std::string>() << ")";
      if (b.contains("wrap")) md << ", wrap " << b["wrap"].get<std::string>();
      if (b.contains("border_color")) md << ", border colour " << b["border_color"].dump();
      md << "\n";
    }
    if (p.contains("groups"))
      md << "- `glDispatchCompute(" << p["groups"][0].get<int>() << ", " << p["groups"][1].get<int>() << ", " << p["groups"][2].get<int>()
         << ")`; for a W x H image: " << p["groups_formula"].get<std::string>() << "\n\n";
    else
      md << "- draw into `" << p["target"].get<std::string>() << "`: " << p["draw"].get<std::string>() << "\n\n";
  }
  (void)recording;
  return md.str();
}

}  // namespace

void check_export_dir(const fs::path& dir) { check_output_directory(dir, "--export", kExportFiles); }

std::vector<std::string> write_export(const Recording& recording, const ExportRequest& r, const gl::ShaderSources& sources,
                                      const fs::path& dir) {
  const gl::Defines baked = baked_weight_defines(r.settings.kernel, r.settings.border);
  std::vector<std::pair<std::string, std::string>> files;  // name, content
  for (size_t i = 0; i < recording.passes.size(); ++i) {
    const RecordedPass& pass = recording.passes[i];
    gl::Defines defines = pass.program.defines;
    defines.insert(defines.end(), baked.begin(), baked.end());
    if (pass.pass_values) {  // this dispatch's u_pass, a constant of this pass's file
      const glm::vec4 v = *pass.pass_values;
      defines.emplace_back("BAKED_PASS", vec4_list({v.x, v.y, v.z, v.w}));
    }
    const std::string header = shader_header(r, pass, i, recording.passes.size());
    for (const gl::ShaderFile& f : pass.program.files)
      files.emplace_back(std::to_string(i + 1) + "_" + pass.name + "." + std::string(stage_extension(f.stage)),
                         exported_shader(sources, f, defines, header));
  }
  std::vector<std::string> names;
  for (const auto& [name, content] : files) names.push_back(name);
  const json recipe = recipe_json(recording, r, names);
  files.emplace_back("recipe.json", recipe.dump(2) + "\n");
  files.emplace_back("recipe.md", recipe_markdown(recording, r, recipe));

  for (const auto& [name, content] : files) write_file_into(dir, name, content, "--export");
  names.push_back("recipe.json");
  names.push_back("recipe.md");
  return names;
}

}  // namespace blurlab
