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
  // How close the output came to the exact kernel on the run's input (report::Measurement's
  // fidelity; none for the copy), what an approximation chose (the sigma it realizes), and what
  // the input was ("the scene", "--image photo.png").
  std::optional<Fidelity> fidelity;
  std::optional<ApproxChoice> approximation;
  std::string input;

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
// (recipe.md, README.md and recipe.json say it too), else "".
std::string fidelity_warning(const ExportRequest& request);

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
