#pragma once
// The answer a report opens with, computed from its rows: per image and kernel the fastest exact
// blur, the fastest approximation of the Gaussian within a stated fidelity (PSNR against the exact
// Gaussian), and a warning wherever the spread of the times makes a ranking uncertain.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "report/report.h"

namespace blurlab::report {

// A row chosen, with its median and its spread as the table shows it: +-50 (p90 - p10) / median %.
struct Pick {
  const Measurement* row = nullptr;
  double median_ms = 0.0;
  double spread_percent = 0.0;
};

// One image size, input format and kernel (with its border).
struct KernelConclusion {
  std::string heading;           // group_heading()
  std::optional<Pick> exact;     // the fastest exact variant that ran and passed its check
  std::optional<Pick> runner_up;  // the next exact one
  // The two overlap within their spreads (median +- spread / 2), so the order may be chance.
  bool uncertain = false;
  std::optional<Pick> approximation;  // the fastest approximation with PSNR >= the minimum
  // No approximation reaches the minimum: the closest one, to say how far off it is.
  std::optional<Pick> closest_approximation;
};

struct Conclusion {
  double min_psnr_db = 50.0;
  double wide_spread_percent = 50.0;
  bool timed = false;                  // the run timed anything (--frames above 0)
  std::vector<KernelConclusion> kernels;
  std::vector<Pick> wide_spreads;      // timed rows spread by more than wide_spread_percent
};

Conclusion conclude(const Report& report, double min_psnr_db = 50.0, double wide_spread_percent = 50.0);
// A conclusion points into the report's rows: a temporary report would leave it dangling.
Conclusion conclude(const Report&& report, double min_psnr_db = 50.0, double wide_spread_percent = 50.0) = delete;

// The page's opening section: a table of the picks, then the warnings.
void write_conclusion_markdown(const Conclusion& conclusion, std::ostream& out);
// The same for the terminal, below the table: a line per kernel, then the warnings, wrapped at
// kTableWidth.
void write_conclusion_text(const Conclusion& conclusion, std::ostream& out);

}  // namespace blurlab::report
