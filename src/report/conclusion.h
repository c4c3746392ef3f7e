#pragma once
// The answer a report opens with, computed from its rows: per image and kernel the fastest exact
// blur and the fastest approximation of the Gaussian within a stated fidelity (PSNR against the
// exact Gaussian), each named only where the spreads of the times settle it. A run on a CPU
// rasterizer ranks how a CPU runs the shaders, which does not carry to GPUs: its conclusion says
// so first and shows beside its own answer what GPUs answered (report/results_files.h).
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "report/report.h"
#include "report/results_files.h"

namespace blurlab::report {

// A row ranked, with its median and its spread as the table shows it: +-50 (p90 - p10) / median %.
struct Pick {
  const Measurement* row = nullptr;  // this run's row; nullptr for a results file's
  std::string variant;
  double median_ms = 0.0;
  double spread_percent = 0.0;
  // What the ranking compares: the median within one run; across a results file's runs, whose
  // milliseconds do not compare, the time over the copy of the row's own run.
  double value = 0.0;
  std::optional<double> x_copy;
  std::optional<double> psnr_db;  // an approximation's, against the exact kernel
};

// The fastest of a set of variants (each by its fastest row) and the others it does not leave
// behind: their values +- half their spread overlap its own, so which of them is fastest is not
// settled by the measurements.
struct Ranking {
  std::optional<Pick> fastest;
  std::vector<Pick> tied;
  bool settled() const { return fastest && tied.empty(); }
};

// One source's answer for one kernel.
struct Answer {
  Ranking exact;          // the exact blurs that ran and passed their check
  Ranking approximation;  // the approximations that passed and reach the minimum PSNR
  std::optional<Pick> closest_approximation;  // none reaches it: the closest, to say how far off
  size_t variants = 0;    // the variants timed
  size_t exact_variants = 0;  // of them exact blurs, passed or not (none where only approximations ran)
};

// What a GPU's results file answers for a kernel of the run: for the same kernel, else for the
// nearest one it measured, at the size it measured nearest the run's.
struct GpuAnswer {
  std::string gpu;   // the renderer, without its bus and instruction-set suffixes
  std::string file;  // "h200.json"
  glm::ivec2 size{0, 0};
  std::string kernel;  // "gauss r=16 sigma=10"
  bool same_kernel = true;
  Answer answer;  // from the rows that hold for today's program (results_files.h, older_than_code)
  // The variants whose rows at this size and kernel do not hold for it (made by older code, or
  // with other knobs than the defaults): left out of the answer, and named.
  std::vector<std::string> older;
};

// One image size, input format and kernel (with its border and radius map).
struct KernelConclusion {
  std::string heading;  // group_heading()
  Answer answer;        // this run's
  std::vector<GpuAnswer> gpus;  // a run on a CPU rasterizer: what each GPU's results file answers
};

struct Conclusion {
  double min_psnr_db = kFidelityBarDb;
  double wide_spread_percent = 50.0;
  bool timed = false;          // the run timed anything (--frames above 0)
  std::string cpu_rasterizer;  // the renderer, when it is a CPU rasterizer
  std::vector<KernelConclusion> kernels;
  std::vector<Pick> wide_spreads;  // timed rows spread by more than wide_spread_percent
  // Variable-radius variants run without a radius map blur every pixel alike: not in their mode,
  // so not ranked among the uniform blurs.
  std::vector<std::string> unmapped_variable;
};

// `gpu_results`: the GPUs' answers shown beside a CPU rasterizer's (the first form: the embedded
// results files).
Conclusion conclude(const Report& report, double min_psnr_db = kFidelityBarDb, double wide_spread_percent = 50.0);
Conclusion conclude(const Report& report, const std::vector<ResultsFile>& gpu_results, double min_psnr_db = kFidelityBarDb,
                    double wide_spread_percent = 50.0);
// A conclusion points into the report's rows: a temporary report would leave it dangling.
Conclusion conclude(const Report&& report, double min_psnr_db = kFidelityBarDb, double wide_spread_percent = 50.0) = delete;
Conclusion conclude(const Report&& report, const std::vector<ResultsFile>& gpu_results, double min_psnr_db = kFidelityBarDb,
                    double wide_spread_percent = 50.0) = delete;

// The page's opening section: a table of the answers, then the warnings.
void write_conclusion_markdown(const Conclusion& conclusion, std::ostream& out);
// The same for the terminal, below the table: a line per kernel (per source on a CPU rasterizer),
// then the warnings, wrapped at kTableWidth.
void write_conclusion_text(const Conclusion& conclusion, std::ostream& out);

}  // namespace blurlab::report
