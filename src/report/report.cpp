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

std::string size_text(glm::ivec2 s) { return std::to_string(s.x) + "x" + std::to_string(s.y); }

std::string kernel_text(const Kernel& k) {
  std::string text = std::string(name(k.type)) + " r=" + std::to_string(k.radius);
  if (k.type == KernelType::Gauss) text += " sigma=" + format_double(k.sigma, 4);
  return text;
}

// The knobs of a row (what is not already in the group heading).
std::string knob_text(const Measurement& m) {
  const VariantInfo& v = *m.variant;
  const BlurSettings& s = m.settings;
  std::string text;
  auto add = [&](const std::string& part) { text += (text.empty() ? "" : " ") + part; };
  if (v.uses_intermediate) add("int=" + std::string(gl::name(s.intermediate_format())));
  if (!v.workgroups.empty()) add("wg=" + size_text(s.workgroup));
  if (!v.unrolls.empty()) add("unroll=" + std::to_string(s.unroll));
  if (!v.segments.empty()) add("segment=" + std::to_string(s.segment));
  if (!v.cache_bits.empty()) add("cache=fp" + std::to_string(s.cache_bits));
  if (m.tuned) add("(tuned)");
  return text.empty() ? "-" : text;
}

bool same_scenario(const Measurement& a, const Measurement& b) {
  return a.size == b.size && a.settings.input_format == b.settings.input_format;
}

std::optional<double> total_median(const Measurement& m) {
  const auto it = m.spans_ms.find("total");
  if (m.unsupported || it == m.spans_ms.end() || it->second.empty()) return std::nullopt;
  return stats_of(it->second).median;
}

std::string error_text(const Measurement& m) { return m.check ? m.check->text() : "-"; }

