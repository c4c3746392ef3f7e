#pragma once
// The headless report: what one sweep measured, the numbers derived from it, and its three
// outputs (a grouped table for people, CSV and JSON for tools and charts).
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "blur/blur.h"
#include "blur/check.h"
#include "gl/context.h"

namespace blurlab::report {

// Order statistics of the samples of one span.
struct Stats {
  size_t count = 0;
  double median = 0.0, min = 0.0, max = 0.0;
  double spread = 0.0;  // p90 - p10: robust against a few outliers of a shared machine
};
Stats stats_of(std::vector<double> samples);

// One configuration of the sweep.
struct Measurement {
  const VariantInfo* variant = nullptr;
  BlurSettings settings;  // resolved
  glm::ivec2 size{0, 0};
  std::optional<std::string> unsupported;
  std::vector<std::string> span_order;                  // "total" first, then the passes
  std::map<std::string, std::vector<double>> spans_ms;  // per timed frame
  std::vector<double> cpu_ms;                           // wall time per frame, GPU finished
  std::optional<CheckResult> check;
  Tolerance tolerance;
  bool tuned = false;  // knobs taken from a --tuned file
};

// Numbers that relate a measurement to others of the same run.
struct Derived {
  std::optional<double> copy_ms;   // the copy pass, same size and input format
  std::optional<double> x_copy;    // total / copy
  std::optional<double> speedup;   // naive variant of the same stage, same settings, / total
  std::optional<double> gbps;      // minimum traffic (read once + write once) / total
};

struct Report {
  gl::GlInfo gl;
  std::string date;
  int warmup = 0, frames = 0;
  double budget_s = 0.0, scene_time = 0.0;
  std::string image;  // input file, empty: the scene
  std::vector<Measurement> rows;

  Derived derive(const Measurement& m) const;
};

// Bytes a blur must move at least: each input texel read once, each output texel written once.
double minimum_traffic_bytes(glm::ivec2 size, gl::Format format);

void write_table(const Report& report, std::ostream& out);
void write_csv(const Report& report, std::ostream& out);
void write_json(const Report& report, std::ostream& out);

}  // namespace blurlab::report
