#include "headless.h"

#include <algorithm>
#include <ctime>
#include <iostream>
#include <optional>
#include <sstream>

#include "bench/roofline.h"
#include "bench/sweep.h"
#include "blur/linear_light.h"
#include "blur/registry.h"
#include "gl/debug.h"
#include "gl/program_dump.h"
#include "gl/timer_pool.h"
#include "image/image_file.h"
#include "export/export.h"
#include "cpu_rasterizer_sizing.h"
#include "effect_run.h"
#include "export_blur.h"
#include "image_input.h"
#include "run_outputs.h"
#include "sweep_progress.h"
#include "report/conclusion.h"
#include "report/effect_report.h"
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

// --dump-programs: each program compiled, as a file name and its text.
using ProgramDumps = std::vector<std::pair<std::string, std::string>>;

// Everything that can fail without a GPU fails first, the cheapest first: each output's target,
// then outputs that name one file twice or an input.
void check_outputs_before_gpu(const cli::Options& o) {
  for (const auto& [file, option] : file_outputs(o)) check_output_target(file, option);
  if (o.tune) report::TuningTable::check_target(o.tune_file);
  if (!o.report_dir.empty()) report::check_report_dir(o.report_dir);
  if (!o.export_dir.empty()) check_export_dir(o.export_dir);
  static const OutputFolderKind program_dumps{"--dump-programs", "program dumps", "", nullptr};
  if (!o.dump_dir.empty()) check_output_directory(o.dump_dir, program_dumps);
  check_distinct_outputs(all_outputs(o));
  OutputList folders;
  if (!o.report_dir.empty()) folders.emplace_back(o.report_dir, "--report");
  if (!o.export_dir.empty()) folders.emplace_back(o.export_dir, "--export");
  if (!o.dump_dir.empty()) folders.emplace_back(o.dump_dir, "--dump-programs");
  OutputList files = file_outputs(o);
  if (o.tune) files.emplace_back(o.tune_file, "--tune-file");
  check_outputs_spare_inputs(files, folders, o.input_files(), o.input_directories());
}

// The sizes the run blurs: the image's, else --size's (else the default); each within what the
// device's textures hold.
std::vector<glm::ivec2> run_sizes(const cli::Options& o, const std::optional<Image>& image, const gl::GlInfo& info) {
  const std::vector<glm::ivec2> sizes = image ? std::vector<glm::ivec2>{{image->width, image->height}}
                                              : (o.sizes.empty() ? std::vector<glm::ivec2>{cli::kDefaultHeadlessSize} : o.sizes);
  for (glm::ivec2 size : sizes)
    if (size.x > info.limits.max_texture_size || size.y > info.limits.max_texture_size)
      throw UsageError((image ? "--image " + o.image + " (" : "--size (") + size_text(size) + ") exceeds GL_MAX_TEXTURE_SIZE " +
                       std::to_string(info.limits.max_texture_size));
  return sizes;
}

// What a blur sweep plans its jobs from: the command line's variants (every one without
// --variant), sizes, formats and settings, and the tuned knobs the command line left open.
bench::SweepRequest sweep_request(const cli::Options& o, const RunInput& run_input, const std::vector<glm::ivec2>& sizes,
                                  const report::TuningTable* tuned, const gl::GlInfo& info) {
  bench::SweepRequest request;
  request.sizes = sizes;
  request.input_formats = run_input.input_formats;
  request.variants = o.variants;
  if (request.variants.empty()) request.variants.assign(variants().begin(), variants().end());
  request.settings = [&o](const VariantInfo& v, gl::Format f) { return o.settings_list(v, f); };
  request.add_floor = o.frames > 0 && o.output.empty() && !o.tune;  // ratios need the floor of the same run
  request.tuned = tuned;
  for (const auto& [knob, values] : o.knob_values) request.given_knobs.push_back(knob);
  request.renderer = info.renderer;
  return request;
}