std::string check_text(const Measurement& m) {
  if (!m.check) return "-";
  if (m.check->ok) return "ok";
  return "FAIL " + format_double(m.check->worst_fraction, 3) + "x at " + std::to_string(m.check->worst_x) + "," +
         std::to_string(m.check->worst_y);
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

double minimum_traffic_bytes(glm::ivec2 size, gl::Format format) {
  return 2.0 * static_cast<double>(size.x) * size.y * gl::info(format).bytes_per_texel;
}

Derived Report::derive(const Measurement& m) const {
  Derived d;
  const auto total = total_median(m);
  if (!total || *total <= 0.0) return d;
  d.gbps = minimum_traffic_bytes(m.size, m.settings.input_format) / (*total * 1e-3) / 1e9;
  for (const Measurement& other : rows) {
    if (!same_scenario(m, other)) continue;
    if (!other.variant->is_blur) {
      if (const auto copy = total_median(other)) {
        d.copy_ms = *copy;
        d.x_copy = *total / *copy;
      }
    }
    // The naive variant of the same stage at the same kernel and input.
    const std::string naive = m.variant->stage == Stage::Fragment ? "frag-naive" : "compute-naive";
    if (m.variant->is_blur && other.variant->name == naive && other.settings.kernel == m.settings.kernel)
      if (const auto base = total_median(other)) d.speedup = *base / *total;
  }
  return d;
}

void write_table(const Report& r, std::ostream& out) {
  // Groups: image size and input format, then kernel; inside a group the fastest first, the
  // copy pass (the floor) on top, unsupported settings last with their reason.
  std::vector<const Measurement*> order;
  for (const Measurement& m : r.rows) order.push_back(&m);
  auto group_key = [](const Measurement* m) {
    return std::tuple(m->size.x * 100000 + m->size.y, static_cast<int>(m->settings.input_format));
  };
  auto kernel_key = [](const Measurement* m) {
    return m->variant->is_blur ? std::tuple(0, static_cast<int>(m->settings.kernel.type), m->settings.kernel.radius, m->settings.kernel.sigma)
                               : std::tuple(-1, 0, 0, 0.0);
  };
  std::stable_sort(order.begin(), order.end(), [&](const Measurement* a, const Measurement* b) {
    if (group_key(a) != group_key(b)) return group_key(a) < group_key(b);
    if (kernel_key(a) != kernel_key(b)) return kernel_key(a) < kernel_key(b);
    const auto ta = total_median(*a), tb = total_median(*b);
    if (ta.has_value() != tb.has_value()) return ta.has_value();
    return ta && tb && *ta < *tb;
  });

  const bool timed = r.frames > 0;
  std::vector<std::string> header{"variant", "stage", "settings"};
  if (timed)
    header.insert(header.end(), {"total ms", "spread", "min", "x copy", "vs naive", "GB/s", "passes (median ms)", "cpu ms", "n"});
  header.insert(header.end(), {"max error", "check"});
  TextTable table(header);
  const Measurement* previous = nullptr;
  for (const Measurement* m : order) {
    if (!previous || group_key(previous) != group_key(m) || kernel_key(previous) != kernel_key(m)) {
      if (previous) table.add_separator();
      std::string heading = "== " + size_text(m->size) + " " + std::string(gl::name(m->settings.input_format)) + " ";
      heading += m->variant->is_blur ? kernel_text(m->settings.kernel) : "copy pass (the floor)";
      table.add_title(heading);
    }
    previous = m;
    std::vector<std::string> cells{std::string(m->variant->name), std::string(name(m->variant->stage)), knob_text(*m)};
    if (m->unsupported) {
      if (timed) cells.insert(cells.end(), 9, "-");
      cells.insert(cells.end(), {"-", "unsupported: " + *m->unsupported});
      table.add_row(cells);
      continue;
    }
    if (timed) {
      const Derived d = r.derive(*m);
      const auto total_it = m->spans_ms.find("total");
      const Stats total = total_it == m->spans_ms.end() ? Stats{} : stats_of(total_it->second);
      std::string passes;
      for (const std::string& span : m->span_order)
        if (span != "total") passes += (passes.empty() ? "" : " ") + span + " " + ms(stats_of(m->spans_ms.at(span)).median);
      cells.insert(cells.end(), {total.count ? ms(total.median) : "-",
                                 total.count && total.median > 0 ? "+-" + fixed(50.0 * total.spread / total.median, 0) + "%" : "-",
                                 total.count ? ms(total.min) : "-", d.x_copy ? fixed(*d.x_copy, 2) : "-",
                                 d.speedup ? fixed(*d.speedup, 1) + "x" : "-", d.gbps ? fixed(*d.gbps, 1) : "-",
                                 passes.empty() ? "-" : passes, ms(stats_of(m->cpu_ms).median), std::to_string(total.count)});
    }
    cells.insert(cells.end(), {error_text(*m), check_text(*m)});
    table.add_row(cells);
  }
  table.print(out);
  if (timed)
    out << "\ntotal ms: median GPU time of the blur over n frames (timestamp queries); spread: (p90 - p10) / 2 of the median;\n"
           "x copy: total / the copy pass of the same size and format; vs naive: the naive variant of the same stage, same\n"
           "kernel (when it is in the sweep) / total; GB/s: minimum traffic (each texel read once, written once) / total;\n"
           "cpu ms: wall time of the timed frames, run back to back, over their number, GPU finished (a sanity check).\n";
}

void write_csv(const Report& r, std::ostream& out) {
  out << "variant,stage,kernel,radius,sigma,input_format,intermediate,workgroup,unroll,segment,cache,width,height,"
         "supported,reason,frames,total_median_ms,total_min_ms,total_max_ms,total_spread_ms,passes,cpu_median_ms,"
         "copy_ms,x_copy,speedup_vs_naive,min_traffic_gbps,error_r,error_g,error_b,error_a,error_unit,check\n";
  auto opt = [](const std::optional<double>& v) { return v ? format_double(*v, 6) : std::string(); };
  auto quoted = [](std::string text) {
    for (char& c : text)
      if (c == '"') c = '\'';
    return "\"" + text + "\"";
  };
  for (const Measurement& m : r.rows) {
    const VariantInfo& v = *m.variant;
    const BlurSettings& s = m.settings;
    const Derived d = r.derive(m);
    const auto total_it = m.spans_ms.find("total");
    const Stats total = total_it == m.spans_ms.end() ? Stats{} : stats_of(total_it->second);
    std::string passes;
    for (const std::string& span : m.span_order)
      if (span != "total") passes += (passes.empty() ? "" : ";") + span + ":" + format_double(stats_of(m.spans_ms.at(span)).median, 6);
    out << v.name << "," << name(v.stage) << "," << (v.is_blur ? name(s.kernel.type) : "none") << "," << (v.is_blur ? std::to_string(s.kernel.radius) : "") << ","
        << (s.kernel.type == KernelType::Gauss ? format_double(s.kernel.sigma, 6) : "") << "," << gl::name(s.input_format) << ","
        << (v.uses_intermediate ? std::string(gl::name(s.intermediate_format())) : "") << ","
        << (v.workgroups.empty() ? "" : size_text(s.workgroup)) << "," << (v.unrolls.empty() ? "" : std::to_string(s.unroll)) << ","
        << (v.segments.empty() ? "" : std::to_string(s.segment)) << "," << (v.cache_bits.empty() ? "" : "fp" + std::to_string(s.cache_bits))
        << "," << m.size.x << "," << m.size.y << "," << (m.unsupported ? "no" : "yes") << ","
        << (m.unsupported ? quoted(*m.unsupported) : "") << "," << total.count << ","
        << (total.count ? format_double(total.median, 6) : "") << "," << (total.count ? format_double(total.min, 6) : "") << ","
        << (total.count ? format_double(total.max, 6) : "") << "," << (total.count ? format_double(total.spread, 6) : "") << ","
        << passes << "," << (m.cpu_ms.empty() ? "" : format_double(stats_of(m.cpu_ms).median, 6)) << "," << opt(d.copy_ms) << ","
        << opt(d.x_copy) << "," << opt(d.speedup) << "," << opt(d.gbps);
    for (int c = 0; c < 4; ++c) out << "," << (m.check ? format_double(m.check->max_error[static_cast<size_t>(c)], 6) : "");
    out << "," << (m.check ? (m.check->lsb ? "lsb" : "abs") : "") << "," << (m.check ? (m.check->ok ? "ok" : "fail") : "") << "\n";
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
  doc["run"] = {{"warmup", r.warmup}, {"frames", r.frames}, {"budget_s", r.budget_s}, {"scene_time", r.scene_time},
                {"input", r.image.empty() ? "scene" : r.image}};
  json rows = json::array();
  for (const Measurement& m : r.rows) {
    const VariantInfo& v = *m.variant;
    const BlurSettings& s = m.settings;
    json row;
    row["variant"] = v.name;
    row["stage"] = name(v.stage);
    row["size"] = {{"width", m.size.x}, {"height", m.size.y}};
    json settings = {{"input_format", gl::name(s.input_format)}};
    if (v.is_blur) {
      settings["kernel"] = name(s.kernel.type);
      settings["radius"] = s.kernel.radius;
      if (s.kernel.type == KernelType::Gauss) settings["sigma"] = s.kernel.sigma;
    }
    if (v.uses_intermediate) settings["intermediate"] = gl::name(s.intermediate_format());
    if (!v.workgroups.empty()) settings["workgroup"] = {s.workgroup.x, s.workgroup.y};
    if (!v.unrolls.empty()) settings["unroll"] = s.unroll;
    if (!v.segments.empty()) settings["segment"] = s.segment;
    if (!v.cache_bits.empty()) settings["cache"] = "fp" + std::to_string(s.cache_bits);
    if (m.tuned) settings["tuned"] = true;
    row["settings"] = settings;
    row["supported"] = !m.unsupported;
    if (m.unsupported) {
      row["reason"] = *m.unsupported;
      rows.push_back(row);
      continue;
    }
    json spans = json::object();
    for (const std::string& span : m.span_order) {
      const Stats st = stats_of(m.spans_ms.at(span));
      spans[span] = {{"median_ms", st.median}, {"min_ms", st.min}, {"max_ms", st.max}, {"spread_ms", st.spread}, {"frames", st.count}};
    }
    row["spans"] = spans;
    if (!m.cpu_ms.empty()) row["cpu_median_ms"] = stats_of(m.cpu_ms).median;
    const Derived d = r.derive(m);
    if (d.copy_ms) row["copy_ms"] = *d.copy_ms;
    if (d.x_copy) row["x_copy"] = *d.x_copy;
    if (d.speedup) row["speedup_vs_naive"] = *d.speedup;
    if (d.gbps) row["min_traffic_gbps"] = *d.gbps;
    if (m.check)
      row["error"] = {{"max", {m.check->max_error[0], m.check->max_error[1], m.check->max_error[2], m.check->max_error[3]}},
                      {"unit", m.check->lsb ? "lsb" : "abs"},
                      {"tolerance", m.tolerance.reason},
                      {"ok", m.check->ok}};
    rows.push_back(row);
  }
  doc["results"] = rows;
  out << doc.dump(1) << "\n";
}

}  // namespace blurlab::report
