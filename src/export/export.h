#pragma once
// --export: the blur a user chose, as files they can ship without blurlab. From one recorded run
// (BlurPipeline::record) it writes a self-contained shader per pass and stage (includes expanded,
// defines and the kernel's weights baked in, a comment header with the settings, GPU and measured
// time) and a recipe, recipe.md for people and recipe.json for programs: the textures and their
// formats, each pass's bindings, barriers and workgroup counts (with their formula in the image
// size W x H), and the data of textures the pipeline fills from the CPU (a variable-radius variant's
// levels and weights, NAME.bin). tests/tools/run_recipe.cpp runs a recipe from its files alone.
// An effect's whole chain (EffectPipeline::record: its own passes and its blur stages', each
// program with its own kernel's weights baked in) exports the same way, its HDR frame (and depth)
// shipped as data files, as the effect's parameters and fidelity against its ground truth.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "blur/check.h"
#include "blur/recording.h"
#include "effects/effect.h"
#include "gl/context.h"
#include "util/files.h"

namespace blurlab {

// The exported blur's fidelity on one input: against the exact kernel asked for (for an
// approximation of the Gaussian, the exact Gaussian of the sigma asked) and, for an approximation
// of a uniform Gaussian, against the exact Gaussian of the sigma it realizes (how well it blurs
// what it blurs; ApproxChoice::sigma).
struct ExportFidelity {
  std::string input;  // "the scene (480x270)", "the test chart (assets/chart.png, 320x240)"
  Fidelity asked;
  std::optional<Fidelity> realized;
  std::string refused;  // the variant refuses this input's size: not measured, and why
};

// The image sizes a recipe holds for: those at which blurlab makes the programs it carries
// (program_sources, blur/pipeline.h; a size that changes a baked length or a choice left to the
// size makes others), each side in its range and the texels in theirs, up to GL_MAX_TEXTURE_SIZE.
struct SizeRange {
  int min_width = 1, max_width = 1, min_height = 1, max_height = 1;
  long long min_texels = 1, max_texels = 1;
  int max_texture_size = 0;  // where the search stopped: the device's limit
  bool contains(glm::ivec2 size) const;
  bool any_size() const;  // every size up to max_texture_size
};

// The sizes at which blurlab, given the settings `asked` (the knobs a user gave; the others left to
// each size's defaults), makes the programs it made at `size` with `made_with` and runs them (a
// refusal is no run): each side searched with the other at `size`, then the texels at the far
// corners (a rule on W x H, dual Kawase's last pass, shows there). Each rule of the variants that
// bakes a size is monotone in it, so the search gallops and halves.
SizeRange sizes_holding(const VariantInfo& variant, const BlurSettings& asked, const BlurSettings& made_with, glm::ivec2 size,
                        const gl::GlLimits& limits);

struct ExportRequest {
  const VariantInfo* variant = nullptr;  // the blur; nullptr for an effect's chain (`effect`)
  BlurSettings settings;  // resolved
  glm::ivec2 size{0, 0};
  std::string gpu;                   // GL_RENDERER
  // The renderer is a CPU rasterizer: its time says nothing of a GPU's, so none is given.
  bool cpu_rasterizer = false;
  std::optional<double> median_ms;   // the measured time of the whole blur (or chain), if it was timed on a GPU
  std::string check;                 // the check's verdict, e.g. "ok R 0 G 1 B 0 A 0 LSB", or ""
  std::string command;               // the command line that made it
  Tolerance tolerance;               // what the check allows for these settings, and why
  // How close the output comes to the exact kernel asked for, on each input of a stated set (the
  // run's and the test chart: ExportFidelity; none for the copy), what an approximation chose
  // (the sigma it realizes), and what the run's input was ("the scene", "--image photo.png").
  std::vector<ExportFidelity> fidelities;
  std::optional<ApproxChoice> approximation;
  std::string input;
  SizeRange holds_for;        // the sizes the recipe holds for
  std::string size_choices;   // what the size decided (VariantInfo::size_choices), "" where nothing

  // An effect's whole chain (--effect) instead of a blur (then `variant` is nullptr, and of
  // `settings` nothing is read): the effect, its settings (implementation, parameters, border, the
  // blur stage's knobs), what the implementation is (EffectInfo::describe), the check of each stage
  // against the CPU, and the shipped frame's fidelity against the effect's ground truth. Its frame
  // (and depth, where a pass reads it) travels as data files (the recording's contents).
  const EffectInfo* effect = nullptr;
  EffectSettings effect_settings;
  std::string effect_description;
  std::vector<StageCheck> stage_checks;
  std::optional<EffectFidelity> effect_fidelity;
};

// The worst of the fidelities (the lowest PSNR against the kernel asked for): what the bar is
// judged on. nullptr when there are none.
const ExportFidelity* worst_fidelity(const ExportRequest& request);

// The defines that replace the weights block (glsl/blur_common.glsl, BAKED_TAPS) with constants:
// the kernel's taps and its hardware-linear pairs where the variant blurs with them (an exact
// blur; an approximation's shaders use their own passes' values, and get no weights), and the
// border constant.
gl::Defines baked_weight_defines(const Kernel& kernel, const Border& border, bool with_weights = true);

// The recipe as JSON (format "blurlab-recipe", version 3: 2 and the textures a recipe fills from
// data files, a variable-radius variant's levels and weights; docs in docs/USAGE.md, "Exporting a blur").
nlohmann::json recipe_json(const Recording& recording, const ExportRequest& request, const std::vector<std::string>& shader_files);

// The files of an export whose names are known before the run (the shaders' depend on the passes).
inline const std::vector<std::string> kExportFiles = {"recipe.json", "recipe.md", "README.md", "LICENSE"};

// LICENSE as the program was built with it: every export carries it, and every exported file
// names it in its first line (kSpdxLine) or, for a data file, in a NAME.license beside it.
std::string_view embedded_license();
inline constexpr std::string_view kSpdxLine = "SPDX-License-Identifier: MIT";

// What --export warns of when the blur does not reach kFidelityBarDb against the exact kernel
// asked for on the worst of its inputs (recipe.md, README.md and recipe.json say it too), else "".
std::string fidelity_warning(const ExportRequest& request);
// The fidelity in words: against what (both sigmas of an approximation), on each input, the
// worst first, and the bar ("PSNR 43.1 dB, max 64 LSB, RMS 1.79 LSB on the test chart ...").
std::string fidelity_summary(const ExportRequest& request);

// A comment line of a shader without what points into blurlab's source tree (a parenthesis naming
// "src/blur/kernel.h", "docs/PERFORMANCE.md", an issue), which someone shipping the shader does
// not have; a comment left empty is dropped (nullopt). Code is kept as it is.
std::optional<std::string> without_source_pointers(const std::string& line);

// An export folder's kind (util/files.h): recipe.json lists the shaders and data files beside it,
// and recipe.md goes with it.
const OutputFolderKind& export_folder();
// Throws Error (exit 1) unless `dir` can take the export at the end (check_output_directory():
// empty, new, or an earlier export and nothing else). Called before any GL work.
void check_export_dir(const std::filesystem::path& dir);

// Writes the shaders, the data files, recipe.json and recipe.md into `dir` (made if missing), staged with the
// run's other outputs (util/files.h: all of them appear at the run's commit, or none), and removes
// there the files of an earlier export it did not write again. Returns the names of the files.
std::vector<std::string> write_export(const Recording& recording, const ExportRequest& request,
                                      const gl::ShaderSources& sources, const std::filesystem::path& dir);

}  // namespace blurlab