// --dump-programs: each program the cache compiles is written down in `dumps` as it is compiled.
void collect_program_dumps(gl::ProgramCache& programs, ProgramDumps& dumps) {
  programs.on_compile([&dumps](const gl::Program& program, const std::vector<gl::ShaderFile>& shader_files, const gl::Defines& defines) {
    dumps.emplace_back(gl::dump_file_name(dumps.size() + 1, shader_files), gl::dump_file_text(shader_files, defines, gl::dump_program(program.id())));
  });
}

// What each job blurs: the image (in linear light where the job asks), else the scene at `time`.
bench::FillSource source_fill(const std::optional<Image>& image, Scene& scene, double time) {
  return [&image, &scene, time](gl::Texture& source, bool linear) {
    if (image)
      source.upload(linear ? decode_srgb(*image) : *image);
    else
      scene.render(source, time, linear);
  };
}

// --tune: the tuning table, then the choices merged into the tune file (unless GL errors make
// them suspect).
int tune_and_save(const cli::Options& o, const std::vector<bench::Job>& jobs, bench::Measurer& measurer, const bench::FillSource& fill,
                  const bench::OnJob& on_job, const gl::GlInfo& info, Progress& progress, bool debug) {
  report::TuningTable choices;  // this run's; merged into the file at the end
  TextTable table = bench::tuning_table();
  const bench::OnTry on_try = [&](const VariantInfo& v, const BlurSettings& s) {  // "workgroup=128x1 lines=4"
    const BlurSettings knobs = resolve(v, s);
    std::string text;
    for (const Knob& k : v.knobs) text += (text.empty() ? "" : " ") + std::string(k.name) + "=" + k.text(knobs.knob(k.name));
    progress.tick(text);
  };
  bench::run_tuning(jobs, measurer, o.frames, fill, on_job, info.renderer, choices, table, {}, on_try);
  progress.clear();
  table.print(std::cout);
  std::cout << "\n" << wrapped(bench::tuning_table_legend(), report::kTableWidth) << "\n";
  if (const std::string errors = gl_errors(debug); !errors.empty()) {
    print_error(errors + "; " + o.tune_file + " not saved");
    return 1;
  }
  check_standard_output();
  choices.merge_into(o.tune_file);
  std::cout << "\nsaved the choices to " << single_line(o.tune_file) << "\nuse them with --tuned " << single_line(o.tune_file) << "\n";
  return 0;
}

// The report's facts of the run itself, before any row: the device, the date, the timing policy,
// the input and the command.
report::Report report_of_run(const cli::Options& o, const gl::GlInfo& info, const bench::TimingPolicy& policy,
                             const std::optional<std::string>& sizing) {
  report::Report rep;
  rep.gl = info;
  rep.date = now_iso8601();
  rep.warmup = o.warmup;
  rep.min_warmup_s = policy.min_warmup_s;
  rep.sizing = sizing.value_or("");
  rep.frames = o.frames;
  rep.budget_s = o.budget;
  rep.scene_time = o.time;
  rep.image = o.image;
  rep.command = o.command_line;
  rep.shaders_from_disk = !o.shader_dir.empty();
  return rep;
}

// --csv and --json, staged with the run's other files.
void write_csv_and_json(const cli::Options& o, const report::Report& rep) {
  if (!o.csv.empty()) {
    std::ostringstream text;
    report::write_csv(rep, text);
    write_file_atomically(o.csv, text.str(), "--csv");
  }
  if (!o.json.empty()) {
    std::ostringstream text;
    report::write_json(rep, text);
    write_file_atomically(o.json, text.str(), "--json");
  }
}

// The rows (an effect's and a blur's) whose check failed.
size_t runs_over_tolerance(const report::Report& rep) {
  return static_cast<size_t>(std::count_if(rep.effect_rows.begin(), rep.effect_rows.end(),
                                           [](const report::EffectMeasurement& m) { return m.check && !m.check->ok(); })) +
         static_cast<size_t>(std::count_if(rep.rows.begin(), rep.rows.end(), [](const report::Measurement& m) { return m.check && !m.check->ok; }));
}

