#include "report/report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "blur/registry.h"
#include "report/effect_report.h"
#include "report/conclusion.h"
#include "util/markup.h"
#include "util/strings.h"
#include "util/table.h"

namespace blurlab::report {

namespace {

// Linear interpolation between order statistics (the "type 7" quantile).
double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0.0;
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

std::string fixed(double v, int digits) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}

// Milliseconds with about four significant digits.
std::string ms(double v) { return fixed(v, v >= 100 ? 1 : v >= 10 ? 2 : v >= 1 ? 3 : 4); }

// A ratio with three significant digits or more and no exponent: 0.0123, 1.23, 12.3, 5009.
std::string ratio_text(double v) {
  if (v <= 0) return fixed(v, 0);
  char rounded[32];  // the digits follow the value rounded to three (99.96 is 100)
  std::snprintf(rounded, sizeof rounded, "%.3g", v);
  return fixed(v, std::max(0, 2 - static_cast<int>(std::floor(std::log10(std::strtod(rounded, nullptr))))));
}

bool same_scenario(const Measurement& a, const Measurement& b) {
  return a.size == b.size && a.settings.input_format == b.settings.input_format;
}

// b is a's clamp-to-edge twin: the same variant, size and settings but for the border.
bool clamp_twin(const Measurement& a, const Measurement& b) {
  BlurSettings clamped = a.settings;
  clamped.border = Border{};
  return b.variant == a.variant && b.size == a.size && b.settings == clamped;
}

// The settings of a row that are not in its group heading: an approximation's sigma and choice,
// intermediate format and knobs. With `only_changed` (the narrow table), the sigma alone, and the
// intermediate format and knobs only where they are not the defaults.
std::string settings_text(const RowRecord& row, bool only_changed = false) {
  std::string text;
  auto add = [&](const std::string& part) { text += (text.empty() ? "" : " ") + part; };
  if (row.approximation && row.variant->variable_radius) {
    // It stands in for the per-pixel kernel, whose sigma varies: its choice alone.
    if (!only_changed) add(row.approximation->parameters);
  } else if (row.approximation) {
    add(only_changed ? "~sigma " + format_double(row.approximation->sigma, 3)
                     : "~sigma=" + format_double(row.approximation->sigma, 4) + " " + row.approximation->parameters);
  }
  const gl::Format intermediate = row.settings.intermediate_format();
  const gl::Format default_intermediate = row.variant->default_intermediate.value_or(row.settings.input_format);
  if (row.variant->uses_intermediate && (!only_changed || intermediate != default_intermediate))
    add("int=" + std::string(gl::name(intermediate)));
  for (const Knob& k : row.variant->knobs) {
    const auto it = row.settings.knobs.find(k.name);
    if (it != row.settings.knobs.end() && (!only_changed || it->second != k.default_value(row.settings.kernel.radius, row.size)))
      add(std::string(k.name) + "=" + k.text(it->second));
  }
  if (row.tuned) add("(tuned)");
  return text.empty() ? "-" : text;
}

std::string check_text(const RowRecord& row) {
  if (!row.check) return "-";
  if (row.check->ok) return "ok";
  return "FAIL " + format_double(row.check->worst_fraction, 3) + "x at " + std::to_string(row.check->worst_x) + "," +
         std::to_string(row.check->worst_y);
}

// The fidelity column: an approximation's error against the exact Gaussian it stands in for (the
// narrow table: its PSNR alone).
std::string fidelity_text(const RowRecord& row, bool all = true) {
  if (row.exact_blur) return "exact";
  if (!row.fidelity) return "-";
  const std::string psnr = std::isfinite(row.fidelity->psnr_db) ? fixed(row.fidelity->psnr_db, 1) + " dB" : "equal";
  if (!all) return psnr;
  return "max " + fixed(row.fidelity->max_lsb, 1) + " rms " + fixed(row.fidelity->rms_lsb, 2) + " " + psnr;
}

// "62% mem": a fraction of a bound and what limits it (mem: memory, tex: texture fetches, fma:
// arithmetic).
std::string percent_of_bound(double fraction, const std::string& limit) {
  return fixed(100.0 * fraction, 0) + "% " + (limit == "memory" ? "mem" : limit == "fetches" ? "tex" : "fma");
}

const Stats* span_stats(const RowRecord& row, const std::string& name) {
  for (const auto& [span, stats] : row.spans)
    if (span == name) return &stats;
  return nullptr;
}

}  // namespace

Stats stats_of(std::vector<double> samples) {
  Stats s;
  s.count = samples.size();
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.median = quantile(samples, 0.5);
  s.min = samples.front();
  s.max = samples.back();
  s.spread = quantile(samples, 0.9) - quantile(samples, 0.1);
  return s;
}

std::optional<double> Measurement::total_median() const {
  const auto it = spans_ms.find("total");
  if (unsupported || it == spans_ms.end() || it->second.empty()) return std::nullopt;
  return stats_of(it->second).median;
}

std::optional<double> EffectMeasurement::total_median() const {
  const auto it = spans_ms.find("total");
  if (unsupported || it == spans_ms.end() || it->second.empty()) return std::nullopt;
  return stats_of(it->second).median;
}

