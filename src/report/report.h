#pragma once
// The headless report: what one sweep measured, the numbers derived from it, and its three
// outputs (a grouped table for people, CSV and JSON for tools and charts). Each row is made into
// one record (row_record) that all three render.
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "blur/blur.h"
#include "blur/check.h"
#include "effects/effect.h"
#include "gl/context.h"

namespace blurlab::report {

// Order statistics of the samples of one span.
struct Stats {
  size_t count = 0;
  double median = 0.0, min = 0.0, max = 0.0;
  double spread = 0.0;  // p90 - p10: robust against a few outliers of a shared machine
};
Stats stats_of(std::vector<double> samples);

// One configuration of the sweep.
struct Measurement {
  const VariantInfo* variant = nullptr;
  BlurSettings settings;  // resolved
  glm::ivec2 size{0, 0};
  std::optional<Refusal> unsupported;
  std::vector<std::string> span_order;                  // "total" first, then the passes
  std::map<std::string, std::vector<double>> spans_ms;  // per timed frame
  std::vector<double> cpu_ms;                           // wall time per frame, GPU finished
  std::optional<CheckResult> check;
  Tolerance tolerance;
  bool tuned = false;  // knobs taken from a --tuned file
  // An approximation: what it chose for the request. Fidelity, measured with the check: an
  // approximation's error against the exact Gaussian of the sigma it declares (a variable-radius
  // one's against the exact per-pixel kernel), an exact blur's against its reference.
  std::optional<ApproxChoice> approximation;
  std::optional<Fidelity> fidelity;

  // Median of the "total" span; nullopt when unsupported or untimed.
  std::optional<double> total_median() const;
};

// One run of an effect (effects/effect.h) on the HDR scene: its stages' times, its check (each
// stage against the CPU, the shipped frame against the ground truth) and, for the report page, a
// crop of the shipped frame and of the ground truth's where the effect shows most.
struct EffectMeasurement {
  const EffectInfo* effect = nullptr;
  EffectSettings settings;
  glm::ivec2 size{0, 0};
  std::string description;  // EffectInfo::describe
  std::optional<Refusal> unsupported;
  std::vector<std::string> span_order;                  // "total" first, then the stages
  std::map<std::string, std::vector<double>> spans_ms;  // per timed frame
  std::vector<double> cpu_ms;
  std::optional<EffectCheck> check;
  glm::ivec2 crop_origin{0, 0};
  std::optional<Image> crop, truth_crop;  // with a check

  std::optional<double> total_median() const;
};

// Numbers that relate a measurement to others of the same run.
struct Derived {
  std::optional<double> copy_ms;   // the floor (Role::Floor), same size and input format
  std::optional<double> x_copy;    // total / copy
  std::optional<double> speedup;   // the baseline of the same stage (Role::Baseline), same kernel and border, / total
  std::optional<double> gbps;      // minimum traffic (read once + write once) / total
  // Border modes other than clamp: total / the same variant and settings with clamp in this run,
  // what the mode costs.
  std::optional<double> x_clamp;
};

// The device's limits, measured in the same run (bench/roofline.h).
struct Roofline {
  glm::ivec2 size{0, 0};             // of the copies (rgba8 texels; the buffers hold as many bytes)
  double texture_copy_gbps = 0.0;    // (bytes read + bytes written) / time, the best copy setting
  std::string texture_copy_setting;  // which copy setting that was
  double buffer_copy_gbps = 0.0;     // the same through buffers, one uvec4 per invocation
  double fma_per_s = 0.0;            // fp32 fused multiply-adds per second (2 FLOP each)
  double bilinear_fetch_per_s = 0.0;  // linear-filtered texture fetches per second (rgba8, in cache)
};

// The least work a blur of `kernel` does per pixel, in fp32 FMAs (or adds): a Gaussian of 2r+1
// taps done separably, 4 channels x (2r+1) taps x 2 passes; a box by running sums, 4 channels x
// (one add, one subtract) x 2 passes; nothing for a copy, nor for an approximation (its work is
// its own choice: only its memory traffic is a bound).
double minimal_fmas_per_pixel(const Kernel& kernel, bool is_blur);

// What limits a row: the minimum traffic at the texture copy bandwidth ("memory"), or the minimal
// FMAs at the FMA rate ("arithmetic"), whichever takes longer, and the row's time against it.
struct Bound {
  std::string limit;      // "memory" or "arithmetic"
  double ms = 0.0;        // the bound's time for this row
  double fraction = 0.0;  // bound / the row's median: 1 is at the roofline
};

// A row's time against its variant's own bound (VariantInfo::own_bound): the least its own passes
// must move, fetch and compute, each at the rate the roofline measured; the largest limits it.
struct OwnBound {
  WorkBound work;
  std::string limit;      // "memory", "fetches" or "arithmetic"
  double ms = 0.0;        // the bound's time for this row
  double fraction = 0.0;  // bound / the row's median: how well the technique is implemented
};

struct Report {
  gl::GlInfo gl;
  std::optional<Roofline> roofline;
  std::string date;
  int warmup = 0, frames = 0;
  double min_warmup_s = 0.0;  // warm-up time, at least (bench::TimingPolicy)
  double budget_s = 0.0, scene_time = 0.0;
  std::string sizing;  // why the run's size and timing are not the defaults, if so
  std::string image;  // input file, empty: the scene
  std::string command;  // the command line that made the report
  bool shaders_from_disk = false;  // --shader-dir: the shaders are not the code the program was built with
  std::vector<Measurement> rows;
  std::vector<EffectMeasurement> effect_rows;  // --effect: the rows are then the frame's copies (the floor)

