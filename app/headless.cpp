#include "headless.h"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

#include "bench/roofline.h"
#include "bench/sweep.h"
#include "blur/linear_light.h"
#include "blur/registry.h"
#include "gl/debug.h"
#include "gl/timer_pool.h"
#include "image/image_file.h"
#include "export/export.h"
#include "image_input.h"
#include "report/page.h"
#include "report/report.h"
#include "report/tuning.h"
#include "scene/scene.h"
#include "util/error.h"
#include "util/files.h"
#include "util/progress.h"
#include "util/strings.h"
#include "util/table.h"

namespace blurlab::app {

namespace {

constexpr glm::ivec2 kDefaultSize{1920, 1080};

std::string now_iso8601() {
  char buffer[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S%z", std::localtime(&now));
  return buffer;
}

// "N OpenGL errors (printed above)" when a debug context saw any, else "".
std::string gl_errors(bool debug) {
  return debug && gl::debug_error_count() > 0 ? std::to_string(gl::debug_error_count()) + " OpenGL errors (printed above)" : "";
}

// --export: records the one blur the run measured (its row, with --tuned knobs filled in) and writes
// its shaders and recipe. After the run's own outputs: a folder of its own, all files or none.
void export_blur(const cli::Options& o, const report::Report& rep, BlurPipeline& pipeline, gl::ProgramCache& programs,
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
                        .median_ms = row->total_median(),
                        .check = row->check ? std::string(row->check->ok ? "ok " : "FAILED ") + row->check->text() : "",
                        .command = o.command_line,
                        .tolerance = row->tolerance};
  const std::vector<std::string> files = write_export(recording, request, programs.sources(), o.export_dir);
  std::cout << "exported " << row->variant->name << " to " << o.export_dir << "/:";
  for (const std::string& file : files) std::cout << " " << file;
  std::cout << "\n";
}

}  // namespace

int run_headless(const cli::Options& o) {
  // Everything that can fail without a GPU fails first, the cheapest first.
  for (const auto& [file, option] : {std::pair{&o.output, "--output"}, std::pair{&o.csv, "--csv"}, std::pair{&o.json, "--json"}})
    if (!file->empty()) check_output_target(*file, option);
  if (o.tune) check_output_target(o.tune_file, "--tune-file");
  RunInput run_input = prepare_run_input(o, kDefaultSize, std::cout);
  const std::optional<Image> image = std::move(run_input.image);
  gl::ShaderSources sources = o.shader_dir.empty() ? gl::ShaderSources::embedded() : gl::ShaderSources::directory(o.shader_dir);
  std::optional<report::TuningTable> tuned;
  if (!o.tuned.empty()) tuned = report::TuningTable::load(o.tuned);
  if (!o.report_dir.empty()) report::check_report_dir(o.report_dir);
  if (!o.export_dir.empty()) report::check_report_dir(o.export_dir);
  // Files written from here on appear only at outputs.commit(), once the whole run succeeded;
  // a failure, an exception or a signal leaves none of them and no temporary file.
  StagedOutputs outputs;

  const bool debug = o.gl_debug || gl::kDebugBuild;
  auto context = gl::HeadlessContext::create(debug, o.device);
  const gl::GlInfo& info = context->info();
  std::cout << gl::describe(info) << std::endl;

  const std::vector<glm::ivec2> sizes = image ? std::vector<glm::ivec2>{{image->width, image->height}}
                                              : (o.sizes.empty() ? std::vector<glm::ivec2>{kDefaultSize} : o.sizes);
  for (glm::ivec2 size : sizes)
    if (size.x > info.limits.max_texture_size || size.y > info.limits.max_texture_size)
      throw UsageError((image ? "--image " + o.image + " (" : "--size (") + size_text(size) + ") exceeds GL_MAX_TEXTURE_SIZE " +
                       std::to_string(info.limits.max_texture_size));

  bench::SweepRequest request;
  request.sizes = sizes;
  request.input_formats = run_input.input_formats;
  request.variants = o.variants;
  if (request.variants.empty()) request.variants.assign(variants().begin(), variants().end());
  request.settings = [&o](const VariantInfo& v, gl::Format f) { return o.settings_list(v, f); };
  request.add_floor = o.frames > 0 && o.output.empty() && !o.tune;  // ratios need the floor of the same run
  request.tuned = tuned ? &*tuned : nullptr;
  for (const auto& [knob, values] : o.knob_values) request.given_knobs.push_back(knob);
  request.renderer = info.renderer;
  const std::vector<bench::Job> jobs = bench::plan(request);

  gl::ProgramCache programs(std::move(sources));
  // Room for every frame of a configuration in flight (timed frames are not waited for).
  gl::TimerPool timers(gl::make_gl_query_backend(info.software), static_cast<size_t>(o.frames) * 16 + 64);
  BlurPipeline pipeline(programs, info.limits, &timers);
  Scene scene(programs);
  bench::Measurer measurer(pipeline, timers, {.warmup_frames = o.warmup, .frames = o.frames, .budget_s = o.budget});
  const bench::FillSource fill = [&](gl::Texture& source, bool linear) {
    if (image)
      source.upload(linear ? decode_srgb(*image) : *image);
    else
      scene.render(source, o.time, linear);
  };
  Progress progress(jobs.size());
  const bench::OnJob on_job = [&](const bench::Job& job) {
    progress.step(std::string(job.variant->name) + " " + size_text(job.size) + " r=" + std::to_string(job.settings.kernel.radius));
  };

  if (o.tune) {
    report::TuningTable tuning = std::filesystem::exists(o.tune_file) ? report::TuningTable::load(o.tune_file) : report::TuningTable();
    TextTable table(bench::tuning_table_header());
    bench::run_tuning(jobs, measurer, o.frames, fill, on_job, info.renderer, tuning, table);
    table.print(std::cout);
    tuning.save(o.tune_file);
    if (const std::string errors = gl_errors(debug); !errors.empty()) {
      print_error(errors + "; " + o.tune_file + " not saved");
      return 1;
    }
    outputs.commit();
    std::cout << "\nsaved the choices to " << o.tune_file << " (use them with --tuned " << o.tune_file << ")\n";
    return 0;
  }

  report::Report rep;
  rep.gl = info;
  rep.date = now_iso8601();
  rep.warmup = o.warmup;
  rep.frames = o.frames;
  rep.budget_s = o.budget;
  rep.scene_time = o.time;
  rep.image = o.image;
  rep.command = o.command_line;
  if ((o.roofline || !o.json.empty()) && o.frames > 0)
    rep.roofline = bench::measure_roofline(programs, pipeline, timers, info, measurer.policy());
  bench::SweepResult result = bench::run_sweep(jobs, measurer, o.frames, fill, on_job, !o.output.empty());
  rep.rows = std::move(result.rows);

  const bool all_unsupported =
      std::all_of(rep.rows.begin(), rep.rows.end(), [](const report::Measurement& r) { return r.unsupported.has_value(); });
  if (!rep.rows.empty() && all_unsupported && (o.variants.size() == 1 || !o.output.empty()))
    throw UsageError(std::string(rep.rows.front().variant->name) + " cannot run " +
                     describe(*rep.rows.front().variant, rep.rows.front().settings) + ": " + rep.rows.front().unsupported->reason);

  // --output: one run only (checked by the parser). Linear light is encoded back to sRGB.
  if (!o.output.empty() && result.last_output)
    save_image(o.linear ? encode_srgb(*result.last_output) : *result.last_output, o.output, run_input.output_bits);
  report::write_table(rep, std::cout, o.wide ? report::Columns::All : report::Columns::Fit);
  if (!o.csv.empty()) {
    std::ostringstream text;
    report::write_csv(rep, text);
    write_file_atomically(o.csv, text.str());
  }
  if (!o.json.empty()) {
    std::ostringstream text;
    report::write_json(rep, text);
    write_file_atomically(o.json, text.str());
  }

  // A failed run writes none of its files, and its one line on stderr says so.
  const size_t over_tolerance = static_cast<size_t>(
      std::count_if(rep.rows.begin(), rep.rows.end(), [](const report::Measurement& r) { return r.check && !r.check->ok; }));
  std::string summary = over_tolerance > 0 ? std::to_string(over_tolerance) + " of " + std::to_string(rep.rows.size()) +
                                                 " runs exceed their tolerance (see the check column)"
                                           : "";
  if (const std::string errors = gl_errors(debug); !errors.empty()) summary += (summary.empty() ? "" : "; ") + errors;
  if ((o.check && over_tolerance > 0) || !gl_errors(debug).empty()) {
    print_error(summary + (outputs.size() > 0 ? "; no files written" : ""));
    return 1;
  }
  outputs.commit();
  if (!summary.empty()) print_error(summary);  // without --check, a check that fails is reported, not fatal
  if (!o.output.empty())
    std::cout << "\nwrote " << o.output << " (" << run_input.output_bits << "-bit " << name(output_format(o.output, "--output")) << ")\n";
  for (const std::string* file : {&o.csv, &o.json})
    if (!file->empty()) std::cout << "wrote " << *file << "\n";
  if (!o.export_dir.empty()) export_blur(o, rep, pipeline, programs, fill);
  // The --report page comes last, written directly: its chart script reads report.json from the
  // disk, so it cannot wait for a commit; it is a folder of its own, made only for a run that succeeded.
  if (!o.report_dir.empty()) std::cout << report::write_report_page(rep, o.report_dir) << "\n";
  return 0;
}

}  // namespace blurlab::app