std::optional<double> Report::effect_copy_ms(const EffectMeasurement& m) const {
  std::optional<double> best;
  for (const Measurement& r : rows)
    if (r.variant->role == Role::Floor && r.size == m.size && r.settings.input_format == gl::Format::rgba16f)
      if (const auto copy = r.total_median(); copy && (!best || *copy < *best)) best = copy;
  return best;
}

double minimum_traffic_bytes(glm::ivec2 size, gl::Format format) {
  return 2.0 * static_cast<double>(size.x) * size.y * gl::info(format).bytes_per_texel;
}

Derived Report::derive(const Measurement& m) const {
  Derived d;
  const auto total = m.total_median();
  if (!total || *total <= 0.0) return d;
  d.gbps = minimum_traffic_bytes(m.size, m.settings.input_format) / (*total * 1e-3) / 1e9;
  for (const Measurement& other : rows) {
    if (!same_scenario(m, other)) continue;
    // The floor is the fastest copy of the run at this size and format.
    if (other.variant->role == Role::Floor)
      if (const auto copy = other.total_median(); copy && (!d.copy_ms || *copy < *d.copy_ms)) {
        d.copy_ms = *copy;
        d.x_copy = *total / *copy;
      }
    if (is_blur(*m.variant) && other.variant->role == Role::Baseline && other.variant->stage == m.variant->stage &&
        other.settings.kernel == m.settings.kernel && other.settings.border == m.settings.border)
      if (const auto base = other.total_median()) d.speedup = *base / *total;
    if (m.settings.border.mode != BorderMode::Clamp && clamp_twin(m, other))
      if (const auto clamp = other.total_median(); clamp && *clamp > 0.0) d.x_clamp = *total / *clamp;
  }
  return d;
}

double minimal_fmas_per_pixel(const Kernel& kernel, bool blur) {
  if (!blur) return 0.0;
  if (kernel.type == KernelType::Box) return 4.0 * 2.0 * 2.0;
  return 4.0 * (2.0 * kernel.radius + 1.0) * 2.0;
}

std::optional<Bound> Report::bound(const Measurement& m) const {
  const auto total = m.total_median();
  if (!roofline || !total || *total <= 0.0) return std::nullopt;
  const double pixels = static_cast<double>(m.size.x) * m.size.y;
  const double memory_ms = minimum_traffic_bytes(m.size, m.settings.input_format) / (roofline->texture_copy_gbps * 1e9) * 1e3;
  const bool exact_blur = is_blur(*m.variant) && !is_approximation(*m.variant);
  const double arithmetic_ms = minimal_fmas_per_pixel(m.settings.kernel, exact_blur) * pixels / roofline->fma_per_s * 1e3;
  Bound b;
  b.limit = arithmetic_ms > memory_ms ? "arithmetic" : "memory";
  b.ms = std::max(memory_ms, arithmetic_ms);
  b.fraction = b.ms / *total;
  return b;
}

std::optional<OwnBound> Report::own_bound(const Measurement& m) const {
  const auto total = m.total_median();
  if (!roofline || !total || *total <= 0.0 || !m.variant->own_bound) return std::nullopt;
  OwnBound b;
  b.work = m.variant->own_bound(m.settings, m.size);
  if (b.work.bilinear_fetches > 0.0 && !(roofline->bilinear_fetch_per_s > 0.0)) return std::nullopt;
  const std::pair<const char*, double> times[] = {
      {"memory", b.work.bytes / (roofline->texture_copy_gbps * 1e9) * 1e3},
      {"fetches", b.work.bilinear_fetches > 0.0 ? b.work.bilinear_fetches / roofline->bilinear_fetch_per_s * 1e3 : 0.0},
      {"arithmetic", b.work.fmas / roofline->fma_per_s * 1e3}};
  for (const auto& [limit, ms] : times)
    if (b.limit.empty() || ms > b.ms) {
      b.limit = limit;
      b.ms = ms;
    }
  b.fraction = b.ms / *total;
  return b;
}

RowRecord row_record(const Report& report, const Measurement& m) {
  RowRecord row;
  row.variant = m.variant;
  row.size = m.size;
  row.settings = m.settings;
  for (const Knob& k : m.variant->knobs)
    if (const auto it = m.settings.knobs.find(k.name); it != m.settings.knobs.end())
      row.knobs.emplace_back(std::string(k.name), k.text(it->second));
  row.tuned = m.tuned;
  row.unsupported = m.unsupported;
  if (!m.unsupported) {
    for (const std::string& span : m.span_order) row.spans.emplace_back(span, stats_of(m.spans_ms.at(span)));
    if (!m.cpu_ms.empty()) row.cpu = stats_of(m.cpu_ms);
    row.derived = report.derive(m);
    row.bound = report.bound(m);
    row.own_bound = report.own_bound(m);
  }
  row.check = m.check;
  row.tolerance = m.tolerance.reason;
  row.approximation = m.approximation;
  if (is_approximation(*m.variant)) row.fidelity = m.fidelity;  // an exact blur's is its check
  row.exact_blur = m.check && !m.unsupported && is_blur(*m.variant) && !is_approximation(*m.variant);
  if (!report.shaders_from_disk) row.code = std::string(code_digest(m.variant->name));
  return row;
}