  Derived derive(const Measurement& m) const;
  // An effect row's floor: the fastest copy of an rgba16f frame of its size in this run.
  std::optional<double> effect_copy_ms(const EffectMeasurement& m) const;
  // nullopt without a roofline or a time.
  std::optional<Bound> bound(const Measurement& m) const;
  // Also nullopt for a variant that declares no own bound, or a fetch bound without a fetch rate.
  std::optional<OwnBound> own_bound(const Measurement& m) const;
};

// One row as the table, the CSV and the JSON show it.
struct RowRecord {
  const VariantInfo* variant = nullptr;
  glm::ivec2 size{0, 0};
  BlurSettings settings;
  std::vector<std::pair<std::string, std::string>> knobs;  // the variant's knobs: name, value text
  bool tuned = false;
  std::optional<Refusal> unsupported;
  std::vector<std::pair<std::string, Stats>> spans;  // "total" first, then the passes
  std::optional<Stats> cpu;
  Derived derived;
  std::optional<Bound> bound;
  std::optional<OwnBound> own_bound;
  std::optional<CheckResult> check;
  std::string tolerance;  // the reason of the tolerance the check used
  std::optional<ApproxChoice> approximation;
  std::optional<Fidelity> fidelity;
  // An exact variant (a Gaussian or a box): its fidelity is its check (within 1 LSB of the exact
  // kernel by construction), not measured again.
  bool exact_blur = false;
  // What made it (report/results_files.h): the variant's code digest as built, "" where the
  // shaders came from --shader-dir.
  std::string code;
};
RowRecord row_record(const Report& report, const Measurement& m);
void to_json(nlohmann::json& j, const RowRecord& row);

// Bytes a blur must move at least: each input texel read once, each output texel written once.
double minimum_traffic_bytes(glm::ivec2 size, gl::Format format);

// The table: by default the columns that fit kTableWidth characters (unsupported rows point to
// numbered reasons below it), or every column (--wide).
enum class Columns { Fit, All };
inline constexpr size_t kTableWidth = 120;

// The table as cells: a group (heading and rows) per image size, input format and kernel; the
// text table and the Markdown page render it.
struct TableView {
  struct Group {
    std::string heading;  // "1920x1080 rgba8 gauss r=16 sigma=5.333"
    std::vector<std::vector<std::string>> rows;
    std::vector<bool> ran;  // per row: false where the variant does not run the settings
  };
  std::string preamble;  // the roofline measured in the run, if any
  std::vector<std::string> header;
  std::vector<Group> groups;
  std::vector<std::string> footnotes;  // Columns::Fit: the reasons of unsupported rows, [1], [2], ...
  std::string legend;                  // what the columns mean, lines of at most kTableWidth
};
TableView table_view(const Report& report, Columns columns);

// `legend`: what the columns mean, below the table (a sweep's; one blur to a file has none).
void write_table(const Report& report, std::ostream& out, Columns columns = Columns::Fit, bool legend = true);
void write_csv(const Report& report, std::ostream& out);
void write_json(const Report& report, std::ostream& out);

// The report as a page to share (--report): GPU, driver, run settings, the command, the table,
// the correctness summary and the charts. `charts` are image files beside the page; when there
// are none, `charts_note` says why (it is printed instead of pictures, never both silently).
struct Page {
  std::vector<std::string> charts;
  std::string charts_note;
  std::vector<std::string> files;  // other files beside the page (report.json, report.csv)
};
void write_markdown(const Report& report, const Page& page, std::ostream& out);

// A run over its tolerance, in one line: the variant and its setting, the largest errors, the
// worst texel (GPU value, reference, allowance) and the tolerance's reason. The page's correctness
// section and the headless run's output below the table both print it.
std::string failure_text(const Measurement& m);

// A kernel as the table's headings show it: "gauss r=16 sigma=5.333", "box r=4".
std::string kernel_text(const Kernel& kernel);

// The heading of a table group: "1920x1080 rgba8 gauss r=16 sigma=5.333, border clamp".
std::string group_heading(glm::ivec2 size, const VariantInfo& variant, const BlurSettings& settings);

// A Markdown table; each cell's text escaped (a pipe in a reason does not split the row).
void md_table(std::ostream& out, const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows);

// A CSV field per RFC 4180: quoted when it holds a comma, a quote or a line break; quotes doubled.
std::string csv_field(const std::string& text);

}  // namespace blurlab::report
