#include "headless.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "blur/check.h"
#include "blur/pipeline.h"
#include "blur/reference.h"
#include "blur/registry.h"
#include "gl/debug.h"
#include "gl/timer_pool.h"
#include "scene/scene.h"
#include "util/error.h"
#include "util/strings.h"
#include "util/table.h"

namespace blurlab::app {

namespace {

#ifdef NDEBUG
constexpr bool kDebugBuild = false;
#else
constexpr bool kDebugBuild = true;
#endif

constexpr glm::ivec2 kDefaultSize{1920, 1080};

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  double m = values[mid];
  if (values.size() % 2 == 0) m = (m + *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid))) / 2.0;
  return m;
}

std::string ms_text(double ms) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, ms >= 100 ? "%.1f" : ms >= 1 ? "%.3f" : "%.4f", ms);
  return buffer;
}

std::string size_text(glm::ivec2 size) { return std::to_string(size.x) + "x" + std::to_string(size.y); }

// One measured configuration.
struct Row {
  const VariantInfo* variant = nullptr;
  BlurSettings settings;
  glm::ivec2 size{};
  std::optional<std::string> unsupported;
  std::vector<std::string> spans;                      // in recording order, "total" first
  std::map<std::string, std::vector<double>> samples;  // ms per frame
  std::vector<double> cpu_ms;
  std::optional<CheckResult> check;
  Tolerance tolerance;
};

// The image blurred in one (size, input format) group, and references computed from it.
class Input {
 public:
  Input(glm::ivec2 size, gl::Format format) : source(size.x, size.y, format, "source"), destination(size.x, size.y, format, "destination") {}
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

void poison(const gl::Texture& destination, BlurPipeline& pipeline) {
  // NaN for float formats (never equals a result); magenta for rgba8.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float float_poison[4] = {nan, nan, nan, nan};
  const float unorm_poison[4] = {1.0f, 0.0f, 1.0f, 0.5f};
  gl::fill(destination, gl::info(destination.format()).is_float ? float_poison : unorm_poison);
  pipeline.poison_intermediates(float_poison);
}

Row measure(BlurPipeline& pipeline, gl::TimerPool& timers, Input& input, const VariantInfo& variant,
            const BlurSettings& settings, glm::ivec2 size, const cli::Options& o, bool want_check) {
  Row row;
  row.variant = &variant;
  row.size = size;
  row.settings = resolve(variant, settings);
  row.unsupported = pipeline.configure(variant, settings, size);
  if (row.unsupported) return row;

  if (o.frames > 0) {
    // The budget bounds slow configurations (naive 2D on a CPU rasterizer); the table shows
    // how many frames each median is over.
    using clock = std::chrono::steady_clock;
    const auto seconds_since = [](clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); };
    const auto warmup_start = clock::now();
    for (int i = 0; i < o.warmup; ++i) {
      pipeline.run(input.source, input.destination);
      if (o.budget > 0 && i >= 1) {
        glFinish();
        if (seconds_since(warmup_start) > o.budget / 3) break;
      }
    }
    glFinish();
    const auto timing_start = clock::now();
    for (int f = 0; f < o.frames; ++f) {
      if (o.budget > 0 && f >= 3 && seconds_since(timing_start) > o.budget) break;
      const auto start = std::chrono::steady_clock::now();
      timers.begin_frame();
      pipeline.run(input.source, input.destination);
      timers.end_frame();
      glFinish();  // CPU wall time of a whole frame, GPU finished: a sanity check on the GPU spans
      row.cpu_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      for (const gl::FrameTimes& frame : timers.poll())
        for (const gl::SpanTime& span : frame.spans) {
          if (std::find(row.spans.begin(), row.spans.end(), span.name) == row.spans.end()) row.spans.push_back(span.name);
          row.samples[span.name].push_back(span.ms);
        }
    }
  }
  if (want_check) {
    poison(input.destination, pipeline);
    pipeline.run(input.source, input.destination);
    const Image output = input.destination.download();
    row.tolerance = tolerance_for(variant, row.settings, size, peak_magnitude(input.pixels()));
    row.check = compare_to_reference(output, input.reference(reference_kernel(variant, row.settings)), row.tolerance);
  }
  return row;
}

