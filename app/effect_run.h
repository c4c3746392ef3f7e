#pragma once
// Headless with --effect: per frame size the HDR scene rendered once, the copy of its rgba16f
// frame (the floor of the run's ratios), then each implementation of the effect, timed and checked.
#include <optional>
#include <vector>

#include "bench/measure.h"
#include "blur/recording.h"
#include "cli/options.h"
#include "report/report.h"
#include "scene/scene.h"

namespace blurlab::app {

// Fills rep.rows (the copies) and rep.effect_rows; `last_output` gets the last implementation's
// shipped frame (--output takes exactly one). With --export (one implementation and setting, one
// size), the run is checked, so the export states its fidelity, and `recording` gets the chain as
// it ran on the frame (EffectPipeline::record).
void run_effect_sweep(const cli::Options& o, const std::vector<glm::ivec2>& sizes, gl::ProgramCache& programs, gl::TimerPool& timers,
                      const gl::GlInfo& info, bench::Measurer& floor_measurer, Scene& scene, report::Report& rep,
                      std::optional<Image>& last_output, std::optional<Recording>& recording);

}  // namespace blurlab::app