// Where each failed check failed and by how much, for whoever reads the table.
void print_runs_over_tolerance(const report::Report& rep) {
  if (runs_over_tolerance(rep) == 0) return;
  std::cout << "\nRuns over their tolerance:\n";
  for (const report::EffectMeasurement& m : rep.effect_rows)
    if (m.check && !m.check->ok()) std::cout << "- " << report::effect_failure_text(m) << "\n";
  for (const report::Measurement& m : rep.rows)
    if (m.check && !m.check->ok) std::cout << "- " << report::failure_text(m) << "\n";
  std::cout.flush();
}

// The run's line on stderr: what its checks say (`checks`, "" when nothing failed) and its GL errors.
std::string run_summary(std::string checks, bool debug) {
  if (const std::string errors = gl_errors(debug); !errors.empty()) checks += (checks.empty() ? "" : "; ") + errors;
  return checks;
}

// A run fails on GL errors, and with --check on a check that failed; without --check a failed
// check is reported, not fatal.
bool run_fails(const cli::Options& o, size_t over_tolerance, bool debug) { return (o.check && over_tolerance > 0) || !gl_errors(debug).empty(); }

// The end of an effect run: refusals and checks judged, the table, the conclusion and the files.
int finish_effect_run(const cli::Options& o, report::Report& rep, const std::optional<Image>& output, const std::optional<Recording>& recording,
                      gl::ProgramCache& programs, StagedOutputs& outputs, bool debug, const ProgramDumps& dumps) {
  const auto& rows = rep.effect_rows;
  if (!rows.empty() && std::all_of(rows.begin(), rows.end(), [](const report::EffectMeasurement& m) { return m.unsupported.has_value(); }) &&
      (o.implementations.size() == 1 || !o.output.empty()))
    throw UsageError(rows.front().settings.implementation + " cannot serve " + std::string(o.effect->name) + ": " + rows.front().unsupported->reason +
                     " (limit: " + std::string(name(rows.front().unsupported->limit)) + ")");
  if (o.check && std::none_of(rows.begin(), rows.end(), [](const report::EffectMeasurement& m) { return m.check.has_value(); }))
    throw Error("--check: nothing was checked: every implementation refused (" + std::to_string(rows.size()) + "; the first, " +
                rows.front().settings.implementation + ": " + rows.front().unsupported->reason + ")");
  if (!o.output.empty() && output) save_image(*output, o.output, 8, "--output");
  report::write_effect_table(rep, std::cout);
  report::write_effect_conclusion_text(rep, std::cout);
  write_csv_and_json(o, rep);
  const size_t failed = runs_over_tolerance(rep);
  print_runs_over_tolerance(rep);
  const std::string summary = run_summary(failed > 0 ? std::to_string(failed) + " runs exceed their tolerance (see the check column)" : "", debug);
  if (run_fails(o, failed, debug)) {
    print_error(summary + (outputs.size() > 0 ? "; no files written" : ""));
    return 1;
  }
  // The folders are staged too: they appear with the files above at the commit, or not at all.
  const std::string exported = o.export_dir.empty() ? "" : export_effect(o, rep, recording, programs);
  const std::string page = o.report_dir.empty() ? "" : report::write_report_page(rep, o.report_dir);
  for (const auto& [name, text] : dumps) write_file_into(o.dump_dir, name, text, "--dump-programs");
  check_standard_output();
  outputs.commit();
  if (!summary.empty()) print_error(summary);
  if (!o.output.empty()) std::cout << "\nwrote " << single_line(o.output) << " (8-bit png, the shipped picture)\n";
  if (!o.dump_dir.empty()) std::cout << "wrote " << dumps.size() << " program dumps to " << single_line(o.dump_dir) << "\n";
  for (const std::string* file : {&o.csv, &o.json})
    if (!file->empty()) std::cout << "wrote " << single_line(*file) << "\n";
  for (const std::string* line : {&exported, &page})
    if (!line->empty()) std::cout << *line << "\n";
  return 0;
}

