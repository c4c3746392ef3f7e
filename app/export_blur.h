#pragma once
// --export after a headless run.
#include <optional>
#include <string>

#include "bench/sweep.h"
#include "blur/pipeline.h"
#include "blur/recording.h"
#include "cli/options.h"
#include "report/report.h"

namespace blurlab::app {

// --export: records the one blur the run measured (its row, with --tuned knobs filled in) and stages
// its shaders and recipe with the run's other outputs. Returns the line to print once they are in place.
std::string export_blur(const cli::Options& o, const report::Report& rep, BlurPipeline& pipeline, gl::ProgramCache& programs,
                        const bench::FillSource& fill);

// --export with --effect: stages the chain the run recorded (run_effect_sweep), with its row's
// check, fidelity against the effect's ground truth and time. Returns the line to print.
std::string export_effect(const cli::Options& o, const report::Report& rep, const std::optional<Recording>& recording,
                          gl::ProgramCache& programs);

}  // namespace blurlab::app
