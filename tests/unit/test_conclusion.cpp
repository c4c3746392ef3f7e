// The report's conclusion on made-up reports, against answers worked out by hand from the numbers
// below (each expectation says how), not by the code under test.
#include <gtest/gtest.h>

#include <sstream>

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
// median of 1.0 and p10, p90 of 0.6, 1.4 (+-40%), reaching frag-separable's 1.2: uncertain; the only
// approximation at 45 dB is the closest; recursive-gaussian-blocks' frames 0.1, 1.0, 3.0 have
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

TEST(Conclusion, FastestExactAndApproximationPerKernel) {
  const Report r = made_up();
  const Conclusion c = conclude(r);
  ASSERT_TRUE(c.timed);
  ASSERT_EQ(c.kernels.size(), 2u) << "the copy is no kernel";
  const KernelConclusion& r16 = c.kernels[0];
  EXPECT_EQ(r16.heading, "1000x500 rgba8 gauss r=16 sigma=5.333, border clamp");
  ASSERT_TRUE(r16.exact && r16.runner_up);
  EXPECT_EQ(r16.exact->row, &r.rows[3]);
  EXPECT_DOUBLE_EQ(r16.exact->median_ms, 1.0);
  EXPECT_EQ(r16.runner_up->row, &r.rows[2]);
  EXPECT_NEAR(r16.runner_up->spread_percent, 8.0, 1e-9);  // (2.16 - 1.84) / 2 of 2.0
  EXPECT_FALSE(r16.uncertain) << "1 ms +-0% against 2 ms +-8%";
  ASSERT_TRUE(r16.approximation);
  EXPECT_EQ(r16.approximation->row, &r.rows[6]) << "kawase: dual-kawase is under 50 dB, recursive-gaussian failed its check";
  EXPECT_FALSE(r16.closest_approximation);

  const KernelConclusion& r8 = c.kernels[1];
  ASSERT_TRUE(r8.exact && r8.runner_up);
  EXPECT_EQ(r8.exact->row, &r.rows[9]);
  EXPECT_NEAR(r8.exact->spread_percent, 40.0, 1e-9);
  EXPECT_EQ(r8.runner_up->row, &r.rows[10]) << "frag-naive failed its check";
  EXPECT_TRUE(r8.uncertain) << "1.0 + 0.4 reaches 1.2";
  ASSERT_TRUE(r8.approximation);
  EXPECT_EQ(r8.approximation->row, &r.rows[13]) << "recursive-gaussian-blocks, 58 dB";
  ASSERT_EQ(c.wide_spreads.size(), 1u);
  EXPECT_EQ(c.wide_spreads[0].row, &r.rows[13]);
  EXPECT_NEAR(c.wide_spreads[0].spread_percent, 116.0, 1e-9);
}

TEST(Conclusion, TheClosestApproximationWhenNoneIsCloseEnough) {
  Report r = made_up();
  r.rows.pop_back();  // recursive-gaussian-blocks
  const Conclusion c = conclude(r);
  EXPECT_FALSE(c.kernels[1].approximation);
  ASSERT_TRUE(c.kernels[1].closest_approximation);
  EXPECT_EQ(c.kernels[1].closest_approximation->row, &r.rows[11]);
  EXPECT_TRUE(c.wide_spreads.empty());
  // A stricter fidelity moves r = 16's choice to box-iterated (55 dB), a laxer one to dual-kawase.
  EXPECT_EQ(conclude(r, 54.0).kernels[0].approximation->row, &r.rows[7]);
  EXPECT_EQ(conclude(r, 40.0).kernels[0].approximation->row, &r.rows[5]);
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
    const Conclusion c = conclude(r, 50.0);
    ASSERT_EQ(c.kernels.size(), 1u);
    EXPECT_FALSE(c.kernels[0].approximation) << "none reaches 50 dB";
    ASSERT_TRUE(c.kernels[0].closest_approximation);
    EXPECT_EQ(c.kernels[0].closest_approximation->row->variant->name, "kawase") << (closest_first ? "first" : "last");
    std::ostringstream page;
    write_conclusion_markdown(c, page);
    EXPECT_NE(page.str().find("none reaches 50 dB (the closest: kawase, 47.0 dB)"), std::string::npos) << page.str();
  }
}

TEST(Conclusion, PageAndTerminalSayIt) {
  const Report r = made_up();  // the conclusion points into its rows
  const Conclusion c = conclude(r);
  std::ostringstream page, text;
  write_conclusion_markdown(c, page);
  write_conclusion_text(c, text);
  for (const char* part : {"## Conclusion", "| image and kernel | fastest exact | fastest approximation at PSNR >= 50 dB |",
                           "| 1000x500 rgba8 gauss r=16 sigma=5.333, border clamp | compute-separable, 1 ms +-0% | kawase, 0.6 ms "
                           "+-0%, 52.0 dB, 1.67x as fast as the exact one |",
                           "| compute-separable, 1 ms +-40% (uncertain, see below) |",
                           "- Uncertain ranking: 1000x500 rgba8 gauss r=8 sigma=2.667, border clamp: compute-separable (1 ms +-40%) "
                           "and frag-separable (1.2 ms +-0%) overlap within their spreads",
                           "  - recursive-gaussian-blocks in 1000x500 rgba8 gauss r=8 sigma=2.667, border clamp: 1 ms +-116%"})
    EXPECT_NE(page.str().find(part), std::string::npos) << part << "\n" << page.str();
  EXPECT_NE(text.str().find("- 1000x500 rgba8 gauss r=16 sigma=5.333, border clamp: fastest exact compute-separable, 1 ms +-0%; fastest"),
            std::string::npos)
      << text.str();
  for (const std::string& line : split(text.str(), '\n')) EXPECT_LE(line.size(), kTableWidth) << line;
}

TEST(Conclusion, NothingTimedNothingRanked) {
  Report r = made_up();
  for (Measurement& m : r.rows) m.spans_ms.clear();
  const Conclusion c = conclude(r);
  EXPECT_FALSE(c.timed);
  std::ostringstream page, text;
  write_conclusion_markdown(c, page);
  write_conclusion_text(c, text);
  EXPECT_NE(page.str().find("Nothing was timed"), std::string::npos);
  EXPECT_EQ(text.str(), "");
}

}  // namespace
}  // namespace blurlab::report
