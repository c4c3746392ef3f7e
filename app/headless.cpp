#include "headless.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <chrono>
#include <ctime>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>

#include "blur/check.h"
#include "blur/pipeline.h"
#include "blur/reference.h"
#include "blur/registry.h"
#include "gl/debug.h"
#include "gl/timer_pool.h"
#include "report/report.h"
#include "report/tuning.h"
#include "scene/scene.h"
#include "util/error.h"
#include "util/files.h"
#include "util/strings.h"
#include "util/table.h"

namespace blurlab::app {

namespace {

constexpr glm::ivec2 kDefaultSize{1920, 1080};

std::string size_text(glm::ivec2 size) { return std::to_string(size.x) + "x" + std::to_string(size.y); }

std::string now_iso8601() {
  char buffer[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S%z", std::localtime(&now));
  return buffer;
}

// A long sweep shows where it is, on a terminal only (not in logs or pipes).
class Progress {
 public:
  explicit Progress(size_t total) : total_(total), enabled_(total > 1 && ::isatty(STDERR_FILENO)) {}
  ~Progress() {
    if (enabled_ && shown_) std::cerr << "\r" << std::string(100, ' ') << "\r" << std::flush;
  }
  void step(const std::string& what) {
    ++done_;
    if (!enabled_) return;
    const size_t width = 30, filled = width * (done_ - 1) / total_;
    std::cerr << "\r[" << std::string(filled, '#') << std::string(width - filled, '.') << "] " << done_ << "/" << total_ << " "
              << what.substr(0, 60) << "    " << std::flush;
    shown_ = true;
  }

 private:
  size_t total_, done_ = 0;
  bool enabled_, shown_ = false;
};

// The image blurred in one (size, input format) group, and references computed from it.
class Input {
 public:
  Input(glm::ivec2 size, gl::Format format)
      : source(size.x, size.y, format, "source"), destination(size.x, size.y, format, "destination") {}
  gl::Texture source, destination;

  const Image& pixels() {
    if (!pixels_) pixels_ = source.download();
    return *pixels_;
  }
  const ReferenceImage& reference(const Kernel& kernel) {
    for (auto& [k, ref] : references_)
      if (k == kernel) return ref;
    references_.emplace_back(kernel, reference_blur(pixels(), kernel_weights(kernel)));
    return references_.back().second;
  }

 private:
  std::optional<Image> pixels_;
  std::vector<std::pair<Kernel, ReferenceImage>> references_;
};

// Runs one configuration: timed frames (if any), then one checked run with poisoned targets.
class Measurer {
 public:
  Measurer(BlurPipeline& pipeline, gl::TimerPool& timers, const cli::Options& o) : pipeline_(pipeline), timers_(timers), o_(o) {}

  report::Measurement measure(Input& input, const VariantInfo& variant, const BlurSettings& settings, glm::ivec2 size,
                              bool check, int frames) {
    report::Measurement m;
    m.variant = &variant;
    m.size = size;
    m.settings = resolve(variant, settings);
    m.unsupported = pipeline_.configure(variant, settings, size);
    if (m.unsupported) return m;
    if (frames > 0) time(input, m, frames);
    if (check) {
      poison(input.destination);
      pipeline_.run(input.source, input.destination);
      const Image output = input.destination.download();
      m.tolerance = tolerance_for(variant, m.settings, size, peak_magnitude(input.pixels()));
      m.check = compare_to_reference(output, input.reference(reference_kernel(variant, m.settings)), m.tolerance);
    }
    return m;
  }

 private:
  void time(Input& input, report::Measurement& m, int frames) {
    using clock = std::chrono::steady_clock;
    const auto seconds_since = [](clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); };
    // Warm-up: the requested frames and at least half a second of GPU work, so clocks that
    // dropped while the CPU checked the previous configuration ramp up again (on the H200, the
    // first configuration after a CPU reference measured 3-5x too slow after 0.13 s and still 5x
    // after 0.25 s of warm-up; 0.5 s was enough). Slow configurations stop early, after a third
    // of the budget, but never before that half second.
    constexpr double kMinWarmupSeconds = 0.5;
    const auto warmup_start = clock::now();
    int warm = 0;
    while (true) {
      pipeline_.run(input.source, input.destination);
      ++warm;
      if (warm % 4 != 0 && warm < o_.warmup) continue;
      glFinish();
      const double elapsed = seconds_since(warmup_start);
      if (warm >= o_.warmup && elapsed >= kMinWarmupSeconds) break;
      if (o_.budget > 0 && elapsed > std::max(o_.budget / 3, kMinWarmupSeconds)) break;
    }
    glFinish();
    // As many frames as the budget allows at the warm-up's pace (at least 3).
    const double frame_seconds = seconds_since(warmup_start) / warm;
    int n = frames;
    if (o_.budget > 0) n = std::clamp(static_cast<int>(o_.budget / std::max(frame_seconds, 1e-6)), std::min(3, frames), frames);
    // Timed frames back to back, as an application renders them: the GPU stays busy, the pool is
    // polled without waiting, and one glFinish at the end gives the CPU wall time per frame.
    auto collect = [&](const std::vector<gl::FrameTimes>& done) {
      for (const gl::FrameTimes& frame : done)
        for (const gl::SpanTime& span : frame.spans) {
          if (std::find(m.span_order.begin(), m.span_order.end(), span.name) == m.span_order.end()) m.span_order.push_back(span.name);
          m.spans_ms[span.name].push_back(span.ms);
        }
    };
    const auto start = clock::now();
    for (int f = 0; f < n; ++f) {
      timers_.begin_frame();
      pipeline_.run(input.source, input.destination);
      timers_.end_frame();
      collect(timers_.poll());
    }
    glFinish();
    m.cpu_ms.assign(1, std::chrono::duration<double, std::milli>(clock::now() - start).count() / n);
    collect(timers_.poll());
  }

  void poison(const gl::Texture& destination) {
    // NaN for float formats (never equals a result); magenta for rgba8.
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float float_poison[4] = {nan, nan, nan, nan};
    const float unorm_poison[4] = {1.0f, 0.0f, 1.0f, 0.5f};
    gl::fill(destination, gl::info(destination.format()).is_float ? float_poison : unorm_poison);
    pipeline_.poison_intermediates(float_poison);
  }

  BlurPipeline& pipeline_;
  gl::TimerPool& timers_;
  const cli::Options& o_;
};

double median_total(const report::Measurement& m) {
  const auto it = m.spans_ms.find("total");
  return m.unsupported || it == m.spans_ms.end() || it->second.empty() ? std::numeric_limits<double>::infinity()
                                                                       : report::stats_of(it->second).median;
}

bool has_knobs(const VariantInfo& v) {
  return v.workgroups.size() > 1 || v.unrolls.size() > 1 || v.segments.size() > 1 || v.cache_bits.size() > 1;
}

// Coordinate descent over the knob candidates: one knob at a time, the others at their best so
// far. Far fewer runs than every combination, and the knobs interact little.
void tune(Measurer& measurer, Input& input, const VariantInfo& variant, BlurSettings base, glm::ivec2 size, int frames,
          const gl::GlInfo& info, report::TuningTable& table, TextTable& out) {
  const BlurSettings defaults = resolve(variant, base);
  const double default_ms = median_total(measurer.measure(input, variant, defaults, size, false, frames));
  if (!std::isfinite(default_ms)) return;
  BlurSettings best = defaults;
  double best_ms = default_ms;
  auto consider = [&](BlurSettings candidate) {
    const double ms = median_total(measurer.measure(input, variant, candidate, size, false, frames));
    if (ms < best_ms) best = candidate, best_ms = ms;
  };
  for (glm::ivec2 wg : variant.workgroups) if (wg != best.workgroup) { BlurSettings c = best; c.workgroup = wg; consider(c); }
  for (int u : variant.unrolls) if (u != best.unroll) { BlurSettings c = best; c.unroll = u; consider(c); }
  for (int s : variant.segments) if (s != best.segment) { BlurSettings c = best; c.segment = s; consider(c); }
  for (int b : variant.cache_bits) if (b != best.cache_bits) { BlurSettings c = best; c.cache_bits = b; consider(c); }
  // The choice must still be correct.
  const report::Measurement checked = measurer.measure(input, variant, best, size, true, 0);
  report::TunedEntry e;
  e.renderer = info.renderer;
  e.variant = std::string(variant.name);
  e.size = size;
  e.input_format = best.input_format;
  e.kernel = best.kernel.type;
  e.radius = best.kernel.radius;
  e.workgroup = best.workgroup;
  e.unroll = best.unroll;
  e.segment = best.segment;
  e.cache_bits = best.cache_bits;
  e.median_ms = best_ms;
  e.default_ms = default_ms;
  if (checked.check && checked.check->ok) table.put(e);
  out.add_row({std::string(variant.name), size_text(size), describe(variant, best), format_double(default_ms, 4),
               format_double(best_ms, 4), format_double(default_ms / best_ms, 3) + "x",
               checked.check ? (checked.check->ok ? "ok" : "FAIL (not saved)") : "-"});
}

}  // namespace

int run_headless(const cli::Options& o) {
  // Everything that can fail without a GPU fails first.
  std::optional<Image> image;
  if (!o.image.empty()) image = load_png(o.image);
  gl::ShaderSources sources = o.shader_dir.empty() ? gl::ShaderSources::embedded() : gl::ShaderSources::directory(o.shader_dir);
  std::optional<report::TuningTable> tuned;
  if (!o.tuned.empty()) tuned = report::TuningTable::load(o.tuned);
  for (const auto& [file, option] : {std::pair{&o.output, "--output"}, std::pair{&o.csv, "--csv"}, std::pair{&o.json, "--json"}})
    if (!file->empty()) check_output_target(*file, option);
  if (o.tune) check_output_target(o.tune_file, "--tune-file");
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
  std::vector<const VariantInfo*> selected = o.variants;
  if (selected.empty()) selected.assign(variants().begin(), variants().end());
  // Timings are compared with the copy pass of the same run: time it even if not asked for.
  const VariantInfo* copy = find_variant("copy");
  if (o.frames > 0 && o.output.empty() && !o.tune && std::find(selected.begin(), selected.end(), copy) == selected.end())
    selected.insert(selected.begin(), copy);

  gl::ProgramCache programs(std::move(sources));
  // Room for every frame of a configuration in flight (timed frames are not waited for).
  gl::TimerPool timers(gl::make_gl_query_backend(info.software), static_cast<size_t>(o.frames) * 16 + 64);
  BlurPipeline pipeline(programs, info.limits, &timers);
  Scene scene(programs);
  Measurer measurer(pipeline, timers, o);

  report::Report rep;
  rep.gl = info;
  rep.date = now_iso8601();
  rep.warmup = o.warmup;
  rep.frames = o.frames;
  rep.budget_s = o.budget;
  rep.scene_time = o.time;
  rep.image = o.image;

  size_t jobs = 0;
  for (gl::Format f : o.input_formats)
    for (const VariantInfo* v : selected) jobs += o.settings_list(*v, f).size();
  Progress progress(jobs * sizes.size());

  report::TuningTable tuning = o.tune && std::filesystem::exists(o.tune_file) ? report::TuningTable::load(o.tune_file) : report::TuningTable();
  TextTable tune_table({"variant", "size", "best settings", "default ms", "best ms", "gain", "check"});

  for (glm::ivec2 size : sizes)
    for (gl::Format input_format : o.input_formats) {
      Input input(size, input_format);
      if (image)
        input.source.upload(*image);
      else
        scene.render(input.source, o.time);
      for (const VariantInfo* variant : selected)
        for (BlurSettings settings : o.settings_list(*variant, input_format)) {
          progress.step(std::string(variant->name) + " " + size_text(size) + " r=" + std::to_string(settings.kernel.radius));
          if (o.tune) {
            if (has_knobs(*variant) && !unsupported_reason(*variant, resolve(*variant, settings), size, info.limits))
              tune(measurer, input, *variant, settings, size, o.frames, info, tuning, tune_table);
            continue;
          }
          bool from_table = false;
          const bool knobs_given = !o.workgroups.empty() || !o.unrolls.empty() || !o.segments.empty() || !o.cache_bits.empty();
          if (tuned && !knobs_given)
            if (const auto entry = tuned->find(info.renderer, std::string(variant->name), size, input_format, settings.kernel.type,
                                               settings.kernel.radius)) {
              settings = report::with_tuned_knobs(*variant, settings, *entry);
              from_table = true;
            }
          report::Measurement m = measurer.measure(input, *variant, settings, size, /*check=*/true, o.frames);
          m.tuned = from_table;
          rep.rows.push_back(std::move(m));
          // --output: one run only (checked by the parser). Written whole or not at all.
          if (!o.output.empty() && !rep.rows.back().unsupported) save_png(input.destination.download(), o.output);
        }
    }

  if (o.tune) {
    tune_table.print(std::cout);
    tuning.save(o.tune_file);
    if (debug && gl::debug_error_count() > 0) {
      print_error(std::to_string(gl::debug_error_count()) + " OpenGL errors (printed above); " + o.tune_file + " not saved");
      return 1;
    }
    outputs.commit();
    std::cout << "\nsaved the choices to " << o.tune_file << " (use them with --tuned " << o.tune_file << ")\n";
    return 0;
  }

  const bool all_unsupported =
      std::all_of(rep.rows.begin(), rep.rows.end(), [](const report::Measurement& r) { return r.unsupported.has_value(); });
  if (!rep.rows.empty() && all_unsupported && (o.variants.size() == 1 || !o.output.empty()))
    throw UsageError(std::string(rep.rows.front().variant->name) + " cannot run " +
                     describe(*rep.rows.front().variant, rep.rows.front().settings) + ": " + *rep.rows.front().unsupported);

  report::write_table(rep, std::cout);
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
  std::vector<std::string> failures;
  const size_t over_tolerance = static_cast<size_t>(
      std::count_if(rep.rows.begin(), rep.rows.end(), [](const report::Measurement& r) { return r.check && !r.check->ok; }));
  if (over_tolerance > 0)
    failures.push_back(std::to_string(over_tolerance) + " of " + std::to_string(rep.rows.size()) +
                       " runs exceed their tolerance (see the check column)");
  if (debug && gl::debug_error_count() > 0) failures.push_back(std::to_string(gl::debug_error_count()) + " OpenGL errors (printed above)");
  const bool failed = (o.check && over_tolerance > 0) || (debug && gl::debug_error_count() > 0);
  std::string summary;
  for (const std::string& f : failures) summary += (summary.empty() ? "" : "; ") + f;
  if (failed) {
    if (outputs.size() > 0) summary += "; no files written";
    print_error(summary);
    return 1;
  }
  outputs.commit();
  if (!summary.empty()) print_error(summary);  // without --check, a check that fails is reported, not fatal
  if (!o.output.empty()) std::cout << "\nwrote " << o.output << "\n";
  for (const std::string* file : {&o.csv, &o.json})
    if (!file->empty()) std::cout << "wrote " << *file << "\n";
  return 0;
}

}  // namespace blurlab::app
