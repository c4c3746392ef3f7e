#include "variants/recursive.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

namespace blurlab::recursive {
namespace {

// Young, van Vliet and van Ginkel's poles for order 3 (at sigma about 2); d^(1/q) scales them.
const std::array<std::complex<double>, 3> kPoles0 = {{{1.41650, 1.00829}, {1.41650, -1.00829}, {1.86543, 0.0}}};

// The variance of the causal-anticausal pair with poles z_k (|z_k| > 1, in z^-1): a first-order
// causal section with pole 1/z has the geometric impulse response (1 - 1/z) z^-n, of variance
// z / (z - 1)^2; sections in a row and the mirrored anticausal filter add their variances:
//   sigma^2 = 2 sum_k z_k / (z_k - 1)^2.
double variance_of(const std::array<std::complex<double>, 3>& z) {
  std::complex<double> sum = 0.0;
  for (const auto& zk : z) sum += zk / ((zk - 1.0) * (zk - 1.0));
  return 2.0 * sum.real();
}

std::array<std::complex<double>, 3> scaled_poles(double q) {
  std::array<std::complex<double>, 3> z;
  for (size_t k = 0; k < 3; ++k) z[k] = std::pow(kPoles0[k], 1.0 / q);
  return z;
}

// The impulse response of v[n] = x[n] + c1 v[n-1] + c2 v[n-2], summed in absolute value.
double all_pole_l1(double c1, double c2, double gain) {
  double v1 = 0.0, v2 = 0.0, sum = 0.0;
  for (int n = 0; n < 1000000; ++n) {
    const double v = (n == 0 ? 1.0 : 0.0) + c1 * v1 + c2 * v2;
    v2 = v1;
    v1 = v;
    sum += std::abs(gain * v);
    if (n > 8 && std::abs(v) + std::abs(v2) < 1e-17 * sum) break;
  }
  return sum;
}

}  // namespace

Matrix3 Filter::transition() const {
  const double dp = p, dc1 = c1, dc2 = c2, dg2 = g2;
  return {dp, 0.0, 0.0, dg2 * dp, dc1, dc2, 0.0, 1.0, 0.0};
}

Filter filter_for(double sigma) {
  // q: the variance grows with q; bisect on a log scale.
  double lo = 1e-4, hi = 1e5;
  for (int i = 0; i < 200; ++i) {
    const double mid = std::sqrt(lo * hi);
    (variance_of(scaled_poles(mid)) < sigma * sigma ? lo : hi) = mid;
  }
  const auto z = scaled_poles(std::sqrt(lo * hi));
  const std::complex<double> pair = 1.0 / z[0];
  Filter f;
  f.p = static_cast<float>(1.0 / z[2].real());
  f.c1 = static_cast<float>(2.0 * pair.real());
  f.c2 = static_cast<float>(-std::norm(pair));
  f.g1 = static_cast<float>(1.0 - f.p);
  f.g2 = static_cast<float>(1.0 - static_cast<double>(f.c1) - f.c2);

  // The sigma of the rounded filter: its poles 1/z are p and the roots of x^2 - c1 x - c2.
  const std::complex<double> root = std::sqrt(std::complex<double>(double(f.c1) * f.c1 + 4.0 * f.c2, 0.0));
  const std::array<std::complex<double>, 3> rounded = {{2.0 / (double(f.c1) + root), 2.0 / (double(f.c1) - root), 1.0 / double(f.p)}};
  f.sigma = std::sqrt(std::max(variance_of(rounded), 0.0));

  // M: the causal state's deviation from the last texel, d = (u, v[N-1], v[N-2]) - c, runs on past
  // the end with input c (zero deviation): u *= p, v = g2 u + c1 v1 + c2 v2. The anticausal sections
  // a[n] = g1 v[n] + p a[n+1], b[n] = g2 a[n] + c1 b[n+1] + c2 b[n+2] over that tail, started at
  // rest far out, reach (a[N], b[N], b[N+1]) = M d.
  const double p = f.p, g1 = f.g1, c1 = f.c1, c2 = f.c2, g2 = f.g2;
  const double slowest = std::max(p, std::sqrt(-c2));
  const int tail = static_cast<int>(std::ceil(std::log(1e-20) / std::log(slowest))) + 16;
  for (int j = 0; j < 3; ++j) {
    double u = j == 0, v1 = j == 1, v2 = j == 2;
    std::vector<double> v(static_cast<size_t>(tail));
    for (int n = 0; n < tail; ++n) {
      u *= p;
      const double next = g2 * u + c1 * v1 + c2 * v2;
      v2 = v1;
      v1 = next;
      v[static_cast<size_t>(n)] = next;
    }
    double a = 0.0, b1 = 0.0, b2 = 0.0;
    for (int n = tail - 1; n >= 0; --n) {
      a = g1 * v[static_cast<size_t>(n)] + p * a;
      const double b = g2 * a + c1 * b1 + c2 * b2;
      b2 = b1;
      b1 = b;
    }
    f.m[0 + static_cast<size_t>(j)] = a;   // a[N]
    f.m[3 + static_cast<size_t>(j)] = b1;  // b[N]
    f.m[6 + static_cast<size_t>(j)] = b2;  // b[N+1]
  }
  f.m_norm = row_norm(f.m);
  f.pole1_l1 = 1.0 / (1.0 - p);  // a positive geometric response
  f.pole2_l1 = all_pole_l1(c1, c2, 1.0);
  f.first_l1 = g1 * f.pole1_l1;
  f.second_l1 = all_pole_l1(c1, c2, g2);
  return f;
}

Matrix3 multiply(const Matrix3& a, const Matrix3& b) {
  Matrix3 c{};
  for (size_t r = 0; r < 3; ++r)
    for (size_t k = 0; k < 3; ++k)
      for (size_t j = 0; j < 3; ++j) c[3 * r + j] += a[3 * r + k] * b[3 * k + j];
  return c;
}

double row_norm(const Matrix3& a) {
  double norm = 0.0;
  for (size_t r = 0; r < 3; ++r) norm = std::max(norm, std::abs(a[3 * r]) + std::abs(a[3 * r + 1]) + std::abs(a[3 * r + 2]));
  return norm;
}

ApproxChoice choose(const BlurSettings& s) {
  const Filter f = filter_for(s.kernel.sigma);
  char text[96];
  std::snprintf(text, sizeof text, "poles %.4f, %.4f+-%.4fi", double(f.p), 0.5 * f.c1,
                0.5 * std::sqrt(std::max(-double(f.c1) * f.c1 - 4.0 * f.c2, 0.0)));
  return {f.sigma, text};
}

std::string literal(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", static_cast<double>(static_cast<float>(v)));  // the float exactly
  return text;
}

gl::Defines filter_defines(const Filter& f) {
  std::string m;
  for (double v : f.m) m += (m.empty() ? "" : ", ") + literal(v);
  return {{"RG_P", literal(f.p)},   {"RG_G1", literal(f.g1)}, {"RG_C1", literal(f.c1)},
          {"RG_C2", literal(f.c2)}, {"RG_G2", literal(f.g2)}, {"RG_M", m}};
}

const std::string_view kOnlyClamp =
    "the recursive filter starts each line from the steady state of clamp-to-edge (the edge texel repeated forever, the "
    "right border's matrix M); another mode needs its own initial states (wrap: the periodic line run to convergence; "
    "constant: the state of the constant; the reflections: the mirrored line)";

std::vector<std::pair<BorderMode, std::string_view>> refused_borders() {
  return {{BorderMode::Reflect, kOnlyClamp}, {BorderMode::Reflect101, kOnlyClamp}, {BorderMode::Wrap, kOnlyClamp},
          {BorderMode::Constant, kOnlyClamp}};
}

double filter_terms(const Filter& f) {
  return 3.0 * f.pole1_l1 * f.second_l1 + 5.0 * (f.g2 + std::abs(f.c1) + std::abs(f.c2)) * f.pole2_l1;
}

double border_terms(const Filter& f) { return 8.0 * f.m_norm * std::max(f.pole1_l1, f.pole2_l1); }

}  // namespace blurlab::recursive
