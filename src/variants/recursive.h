#pragma once
// Shared by the recursive (IIR) Gaussians, recursive-gaussian (one invocation per line) and
// recursive-gaussian-blocks (a line split into blocks, Nehab et al. 2011): the filter, its
// coefficients as the GPU holds them, the right border's matrix, what a request chooses, the
// shader literals, the border refusal and the fp32 terms of one filter.
//
// The filter is Young and van Vliet's (1995) 3rd-order recursive Gaussian, with the poles of Young,
// van Vliet and van Ginkel ("Recursive Gabor filtering", 2002) scaled so that the filter's variance
// is exactly sigma^2. Along each line a causal filter runs forwards, then the same filter
// anticausally backwards: H(z) = G(z) G(1/z). The work per texel does not depend on sigma.
//
// G is a cascade of two sections of unit gain at DC, for fp32: a first-order section with the real
// pole p and a second-order one with the complex pair (c1 = 2 Re, c2 = -|pole|^2):
//   u[n] = g1 x[n] + p u[n-1],   v[n] = g2 u[n] + c1 v[n-1] + c2 v[n-2],   g1 = 1 - p, g2 = 1 - c1 - c2.
// (The direct 3rd-order form amplifies its fp32 roundings by 1 / (1 - a1 - a2 - a3), about 26000 at
// sigma 40; the sections by 1 / (1 - p) and 1 / g2, about 30 and 530.) The coefficients are rounded
// to float once, g1 and g2 computed from the rounded poles so the gain at DC stays 1; the CPU models
// use the same rounded values.
//
// Borders (clamp-to-edge, the line extended by its end texels). Left: the filter has run on the
// first texel forever, so its state is that texel (unit gain at DC). Right: the anticausal pass
// starts from the causal pass's future beyond the end, where the input stays the last texel c: the
// causal state's deviation from c decays by the sections' own recursion, and the anticausal
// filter of that decaying tail gives its initial state, a linear function of the deviation: a 3x3
// matrix M, found on the host by running the tail out (the role of Triggs and Sdika's matrix, 2006,
// here for the cascade). Another border rule needs other initial states.
//
// The state after texel n, s[n] = (u[n], v[n], v[n-1]), follows s[n] = A s[n-1] + (g1, g2 g1, 0) x[n]
// with the one-step transition A = [[p, 0, 0], [g2 p, c1, c2], [0, 1, 0]]; the anticausal state
// (a[n], b[n], b[n+1]) follows the same A backwards.
#include <array>
#include <string>
#include <string_view>

#include "blur/blur.h"

namespace blurlab::recursive {

using Matrix3 = std::array<double, 9>;  // row-major

struct Filter {
  float p, g1, c1, c2, g2;  // the sections, as the GPU holds them
  Matrix3 m{};              // right border (from the rounded coefficients)
  double sigma = 0.0;       // of the filter with the rounded coefficients
  // For the error bound: L1 norms of the sections' impulse responses (their product is the causal
  // filter's), and of their all-pole parts 1 / (1 - p z^-1) and 1 / (1 - c1 z^-1 - c2 z^-2), which
  // carry a rounding onwards; the largest row sum of |M|.
  double first_l1 = 1.0, second_l1 = 1.0, pole1_l1 = 1.0, pole2_l1 = 1.0, m_norm = 0.0;
  double l1() const { return first_l1 * second_l1; }
  // The one-step transition A of the state (above), from the rounded coefficients.
  Matrix3 transition() const;
};

Filter filter_for(double sigma);

Matrix3 multiply(const Matrix3& a, const Matrix3& b);
// The largest row sum of |a| (the infinity norm: how much a state's largest component can grow).
double row_norm(const Matrix3& a);

// ApproximationInfo::choose: the rounded filter's sigma and its poles.
ApproxChoice choose(const BlurSettings& s);

// v as a GLSL float literal: the float nearest v, written so that it reads back exactly.
std::string literal(double v);
// The defines of the filter (RG_P, RG_G1, RG_C1, RG_C2, RG_G2, RG_M) both shaders read.
gl::Defines filter_defines(const Filter& f);

// Why the other border modes are refused: each line starts and ends from a steady state of the
// filter, derived for clamp-to-edge only (above).
extern const std::string_view kOnlyClamp;
// VariantInfo::refused_borders of both variants: every mode but clamp, for kOnlyClamp.
std::vector<std::pair<BorderMode, std::string_view>> refused_borders();

// One filter (causal or anticausal) in fp32, in units of 2^-24 times the values' size: each step
// of the first section rounds 3 times at most the values' size, carried onwards by its all-pole
// part (L1 1 / (1 - p)) and the second section; each step of the second rounds 5 times at most
// (g2 + |c1| + |c2|) times the values' size, carried by its all-pole part.
double filter_terms(const Filter& f);
// The right border's state: three dot products of M with deviations up to twice the values' size,
// decaying through the filter.
double border_terms(const Filter& f);

}  // namespace blurlab::recursive