// The rows of the variants asked for must show something: the floor a timed sweep adds for its
// ratios (SweepRequest::add_floor) runs and is checked whatever they do, and answers for none of them.
void check_asked_variants_ran(const cli::Options& o, const report::Report& rep, const bench::SweepRequest& request) {
  std::vector<const report::Measurement*> asked;
  for (const report::Measurement& r : rep.rows)
    if (std::find(request.variants.begin(), request.variants.end(), r.variant) != request.variants.end()) asked.push_back(&r);
  const bool all_unsupported = std::all_of(asked.begin(), asked.end(), [](const report::Measurement* r) { return r->unsupported.has_value(); });
  if (!asked.empty() && all_unsupported && (o.variants.size() == 1 || !o.output.empty()))
    throw UsageError(std::string(asked.front()->variant->name) + " cannot run " + describe(*asked.front()->variant, asked.front()->settings) +
                     ": " + asked.front()->unsupported->reason + " (limit: " + std::string(name(asked.front()->unsupported->limit)) + ")");
  // --check promises that what ran matches the reference: a run in which nothing asked for was
  // checked (every setting refused) has shown nothing, and fails (the floor's check once passed it).
  if (o.check && std::none_of(asked.begin(), asked.end(), [](const report::Measurement* r) { return r->check.has_value(); })) {
    const auto refused = std::find_if(asked.begin(), asked.end(), [](const report::Measurement* r) { return r->unsupported.has_value(); });
    throw Error("--check: nothing was checked" +
                (refused == asked.end() ? std::string()
                                        : ": every run was refused (" + std::to_string(asked.size()) + "; the first, " +
                                              std::string((*refused)->variant->name) + " " + describe(*(*refused)->variant, (*refused)->settings) +
                                              ": " + (*refused)->unsupported->reason + ")"));
  }
}

// The end of a blur sweep: the image, the table, the conclusion and the files.
int finish_blur_run(const cli::Options& o, report::Report& rep, const std::optional<Image>& output, const RunInput& run_input,
                    BlurPipeline& pipeline, gl::ProgramCache& programs, const bench::FillSource& fill, StagedOutputs& outputs, bool debug,
                    const ProgramDumps& dumps) {
  // --output: one run only (checked by the parser). Linear light is encoded back to sRGB.
  if (!o.output.empty() && output) save_image(o.linear ? encode_srgb(*output) : *output, o.output, run_input.output_bits, "--output");
  report::write_table(rep, std::cout, o.wide ? report::Columns::All : report::Columns::Fit, /*legend=*/o.output.empty());
  if (o.output.empty()) report::write_conclusion_text(report::conclude(rep), std::cout);
  write_csv_and_json(o, rep);

  // A failed run writes none of its files, and its one line on stderr says so.
  const size_t over_tolerance = runs_over_tolerance(rep);
  print_runs_over_tolerance(rep);
  const std::string summary = run_summary(
      over_tolerance > 0 ? std::to_string(over_tolerance) + " of " + std::to_string(rep.rows.size()) + " runs exceed their tolerance (see the check column)"
                         : "",
      debug);
  if (run_fails(o, over_tolerance, debug)) {
    print_error(summary + (outputs.size() > 0 ? "; no files written" : ""));
    return 1;
  }
  // The folders are staged too: they appear with the files above at the commit, or not at all.
  const std::string exported = o.export_dir.empty() ? "" : export_blur(o, rep, pipeline, programs, fill);
  const std::string page = o.report_dir.empty() ? "" : report::write_report_page(rep, o.report_dir);
  for (const auto& [name, text] : dumps) write_file_into(o.dump_dir, name, text, "--dump-programs");
  check_standard_output();  // a table that did not reach its reader fails the run, before its files appear
  outputs.commit();
  if (!summary.empty()) print_error(summary);  // without --check, a check that fails is reported, not fatal
  if (!o.output.empty())
    std::cout << "\nwrote " << single_line(o.output) << " (" << run_input.output_bits << "-bit " << name(output_format(o.output, "--output")) << ")\n";
  for (const std::string* file : {&o.csv, &o.json})
    if (!file->empty()) std::cout << "wrote " << single_line(*file) << "\n";
  for (const std::string* line : {&exported, &page})  // the names in them each on one line (single_line where made)
    if (!line->empty()) std::cout << *line << "\n";
  if (!o.dump_dir.empty()) std::cout << "wrote " << dumps.size() << " program dumps to " << single_line(o.dump_dir) << "\n";
  return 0;
}

}  // namespace

