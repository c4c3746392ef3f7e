#include "export_blur.h"

#include <algorithm>
#include <filesystem>

#include "export/export.h"
#include "util/error.h"
#include "util/strings.h"

namespace blurlab::app {

std::string export_blur(const cli::Options& o, const report::Report& rep, BlurPipeline& pipeline, gl::ProgramCache& programs,
                        const bench::FillSource& fill) {
  const auto row = std::find_if(rep.rows.begin(), rep.rows.end(), [&](const report::Measurement& m) { return m.variant == o.variants.front(); });
  if (row == rep.rows.end() || row->unsupported) throw Error("--export: no run of " + std::string(o.variants.front()->name) + " to export");
  if (auto why = pipeline.configure(*row->variant, row->settings, row->size)) throw Error("--export: " + why->reason);
  gl::Texture source(row->size.x, row->size.y, row->settings.input_format, "export source");
  gl::Texture destination(row->size.x, row->size.y, row->settings.input_format, "export destination");
  fill(source, row->settings.linear);
  const Recording recording = pipeline.record(source, destination);
  ExportRequest request{.variant = row->variant,
                        .settings = row->settings,
                        .size = row->size,
                        .gpu = rep.gl.renderer,
                        .cpu_rasterizer = rep.gl.software,
                        .median_ms = rep.gl.software ? std::nullopt : row->total_median(),
                        .check = row->check ? std::string(row->check->ok ? "ok " : "FAILED ") + row->check->text() : "",
                        .command = o.command_line,
                        .tolerance = row->tolerance,
                        .fidelity = row->fidelity,
                        .approximation = row->approximation,
                        // The file's name alone: the shaders' headers are not the place for this machine's paths.
                        .input = o.image.empty() ? "the scene (" + size_text(row->size) + ")"
                                                 : "--image " + std::filesystem::path(o.image).filename().string()};
  std::string line = "exported " + std::string(row->variant->name) + " to " + single_line(o.export_dir) + "/:";
  for (const std::string& file : write_export(recording, request, programs.sources(), o.export_dir)) line += " " + file;
  if (const std::string warning = fidelity_warning(request); !warning.empty()) line += "\n" + wrapped("warning: " + warning, report::kTableWidth);
  return line;
}

std::string export_effect(const cli::Options& o, const report::Report& rep, const std::optional<Recording>& recording,
                          gl::ProgramCache& programs) {
  const auto row = std::find_if(rep.effect_rows.begin(), rep.effect_rows.end(), [](const report::EffectMeasurement& m) { return !m.unsupported; });
  if (row == rep.effect_rows.end() || !recording || !row->check)
    throw Error("--export: no checked run of " + std::string(o.effect->name) + " to export");
  std::string check = row->check->ok() ? "ok" : "FAILED";
  for (const StageCheck& stage : row->check->stages) check += (&stage == &row->check->stages.front() ? ": " : ", ") + stage.stage + " " + stage.result.text();
  // Field by field: GCC 12 takes a designated initializer's defaulted std::string for uninitialized.
  ExportRequest request;
  request.size = row->size;
  request.gpu = rep.gl.renderer;
  request.cpu_rasterizer = rep.gl.software;
  request.median_ms = rep.gl.software ? std::nullopt : row->total_median();
  request.check = check;
  request.command = o.command_line;
  request.input = "the scene (" + size_text(row->size) + ")";
  request.effect = o.effect;
  request.effect_settings = row->settings;
  request.effect_description = row->description;
  request.stage_checks = row->check->stages;
  request.effect_fidelity = row->check->fidelity;
  std::string line = "exported " + std::string(o.effect->name) + " by " + row->settings.implementation + " to " + single_line(o.export_dir) + "/:";
  for (const std::string& file : write_export(*recording, request, programs.sources(), o.export_dir)) line += " " + file;
  if (const std::string warning = fidelity_warning(request); !warning.empty()) line += "\n" + wrapped("warning: " + warning, report::kTableWidth);
  return line;
}

}  // namespace blurlab::app
