#pragma once
// The test chart, assets/chart.png: hard edges, 1-texel lines, checkers of several periods,
// gradients in every channel (alpha too: all four channels are blurred) and seeded noise, features
// where a wrong tap, offset, weight or border shows, and where an approximation of the Gaussian
// is furthest from it. Drawn procedurally so anyone can make it again bit for bit (blurlab-make-chart
// writes it; tests/regenerated_test.cmake holds the file to it), and so --export measures a blur's
// fidelity on it without the file.
#include <cstdint>

#include "image/image.h"

namespace blurlab {

inline constexpr int kTestChartWidth = 320, kTestChartHeight = 240;
Image test_chart();

// The chart's seeded noise (lowbias32), shared with blurlab-make-chart's noise images.
uint32_t chart_hash(uint32_t x);

}  // namespace blurlab