void print_rows(const std::vector<Row>& rows, const cli::Options& o) {
  std::vector<std::string> header{"variant", "stage", "settings", "size"};
  if (o.frames > 0) header.insert(header.end(), {"total ms", "passes (median ms)", "cpu ms", "frames"});
  header.insert(header.end(), {"max error", "check"});
  TextTable table(header);
  for (const Row& row : rows) {
    std::vector<std::string> cells{std::string(row.variant->name), std::string(name(row.variant->stage)),
                                   describe(*row.variant, row.settings), size_text(row.size)};
    if (row.unsupported) {
      if (o.frames > 0) cells.insert(cells.end(), {"-", "-", "-", "-"});
      cells.insert(cells.end(), {"-", "unsupported: " + *row.unsupported});
      table.add_row(cells);
      continue;
    }
    if (o.frames > 0) {
      std::string passes;
      for (const std::string& span : row.spans)
        if (span != "total") passes += (passes.empty() ? "" : "  ") + span + " " + ms_text(median(row.samples.at(span)));
      const auto total = row.samples.find("total");
      cells.push_back(total == row.samples.end() ? "-" : ms_text(median(total->second)));
      cells.push_back(passes);
      cells.push_back(ms_text(median(row.cpu_ms)));
      cells.push_back(std::to_string(row.cpu_ms.size()));
    }
    if (row.check) {
      cells.push_back(row.check->text());
      cells.push_back(row.check->ok ? "ok" : "FAIL (" + format_double(row.check->worst_fraction, 3) + "x tolerance at " +
                                                  std::to_string(row.check->worst_x) + "," + std::to_string(row.check->worst_y) + ")");
    } else {
      cells.insert(cells.end(), {"-", "-"});
    }
    table.add_row(cells);
  }
  table.print(std::cout);
}

}  // namespace

int run_headless(const cli::Options& o) {
  // Everything that can fail without a GPU fails first.
  std::optional<Image> image;
  if (!o.image.empty()) image = load_png(o.image);
  gl::ShaderSources sources = o.shader_dir.empty() ? gl::ShaderSources::embedded() : gl::ShaderSources::directory(o.shader_dir);

  const bool debug = o.gl_debug || kDebugBuild;
  auto context = gl::HeadlessContext::create(debug, o.device);
  const gl::GlInfo& info = context->info();
  std::cout << gl::describe(info) << std::endl;

  std::vector<glm::ivec2> sizes = image ? std::vector<glm::ivec2>{{image->width, image->height}}
                                        : (o.sizes.empty() ? std::vector<glm::ivec2>{kDefaultSize} : o.sizes);
  for (glm::ivec2 size : sizes)
    if (size.x > info.limits.max_texture_size || size.y > info.limits.max_texture_size)
      throw UsageError((image ? "--image " + o.image + " (" : "--size (") + size_text(size) + ") exceeds GL_MAX_TEXTURE_SIZE " +
                       std::to_string(info.limits.max_texture_size));
  std::vector<const VariantInfo*> selected = o.variants;
  if (selected.empty()) selected.assign(variants().begin(), variants().end());

  gl::ProgramCache programs(std::move(sources));
  gl::TimerPool timers(gl::make_gl_query_backend(info.software));
  BlurPipeline pipeline(programs, info.limits, &timers);
  Scene scene(programs);

  const bool want_check = o.check || !o.output.empty() || o.frames > 0;
  std::vector<Row> rows;
  for (glm::ivec2 size : sizes)
    for (gl::Format input_format : o.input_formats) {
      Input input(size, input_format);
      if (image)
        input.source.upload(*image);
      else
        scene.render(input.source, o.time);
      for (const VariantInfo* variant : selected)
        for (const BlurSettings& settings : o.settings_list(*variant, input_format))
          rows.push_back(measure(pipeline, timers, input, *variant, settings, size, o, want_check));
      if (!o.output.empty() && !rows.empty() && !rows.back().unsupported) {
        // --output: one run only (checked by the parser). Written whole or not at all.
        save_png(input.destination.download(), o.output);
      }
    }

  const bool all_unsupported = std::all_of(rows.begin(), rows.end(), [](const Row& r) { return r.unsupported.has_value(); });
  if (!rows.empty() && all_unsupported && (o.variants.size() == 1 || !o.output.empty()))
    throw UsageError(std::string(rows.front().variant->name) + " cannot run " + describe(*rows.front().variant, rows.front().settings) +
                     ": " + *rows.front().unsupported);

  print_rows(rows, o);
  if (!o.output.empty()) std::cout << "\nwrote " << o.output << "\n";

  int exit_code = 0;
  const size_t failures = static_cast<size_t>(std::count_if(rows.begin(), rows.end(), [](const Row& r) { return r.check && !r.check->ok; }));
  if (o.check && failures > 0) {
    std::cerr << "blurlab: " << failures << " of " << rows.size() << " runs exceed their tolerance\n";
    exit_code = 1;
  }
  if (debug && gl::debug_error_count() > 0) {
    std::cerr << "blurlab: " << gl::debug_error_count() << " OpenGL errors (printed above)\n";
    exit_code = 1;
  }
  return exit_code;
}

}  // namespace blurlab::app
