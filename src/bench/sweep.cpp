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
        } else if (variant->role == Role::Floor && !list.empty() && !list.front().knobs.empty()) {
          // The floor asked for with knob values (--workgroup 64,128 sweeping a blur's workgroup
          // reaches the copy too): its defaults run first as well, so that every ratio divides by
          // the copy at its best known settings, not by a copy slowed by another variant's knob.
          BlurSettings defaults = list.front();
          defaults.knobs.clear();
          list.insert(list.begin(), defaults);
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

bool has_knob_choices(const VariantInfo& v);

}  // namespace

std::optional<std::string> untuned_note(const SweepRequest& r, const std::vector<Job>& jobs, const std::string& file) {
  if (!r.tuned) return std::nullopt;
  size_t with_knobs = 0, missing = 0;
  const Job* first_missing = nullptr;
  for (const Job& job : jobs) {
    // The floor added for the ratios runs its defaults by design (plan()).
    const bool asked = std::find(r.variants.begin(), r.variants.end(), job.variant) != r.variants.end();
    if (!asked || !has_knob_choices(*job.variant)) continue;
    ++with_knobs;
    if (!r.tuned->find(r.renderer, std::string(job.variant->name), job.size, job.input_format, job.settings.kernel.type,
                       job.settings.kernel.radius)) {
      ++missing;
      if (!first_missing) first_missing = &job;
    }
  }
  if (missing == 0) return std::nullopt;
  // What the file has instead: its sizes, formats and kernels for this GPU, or the GPUs it is for.
  std::vector<std::string> here, gpus;
  for (const report::TunedEntry& e : r.tuned->entries()) {
    const std::string what = size_text(e.size) + " " + std::string(gl::name(e.input_format)) + " " + std::string(name(e.kernel));
    std::vector<std::string>& list = e.renderer == r.renderer ? here : gpus;
    const std::string& item = e.renderer == r.renderer ? what : e.renderer;
    if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
  }
  auto joined = [](const std::vector<std::string>& list) {
    std::string text;
    for (size_t i = 0; i < list.size(); ++i) text += (i ? ", " : "") + list[i];
    return text;
  };
  const Job& j = *first_missing;
  std::string note = "--tuned " + file + " has no entry for " + std::to_string(missing) + " of the " + std::to_string(with_knobs) +
                     " runs with knobs to tune (e.g. " + std::string(j.variant->name) + " at " + size_text(j.size) + " " +
                     std::string(gl::name(j.input_format)) + " " + std::string(name(j.settings.kernel.type)) +
                     "): they run the variant's defaults. ";
  if (!here.empty())
    note += "For this GPU it has " + joined(here) + "; tune this size with --tune --size " + size_text(j.size) + ".";
  else
    note += "Its entries are for " + (gpus.empty() ? std::string("no GPU (it is empty)") : "another GPU: " + joined(gpus)) +
            "; tune on this one with --tune.";
  return note;
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

TextTable tuning_table() {
  TextTable table({"variant", "knobs changed", "default ms", "tuned ms", "why", "check"});
  table.wrap_to(report::kTableWidth, 1);
  return table;
}

std::string tuning_table_legend(const TunePolicy& policy) {
  return "knobs changed: each knob whose tuned value differs from the variant's default, with that value (the defaults: "
         "blurlab --help). why: a candidate replaces the default only when its median over " + std::to_string(policy.rounds) +
         " interleaved rounds beats the default's by more than their spread (p90 - p10): won by, or the default is kept (in "
         "spread: a candidate was faster, by less than the spread; none faster: none was). check: the tuned knobs against the "
         "CPU reference; a choice that fails is not saved.";
}

std::string knob_changes(const VariantInfo& variant, const BlurSettings& defaults, const BlurSettings& tuned) {
  std::string text;
  for (const Knob& k : variant.knobs)
    if (const KnobValue from = defaults.knob(k.name), to = tuned.knob(k.name); from != to)
      text += (text.empty() ? "" : " ") + std::string(k.name) + "=" + k.text(to);
  return text.empty() ? "none" : text;
}

void run_tuning(const std::vector<Job>& jobs, Measurer& measurer, int frames, const FillSource& fill, const OnJob& on_job,
                const std::string& renderer, report::TuningTable& table, TextTable& out, const TunePolicy& policy,
                const OnTry& on_try) {
  std::string group;  // the heading of the rows so far: size, format, kernel
  for_each_job(jobs, fill, on_job, [&](const Job& job, Input& input) {
    const VariantInfo& variant = *job.variant;
    if (!has_knob_choices(variant)) return;
    const auto time = [&](const BlurSettings& s) {
      if (on_try) on_try(variant, s);
      return measurer.measure(input, variant, s, false, frames).total_median();
    };
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
    const std::string heading = "== " + size_text(job.size) + " " + std::string(gl::name(job.input_format)) + " " +
                                std::string(name(job.settings.kernel.type)) + " r=" + std::to_string(job.settings.kernel.radius);
    if (heading != group) {
      if (!group.empty()) out.add_separator();
      out.add_title(group = heading);
    }
    out.add_row({std::string(variant.name), knob_changes(variant, resolve(variant, job.settings), tuned->best),
                 format_double(tuned->default_ms, 4), format_double(tuned->best_ms, 4), tuned->verdict,
                 checked.check ? (ok ? "ok" : "FAIL, not saved") : "-"});
  });
}

}  // namespace blurlab::bench
