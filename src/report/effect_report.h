#pragma once
// The headless report of an effect run (--effect): each implementation's stages and total time,
// its time over a copy of the rgba16f frame measured in the same run, its check and its fidelity on
// the shipped frame against the ground truth; the answer per effect and frame size (the fastest
// within 1 LSB of the ground truth, the fastest at or above kEffectBarDb); the crops the page shows.
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "report/report.h"

namespace blurlab::report {

// The PSNR on the shipped frame against its ground truth at or above which an implementation is
// named as close enough (the report's second answer).
inline constexpr double kEffectBarDb = 45.0;

// A row's stage times: the sum of the medians of its top-level spans of each kind (a stage's own
// passes are named after it, "blur h" inside "blur", and counted once, in their stage).
struct EffectStages {
  std::optional<double> prefilter_ms, blur_ms, composite_ms;
};
EffectStages effect_stages(const EffectMeasurement& m);

// One frame size and effect setting: the implementations that passed their check, the fastest of
// those within 1 LSB of the ground truth on the shipped frame, and the fastest at kEffectBarDb;
// where the effect names a region of the frame (EffectFidelity::region), the one closest to the
// ground truth there (highest PSNR over the region).
struct EffectConclusion {
  std::string heading;
  const EffectMeasurement* within_one_lsb = nullptr;
  const EffectMeasurement* above_bar = nullptr;
  const EffectMeasurement* closest_in_region = nullptr;
  size_t checked = 0, timed = 0;
};
std::vector<EffectConclusion> conclude_effects(const Report& report);
void write_effect_conclusion_text(const Report& report, std::ostream& out);
void write_effect_conclusion_markdown(const Report& report, std::ostream& out);

// "1920x1080 bloom psf=gauss:2% (sigma 21.6 px) intensity=0.05 ..., border clamp".
std::string effect_heading(const EffectMeasurement& m);

// The table of the effect rows, a group per size and setting (text, and as Markdown rows).
void write_effect_table(const Report& report, std::ostream& out);
std::vector<std::string> effect_table_header();
// A refused row points to its reason in `footnotes` ([n]), added there once.
std::vector<std::vector<std::string>> effect_table_rows(const Report& report, const std::string& heading, std::vector<std::string>& footnotes);

nlohmann::json effect_rows_json(const Report& report);
void write_effect_csv(const Report& report, std::ostream& out);

// The page's crops: per group the ground truth's, then each checked implementation's shipped frame
// and its difference to the truth (x8, grey), as PNG files (name, bytes).
std::vector<std::pair<std::string, std::string>> effect_crop_files(const Report& report);
// The Markdown section showing them (names as effect_crop_files makes them).
void write_effect_markdown(const Report& report, std::ostream& out);

// A failed effect row in one line: the implementation, the first stage over its tolerance and how.
std::string effect_failure_text(const EffectMeasurement& m);

}  // namespace blurlab::report
