// The numbers the program reports, against computations of their own: times through a fake GPU
// clock (what the timer queries say must be what the JSON and the CSV say), the GPU's spans
// against the CPU's wall time on a real device, and each approximation's fidelity from its output
// image against an exact Gaussian computed here, independently of the library's reference, as rgba8 stores it.
#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "bench/measure.h"
#include "blur/registry.h"
#include "gl_fixture.h"
#include "report/report.h"

namespace blurlab::test {
namespace {

// A GPU whose clock moves by a fixed step at every timestamp: a span that holds no other span
// lasts one step, and "total", which holds n passes, 2n + 1 steps.
class FakeGpuClock final : public gl::QueryBackend {
 public:
  static constexpr uint64_t kStepNs = 1'250'000;  // 1.25 ms
  GLuint create() override { return ++created_; }
  void destroy(GLuint) override {}
  void timestamp(GLuint query) override {
    stamps_[query] = now_;
    now_ += kStepNs;
  }
  bool available(GLuint) override { return true; }
  uint64_t result_ns(GLuint query) override { return stamps_.at(query); }

 private:
  GLuint created_ = 0;
  uint64_t now_ = 1'000'000'000;
  std::map<GLuint, uint64_t> stamps_;
};

Image noise(glm::ivec2 size, unsigned seed) {
  Image image(size.x, size.y);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> byte(0, 255);
  for (float& v : image.texels) v = static_cast<float>(byte(rng) / 255.0);
  return image;
}

// The cells of one CSV line (RFC 4180: quoted cells may hold commas and doubled quotes).
std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      cells.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  return cells;
}

bench::TimingPolicy quick_policy(int frames) {
  bench::TimingPolicy policy;
  policy.warmup_frames = 2;
  policy.min_warmup_s = 0.0;
  policy.frames = frames;
  policy.budget_s = 0.0;
  return policy;
}

class ReportedNumbers : public GlTest {};

TEST_F(ReportedNumbers, TimesAreWhatTheGpuClockSays) {
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  gl::TimerPool timers(std::make_unique<FakeGpuClock>());
  BlurPipeline pipeline(programs, gl_info().limits, &timers);
  bench::Measurer measurer(pipeline, timers, quick_policy(7));
  const glm::ivec2 size{64, 48};
  bench::Input input(size, gl::Format::rgba8);
  input.source.upload(noise(size, 1));
  report::Report rep;
  rep.frames = 7;
  for (const char* name : {"copy", "compute-separable", "dual-kawase"}) {
    BlurSettings s;
    s.kernel = make_kernel(KernelType::Gauss, 6, std::nullopt);
    rep.rows.push_back(measurer.measure(input, *find_variant(name), s, false, 7));
  }
  std::ostringstream json_text, csv_text;
  report::write_json(rep, json_text);
  report::write_csv(rep, csv_text);
  const nlohmann::json json = nlohmann::json::parse(json_text.str());
  const double step_ms = FakeGpuClock::kStepNs * 1e-6;
  ASSERT_EQ(json["results"].size(), 3u) << json_text.str();
  for (const nlohmann::json& row : json["results"]) {
    const nlohmann::json& spans = row["spans"];
    const size_t passes = spans.size() - 1;
    ASSERT_GE(passes, 1u) << row.dump();
    for (const auto& [span, stats] : spans.items()) {
      const double expected = span == "total" ? (2.0 * passes + 1.0) * step_ms : step_ms;
      EXPECT_DOUBLE_EQ(stats["median_ms"].get<double>(), expected) << row["variant"] << " " << span;
      EXPECT_DOUBLE_EQ(stats["min_ms"].get<double>(), expected) << row["variant"] << " " << span;
      EXPECT_EQ(stats["frames"].get<int>(), 7) << row["variant"] << " " << span;
    }
    // The CPU's wall time is the CPU's: a real clock, not the fake GPU's.
    EXPECT_NE(row["cpu_median_ms"].get<double>(), spans["total"]["median_ms"].get<double>()) << row["variant"];
  }
  // The CSV's total column says the same, row by row.
  std::istringstream lines(csv_text.str());
  std::string line;
  std::getline(lines, line);
  const std::vector<std::string> header = csv_cells(line);
  const auto column = static_cast<size_t>(std::find(header.begin(), header.end(), "total_median_ms") - header.begin());
  ASSERT_LT(column, header.size()) << line;
  size_t rows = 0;
  for (; std::getline(lines, line); ++rows) {
    const size_t passes = json["results"][rows]["spans"].size() - 1;
    EXPECT_NEAR(std::stod(csv_cells(line).at(column)), (2.0 * passes + 1.0) * step_ms, 1e-9) << line;
  }
  EXPECT_EQ(rows, 3u);
}

// On a real device the spans nest: the passes fit in "total", and "total" in the frame's wall time
// (the CPU waits for the GPU at the end of the timed frames; llvmpipe's timestamps are pinned).
TEST_F(ReportedNumbers, GpuSpansFitTheirFramesWallTime) {
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  gl::TimerPool timers(gl::make_gl_query_backend(gl_info().software));
  BlurPipeline pipeline(programs, gl_info().limits, &timers);
  bench::Measurer measurer(pipeline, timers, quick_policy(10));
  const glm::ivec2 size{256, 192};
  bench::Input input(size, gl::Format::rgba8);
  input.source.upload(noise(size, 2));
  BlurSettings s;
  s.kernel = make_kernel(KernelType::Gauss, 12, std::nullopt);
  const report::Measurement m = measurer.measure(input, *find_variant("compute-separable"), s, false, 10);
  const std::vector<double>& totals = m.spans_ms.at("total");
  const report::Stats total = report::stats_of(totals);
  ASSERT_GT(total.median, 0.0);
  // Frame by frame (the medians of the passes need not add up to the total's: on a loaded machine
  // their sum once came to 8% above it): each frame's passes lie inside its total, whose queries
  // enclose theirs, within 1 us of timestamp rounding.
  for (const auto& [span, times] : m.spans_ms) ASSERT_EQ(times.size(), totals.size()) << span << ": every frame times every span";
  for (size_t frame = 0; frame < totals.size(); ++frame) {
    double passes = 0.0;
    for (const auto& [span, times] : m.spans_ms)
      if (span != "total") passes += times[frame];
    EXPECT_LE(passes, totals[frame] + 1e-3) << "frame " << frame << ": the passes lie inside its total";
  }
  ASSERT_EQ(m.cpu_ms.size(), 1u);
  // The frames run one after the other, so their GPU times add up to at most the timed loop's wall
  // time: their mean is within the wall time per frame (5% for the two clocks and the queries).
  // (Not the median, which on a loaded machine came to 12% above the mean wall time.)
  double sum = 0.0;
  for (double ms : totals) sum += ms;
  EXPECT_LE(sum / static_cast<double>(totals.size()), m.cpu_ms.front() * 1.05) << "the frames' GPU time within their wall time";
  // On llvmpipe the blur is most of a frame; on a GPU a frame's wall time is mostly the host's own
  // (a GPU's blur is a small part of its frame), so the bound holds there only.
  if (gl_info().software) {
    EXPECT_GT(total.median, m.cpu_ms.front() * 0.05) << "most of a frame on llvmpipe is the blur itself";
  }
}

// The exact Gaussian of sigma as the report defines it (the normal density integrated over each
// texel, taps to ceil(3 sigma), normalized), clamp-to-edge, summed directly in 2D: nothing of the
// library's reference or weights.
std::vector<double> independent_gaussian(const Image& in, double sigma) {
  const int r = static_cast<int>(std::ceil(3.0 * sigma));
  std::vector<double> w(static_cast<size_t>(2 * r + 1));
  double sum = 0.0;
  for (int i = -r; i <= r; ++i) {
    const auto phi = [&](double x) { return 0.5 * (1.0 + std::erf(x / (sigma * std::sqrt(2.0)))); };
    w[static_cast<size_t>(i + r)] = phi(i + 0.5) - phi(i - 0.5);
    sum += w[static_cast<size_t>(i + r)];
  }
  std::vector<double> out(in.texels.size());
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x)
      for (int c = 0; c < 4; ++c) {
        double acc = 0.0;
        for (int j = -r; j <= r; ++j)
          for (int i = -r; i <= r; ++i) {
            const int sx = std::clamp(x + i, 0, in.width - 1), sy = std::clamp(y + j, 0, in.height - 1);
            acc += w[static_cast<size_t>(i + r)] * w[static_cast<size_t>(j + r)] * in.at(sx, sy, c);
          }
        out[(static_cast<size_t>(y) * in.width + x) * 4 + c] = acc / (sum * sum);
      }
  return out;
}

