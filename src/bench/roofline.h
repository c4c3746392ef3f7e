#pragma once
// --roofline (and every --json report): the device's limits, measured in the same run as the
// blurs they bound. Four microbenchmarks: the fastest texture copy this program has (the copy
// variant over its knob candidates) and a buffer copy (uvec4 per invocation) at one large size,
// fp32 FMAs (independent chains), and bilinear texture fetches (in cache). Each report row then
// says which bound limits it and how close it comes, of the problem's bound and of its variant's
// own (report::RowRecord::bound, own_bound).
#include <optional>
#include <span>
#include <string>

#include "bench/timing.h"
#include "blur/pipeline.h"
#include "gl/bindings.h"
#include "gl/context.h"
#include "gl/timer_pool.h"
#include "report/report.h"

namespace blurlab::bench {

// Measures the four; `timing` as for the blurs (warm-up, frames, budget). Software renderers get
// smaller problems (the same code, fewer texels and iterations).
report::Roofline measure_roofline(gl::ProgramCache& programs, BlurPipeline& pipeline, gl::TimerPool& timers, const gl::GlInfo& info,
                          const TimingPolicy& timing);

// The binding units its kernels declare (glsl/roofline_*.comp), as their programs get them.
std::span<const gl::NamedUnit> roofline_slots();

}  // namespace blurlab::bench
