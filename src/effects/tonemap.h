#pragma once
// How an HDR frame becomes a picture, the last step of every effect: a tonemapping operator
// (linear radiance to a displayable [0, 1]), then the sRGB encoding. The GPU's twin is
// glsl/effects/tonemap.glsl; the ground truths of src/effects/ use these, in double precision.
//
// The operator is the ACES filmic curve as Narkowicz fitted it ("ACES Filmic Tone Mapping Curve",
// 2015), applied per channel to 0.6 x, the exposure his fit suggests: a closed-form rational
// function, so the CPU and every GPU compute the same curve, the baseline engines shipped for years
// (a toe that keeps blacks, a shoulder that rolls highlights into white from about 12 instead of
// clipping at 1: a bloom's faint halo stays visible next to a light at 100).
namespace blurlab {

// The curve: [0, inf) to [0, 1] (negative input gives 0).
double tonemap_aces(double radiance);
// What a display shows for linear radiance `radiance`: the tonemapped value, sRGB-encoded, in [0, 1].
double display_value(double radiance);
// The radiance at and above which display_value is 1 (white).
double aces_white_radiance();

}  // namespace blurlab