TEST_F(ReportedNumbers, FidelityIsTheOutputsDistanceFromTheGaussian) {
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  BlurPipeline pipeline(programs, gl_info().limits);
  gl::TimerPool timers(std::make_unique<FakeGpuClock>());
  bench::Measurer measurer(pipeline, timers, quick_policy(1));
  const glm::ivec2 size{61, 47};
  int measured = 0, exact = 0;
  for (const VariantInfo* v : variants()) {
    // Every approximation (a variable-radius one with no map: every pixel at level R), and the
    // exact blurs of the Gaussian (their fidelity is what --export states for them).
    if (!is_blur(*v) || v->kernels == KernelSupport::BoxOnly || (v->variable_radius && !is_approximation(*v))) continue;
    bench::Input input(size, gl::Format::rgba8);
    input.source.upload(noise(size, 3));
    BlurSettings s;
    s.kernel = make_kernel(KernelType::Gauss, std::nullopt, 2.5);
    const report::Measurement m = measurer.measure(input, *v, s, true, 0);
    ASSERT_FALSE(m.unsupported) << v->name << ": " << m.unsupported->reason;
    ASSERT_TRUE(m.fidelity) << v->name;
    if (is_approximation(*v)) {
      ASSERT_TRUE(m.approximation) << v->name;
      EXPECT_EQ(m.fidelity->sigma, m.approximation->sigma) << v->name << " is measured at the sigma it declares";
    } else {
      EXPECT_EQ(m.fidelity->sigma, 2.5) << v->name << " is measured at the sigma asked for";
      // Within its tolerance of the reference rounded to 8 bits: half a step more of the exact one.
      EXPECT_LE(m.fidelity->max_lsb, v->tolerance_lsb + 0.5 + 1e-9) << v->name;
      ++exact;
    }
    const Image output = input.destination.download();
    const std::vector<double> gaussian = independent_gaussian(input.pixels(), m.fidelity->sigma);
    // Against the exact Gaussian as the output stores it: rounded to a step of rgba8.
    double largest = 0.0, squares = 0.0;
    for (size_t i = 0; i < gaussian.size(); ++i) {
      const double error = std::abs(std::round(output.texels[i] * 255.0) - std::round(gaussian[i] * 255.0));
      largest = std::max(largest, error);
      squares += error * error;
    }
    const double rms = std::sqrt(squares / static_cast<double>(gaussian.size()));
    EXPECT_NEAR(m.fidelity->max_lsb, largest, 1e-6) << v->name;
    EXPECT_NEAR(m.fidelity->rms_lsb, rms, 1e-6) << v->name;
    if (rms > 0.0) {
      EXPECT_NEAR(m.fidelity->psnr_db, 20.0 * std::log10(255.0 / rms), 1e-6) << v->name;
    }
    // variable-layers with no map blurs every pixel with level R's exact separable layer: its
    // stored output is the exact Gaussian's, and its report says so (not the half step between
    // that step and the unrounded value).
    // (On llvmpipe; a GPU's fp32 arithmetic, contracted differently, may put a texel of its output a
    // step away: there the report is still checked against the output above.)
    if (v->name == "variable-layers" && gl_info().software) {
      EXPECT_EQ(largest, 0.0) << "variable-layers' output with a uniform map is the exact Gaussian as rgba8 stores it";
      EXPECT_EQ(m.fidelity->max_lsb, 0.0);
      EXPECT_EQ(m.fidelity->psnr_db, INFINITY);
    }
    ++measured;
  }
  EXPECT_GE(measured - exact, 5);
  EXPECT_GE(exact, 10);
}

}  // namespace
}  // namespace blurlab::test