int run_headless(const cli::Options& given) {
  cli::Options o = given;  // sized for a CPU rasterizer below, when the run chose nothing
  check_outputs_before_gpu(o);
  RunInput run_input = prepare_run_input(o, cli::kDefaultHeadlessSize, std::cout);
  const std::optional<Image> image = std::move(run_input.image);
  gl::ShaderSources sources = o.shader_dir.empty() ? gl::ShaderSources::embedded() : gl::ShaderSources::directory(o.shader_dir);
  std::optional<report::TuningTable> tuned;
  if (!o.tuned.empty()) tuned = report::TuningTable::load(o.tuned);
  // Files written from here on appear only at outputs.commit(), once the whole run succeeded;
  // a failure, an exception or a signal leaves none of them and no temporary file.
  StagedOutputs outputs;

  const bool debug = o.gl_debug || gl::kDebugBuild;
  auto context = gl::HeadlessContext::create(debug, o.device);
  const gl::GlInfo& info = context->info();
  std::cout << gl::describe(info) << std::endl;
  bench::TimingPolicy policy{.warmup_frames = o.warmup, .frames = o.frames, .budget_s = o.budget};
  const std::optional<std::string> sizing = size_for_cpu_rasterizer(o, info, policy);
  if (sizing) std::cout << wrapped(*sizing, report::kTableWidth) << "\n\n";

  const std::vector<glm::ivec2> sizes = run_sizes(o, image, info);
  const bench::SweepRequest request = sweep_request(o, run_input, sizes, tuned ? &*tuned : nullptr, info);
  // An effect's run plans its own jobs (effect_run.h): the variants are its implementations.
  const std::vector<bench::Job> jobs = o.effect ? std::vector<bench::Job>{} : bench::plan(request);
  if (const auto note = bench::untuned_note(request, jobs, o.tuned)) std::cout << wrapped(single_line(*note), report::kTableWidth) << "\n\n";

  gl::ProgramCache programs(std::move(sources));
  ProgramDumps dumps;
  if (!o.dump_dir.empty()) collect_program_dumps(programs, dumps);
  // Room for every frame of a configuration in flight (timed frames are not waited for).
  gl::TimerPool timers(gl::make_gl_query_backend(info.software), static_cast<size_t>(o.frames) * 16 + 64);
  BlurPipeline pipeline(programs, info.limits, &timers);
  Scene scene(programs);
  bench::Measurer measurer(pipeline, timers, policy);
  const bench::FillSource fill = source_fill(image, scene, o.time);
  Progress progress(jobs.size(), progress_items(jobs));
  const bench::Job* previous_job = nullptr;
  const bench::OnJob on_job = [&](const bench::Job& job) {
    if (!previous_job || !same_progress_item(*previous_job, job)) progress.item(progress_item_text(job));
    previous_job = &job;
    progress.step(std::string(job.variant->name) + " " + size_text(job.size) + " r=" + std::to_string(job.settings.kernel.radius));
  };
  if (o.tune) return tune_and_save(o, jobs, measurer, fill, on_job, info, progress, debug);

  report::Report rep = report_of_run(o, info, policy, sizing);
  if ((o.roofline || !o.json.empty()) && o.frames > 0)
    rep.roofline = bench::measure_roofline(programs, pipeline, timers, info, measurer.policy());
  bench::SweepResult result;
  if (o.effect) {
    std::optional<Recording> recording;  // --export: the chain as it ran
    run_effect_sweep(o, sizes, programs, timers, info, measurer, scene, rep, result.last_output, recording);
    return finish_effect_run(o, rep, result.last_output, recording, programs, outputs, debug, dumps);
  }
  result = bench::run_sweep(jobs, measurer, o.frames, fill, on_job, !o.output.empty());
  progress.clear();  // the table starts at the left edge, not on the bar's line
  rep.rows = std::move(result.rows);
  check_asked_variants_ran(o, rep, request);
  return finish_blur_run(o, rep, result.last_output, run_input, pipeline, programs, fill, outputs, debug, dumps);
}

}  // namespace blurlab::app
