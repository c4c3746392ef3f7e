#include "report/report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "blur/registry.h"
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

std::string kernel_text(const Kernel& k) {
  std::string text = std::string(name(k.type)) + " r=" + std::to_string(k.radius);
  if (k.type == KernelType::Gauss) text += " sigma=" + format_double(k.sigma, 4);
  return text;
}

std::string_view role_name(Role role) {
  switch (role) {
    case Role::Floor: return "floor";
    case Role::Baseline: return "baseline";
    case Role::Blur: return "blur";
  }
  return "?";
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

// The settings of a row that are not in its group heading: intermediate format and knobs.
std::string settings_text(const RowRecord& row) {
  std::string text;
  auto add = [&](const std::string& part) { text += (text.empty() ? "" : " ") + part; };
  if (row.variant->uses_intermediate) add("int=" + std::string(gl::name(row.settings.intermediate_format())));
  for (const auto& [knob, value] : row.knobs) add(knob + "=" + value);
  if (row.tuned) add("(tuned)");
  return text.empty() ? "-" : text;
}

std::string check_text(const RowRecord& row) {
  if (!row.check) return "-";
  if (row.check->ok) return "ok";
  return "FAIL " + format_double(row.check->worst_fraction, 3) + "x at " + std::to_string(row.check->worst_x) + "," +
         std::to_string(row.check->worst_y);
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
  const double arithmetic_ms = minimal_fmas_per_pixel(m.settings.kernel, is_blur(*m.variant)) * pixels / roofline->fma_per_s * 1e3;
  Bound b;
  b.limit = arithmetic_ms > memory_ms ? "arithmetic" : "memory";
  b.ms = std::max(memory_ms, arithmetic_ms);
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
  }
  row.check = m.check;
  row.tolerance = m.tolerance.reason;
  return row;
}

