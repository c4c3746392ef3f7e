#include "bench/tuner.h"

#include <algorithm>
#include <cmath>

#include "report/report.h"
#include "util/strings.h"

namespace blurlab::bench {

bool wins_beyond_spread(const std::vector<double>& candidate, const std::vector<double>& reference, double* margin) {
  const report::Stats c = report::stats_of(candidate), r = report::stats_of(reference);
  const double m = std::max({c.spread, r.spread, 1e-3 * r.median});
  if (margin) *margin = m;
  return c.count > 0 && r.count > 0 && c.median + m < r.median;
}

std::optional<TuneResult> tune(const VariantInfo& variant, const BlurSettings& base, const TimeSetting& time,
                               const TunePolicy& policy) {
  TuneResult result;
  auto timed = [&](const BlurSettings& s) {
    ++result.timings;
    return time(s);
  };
  const BlurSettings defaults = resolve(variant, base);
  const auto default_ms = timed(defaults);
  if (!default_ms) return std::nullopt;

  // 1. Coordinate descent; every setting tried, fastest first, for the finalists.
  struct Tried {
    BlurSettings settings;
    double ms;
  };
  std::vector<Tried> tried{{defaults, *default_ms}};
  BlurSettings best = defaults;
  double best_ms = *default_ms;
  for (const Knob& k : variant.knobs)
    for (KnobValue v : k.candidates) {
      BlurSettings candidate = best;
      candidate.knobs[std::string(k.name)] = v;
      if (std::any_of(tried.begin(), tried.end(), [&](const Tried& t) { return t.settings == candidate; })) continue;
      const auto ms = timed(candidate);
      if (!ms) continue;
      tried.push_back({candidate, *ms});
      if (*ms < best_ms) best = candidate, best_ms = *ms;
    }

  // 2. Confirmation: the finalists and the default, interleaved over the rounds.
  std::stable_sort(tried.begin() + 1, tried.end(), [](const Tried& a, const Tried& b) { return a.ms < b.ms; });
  std::vector<BlurSettings> contenders{defaults};
  for (size_t i = 1; i < tried.size() && static_cast<int>(contenders.size()) <= policy.finalists; ++i)
    if (tried[i].ms < *default_ms) contenders.push_back(tried[i].settings);
  std::vector<std::vector<double>> rounds(contenders.size());
  if (contenders.size() > 1)
    for (int round = 0; round < policy.rounds; ++round)
      for (size_t c = 0; c < contenders.size(); ++c)
        if (const auto ms = timed(contenders[c])) rounds[c].push_back(*ms);
  auto median = [](const std::vector<double>& v) { return report::stats_of(v).median; };

  result.best = defaults;
  result.default_ms = contenders.size() > 1 ? median(rounds[0]) : *default_ms;
  result.best_ms = result.default_ms;
  result.verdict = contenders.size() > 1 ? "kept: in spread" : "kept: none faster";
  for (size_t c = 1; c < contenders.size(); ++c) {
    double margin = 0.0;
    if (!wins_beyond_spread(rounds[c], rounds[0], &margin)) continue;
    if (median(rounds[c]) < result.best_ms) {
      result.best = contenders[c];
      result.best_ms = median(rounds[c]);
      result.spread_ms = margin;
      result.verdict = "won by " + format_double(100.0 * (1.0 - result.best_ms / result.default_ms), 3) + "%";
    }
  }
  return result;
}

}  // namespace blurlab::bench
