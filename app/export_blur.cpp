#include "export_blur.h"

#include <algorithm>
#include <filesystem>
#include <functional>

#include "bench/measure.h"
#include "blur/linear_light.h"
#include "export/export.h"
#include "image/srgb.h"
#include "image/test_chart.h"
#include "util/error.h"
#include "util/strings.h"

namespace blurlab::app {

namespace {

// The blur's fidelity on one input: configured at its size, run once, read back and measured
// against the exact kernel asked for (a variable-radius variant: the exact per-pixel blur) and, for
// an approximation of a uniform Gaussian, against the exact Gaussian of the sigma it realizes.
ExportFidelity fidelity_on(BlurPipeline& pipeline, const report::Measurement& row, const std::string& name, glm::ivec2 size,
                           const bench::FillSource& fill) {
  if (auto why = pipeline.configure(*row.variant, row.settings, size)) return {.input = name, .refused = why->reason};
  bench::Input input(size, row.settings.input_format, row.settings.linear);
  fill(input.source, input.linear);
  pipeline.run(input.source, input.destination);
  const Image output = input.destination.download();
  const double peak = peak_magnitude(input.pixels());
  const BlurSettings& s = row.settings;
  ExportFidelity f{.input = name};
  const ReferenceImage& exact = row.variant->variable_radius ? input.variable_reference(s) : input.reference(s.kernel, s.border);
  f.asked = measure_fidelity(output, exact, s.input_format, peak, s.kernel.sigma);
  if (row.approximation && !row.variant->variable_radius && s.kernel.type == KernelType::Gauss)
    f.realized = measure_fidelity(output, input.fidelity_reference(row.approximation->sigma, s.border), s.input_format, peak,
                                  row.approximation->sigma);
  return f;
}

// Where the recipe holds: the sizes at which blurlab, given the same options, makes the programs
// it carries (export.h, sizes_holding). What the user asked for: the knobs they gave (or a tuning
// file chose for this size), the rest left to the defaults of each size.
SizeRange holds_for(const cli::Options& o, const report::Measurement& row, const gl::GlLimits& limits) {
  BlurSettings asked = row.settings;
  if (!row.tuned)
    for (const Knob& k : row.variant->knobs)
      if (!o.knob_values.count(std::string(k.name))) asked.knobs.erase(std::string(k.name));
  return sizes_holding(*row.variant, asked, row.settings, row.size, limits);
}

}  // namespace

std::string export_blur(const cli::Options& o, const report::Report& rep, BlurPipeline& pipeline, gl::ProgramCache& programs,
                        const bench::FillSource& fill) {
  const auto row = std::find_if(rep.rows.begin(), rep.rows.end(), [&](const report::Measurement& m) { return m.variant == o.variants.front(); });
  if (row == rep.rows.end() || row->unsupported) throw Error("--export: no run of " + std::string(o.variants.front()->name) + " to export");
  if (auto why = pipeline.configure(*row->variant, row->settings, row->size)) throw Error("--export: " + why->reason);
  gl::Texture source(row->size.x, row->size.y, row->settings.input_format, "export source");
  gl::Texture destination(row->size.x, row->size.y, row->settings.input_format, "export destination");
  fill(source, row->settings.linear);
  const Recording recording = pipeline.record(source, destination);
  // The file's name alone: the shaders' headers are not the place for this machine's paths.
  const std::string input = o.image.empty() ? "the scene (" + size_text(row->size) + ")"
                                            : "--image " + std::filesystem::path(o.image).filename().string() + " (" + size_text(row->size) + ")";
  // Fidelity on a stated set of inputs, the bar judged on the worst: the run's input, and the test
  // chart (hard edges, lines, checkers), where an approximation is furthest from the Gaussian.
  std::vector<ExportFidelity> fidelities;
  if (is_blur(*row->variant)) {
    fidelities.push_back(fidelity_on(pipeline, *row, input, row->size, fill));
    static const Image chart = test_chart();
    fidelities.push_back(fidelity_on(pipeline, *row, "the test chart (assets/chart.png, " + size_text({chart.width, chart.height}) + ")",
                                     {chart.width, chart.height},
                                     [&](gl::Texture& t, bool linear) { t.upload(linear ? decode_srgb(chart) : chart); }));
  }
  ExportRequest request{.variant = row->variant,
                        .settings = row->settings,
                        .size = row->size,
                        .gpu = rep.gl.renderer,
                        .cpu_rasterizer = rep.gl.software,
                        .median_ms = rep.gl.software ? std::nullopt : row->total_median(),
                        .check = row->check ? std::string(row->check->ok ? "ok " : "FAILED ") + row->check->text() : "",
                        .command = o.command_line,
                        .tolerance = row->tolerance,
                        .fidelities = std::move(fidelities),
                        .approximation = row->approximation,
                        .input = input,
                        .holds_for = holds_for(o, *row, rep.gl.limits),
                        .size_choices = row->variant->size_choices ? row->variant->size_choices(row->settings, row->size) : ""};
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
