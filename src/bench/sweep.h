#pragma once
// A headless sweep: every (image size, input format, variant, setting) of a request, measured
// in order, into a report; or, with --tune, each variant with knobs tuned. The planning is plain
// logic (tested in tests/unit/test_bench.cpp); running needs the GL pipeline (bench/measure.h).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/measure.h"
#include "bench/tuner.h"
#include "report/report.h"
#include "report/tuning.h"
#include "util/table.h"

namespace blurlab::bench {

struct SweepRequest {
  std::vector<glm::ivec2> sizes;
  std::vector<gl::Format> input_formats;
  std::vector<const VariantInfo*> variants;  // in this order
  // The settings of the sweep for one variant and input format (kernels x formats x knobs).
  std::function<std::vector<BlurSettings>(const VariantInfo&, gl::Format)> settings;
  // Timing needs the floor of the same run for its ratios: add the Role::Floor variant first
  // when it is not in `variants`, with its default knobs (the knob values of the sweep are for
  // the variants asked for).
  bool add_floor = false;
  // Knob values from a --tuned file, for the knobs not given on the command line.
  const report::TuningTable* tuned = nullptr;
  std::vector<std::string> given_knobs;
  std::string renderer;  // the GPU, for the tuned file's entries
};

struct Job {
  glm::ivec2 size;
  gl::Format input_format;
  const VariantInfo* variant;
  BlurSettings settings;
  bool tuned = false;  // knobs from the tuned file
};

// Jobs grouped by size, then input format (one source image each), in the request's order.
std::vector<Job> plan(const SweepRequest& request);

// With a --tuned `file`: one line saying how many jobs of variants with knob choices it has no
// entry for (they run their defaults) and what it holds instead (its sizes for this GPU, or the
// GPUs it is for); nullopt when every such job has its entry (or there is no file).
std::optional<std::string> untuned_note(const SweepRequest& request, const std::vector<Job>& jobs, const std::string& file);

// Fills a group's source texture (the scene, or an image file), decoded to linear light when
// `linear` (BlurSettings::linear).
using FillSource = std::function<void(gl::Texture& source, bool linear)>;
// Called before each job (a progress display); may be empty.
using OnJob = std::function<void(const Job& job)>;

struct SweepResult {
  std::vector<report::Measurement> rows;
  std::optional<Image> last_output;  // the last supported job's output, when asked for
};

// Measures every job: timed frames (if frames > 0), then a check against the reference.
SweepResult run_sweep(const std::vector<Job>& jobs, Measurer& measurer, int frames, const FillSource& fill, const OnJob& on_job,
                      bool keep_output);

// --tune: tunes every job whose variant has a knob with more than one candidate (and runs its
// defaults); a winner that passes its check is put in `table`. Prints one line per job to `out`.
// `on_try` (may be empty) is told each knob setting before it is timed (a progress display).
using OnTry = std::function<void(const VariantInfo& variant, const BlurSettings& settings)>;
void run_tuning(const std::vector<Job>& jobs, Measurer& measurer, int frames, const FillSource& fill, const OnJob& on_job,
                const std::string& renderer, report::TuningTable& table, TextTable& out, const TunePolicy& policy = {},
                const OnTry& on_try = {});

// The table run_tuning fills: its columns, with the knobs changed wrapped at spaces so that no
// line is wider than report::kTableWidth however many knobs a winner changes. And what they mean.
TextTable tuning_table();
std::string tuning_table_legend(const TunePolicy& policy = {});
// "tile=32 rows=8": the knobs whose tuned values differ from the defaults, with those values, or "none".
std::string knob_changes(const VariantInfo& variant, const BlurSettings& defaults, const BlurSettings& tuned);

}  // namespace blurlab::bench