void to_json(nlohmann::json& j, const RowRecord& row) {
  using nlohmann::json;
  const VariantInfo& v = *row.variant;
  const BlurSettings& s = row.settings;
  j = json::object();
  j["variant"] = v.name;
  j["stage"] = name(v.stage);
  j["role"] = name(v.role);
  j["family"] = name(v.family);
  j["kernels"] = name(v.kernels);
  j["size"] = {{"width", row.size.x}, {"height", row.size.y}};
  json settings = {{"input_format", gl::name(s.input_format)}, {"linear", s.linear}};
  if (is_blur(v)) {
    settings["kernel"] = name(s.kernel.type);
    settings["radius"] = s.kernel.radius;
    if (s.kernel.type == KernelType::Gauss) settings["sigma"] = s.kernel.sigma;
    settings["border"] = name(s.border.mode);
    if (s.border.mode == BorderMode::Constant) settings["border_value"] = s.border.value;
  }
  if (v.uses_intermediate) settings["intermediate"] = gl::name(s.intermediate_format());
  if (v.variable_radius) settings["radius_map"] = describe(s.radius_map.get());
  if (row.approximation) settings["approximation"] = {{"sigma", row.approximation->sigma}, {"parameters", row.approximation->parameters}};
  json knobs = json::object();
  for (const auto& [knob, value] : row.knobs) knobs[knob] = value;
  settings["knobs"] = knobs;
  if (row.tuned) settings["tuned"] = true;
  j["settings"] = settings;
  j["made_by"] = {{"commit", build_commit()}};
  if (row.code.empty()) j["made_by"]["shaders"] = "--shader-dir";
  else j["made_by"]["code"] = row.code;
  j["supported"] = !row.unsupported;
  if (row.unsupported) {
    j["reason"] = row.unsupported->reason;
    j["limit"] = name(row.unsupported->limit);
    if (row.unsupported->needed > 0.0 || row.unsupported->available > 0.0) {
      j["needed"] = row.unsupported->needed;
      j["available"] = row.unsupported->available;
    }
    if (!row.unsupported->extension.empty()) j["extension"] = row.unsupported->extension;
    return;
  }
  json spans = json::object();
  for (const auto& [span, st] : row.spans)
    spans[span] = {{"median_ms", st.median}, {"min_ms", st.min}, {"max_ms", st.max}, {"spread_ms", st.spread}, {"frames", st.count}};
  j["spans"] = spans;
  if (row.cpu) j["cpu_median_ms"] = row.cpu->median;
  const Derived& d = row.derived;
  if (d.copy_ms) j["copy_ms"] = *d.copy_ms;
  if (d.x_copy) j["x_copy"] = *d.x_copy;
  if (d.speedup) j["speedup_vs_naive"] = *d.speedup;
  if (d.x_clamp) j["x_clamp"] = *d.x_clamp;
  if (d.gbps) j["min_traffic_gbps"] = *d.gbps;
  if (row.bound) j["bound"] = {{"limit", row.bound->limit}, {"ms", row.bound->ms}, {"fraction", row.bound->fraction}};
  if (row.own_bound) {
    const WorkBound& w = row.own_bound->work;
    j["own_bound"] = {{"bytes", w.bytes}, {"bilinear_fetches", w.bilinear_fetches}, {"fmas", w.fmas},
                      {"limit", row.own_bound->limit}, {"ms", row.own_bound->ms}, {"fraction", row.own_bound->fraction}};
  }
  if (row.check)
    j["error"] = {{"max", {row.check->max_error[0], row.check->max_error[1], row.check->max_error[2], row.check->max_error[3]}},
                  {"unit", row.check->lsb ? "lsb" : "abs"},
                  {"tolerance", row.tolerance},
                  {"ok", row.check->ok}};
  // Fidelity to the exact Gaussian, in LSB of the input's range. JSON has no infinity: an output
  // equal to the Gaussian has no PSNR.
  if (row.fidelity) {
    j["fidelity"] = {{"sigma", row.fidelity->sigma}, {"max_lsb", row.fidelity->max_lsb}, {"rms_lsb", row.fidelity->rms_lsb}};
    if (v.variable_radius) j["fidelity"]["against"] = "the exact per-pixel kernel";
    if (std::isfinite(row.fidelity->psnr_db)) j["fidelity"]["psnr_db"] = row.fidelity->psnr_db;
  } else if (row.exact_blur) {
    j["fidelity"] = {{"exact", true}, {"max_lsb_bound", 1}};
  }
}

std::string kernel_text(const Kernel& k) {
  std::string text = std::string(name(k.type)) + " r=" + std::to_string(k.radius);
  if (k.type == KernelType::Gauss) text += " sigma=" + format_double(k.sigma, 4);
  return text;
}

