#pragma once
// --roofline (and every --json report): the device's limits, measured in the same run as the
// blurs they bound. Three microbenchmarks at one large size: the fastest texture copy this
// program has (the copy variant over its knob candidates), a buffer copy (uvec4 per invocation),
// and fp32 FMAs (independent chains). Each report row then says which bound limits it and how
// close it comes (report::RowRecord::bound).
#include <optional>
#include <string>

#include "bench/timing.h"
#include "blur/pipeline.h"
#include "gl/context.h"
#include "gl/timer_pool.h"
#include "report/report.h"

namespace blurlab::bench {

// Measures the three; `timing` as for the blurs (warm-up, frames, budget). Software renderers get
// smaller problems (the same code, fewer texels and iterations).
report::Roofline measure_roofline(gl::ProgramCache& programs, BlurPipeline& pipeline, gl::TimerPool& timers, const gl::GlInfo& info,
                          const TimingPolicy& timing);

}  // namespace blurlab::bench
