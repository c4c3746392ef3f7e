#include "bench/sweep.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "blur/registry.h"
#include "util/strings.h"

namespace blurlab::bench {

std::vector<Job> plan(const SweepRequest& r) {
  const VariantInfo* added_floor = nullptr;
  std::vector<const VariantInfo*> selected = r.variants;
  if (r.add_floor && std::none_of(selected.begin(), selected.end(), [](const VariantInfo* v) { return v->role == Role::Floor; }))
    for (const VariantInfo* v : variants())
      if (v->role == Role::Floor) {
        selected.insert(selected.begin(), added_floor = v);
        break;
      }
  std::vector<Job> jobs;
  for (glm::ivec2 size : r.sizes)
    for (gl::Format input : r.input_formats)
      for (const VariantInfo* variant : selected) {
        std::vector<BlurSettings> list = r.settings(*variant, input);
        if (variant == added_floor) {
          list.resize(1);
          list.front().knobs.clear();
        }
        for (const BlurSettings& s : list) {
          Job job{size, input, variant, s, false};
          if (r.tuned)
            if (const auto entry = r.tuned->find(r.renderer, std::string(variant->name), size, input, s.kernel.type, s.kernel.radius)) {
              report::TunedEntry untouched = *entry;  // the knobs given on the command line stay
              for (const std::string& name : r.given_knobs) untouched.knobs.erase(name);
              job.settings = report::with_tuned_knobs(s, untouched);
              job.tuned = !untouched.knobs.empty();
            }
          jobs.push_back(std::move(job));
        }
      }
  return jobs;
}

namespace {

// Runs `body` for each job with the group's input ready: a new source image whenever the size,
// the input format or linear light changes.
template <typename Body>
void for_each_job(const std::vector<Job>& jobs, const FillSource& fill, const OnJob& on_job, Body body) {
  std::unique_ptr<Input> input;
  for (const Job& job : jobs) {
    if (!input || input->source.width() != job.size.x || input->source.height() != job.size.y ||
        input->source.format() != job.input_format || input->linear != job.settings.linear) {
      input.reset();  // free the previous group's textures first
      input = std::make_unique<Input>(job.size, job.input_format, job.settings.linear);
      fill(input->source, input->linear);
    }
    if (on_job) on_job(job);
    body(job, *input);
  }
}

bool has_knob_choices(const VariantInfo& v) {
  return std::any_of(v.knobs.begin(), v.knobs.end(), [](const Knob& k) { return k.candidates.size() > 1; });
}

}  // namespace

SweepResult run_sweep(const std::vector<Job>& jobs, Measurer& measurer, int frames, const FillSource& fill, const OnJob& on_job,
                      bool keep_output) {
  SweepResult result;
  for_each_job(jobs, fill, on_job, [&](const Job& job, Input& input) {
    report::Measurement m = measurer.measure(input, *job.variant, job.settings, /*check=*/true, frames);
    m.tuned = job.tuned;
    if (keep_output && !m.unsupported) result.last_output = input.destination.download();
    result.rows.push_back(std::move(m));
  });
  return result;
}

std::vector<std::string> tuning_table_header() {
  return {"variant", "size", "best settings", "default ms", "best ms", "gain", "verdict", "check"};
}

void run_tuning(const std::vector<Job>& jobs, Measurer& measurer, int frames, const FillSource& fill, const OnJob& on_job,
                const std::string& renderer, report::TuningTable& table, TextTable& out, const TunePolicy& policy) {
  for_each_job(jobs, fill, on_job, [&](const Job& job, Input& input) {
    const VariantInfo& variant = *job.variant;
    if (!has_knob_choices(variant)) return;
    const auto time = [&](const BlurSettings& s) { return measurer.measure(input, variant, s, false, frames).total_median(); };
    const auto tuned = tune(variant, job.settings, time, policy);
    if (!tuned) return;  // the defaults cannot run here: nothing to tune
    // The choice must still be correct.
    const report::Measurement checked = measurer.measure(input, variant, tuned->best, true, 0);
    const bool ok = checked.check && checked.check->ok;
    if (ok) {
      report::TunedEntry e;
      e.renderer = renderer;
      e.variant = std::string(variant.name);
      e.size = job.size;
      e.input_format = job.input_format;
      e.kernel = tuned->best.kernel.type;
      e.radius = tuned->best.kernel.radius;
      e.knobs = tuned->best.knobs;
      e.median_ms = tuned->best_ms;
      e.default_ms = tuned->default_ms;
      table.put(e);
    }
    out.add_row({std::string(variant.name), size_text(job.size), describe(variant, tuned->best), format_double(tuned->default_ms, 4),
                 format_double(tuned->best_ms, 4), format_double(tuned->default_ms / tuned->best_ms, 3) + "x", tuned->verdict,
                 checked.check ? (ok ? "ok" : "FAIL (not saved)") : "-"});
  });
}

}  // namespace blurlab::bench