std::string group_heading(glm::ivec2 size, const VariantInfo& variant, const BlurSettings& settings) {
  std::string heading = size_text(size) + " " + std::string(gl::name(settings.input_format));
  if (settings.linear) heading += " linear light";
  return heading + " " +
         (is_blur(variant) ? kernel_text(settings.kernel) + ", border " + describe(settings.border) +
                                 (settings.radius_map ? ", radius map " + describe(settings.radius_map.get()) : "")
                           : "copy pass (the floor)");
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

namespace {

// Groups: image size, input format and linear light, then kernel.
auto group_key(const RowRecord& row) {
  return std::tuple(row.size.x * 100000 + row.size.y, static_cast<int>(row.settings.input_format), row.settings.linear);
}
// Blur groups: kernel, then border mode (and value).
auto kernel_key(const RowRecord& row) {
  const Kernel& k = row.settings.kernel;
  const Border& b = row.settings.border;
  // Rows of a per-pixel radius map (variable-radius variants given --radius-map) blur another image
  // than the uniform rows: a group of their own.
  const std::string map = row.settings.radius_map ? row.settings.radius_map->name : std::string();
  return is_blur(*row.variant) ? std::tuple(0, static_cast<int>(k.type), k.radius, k.sigma, static_cast<int>(b.mode), b.value, map)
                               : std::tuple(-1, 0, 0, 0.0, 0, Rgba{}, std::string());
}

std::string group_heading(const RowRecord& row) { return report::group_heading(row.size, *row.variant, row.settings); }

std::optional<double> total_of(const RowRecord& row) {
  const Stats* t = span_stats(row, "total");
  return t && t->count ? std::optional(t->median) : std::nullopt;
}

// The largest error over the channels, in the check's unit.
std::string largest_error_text(const CheckResult& check) {
  const double largest = *std::max_element(check.max_error.begin(), check.max_error.end());
  if (check.lsb) return fixed(largest, 0) + " LSB";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1e", largest);
  return buffer;
}

// The check in one short cell: the verdict and the largest error (--wide has the tolerance's
// multiple and each channel).
std::string short_check_text(const RowRecord& row) {
  if (!row.check) return "-";
  return (row.check->ok ? "ok " : "FAIL ") + largest_error_text(*row.check);
}

}  // namespace

TableView table_view(const Report& r, Columns columns) {
  // Inside a group the fastest first, the floor (the copy pass) on top, unsupported settings last.
  std::vector<RowRecord> rows;
  for (const Measurement& m : r.rows) rows.push_back(row_record(r, m));
  std::stable_sort(rows.begin(), rows.end(), [&](const RowRecord& a, const RowRecord& b) {
    if (group_key(a) != group_key(b)) return group_key(a) < group_key(b);
    if (kernel_key(a) != kernel_key(b)) return kernel_key(a) < kernel_key(b);
    const auto ta = total_of(a), tb = total_of(b);
    if (ta.has_value() != tb.has_value()) return ta.has_value();
    return ta && tb && *ta < *tb;
  });

  const bool timed = r.frames > 0, roof = timed && r.roofline;
  const bool all = columns == Columns::All;
  // The cost of border modes against clamp, when the run has other modes.
  const bool borders = timed && std::any_of(rows.begin(), rows.end(), [](const RowRecord& row) {
                         return row.settings.border.mode != BorderMode::Clamp;
                       });
  TableView view;
  if (r.roofline)
    view.preamble = "roofline (" + size_text(r.roofline->size) + "): texture copy " + fixed(r.roofline->texture_copy_gbps, 0) +
                    " GB/s (" + r.roofline->texture_copy_setting + "), buffer copy " + fixed(r.roofline->buffer_copy_gbps, 0) +
                    " GB/s, fp32 FMA " + fixed(2.0 * r.roofline->fma_per_s / 1e12, 2) + " TFLOP/s, bilinear fetches " +
                    format_double(r.roofline->bilinear_fetch_per_s / 1e9, 3) + " G/s";
  // The wide table says each variant's family (blur/family.h) beside its stage; the narrow one
  // leaves it out to fit 120 columns.
  view.header = all ? std::vector<std::string>{"variant", "family", "stage", "settings"} : std::vector<std::string>{"variant", "settings"};
  if (timed && all)
    view.header.insert(view.header.end(), {"total ms", "spread", "min", "x copy", "vs naive", "GB/s"});
  else if (timed)
    view.header.insert(view.header.end(), {"total ms", "spread", "x copy"});
  // The narrow table leaves GB/s to --wide when the bounds take its place (a memory-bound row's
  // bound is its GB/s over the copy's).
  const bool gbps = timed && (all || !roof);
  if (gbps && !all) view.header.push_back("GB/s");
  if (borders) view.header.insert(std::find(view.header.begin(), view.header.end(), "x copy") + 1, "x clamp");
  if (roof) view.header.insert(view.header.end(), {"bound", "own"});
  if (timed && all) view.header.insert(view.header.end(), {"passes (median ms)", "cpu ms", "n"});
  // Approximations' fidelity to the Gaussian they stand in for, when the report has any.
  const bool fidelity = std::any_of(rows.begin(), rows.end(), [](const RowRecord& row) { return row.fidelity.has_value(); });
  if (fidelity) view.header.push_back("fidelity");
  if (all)
    view.header.insert(view.header.end(), {"max error", "check"});
  else
    view.header.push_back("check");

  const RowRecord* previous = nullptr;
  for (const RowRecord& row : rows) {
    if (!previous || group_key(*previous) != group_key(row) || kernel_key(*previous) != kernel_key(row))
      view.groups.push_back({group_heading(row), {}});
    previous = &row;
    std::vector<std::string> cells{std::string(row.variant->name)};
    if (all) cells.insert(cells.end(), {std::string(name(row.variant->family)), std::string(name(row.variant->stage))});
    cells.push_back(settings_text(row, !all));
    if (row.unsupported) {
      // The narrow table numbers each reason once, below the table.
      std::string why = "unsupported: " + row.unsupported->reason;
      if (!all) {
        auto at = std::find(view.footnotes.begin(), view.footnotes.end(), row.unsupported->reason);
        if (at == view.footnotes.end()) at = view.footnotes.insert(at, row.unsupported->reason);
        why = "n/a [" + std::to_string(at - view.footnotes.begin() + 1) + "]";
      }
      cells.resize(view.header.size() - 1, "-");
      cells.push_back(why);
      view.groups.back().rows.push_back(cells);
      view.groups.back().ran.push_back(false);
      continue;
    }
    if (timed) {
      const Derived& d = row.derived;
      const Stats t = span_stats(row, "total") ? *span_stats(row, "total") : Stats{};
      cells.push_back(t.count ? ms(t.median) : "-");
      cells.push_back(t.count && t.median > 0 ? "+-" + fixed(50.0 * t.spread / t.median, 0) + "%" : "-");
      if (all) cells.push_back(t.count ? ms(t.min) : "-");
      cells.push_back(d.x_copy ? ratio_text(*d.x_copy) : "-");
      if (borders) cells.push_back(d.x_clamp ? fixed(*d.x_clamp, 2) : "-");
      if (all) cells.push_back(d.speedup ? fixed(*d.speedup, 1) + "x" : "-");
      // Under 0.01 GB/s (a CPU rasterizer's slowest rows) the digits would widen the column: a bound.
      if (gbps) cells.push_back(d.gbps ? (*d.gbps < 0.01 ? "<0.01" : ratio_text(*d.gbps)) : "-");
      if (roof) {
        cells.push_back(row.bound ? percent_of_bound(row.bound->fraction, row.bound->limit) : "-");
        cells.push_back(row.own_bound ? percent_of_bound(row.own_bound->fraction, row.own_bound->limit) : "-");
      }
      if (all) {
        std::string passes;
        for (const auto& [span, stats] : row.spans)
          if (span != "total") passes += (passes.empty() ? "" : " ") + span + " " + ms(stats.median);
        cells.insert(cells.end(), {passes.empty() ? "-" : passes, row.cpu ? ms(row.cpu->median) : "-", std::to_string(t.count)});
      }
    }
    if (fidelity) cells.push_back(fidelity_text(row, all));
    if (all)
      cells.insert(cells.end(), {row.check ? row.check->text() : "-", check_text(row)});
    else
      cells.push_back(short_check_text(row));
    view.groups.back().rows.push_back(cells);
    view.groups.back().ran.push_back(true);
  }
  std::string legend;
  if (timed)
    legend = "total ms: median GPU time of the blur over n frames (timestamp queries); spread: (p90 - p10) / 2 of the median; "
             "x copy: total / the copy pass of the same size and format; " +
             std::string(all ? "vs naive: the naive variant of the same stage, same kernel (when it is in the sweep) / total; " : "") +
             std::string(gbps ? "GB/s: minimum traffic (each texel read once, written once) / total." : "");
  if (borders)
    legend += " x clamp: total / the same variant and settings with clamp-to-edge borders in this run (what the border mode "
              "costs).";
  if (roof)
    legend += " bound: the problem's bound over the row's time, what the user pays (mem: one read and one write of the image at "
              "the texture copy bandwidth; fma: the minimal FMAs, 8(2r+1) per pixel for a Gaussian, at the FMA rate); 100% is at "
              "the roofline. own: the variant's own bound over its time, how well the technique is implemented: each of its "
              "passes reading its input once and writing its output once at the copy bandwidth (mem), its bilinear fetches at "
              "the fetch rate (tex), its arithmetic at the FMA rate (fma), whichever takes longest.";
  if (all && timed)
    legend += " cpu ms: wall time of the timed frames, run back to back, over their number, GPU finished (a sanity check).";
  if (!all)
    legend += std::string(timed ? " " : "") +
              "settings: knobs and intermediate format where they differ from the variant's defaults. check: the largest "
              "error against the CPU reference (LSB of rgba8, else absolute); n/a [k]: the variant does not run these "
              "settings, reason k below the table. --wide: every knob, the stage, " +
              (timed ? "the minimum, the speed-up over the naive variant, " + std::string(gbps ? "" : "GB/s, ") + "each pass, cpu ms, frames, " : "") +
              "an approximation's choice, the error per channel" +
              (fidelity ? ", max and RMS fidelity" : "") + ".";
  if (fidelity)
    legend += std::string(legend.empty() ? "" : " ") +
              "fidelity: error against the exact Gaussian the row stands in for (an approximation: of the sigma it declares, "
              "~sigma; a variable-radius one: the exact kernel of each pixel's radius), " +
              std::string(all ? "in LSB of the input's range (1/255), max and RMS over every texel and channel, and PSNR"
                              : "as PSNR over every texel and channel") +
              "; exact: an exact variant, within 1 LSB of the exact kernel (Gaussian or box) by construction (its check). "
              "The check of an approximation is against the CPU model of its own algorithm.";
  if (!legend.empty()) view.legend = wrapped(legend, kTableWidth) + "\n";
  return view;
}

void write_table(const Report& r, std::ostream& out, Columns columns, bool legend) {
  const TableView view = table_view(r, columns);
  if (!view.preamble.empty()) out << wrapped(view.preamble, kTableWidth) << "\n\n";
  TextTable table(view.header);
  if (columns == Columns::Fit) table.wrap_to(kTableWidth, 1);  // the settings
  for (size_t g = 0; g < view.groups.size(); ++g) {
    if (g > 0) table.add_separator();
    table.add_title("== " + view.groups[g].heading);
    for (const auto& row : view.groups[g].rows) table.add_row(row);
  }
  table.print(out);
  for (size_t i = 0; i < view.footnotes.size(); ++i)
    out << "[" << i + 1 << "] " << wrapped(view.footnotes[i], kTableWidth - 4, "    ") << "\n";
  if (legend && !view.legend.empty()) out << "\n" << view.legend;
}

void write_csv(const Report& r, std::ostream& out) {
  if (!r.effect_rows.empty()) {  // an effect run: its rows (the copies are in the JSON and the table's note)
    write_effect_csv(r, out);
    return;
  }
  // A column per knob name of the registry, so the header is the same for every run.
  const std::vector<Knob>& knobs = all_knobs();
  out << "variant,stage,role,kernel,radius,sigma,border,border_value,input_format,linear,intermediate,radius_map";
  for (const Knob& k : knobs) out << "," << k.name;
  out << ",tuned,width,height,supported,reason,frames,total_median_ms,total_min_ms,total_max_ms,total_spread_ms,passes,"
         "cpu_median_ms,copy_ms,x_copy,speedup_vs_naive,x_clamp,min_traffic_gbps,bound,bound_fraction,own_bound,own_bound_fraction,"
         "error_r,error_g,error_b,error_a,error_unit,check,approx_sigma,approx_parameters,fidelity_max_lsb,fidelity_rms_lsb,fidelity_psnr_db\n";
  auto opt = [](const std::optional<double>& v) { return v ? format_double(*v, 6) : std::string(); };
  for (const Measurement& m : r.rows) {
    const RowRecord row = row_record(r, m);
    const VariantInfo& v = *row.variant;
    const BlurSettings& s = row.settings;
    std::vector<std::string> f{std::string(v.name), std::string(name(v.stage)), std::string(name(v.role)),
                               is_blur(v) ? std::string(name(s.kernel.type)) : "none", is_blur(v) ? std::to_string(s.kernel.radius) : "",
                               is_blur(v) && s.kernel.type == KernelType::Gauss ? format_double(s.kernel.sigma, 6) : "",
                               is_blur(v) ? std::string(name(s.border.mode)) : "",
                               is_blur(v) && s.border.mode == BorderMode::Constant ? value_text(s.border.value) : "",
                               std::string(gl::name(s.input_format)), s.linear ? "yes" : "",
                               v.uses_intermediate ? std::string(gl::name(s.intermediate_format())) : "",
                               v.variable_radius ? describe(s.radius_map.get()) : ""};  // as the JSON's settings.radius_map
    for (const Knob& k : knobs) {
      const auto it = std::find_if(row.knobs.begin(), row.knobs.end(), [&](const auto& kv) { return kv.first == k.name; });
      f.push_back(it == row.knobs.end() ? "" : it->second);
    }
    const Stats t = span_stats(row, "total") ? *span_stats(row, "total") : Stats{};
    std::string passes;
    for (const auto& [span, stats] : row.spans)
      if (span != "total") passes += (passes.empty() ? "" : ";") + span + ":" + format_double(stats.median, 6);
    const Derived& d = row.derived;
    f.insert(f.end(), {row.tuned ? "yes" : "", std::to_string(row.size.x), std::to_string(row.size.y), row.unsupported ? "no" : "yes",
                       row.unsupported ? row.unsupported->reason : "", std::to_string(t.count), t.count ? format_double(t.median, 6) : "",
                       t.count ? format_double(t.min, 6) : "", t.count ? format_double(t.max, 6) : "",
                       t.count ? format_double(t.spread, 6) : "", passes, row.cpu ? format_double(row.cpu->median, 6) : "",
                       opt(d.copy_ms), opt(d.x_copy), opt(d.speedup), opt(d.x_clamp), opt(d.gbps), row.bound ? row.bound->limit : "",
                       row.bound ? format_double(row.bound->fraction, 4) : "", row.own_bound ? row.own_bound->limit : "",
                       row.own_bound ? format_double(row.own_bound->fraction, 4) : ""});
    for (int c = 0; c < 4; ++c) f.push_back(row.check ? format_double(row.check->max_error[static_cast<size_t>(c)], 6) : "");
    f.push_back(row.check ? (row.check->lsb ? "lsb" : "abs") : "");
    f.push_back(row.check ? (row.check->ok ? "ok" : "fail") : "");
    f.push_back(row.approximation ? format_double(row.approximation->sigma, 6) : "");
    f.push_back(row.approximation ? row.approximation->parameters : "");
    f.push_back(row.fidelity ? format_double(row.fidelity->max_lsb, 6) : row.exact_blur ? "exact" : "");
    f.push_back(row.fidelity ? format_double(row.fidelity->rms_lsb, 6) : row.exact_blur ? "exact" : "");
    f.push_back(row.fidelity && std::isfinite(row.fidelity->psnr_db) ? format_double(row.fidelity->psnr_db, 6) : "");
    for (size_t i = 0; i < f.size(); ++i) out << (i ? "," : "") << csv_field(f[i]);
    out << "\n";
  }
}

void write_json(const Report& r, std::ostream& out) {
  using nlohmann::json;
  json doc;
  doc["tool"] = "blurlab";
  doc["date"] = r.date;
  const gl::GlLimits& l = r.gl.limits;
  doc["gl"] = {{"renderer", r.gl.renderer},
               {"vendor", r.gl.vendor},
               {"version", r.gl.version},
               {"glsl", r.gl.glsl_version},
               {"platform", r.gl.platform},
               {"software", r.gl.software},
               {"limits",
                {{"max_compute_shared_memory", l.max_compute_shared_memory},
                 {"max_compute_invocations", l.max_compute_invocations},
                 {"max_texture_size", l.max_texture_size}}}};
  if (r.roofline)
    doc["roofline"] = {{"size", {{"width", r.roofline->size.x}, {"height", r.roofline->size.y}}},
                       {"texture_copy_gbps", r.roofline->texture_copy_gbps},
                       {"texture_copy_setting", r.roofline->texture_copy_setting},
                       {"buffer_copy_gbps", r.roofline->buffer_copy_gbps},
                       {"fma_tflops", 2.0 * r.roofline->fma_per_s / 1e12},
                       {"bilinear_gfetch_per_s", r.roofline->bilinear_fetch_per_s / 1e9}};
  doc["run"] = {{"warmup", r.warmup}, {"frames", r.frames}, {"budget_s", r.budget_s}, {"scene_time", r.scene_time},
                {"input", r.image.empty() ? "scene" : r.image}, {"command", r.command}};
  // Every variant in the registry's order, so charts give each the same colour in every chart.
  json names = json::array();
  for (const VariantInfo* v : variants()) names.push_back(v->name);
  doc["variants"] = names;
  json rows = json::array();
  for (const Measurement& m : r.rows) rows.push_back(row_record(r, m));
  doc["results"] = rows;
  if (!r.effect_rows.empty()) doc["effect_results"] = effect_rows_json(r);
  out << doc.dump(1, ' ', false, json::error_handler_t::replace) << "\n";  // a file name's invalid UTF-8 as U+FFFD, not an exception
}

}  // namespace blurlab::report