void to_json(nlohmann::json& j, const RowRecord& row) {
  using nlohmann::json;
  const VariantInfo& v = *row.variant;
  const BlurSettings& s = row.settings;
  j = json::object();
  j["variant"] = v.name;
  j["stage"] = name(v.stage);
  j["role"] = role_name(v.role);
  j["kernels"] = v.kernels == KernelSupport::BoxOnly ? "box" : "box,gauss";
  j["size"] = {{"width", row.size.x}, {"height", row.size.y}};
  json settings = {{"input_format", gl::name(s.input_format)}};
  if (is_blur(v)) {
    settings["kernel"] = name(s.kernel.type);
    settings["radius"] = s.kernel.radius;
    if (s.kernel.type == KernelType::Gauss) settings["sigma"] = s.kernel.sigma;
    settings["border"] = name(s.border.mode);
    if (s.border.mode == BorderMode::Constant) settings["border_value"] = s.border.value;
  }
  if (v.uses_intermediate) settings["intermediate"] = gl::name(s.intermediate_format());
  json knobs = json::object();
  for (const auto& [knob, value] : row.knobs) knobs[knob] = value;
  settings["knobs"] = knobs;
  if (row.tuned) settings["tuned"] = true;
  j["settings"] = settings;
  j["supported"] = !row.unsupported;
  if (row.unsupported) {
    j["reason"] = *row.unsupported;
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
  if (row.check)
    j["error"] = {{"max", {row.check->max_error[0], row.check->max_error[1], row.check->max_error[2], row.check->max_error[3]}},
                  {"unit", row.check->lsb ? "lsb" : "abs"},
                  {"tolerance", row.tolerance},
                  {"ok", row.check->ok}};
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

void write_table(const Report& r, std::ostream& out) {
  // Groups: image size and input format, then kernel; inside a group the fastest first, the
  // floor (the copy pass) on top, unsupported settings last with their reason.
  std::vector<RowRecord> rows;
  for (const Measurement& m : r.rows) rows.push_back(row_record(r, m));
  auto group_key = [](const RowRecord& row) { return std::tuple(row.size.x * 100000 + row.size.y, static_cast<int>(row.settings.input_format)); };
  // Blur groups: kernel, then border mode (and value).
  auto kernel_key = [](const RowRecord& row) {
    const Kernel& k = row.settings.kernel;
    const Border& b = row.settings.border;
    return is_blur(*row.variant) ? std::tuple(0, static_cast<int>(k.type), k.radius, k.sigma, static_cast<int>(b.mode), b.value)
                                 : std::tuple(-1, 0, 0, 0.0, 0, Rgba{});
  };
  auto total = [](const RowRecord& row) -> std::optional<double> {
    const Stats* t = span_stats(row, "total");
    return t && t->count ? std::optional(t->median) : std::nullopt;
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const RowRecord& a, const RowRecord& b) {
    if (group_key(a) != group_key(b)) return group_key(a) < group_key(b);
    if (kernel_key(a) != kernel_key(b)) return kernel_key(a) < kernel_key(b);
    const auto ta = total(a), tb = total(b);
    if (ta.has_value() != tb.has_value()) return ta.has_value();
    return ta && tb && *ta < *tb;
  });

  const bool timed = r.frames > 0, roof = timed && r.roofline;
  // The cost of border modes against clamp, when the run has other modes.
  const bool borders = timed && std::any_of(rows.begin(), rows.end(), [](const RowRecord& row) {
                         return row.settings.border.mode != BorderMode::Clamp;
                       });
  if (r.roofline)
    out << "roofline (" << size_text(r.roofline->size) << "): texture copy " << fixed(r.roofline->texture_copy_gbps, 0) << " GB/s ("
        << r.roofline->texture_copy_setting << "), buffer copy " << fixed(r.roofline->buffer_copy_gbps, 0) << " GB/s, fp32 FMA "
        << fixed(2.0 * r.roofline->fma_per_s / 1e12, 2) << " TFLOP/s\n\n";
  std::vector<std::string> header{"variant", "stage", "settings"};
  if (timed)
    header.insert(header.end(), {"total ms", "spread", "min", "x copy", "vs naive", "GB/s", "passes (median ms)", "cpu ms", "n"});
  if (roof) header.insert(header.begin() + 9, "roof");
  if (borders) header.insert(header.begin() + 7, "x clamp");
  header.insert(header.end(), {"max error", "check"});
  TextTable table(header);
  const RowRecord* previous = nullptr;
  for (const RowRecord& row : rows) {
    if (!previous || group_key(*previous) != group_key(row) || kernel_key(*previous) != kernel_key(row)) {
      if (previous) table.add_separator();
      std::string heading = "== " + size_text(row.size) + " " + std::string(gl::name(row.settings.input_format)) + " ";
      heading += is_blur(*row.variant) ? kernel_text(row.settings.kernel) + ", border " + describe(row.settings.border)
                                       : "copy pass (the floor)";
      table.add_title(heading);
    }
    previous = &row;
    std::vector<std::string> cells{std::string(row.variant->name), std::string(name(row.variant->stage)), settings_text(row)};
    if (row.unsupported) {
      if (timed) cells.insert(cells.end(), 9 + (roof ? 1 : 0) + (borders ? 1 : 0), "-");
      cells.insert(cells.end(), {"-", "unsupported: " + *row.unsupported});
      table.add_row(cells);
      continue;
    }
    if (timed) {
      const Derived& d = row.derived;
      const Stats t = span_stats(row, "total") ? *span_stats(row, "total") : Stats{};
      std::string passes;
      for (const auto& [span, stats] : row.spans)
        if (span != "total") passes += (passes.empty() ? "" : " ") + span + " " + ms(stats.median);
      cells.insert(cells.end(), {t.count ? ms(t.median) : "-",
                                 t.count && t.median > 0 ? "+-" + fixed(50.0 * t.spread / t.median, 0) + "%" : "-",
                                 t.count ? ms(t.min) : "-", d.x_copy ? fixed(*d.x_copy, 2) : "-",
                                 d.speedup ? fixed(*d.speedup, 1) + "x" : "-", d.gbps ? fixed(*d.gbps, 1) : "-",
                                 passes.empty() ? "-" : passes, row.cpu ? ms(row.cpu->median) : "-", std::to_string(t.count)});
      if (roof)
        cells.insert(cells.begin() + 9, row.bound ? fixed(100.0 * row.bound->fraction, 0) + "% " + (row.bound->limit == "memory" ? "mem" : "fma") : "-");
      if (borders) cells.insert(cells.begin() + 7, d.x_clamp ? fixed(*d.x_clamp, 2) : "-");
    }
    cells.insert(cells.end(), {row.check ? row.check->text() : "-", check_text(row)});
    table.add_row(cells);
  }
  table.print(out);
  if (timed)
    out << "\ntotal ms: median GPU time of the blur over n frames (timestamp queries); spread: (p90 - p10) / 2 of the median;\n"
           "x copy: total / the copy pass of the same size and format; vs naive: the naive variant of the same stage, same\n"
           "kernel (when it is in the sweep) / total; GB/s: minimum traffic (each texel read once, written once) / total;\n"
           "cpu ms: wall time of the timed frames, run back to back, over their number, GPU finished (a sanity check).\n";
  if (borders)
    out << "x clamp: total / the same variant and settings with clamp-to-edge borders in this run (what the border mode costs).\n";
  if (roof)
    out << "roof: the bound that limits the row (mem: its minimum traffic at the texture copy bandwidth; fma: its minimal\n"
           "FMAs, 8(2r+1) per pixel for a Gaussian, at the FMA rate) over its time; 100% is at the roofline.\n";
}

void write_csv(const Report& r, std::ostream& out) {
  // A column per knob name of the registry, so the header is the same for every run.
  const std::vector<Knob>& knobs = all_knobs();
  out << "variant,stage,role,kernel,radius,sigma,border,border_value,input_format,intermediate";
  for (const Knob& k : knobs) out << "," << k.name;
  out << ",tuned,width,height,supported,reason,frames,total_median_ms,total_min_ms,total_max_ms,total_spread_ms,passes,"
         "cpu_median_ms,copy_ms,x_copy,speedup_vs_naive,x_clamp,min_traffic_gbps,bound,bound_fraction,error_r,error_g,error_b,"
         "error_a,error_unit,check\n";
  auto opt = [](const std::optional<double>& v) { return v ? format_double(*v, 6) : std::string(); };
  for (const Measurement& m : r.rows) {
    const RowRecord row = row_record(r, m);
    const VariantInfo& v = *row.variant;
    const BlurSettings& s = row.settings;
    std::vector<std::string> f{std::string(v.name), std::string(name(v.stage)), std::string(role_name(v.role)),
                               is_blur(v) ? std::string(name(s.kernel.type)) : "none", is_blur(v) ? std::to_string(s.kernel.radius) : "",
                               is_blur(v) && s.kernel.type == KernelType::Gauss ? format_double(s.kernel.sigma, 6) : "",
                               is_blur(v) ? std::string(name(s.border.mode)) : "",
                               is_blur(v) && s.border.mode == BorderMode::Constant ? value_text(s.border.value) : "",
                               std::string(gl::name(s.input_format)),
                               v.uses_intermediate ? std::string(gl::name(s.intermediate_format())) : ""};
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
                       row.unsupported.value_or(""), std::to_string(t.count), t.count ? format_double(t.median, 6) : "",
                       t.count ? format_double(t.min, 6) : "", t.count ? format_double(t.max, 6) : "",
                       t.count ? format_double(t.spread, 6) : "", passes, row.cpu ? format_double(row.cpu->median, 6) : "",
                       opt(d.copy_ms), opt(d.x_copy), opt(d.speedup), opt(d.x_clamp), opt(d.gbps), row.bound ? row.bound->limit : "",
                       row.bound ? format_double(row.bound->fraction, 4) : ""});
    for (int c = 0; c < 4; ++c) f.push_back(row.check ? format_double(row.check->max_error[static_cast<size_t>(c)], 6) : "");
    f.push_back(row.check ? (row.check->lsb ? "lsb" : "abs") : "");
    f.push_back(row.check ? (row.check->ok ? "ok" : "fail") : "");
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
                       {"fma_tflops", 2.0 * r.roofline->fma_per_s / 1e12}};
  doc["run"] = {{"warmup", r.warmup}, {"frames", r.frames}, {"budget_s", r.budget_s}, {"scene_time", r.scene_time},
                {"input", r.image.empty() ? "scene" : r.image}};
  json rows = json::array();
  for (const Measurement& m : r.rows) rows.push_back(row_record(r, m));
  doc["results"] = rows;
  out << doc.dump(1) << "\n";
}

}  // namespace blurlab::report
