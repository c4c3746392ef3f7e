// The report's conclusion on made-up reports, against answers worked out by hand from the numbers
// below (each expectation says how), not by the code under test.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "blur/radius_map.h"
#include "blur/registry.h"
#include "fixtures/measurements.h"
#include "report/conclusion.h"
#include "util/strings.h"

namespace blurlab::report {
namespace {

Measurement row(const char* variant, int radius, std::vector<double> total_ms, std::optional<double> psnr = std::nullopt,
                bool check_ok = true) {
  Measurement m = test_fixtures::timed(variant, radius, std::move(total_ms));
  m.check->ok = check_ok;
  if (psnr) {
    m.approximation = ApproxChoice{m.settings.kernel.sigma, "made up"};
    m.fidelity = Fidelity{m.settings.kernel.sigma, 10.0, 1.0, *psnr};
  }
  return m;
}

// Two kernels. r = 16: compute-separable (1 ms, no spread) ahead of frag-separable (2 ms); kawase
// the fastest approximation at >= 50 dB (dual-kawase is faster but at 49 dB, recursive-gaussian
// faster still but failed its check). r = 8: compute-separable's 3 frames 0.5, 1.0, 1.5 give a
// median of 1.0 and p10, p90 of 0.6, 1.4 (+-40%), reaching frag-separable's 1.2: not settled; the
// only approximation at 45 dB is the closest; recursive-gaussian-blocks' frames 0.1, 1.0, 3.0 have
// p10 0.28, p90 2.6: +-116%, a wide spread.
Report made_up() {
  Report r;
  r.frames = 3;
  r.rows = {row("copy", 16, {0.5, 0.5, 0.5}),
            row("frag-naive", 16, {40.0, 41.0, 39.0}),
            row("frag-separable", 16, {2.0, 2.2, 1.8}),
            row("compute-separable", 16, {1.0, 1.0, 1.0}),
            row("compute-naive", 16, {}),
            row("dual-kawase", 16, {0.4, 0.4, 0.4}, 49.0),
            row("kawase", 16, {0.6, 0.6, 0.6}, 52.0),
            row("box-iterated", 16, {0.8, 0.8, 0.8}, 55.0),
            row("recursive-gaussian", 16, {0.3, 0.3, 0.3}, 60.0, /*check_ok=*/false),
            row("compute-separable", 8, {0.5, 1.0, 1.5}),
            row("frag-separable", 8, {1.2, 1.2, 1.2}),
            row("dual-kawase", 8, {0.2, 0.2, 0.2}, 45.0),
            row("frag-naive", 8, {5.0, 5.0, 5.0}, std::nullopt, /*check_ok=*/false)};
  r.rows[4].unsupported = Refusal{Limit::SharedMemory, "too big"};
  r.rows[4].spans_ms.clear();
  r.rows.push_back(row("recursive-gaussian-blocks", 8, {0.1, 1.0, 3.0}, 58.0));
  return r;
}

const std::vector<ResultsFile> kNoGpus;

// The terminal's conclusion with its wrapped items joined again: a line that continues an item
// (indented, not starting "- ") joins the one before it with a space.
std::string unwrapped(const std::string& text) {
  std::string out;
  bool first = true;
  for (const std::string& line : split(text, '\n')) {
    const size_t start = line.find_first_not_of(' ');
    const bool continues = start != std::string::npos && start > 0 && line.compare(start, 2, "- ") != 0;
    out += continues ? " " + line.substr(start) : (first ? "" : "\n") + line;
    first = false;
  }
  return out;
}

TEST(Conclusion, FastestExactAndApproximationPerKernel) {
  const Report r = made_up();
  const Conclusion c = conclude(r, kNoGpus);
  ASSERT_TRUE(c.timed);
  ASSERT_EQ(c.kernels.size(), 2u) << "the copy is no kernel";
  const Answer& r16 = c.kernels[0].answer;
  EXPECT_EQ(c.kernels[0].heading, "1000x500 rgba8 gauss r=16 sigma=5.333, border clamp");
  ASSERT_TRUE(r16.exact.fastest);
  EXPECT_EQ(r16.exact.fastest->row, &r.rows[3]);
  EXPECT_DOUBLE_EQ(r16.exact.fastest->median_ms, 1.0);
  EXPECT_TRUE(r16.exact.settled()) << "1 ms +-0% against 2 ms +-8%";
  EXPECT_EQ(r16.variants, 7u) << "compute-naive was refused; the copy is no blur";
  ASSERT_TRUE(r16.approximation.fastest);
  EXPECT_EQ(r16.approximation.fastest->row, &r.rows[6]) << "kawase: dual-kawase is under 50 dB, recursive-gaussian failed its check";
  EXPECT_TRUE(r16.approximation.settled()) << "0.6 against box-iterated's 0.8, both +-0%";
  EXPECT_FALSE(r16.closest_approximation);

  const Answer& r8 = c.kernels[1].answer;
  ASSERT_TRUE(r8.exact.fastest);
  EXPECT_EQ(r8.exact.fastest->row, &r.rows[9]);
  EXPECT_NEAR(r8.exact.fastest->spread_percent, 40.0, 1e-9);
  ASSERT_EQ(r8.exact.tied.size(), 1u) << "1.0 + 0.4 reaches 1.2; frag-naive failed its check";
  EXPECT_EQ(r8.exact.tied[0].row, &r.rows[10]);
  EXPECT_FALSE(r8.exact.settled());
  ASSERT_TRUE(r8.approximation.fastest);
  EXPECT_EQ(r8.approximation.fastest->row, &r.rows[13]) << "recursive-gaussian-blocks, 58 dB";
  ASSERT_EQ(c.wide_spreads.size(), 1u);
  EXPECT_EQ(c.wide_spreads[0].row, &r.rows[13]);
  EXPECT_NEAR(c.wide_spreads[0].spread_percent, 116.0, 1e-9);
}

TEST(Conclusion, TheClosestApproximationWhenNoneIsCloseEnough) {
  Report r = made_up();
  r.rows.pop_back();  // recursive-gaussian-blocks
  const Conclusion c = conclude(r, kNoGpus);
  EXPECT_FALSE(c.kernels[1].answer.approximation.fastest);
  ASSERT_TRUE(c.kernels[1].answer.closest_approximation);
  EXPECT_EQ(c.kernels[1].answer.closest_approximation->row, &r.rows[11]);
  EXPECT_TRUE(c.wide_spreads.empty());
  // A stricter fidelity moves r = 16's choice to box-iterated (55 dB), a laxer one to dual-kawase.
  EXPECT_EQ(conclude(r, kNoGpus, 54.0).kernels[0].answer.approximation.fastest->row, &r.rows[7]);
  EXPECT_EQ(conclude(r, kNoGpus, 40.0).kernels[0].answer.approximation.fastest->row, &r.rows[5]);
}

// Three approximations under the threshold, in both orders: the closest is the one of highest PSNR
// wherever it stands (kawase, 47 dB: not dual-kawase at 45 nor box-iterated at 41), and the page
// names it with its PSNR.
TEST(Conclusion, TheClosestIsTheHighestPsnrInEitherOrder) {
  for (bool closest_first : {true, false}) {
    Report r;
    r.frames = 3;
    r.rows = {row("compute-separable", 16, {1.0, 1.0, 1.0}), row("dual-kawase", 16, {0.4, 0.4, 0.4}, 45.0),
              row("box-iterated", 16, {0.3, 0.3, 0.3}, 41.0)};
    r.rows.insert(closest_first ? r.rows.begin() + 1 : r.rows.end(), row("kawase", 16, {0.6, 0.6, 0.6}, 47.0));
    const Conclusion c = conclude(r, kNoGpus, 50.0);
    ASSERT_EQ(c.kernels.size(), 1u);
    EXPECT_FALSE(c.kernels[0].answer.approximation.fastest) << "none reaches 50 dB";
    ASSERT_TRUE(c.kernels[0].answer.closest_approximation);
    EXPECT_EQ(c.kernels[0].answer.closest_approximation->variant, "kawase") << (closest_first ? "first" : "last");
    std::ostringstream page;
    write_conclusion_markdown(c, page);
    EXPECT_NE(page.str().find("none reaches 50 dB (the closest: kawase, 47.0 dB)"), std::string::npos) << page.str();
  }
}

TEST(Conclusion, PageAndTerminalSayIt) {
  const Report r = made_up();  // the conclusion points into its rows
  const Conclusion c = conclude(r, kNoGpus);
  std::ostringstream page, text;
  write_conclusion_markdown(c, page);
  write_conclusion_text(c, text);
  for (const char* part : {"## Conclusion", "| image and kernel | fastest exact | fastest approximation at PSNR >= 50 dB |",
                           "| 1000x500 rgba8 gauss r=16 sigma=5.333, border clamp | compute-separable, 1 ms +-0% | "
                           "kawase, 0.6 ms +-0%, 52.0 dB, 1.67x as fast as the exact one |",
                           "| 1000x500 rgba8 gauss r=8 sigma=2.667, border clamp | not settled: compute-separable (1 ms "
                           "+-40%) and frag-separable (1.2 ms +-0%) overlap within their spreads |",
                           "  - recursive-gaussian-blocks in 1000x500 rgba8 gauss r=8 sigma=2.667, border clamp: 1 ms +-116%"})
    EXPECT_NE(page.str().find(part), std::string::npos) << part << "\n" << page.str();
  EXPECT_NE(text.str().find("- 1000x500 rgba8 gauss r=16 sigma=5.333, border clamp: fastest exact compute-separable, 1 ms +-0%; fastest"),
            std::string::npos)
      << text.str();
  // r = 8's approximation is settled but its exact blur is not: no ratio between them.
  EXPECT_NE(text.str().find("recursive-gaussian-blocks, 1 ms +-116%, 58.0 dB\n"), std::string::npos) << text.str();
  EXPECT_EQ(text.str().find("CPU rasterizer"), std::string::npos) << "a GPU's run";
  for (const std::string& line : split(text.str(), '\n')) EXPECT_LE(line.size(), kTableWidth) << line;
}

// A run of approximations only (an export of dual Kawase, a radius map's run): no exact blur was
// asked, so none is said to have failed; where exact blurs ran and all failed their check, that is
// what is said.
TEST(Conclusion, NoExactBlurAskedIsNoExactBlurFailing) {
  Report r;
  r.frames = 3;
  r.rows = {row("copy", 16, {0.5, 0.5, 0.5}), row("dual-kawase", 16, {0.4, 0.4, 0.4}, 51.0)};
  const Conclusion c = conclude(r, kNoGpus);
  EXPECT_EQ(c.kernels[0].answer.exact_variants, 0u);
  std::ostringstream page, text;
  write_conclusion_markdown(c, page);
  write_conclusion_text(c, text);
  EXPECT_EQ(text.str().find("no exact blur"), std::string::npos) << text.str();
  EXPECT_NE(unwrapped(text.str()).find("border clamp: fastest approximation at PSNR >= 50 dB dual-kawase, 0.4 ms +-0%, 51.0 dB\n"),
            std::string::npos)
      << text.str();
  EXPECT_NE(page.str().find("| 1000x500 rgba8 gauss r=16 sigma=5.333, border clamp | - | dual-kawase, 0.4 ms +-0%, 51.0 dB |"),
            std::string::npos)
      << page.str();
  r.rows.push_back(row("compute-separable", 16, {1.0, 1.0, 1.0}, std::nullopt, /*check_ok=*/false));
  std::ostringstream failed;
  write_conclusion_text(conclude(r, kNoGpus), failed);
  EXPECT_NE(failed.str().find("no exact blur passed its check; fastest approximation"), std::string::npos) << failed.str();
}

TEST(Conclusion, NothingTimedNothingRanked) {
  Report r = made_up();
  for (Measurement& m : r.rows) m.spans_ms.clear();
  const Conclusion c = conclude(r, kNoGpus);
  EXPECT_FALSE(c.timed);
  std::ostringstream page, text;
  write_conclusion_markdown(c, page);
  write_conclusion_text(c, text);
  EXPECT_NE(page.str().find("Nothing was timed"), std::string::npos);
  EXPECT_EQ(text.str(), "");
}

// --- a CPU rasterizer: noise, and what GPUs answered ------------------------------------------

// A results file as docs/tools/results.py writes one; `rows` are its "results".
ResultsFile results_file(const std::string& name, const std::string& renderer, bool software, const nlohmann::json& rows) {
  const nlohmann::json doc = {{"gl", {{"renderer", renderer}, {"software", software}}}, {"results", rows}};
  return parse_results_file(name, doc.dump());
}

nlohmann::json gpu_row(const char* variant, int width, int height, int radius, double sigma, double x_copy,
                       std::optional<double> psnr = std::nullopt, const char* role = "blur") {
  nlohmann::json row = {{"variant", variant},
                        {"size", {{"width", width}, {"height", height}}},
                        {"settings", {{"kernel", "gauss"}, {"radius", radius}, {"sigma", sigma}, {"border", "clamp"},
                                      {"input_format", "rgba8"}, {"linear", false}}},
                        {"supported", true},
                        {"spans", {{"total", {{"median_ms", 0.01 * x_copy}, {"spread_ms", 0.0001 * x_copy}}}}},
                        {"x_copy", x_copy},
                        {"error", {{"ok", true}}}};
  if (*role) row["role"] = role;  // rows written before roles were have none
  if (psnr) row["fidelity"] = {{"psnr_db", *psnr}, {"rms_lsb", 0.5}, {"max_lsb", 9.0}};
  // Made by today's code at the variant's defaults (results_files.h: older_than_code).
  row["made_by"] = {{"commit", "0123456789ab"}, {"code", std::string(code_digest(variant))}};
  nlohmann::json knobs = nlohmann::json::object();
  for (const Knob& k : find_variant(variant)->knobs) knobs[std::string(k.name)] = k.text(k.default_value(radius));
  row["settings"]["knobs"] = knobs;
  return row;
}

// Two GPUs and llvmpipe's own file. gpu_a measured the kernel asked for at two sizes (1920x1080 is
// nearer 480x270 in pixels): compute-separable-regblock at 3.0x copy, compute-separable at 10 (its
// 12 in another run is its slower row), dual-kawase at 2.0x and 51 dB, kawase at 1.5x but 45 dB;
// at 4096x4096 compute-separable wins. gpu_b measured only sigma 3 at r = 9 and 10 at r = 30: sigma 3
// is nearer 5.333 (5.333 / 3 = 1.78 against 10 / 5.333 = 1.88); its rows have no role (an older file: the registry says
// which is an approximation) and its two exact variants overlap.
std::vector<ResultsFile> made_up_gpus() {
  return {results_file("gpu_a.json", "NVIDIA Made-up GPU/PCIe/SSE2", false,
                       {gpu_row("copy", 1920, 1080, 16, 5.333333, 1.0, std::nullopt, "floor"),
                        gpu_row("compute-separable-regblock", 1920, 1080, 16, 16.0 / 3, 3.0),
                        gpu_row("compute-separable", 1920, 1080, 16, 16.0 / 3, 10.0),
                        gpu_row("compute-separable", 1920, 1080, 16, 16.0 / 3, 12.0),
                        gpu_row("dual-kawase", 1920, 1080, 16, 16.0 / 3, 2.0, 51.0, "approximation"),
                        gpu_row("kawase", 1920, 1080, 16, 16.0 / 3, 1.5, 45.0, "approximation"),
                        gpu_row("compute-separable", 4096, 4096, 16, 16.0 / 3, 2.0),
                        gpu_row("compute-separable-regblock", 4096, 4096, 16, 16.0 / 3, 3.0)}),
          results_file("gpu_b.json", "Another GPU", false,
                       {gpu_row("frag-separable", 1920, 1080, 9, 3.0, 4.0, std::nullopt, ""),
                        gpu_row("compute-separable", 1920, 1080, 9, 3.0, 4.001, std::nullopt, ""),
                        gpu_row("box-iterated", 1920, 1080, 9, 3.0, 2.5, 55.0, ""),
                        gpu_row("compute-separable", 1920, 1080, 30, 10.0, 1.0, std::nullopt, "")}),
          results_file("llvmpipe.json", "llvmpipe (LLVM 15.0.6, 256 bits)", true,
                       nlohmann::json::array({gpu_row("frag-naive", 480, 270, 16, 16.0 / 3, 1.0)}))};
}

// The default run on llvmpipe, as noisy as a shared machine makes it: 480x270, 5 frames each.
// compute-separable 10, 11, 14, 18, 30: median 14, p10 10.4, p90 25.2, +-52.9%; frag-separable
// 12, 12.5, 13, 13.5, 14: median 13, p10 12.2, p90 13.8, +-6.2%; compute-separable-lds 13.2 flat;
// compute-naive 40 flat. frag-separable's 13 +6.2% = 13.8 reaches compute-separable's 14 - 52.9%
// (6.6) and compute-separable-lds's 13.2: three variants tied, none named the winner. dual-kawase
// 5 flat at 52 dB is the only approximation above 50 dB, settled, and no ratio to an unsettled
// exact blur. variable-pyramid without a map is not ranked.
Report noisy_cpu_run() {
  Report r;
  r.gl.renderer = "llvmpipe (LLVM 15.0.6, 256 bits)";
  r.gl.software = true;
  r.frames = 5;
  r.rows = {row("copy", 16, {1, 1, 1, 1, 1}),
            row("compute-separable", 16, {10, 11, 14, 18, 30}),
            row("frag-separable", 16, {12, 12.5, 13, 13.5, 14}),
            row("compute-separable-lds", 16, {13.2, 13.2, 13.2, 13.2, 13.2}),
            row("compute-naive", 16, {40, 40, 40, 40, 40}),
            row("dual-kawase", 16, {5, 5, 5, 5, 5}, 52.0),
            row("variable-pyramid", 16, {0.5, 0.5, 0.5, 0.5, 0.5}, 60.0)};
  for (Measurement& m : r.rows) m.size = {480, 270};
  return r;
}

TEST(Conclusion, CpuRasterizerNamesNoUnsettledWinnerAndShowsWhatGpusAnswered) {
  const Report r = noisy_cpu_run();
  const std::vector<ResultsFile> gpus = made_up_gpus();
  const Conclusion c = conclude(r, gpus);
  ASSERT_EQ(c.kernels.size(), 1u);
  const KernelConclusion& k = c.kernels[0];
  EXPECT_FALSE(k.answer.exact.settled());
  EXPECT_EQ(k.answer.exact.fastest->variant, "frag-separable");
  ASSERT_EQ(k.answer.exact.tied.size(), 2u);
  EXPECT_EQ(k.answer.exact.tied[0].variant, "compute-separable-lds");
  EXPECT_EQ(k.answer.exact.tied[1].variant, "compute-separable");
  EXPECT_EQ(c.unmapped_variable, std::vector<std::string>{"variable-pyramid"});

  ASSERT_EQ(k.gpus.size(), 2u) << "llvmpipe's own results file is no GPU's";
  const GpuAnswer& a = k.gpus[0];
  EXPECT_EQ(a.gpu, "NVIDIA Made-up GPU");
  EXPECT_EQ(a.size, glm::ivec2(1920, 1080));
  EXPECT_TRUE(a.same_kernel);
  EXPECT_EQ(a.answer.variants, 4u);
  ASSERT_TRUE(a.answer.exact.settled());
  EXPECT_EQ(a.answer.exact.fastest->variant, "compute-separable-regblock");
  EXPECT_DOUBLE_EQ(*a.answer.exact.fastest->x_copy, 3.0);
  ASSERT_TRUE(a.answer.approximation.settled());
  EXPECT_EQ(a.answer.approximation.fastest->variant, "dual-kawase");
  const GpuAnswer& b = k.gpus[1];
  EXPECT_FALSE(b.same_kernel);
  EXPECT_EQ(b.kernel, "gauss r=9 sigma=3");
  EXPECT_FALSE(b.answer.exact.settled()) << "4.0 and 4.001, each +-0.5%";
  ASSERT_TRUE(b.answer.approximation.fastest) << "box-iterated has no role in the file; the registry says it approximates";
  EXPECT_EQ(b.answer.approximation.fastest->variant, "box-iterated");

  std::ostringstream text, page;
  write_conclusion_text(c, text);
  write_conclusion_markdown(c, page);
  const std::string t = unwrapped(text.str());
  // Said first: the CPU rasterizer's ranking does not carry.
  EXPECT_EQ(t.rfind("\nConclusion (the page made by --report says more):\n- This run is on a CPU rasterizer (llvmpipe (LLVM 15.0.6, "
                    "256 bits)): its ranking says how a CPU runs these shaders and does not carry to GPUs.",
                    0),
            0u)
      << t;
  for (const char* part :
       {"\n  - NVIDIA Made-up GPU (1920x1080; 4 variants timed, gpu_a.json): fastest exact compute-separable-regblock, 3x copy; "
        "fastest approximation at PSNR >= 50 dB dual-kawase, 2x copy, 51.0 dB, 1.5x as fast as the exact one\n",
        "\n  - Another GPU (1920x1080, gauss r=9 sigma=3, the nearest kernel it measured; 3 variants timed, gpu_b.json): fastest "
        "exact not settled: frag-separable (4x copy) and compute-separable (4x copy) overlap within their spreads; fastest "
        "approximation at PSNR >= 50 dB box-iterated, 2.5x copy, 55.0 dB\n",
        "\n  - this run (CPU rasterizer; 5 variants timed): fastest exact not settled: frag-separable (13 ms +-6%), "
        "compute-separable-lds (13.2 ms +-0%) and compute-separable (14 ms +-53%) overlap within their spreads; fastest "
        "approximation at PSNR >= 50 dB dual-kawase, 5 ms +-0%, 52.0 dB\n",
        "\n- Not ranked: variable-pyramid blur by a radius map and ran without one"})
    EXPECT_NE(t.find(part), std::string::npos) << part << "\n---\n" << t;
  EXPECT_EQ(t.find("fastest exact frag-separable"), std::string::npos) << "a winner the spreads do not settle";
  EXPECT_EQ(t.find("52.0 dB,"), std::string::npos) << "no ratio to an exact blur that is not settled";
  for (const std::string& line : split(text.str(), '\n')) EXPECT_LE(line.size(), kTableWidth) << line;

  const std::string p = page.str();
  EXPECT_EQ(p.find("## Conclusion\n\n**This run is on a CPU rasterizer (llvmpipe"), 0u) << p;
  for (const char* part :
       {"| image and kernel | measured on | fastest exact | fastest approximation at PSNR >= 50 dB |",
        "| 480x270 rgba8 gauss r=16 sigma=5.333, border clamp | NVIDIA Made-up GPU (1920x1080; 4 variants timed, gpu_a.json) | "
        "compute-separable-regblock, 3x copy | dual-kawase, 2x copy, 51.0 dB, 1.5x as fast as the exact one |",
        "|  | this run (CPU rasterizer; 5 variants timed) | not settled: frag-separable (13 ms +-6%), "})
    EXPECT_NE(p.find(part), std::string::npos) << part << "\n---\n" << p;
}

// Another rerun of the same noisy machine: the medians trade places, the text still names no
// winner and the GPUs' answers do not move.
TEST(Conclusion, CpuRasterizerRerunsSayTheSameOfGpus) {
  Report again = noisy_cpu_run();
  again.rows[1].spans_ms["total"] = {9, 10, 12, 13, 25};  // median 12: now first by its median
  const std::vector<ResultsFile> gpus = made_up_gpus();
  const Report first = noisy_cpu_run();
  std::ostringstream one, two;
  write_conclusion_text(conclude(first, gpus), one);
  write_conclusion_text(conclude(again, gpus), two);
  const auto gpu_lines = [](const std::string& text) { return text.substr(0, text.find("  - this run")); };
  EXPECT_EQ(gpu_lines(one.str()), gpu_lines(two.str()));
  EXPECT_NE(unwrapped(two.str()).find("fastest exact not settled: compute-separable (12 ms"), std::string::npos) << two.str();
}

TEST(Conclusion, NoGpuAnswersOnAGpu) {
  Report r = noisy_cpu_run();
  r.gl.software = false;
  r.gl.renderer = "NVIDIA Made-up GPU/PCIe/SSE2";
  const std::vector<ResultsFile> gpus = made_up_gpus();
  const Conclusion c = conclude(r, gpus);
  EXPECT_TRUE(c.cpu_rasterizer.empty());
  EXPECT_TRUE(c.kernels[0].gpus.empty());
}

// A results file's rows made by older code of their variant, or with knobs other than its defaults,
// are no answer for today's program: gpu_a's compute-separable-regblock at 3.0x copy (made by code
// whose digest is not the program's) and compute-separable at 8.0x (another workgroup) are left
// out and named; compute-separable's 10x (its defaults, today's code) is the fastest exact left.
TEST(Conclusion, ResultsRowsOlderThanTheCodeAreNotRanked) {
  nlohmann::json regblock = gpu_row("compute-separable-regblock", 1920, 1080, 16, 16.0 / 3, 3.0);
  regblock["made_by"]["code"] = "0000000000000000";
  nlohmann::json swept = gpu_row("compute-separable", 1920, 1080, 16, 16.0 / 3, 8.0);
  swept["settings"]["knobs"]["workgroup"] = "8x8";
  ASSERT_NE(find_variant("compute-separable")->knobs.front().text(find_variant("compute-separable")->knobs.front().default_value(16)), "8x8");
  nlohmann::json unrecorded = gpu_row("compute-separable-lds", 1920, 1080, 16, 16.0 / 3, 2.0);
  unrecorded.erase("made_by");
  const std::vector<ResultsFile> gpus{results_file("gpu_a.json", "NVIDIA Made-up GPU/PCIe/SSE2", false,
                                                   {regblock, swept, unrecorded, gpu_row("compute-separable", 1920, 1080, 16, 16.0 / 3, 10.0)})};
  EXPECT_TRUE(older_than_code(gpus[0].rows[0]));
  EXPECT_TRUE(older_than_code(gpus[0].rows[1]));
  EXPECT_TRUE(older_than_code(gpus[0].rows[2]));
  EXPECT_FALSE(older_than_code(gpus[0].rows[3]));
  const Report r = noisy_cpu_run();
  const Conclusion c = conclude(r, gpus);
  ASSERT_EQ(c.kernels[0].gpus.size(), 1u);
  const GpuAnswer& g = c.kernels[0].gpus[0];
  ASSERT_TRUE(g.answer.exact.settled());
  EXPECT_EQ(g.answer.exact.fastest->variant, "compute-separable");
  EXPECT_DOUBLE_EQ(*g.answer.exact.fastest->x_copy, 10.0);
  EXPECT_EQ(g.answer.variants, 1u);
  EXPECT_EQ(g.older, (std::vector<std::string>{"compute-separable-regblock", "compute-separable-lds"}))
      << "compute-separable has a row that holds: it is ranked by that one";
  std::ostringstream text;
  write_conclusion_text(c, text);
  EXPECT_NE(unwrapped(text.str()).find("NVIDIA Made-up GPU (1920x1080; 1 variant timed, gpu_a.json; not ranked, their rows older than "
                                       "today's code or defaults: compute-separable-regblock and compute-separable-lds): fastest exact "
                                       "compute-separable, 10x copy"),
            std::string::npos)
      << text.str();

  // Every row older: nothing of the file is ranked, and it says so.
  const std::vector<ResultsFile> old{results_file("gpu_a.json", "NVIDIA Made-up GPU/PCIe/SSE2", false, {regblock, swept, unrecorded})};
  const Conclusion all_old = conclude(r, old);
  const GpuAnswer& o = all_old.kernels[0].gpus[0];
  EXPECT_FALSE(o.answer.exact.fastest);
  EXPECT_EQ(o.answer.variants, 0u);
  std::ostringstream old_text;
  write_conclusion_text(all_old, old_text);
  EXPECT_NE(unwrapped(old_text.str()).find("NVIDIA Made-up GPU (1920x1080, gpu_a.json; every row older than today's code or defaults, so "
                                           "none is ranked: compute-separable-regblock, compute-separable and compute-separable-lds): "
                                           "nothing ranked"),
            std::string::npos)
      << old_text.str();
  EXPECT_EQ(old_text.str().find("no exact blur"), std::string::npos) << old_text.str();
}

// The run of the issue that found stale advice: on a CPU rasterizer, fft, compute-separable-
// regblock and dual-kawase at sigma 30. No answer drawn from the results files the program carries
// ranks a row that does not hold for today's code and defaults (a row made by older code of its
// variant, or with other knobs than its defaults, is left out).
TEST(Conclusion, CarriedResultsRankOnlyRowsOfTodaysCode) {
  Report r;
  r.gl.renderer = "llvmpipe (LLVM 15.0.6, 256 bits)";
  r.gl.software = true;
  r.frames = 5;
  for (const char* v : {"copy", "fft", "compute-separable-regblock", "dual-kawase"}) {
    Measurement m = row(v, 90, {1, 1, 1, 1, 1}, std::string(v) == "dual-kawase" ? std::optional(48.0) : std::nullopt);
    m.settings.kernel = Kernel{KernelType::Gauss, 90, 30.0};
    m.size = {480, 270};
    r.rows.push_back(std::move(m));
  }
  const Conclusion c = conclude(r, embedded_results_files());
  ASSERT_EQ(c.kernels.size(), 1u);
  for (const GpuAnswer& g : c.kernels[0].gpus) {
    const ResultsFile& file = *std::find_if(embedded_results_files().begin(), embedded_results_files().end(),
                                            [&](const ResultsFile& f) { return f.name == g.file; });
    std::vector<const Pick*> ranked;
    for (const Ranking* k : {&g.answer.exact, &g.answer.approximation})
      if (k->fastest) {
        ranked.push_back(&*k->fastest);
        for (const Pick& p : k->tied) ranked.push_back(&p);
      }
    for (const Pick* p : ranked) {  // the row it is ranked by (its x copy) holds for today's code
      std::string why = "no such row";
      for (const ResultsRow& row : file.rows)
        if (row.variant == p->variant && row.size == g.size && kernel_text(row.kernel) == g.kernel && row.x_copy == p->x_copy)
          why = older_than_code(row).value_or("");
      EXPECT_EQ(why, "") << g.file << ": " << p->variant << " is ranked from a row that does not hold";
    }
  }
}

// The results files the program carries: every one parses, and what the conclusion reads of a GPU's
// file for the default kernel is what a plain walk of its JSON finds (the fastest exact row of the
// size nearest 480x270 by its time over the copy).
TEST(Conclusion, EmbeddedResultsFilesAnswerAsTheirJsonSays) {
  const auto texts = embedded_results_texts();
  ASSERT_FALSE(texts.empty());
  const std::vector<ResultsFile>& files = embedded_results_files();
  ASSERT_EQ(files.size(), texts.size());
  Report r = noisy_cpu_run();
  for (size_t i = 0; i < files.size(); ++i) {
    if (files[i].software) continue;
    const nlohmann::json doc = nlohmann::json::parse(texts[i].second);
    // Rows of the default Gaussian (r = 16, sigma 16/3), rgba8, clamp, as the walk finds them.
    std::map<std::pair<int, int>, std::pair<double, std::string>> fastest;  // size -> x copy, variant
    std::map<std::string, bool> older;  // variants with rows that do not hold for today's program
    for (const nlohmann::json& row : doc["results"]) {
      const nlohmann::json& s = row["settings"];
      if (s.value("kernel", "") != "gauss" || s.value("radius", 0) != 16 || std::abs(s.value("sigma", 0.0) - 16.0 / 3) > 1e-3 ||
          s.value("border", "clamp") != "clamp" || !row.value("supported", false) || !row.contains("x_copy") ||
          !row.value("error", nlohmann::json::object()).value("ok", true) || s.value("input_format", "") != "rgba8" || s.value("linear", false) ||
          s.contains("radius_map"))
        continue;
      const VariantInfo* v = find_variant(row["variant"].get<std::string>());
      if (!v || is_approximation(*v)) continue;
      // Only rows made by the program's code of the variant, at its defaults at r = 16, answer.
      if (row.value("made_by", nlohmann::json::object()).value("code", "") != code_digest(v->name) || s.value("tuned", false)) {
        older[std::string(v->name)] = true;
        continue;
      }
      bool defaults = true;
      for (const Knob& k : v->knobs)
        defaults &= s.value("knobs", nlohmann::json::object()).value(std::string(k.name), "") == k.text(k.default_value(16));
      if (!defaults) {
        older[std::string(v->name)] = true;
        continue;
      }
      const std::pair size{row["size"]["width"].get<int>(), row["size"]["height"].get<int>()};
      const double x = row["x_copy"];
      if (!fastest.count(size) || x < fastest[size].first) fastest[size] = {x, std::string(v->name)};
    }
    const Conclusion c = conclude(r, std::vector<ResultsFile>{files[i]});
    if (fastest.empty()) {
      // No row of the default kernel holds for today's program: none is ranked, and the answer
      // names the variants whose rows it left out.
      if (older.empty() || c.kernels[0].gpus.empty()) continue;  // nearest kernels: the made-up files above test those
      const GpuAnswer& g = c.kernels[0].gpus[0];
      EXPECT_FALSE(g.answer.exact.fastest) << files[i].name;
      EXPECT_FALSE(g.older.empty()) << files[i].name;
      continue;
    }
    ASSERT_EQ(c.kernels[0].gpus.size(), 1u) << files[i].name;
    const GpuAnswer& g = c.kernels[0].gpus[0];
    EXPECT_TRUE(g.same_kernel) << files[i].name;
    const auto& [x, variant] = fastest.count({1920, 1080}) ? fastest[{1920, 1080}] : fastest.begin()->second;
    ASSERT_TRUE(g.answer.exact.fastest) << files[i].name;
    EXPECT_EQ(g.answer.exact.fastest->variant, variant) << files[i].name;
    EXPECT_DOUBLE_EQ(*g.answer.exact.fastest->x_copy, x) << files[i].name;
  }
}

}  // namespace
}  // namespace blurlab::report
