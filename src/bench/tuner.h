#pragma once
// --tune: the fastest knob values of one variant for one setting. Plain logic over a function
// that times a setting, so it is tested with fake timings (tests/unit/test_bench.cpp).
//
// 1. Coordinate descent: one knob at a time, each candidate with the other knobs at their best so
//    far. Far fewer runs than every combination, and the knobs interact little.
// 2. Confirmation: a noisy machine (a shared GPU, clocks changing) makes single timings lie, and a
//    candidate that was lucky once wins the descent. So the best few candidates and the default
//    are timed again, interleaved, over several rounds; a candidate replaces the default only if
//    its median over the rounds beats the default's by more than the rounds' spread.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "blur/blur.h"

namespace blurlab::bench {

// Median ms of one setting, or nullopt when the variant cannot run it.
using TimeSetting = std::function<std::optional<double>(const BlurSettings&)>;

struct TunePolicy {
  int finalists = 2;  // best candidates of the descent re-timed against the default
  int rounds = 4;     // interleaved rounds of the confirmation
};

struct TuneResult {
  BlurSettings best;          // resolved; the default unless a candidate won the confirmation
  double best_ms = 0.0;       // median of the confirmation rounds
  double default_ms = 0.0;    // likewise
  double spread_ms = 0.0;     // the margin a winner had to beat (see tune())
  int timings = 0;            // how many times `time` was called
  // Short: "won by 12.3%" (its median over the rounds against the default's), or why the default
  // is kept: "kept: in spread" (a candidate was faster, by less than the spread), "kept: none faster".
  std::string verdict;
};

// nullopt when the variant cannot run its defaults for `base`.
std::optional<TuneResult> tune(const VariantInfo& variant, const BlurSettings& base, const TimeSetting& time,
                               const TunePolicy& policy = {});

// The confirmation's rule: `candidate` (timings over rounds) beats `reference` when its median is
// lower by more than the larger of their spreads (p90 - p10 over the rounds, at least a tenth of
// a percent of the reference's median).
bool wins_beyond_spread(const std::vector<double>& candidate, const std::vector<double>& reference, double* margin = nullptr);

}  // namespace blurlab::bench