namespace blurlab::report {

void md_table(std::ostream& out, const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  auto line = [&](const std::vector<std::string>& cells) {
    out << "|";
    for (const std::string& c : cells) out << " " << markdown_text(c) << " |";  // a pipe in a reason does not split the row
    out << "\n";
  };
  line(header);
  out << "|";
  for (size_t i = 0; i < header.size(); ++i) out << " --- |";
  out << "\n";
  for (const auto& row : rows) line(row);
}

namespace {

// The settings each variant does not run, once per variant (the result tables leave them out):
// variant -> (reason -> the kernels refused for it).
using Refusals = std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::vector<std::string>>>>>;

template <typename List>
auto& entry(List& list, const std::string& key) {
  auto it = std::find_if(list.begin(), list.end(), [&](const auto& e) { return e.first == key; });
  if (it == list.end()) it = list.insert(list.end(), {key, {}});
  return it->second;
}

}  // namespace

std::string failure_text(const Measurement& m) {
  return std::string(m.variant->name) + " " + size_text(m.size) + " " + describe(*m.variant, m.settings) + ": " +
         m.check->text() + "; " + m.check->worst_text() + "; tolerance: " + m.tolerance.reason;
}

namespace {

void correctness_summary(const Report& r, std::ostream& out) {
  size_t checked = 0;
  std::vector<const Measurement*> failed;
  Refusals refused;
  for (const Measurement& m : r.rows) {
    if (m.unsupported) {
      std::vector<std::string>& where = entry(entry(refused, std::string(m.variant->name)), m.unsupported->reason);
      const std::string setting = size_text(m.size) + " " + kernel_text(m.settings.kernel);
      if (std::find(where.begin(), where.end(), setting) == where.end()) where.push_back(setting);
      continue;
    }
    if (!m.check) continue;
    ++checked;
    if (!m.check->ok) failed.push_back(&m);
  }
  if (checked == 0)
    out << "No output was compared with the CPU reference.\n";
  else if (failed.empty())
    out << "All " << checked << " runs match the CPU reference within their tolerance.\n";
  else
    out << "**" << failed.size() << " of " << checked << " runs exceed their tolerance:**\n";
  for (const Measurement* m : failed) out << "- " << markdown_text(failure_text(*m)) << "\n";
  if (!refused.empty()) out << "\nSettings a variant does not run (never counted as checked, and left out of the results below):\n";
  for (const auto& [variant, reasons] : refused) {
    out << "- " << variant << ": ";
    for (size_t i = 0; i < reasons.size(); ++i) {
      std::string where;
      for (const std::string& setting : reasons[i].second) where += (where.empty() ? "" : ", ") + setting;
      out << (i ? "; " : "") << markdown_text(reasons[i].first) << " (" << markdown_text(where) << ")";
    }
    out << "\n";
  }
}

}  // namespace

void write_markdown(const Report& r, const Page& page, std::ostream& out) {
  out << "# blurlab report\n\n";
  out << "Made " << r.date << " by:\n\n" << markdown_code_block(r.command, "sh") << "\n";
  if (r.effect_rows.empty())
    write_conclusion_markdown(conclude(r), out);
  else
    write_effect_conclusion_markdown(r, out);
  out << "\n";
  out << "## GPU and driver\n\n";
  const gl::GlLimits& l = r.gl.limits;
  md_table(out, {"", ""},
           {{"renderer", r.gl.renderer},
            {"vendor", r.gl.vendor},
            {"OpenGL", r.gl.version},
            {"GLSL", r.gl.glsl_version},
            {"context", r.gl.platform + (r.gl.software ? " (a CPU rasterizer: timings are not a GPU's)" : "")},
            {"limits", "compute shared memory " + std::to_string(l.max_compute_shared_memory) + " bytes, " +
                           std::to_string(l.max_compute_invocations) + " invocations per workgroup, textures up to " +
                           std::to_string(l.max_texture_size)}});
  out << "\n## Settings\n\n";
  out << "- input: " << (r.image.empty() ? "the animated scene at t = " + format_double(r.scene_time) + " s" : markdown_code(r.image)) << "\n";
  if (r.frames > 0)
    out << "- timing: " << plural(r.warmup, "warm-up frame")
        << (r.min_warmup_s > 0 ? " (and at least " + format_double(r.min_warmup_s) + " s of them)" : "") << ", then up to "
        << plural(r.frames, "timed frame") << " per configuration" << (r.budget_s > 0 ? ", at most " + format_double(r.budget_s) + " s each" : "")
        << "; medians over the timed frames\n";
  else
    out << "- no timing (--frames 0): correctness only\n";
  if (!r.sizing.empty()) out << "- " << r.sizing << "\n";
  // Variable-radius variants (blur/radius_map.h): the map each of their rows blurred with.
  std::vector<std::string> maps;
  for (const Measurement& m : r.rows)
    if (m.variant->variable_radius)
      if (const std::string map = describe(m.settings.radius_map.get()); std::find(maps.begin(), maps.end(), map) == maps.end())
        maps.push_back(map);
  for (const std::string& map : maps)
    out << "- radius map of the variable-radius variants: " << markdown_text(map) << " (each pixel's radius 0..R, R the kernel's radius)\n";
  out << "- every output compared with the CPU reference (double precision), with the tolerance its check states\n";
  if (!r.effect_rows.empty()) {
    out << "- the effect on the HDR scene (linear radiance, rgba16f), each implementation's every stage checked against the CPU "
           "given the stage's own input, and the shipped frame against the ground truth the CPU computes in double from the same "
           "HDR frame\n";
    out << "\n## Correctness\n\n";
    size_t failed = 0, checked = 0;
    for (const EffectMeasurement& m : r.effect_rows)
      if (m.check) {
        ++checked;
        if (!m.check->ok()) {
          ++failed;
          out << "- " << markdown_text(effect_failure_text(m)) << "\n";
        }
      }
    if (checked == 0) out << "Nothing was checked (run with --check).\n";
    else if (failed == 0) out << "Every stage of the " << checked << " runs checked is within its tolerance.\n";
    out << "\n## Results\n";
    write_effect_markdown(r, out);
  } else {
  out << "\n## Correctness\n\n";
  correctness_summary(r, out);

  out << "\n## Results\n";
  const TableView view = table_view(r, Columns::All);
  if (!view.preamble.empty()) out << "\n" << view.preamble << "\n";
  for (const TableView::Group& group : view.groups) {
    std::vector<std::vector<std::string>> ran;
    for (size_t i = 0; i < group.rows.size(); ++i)
      if (group.ran[i]) ran.push_back(group.rows[i]);
    if (ran.empty()) continue;
    out << "\n### " << markdown_text(group.heading) << "\n\n";
    md_table(out, view.header, ran);
  }
  if (!view.legend.empty()) {
    out << "\n";
    for (const std::string& line : split(view.legend, '\n'))
      if (!line.empty()) out << line << "\n";
  }
  }

  out << "\n## Charts\n\n";
  for (const std::string& chart : page.charts) out << "![" << chart << "](" << chart << ")\n\n";
  if (!page.charts_note.empty()) out << page.charts_note << "\n";
  if (!page.files.empty()) {
    out << "\n## Files\n\n";
    for (const std::string& file : page.files) out << "- [" << file << "](" << file << ")\n";
  }
}

}  // namespace blurlab::report
