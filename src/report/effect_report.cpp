#include "report/effect_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

#include "blur/registry.h"
#include "image/codecs.h"
#include "util/markup.h"
#include "util/strings.h"
#include "util/table.h"

namespace blurlab::report {

namespace {

std::string fixed(double v, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}
std::string ms_text(double v) { return fixed(v, v >= 100 ? 1 : v >= 10 ? 2 : v >= 1 ? 3 : 4); }
std::string db_text(double db) { return std::isfinite(db) ? fixed(db, 1) : "exact"; }

bool is_sub_span(const std::string& span, const std::vector<std::string>& all) {
  return std::any_of(all.begin(), all.end(), [&](const std::string& other) {
    return other != span && span.size() > other.size() && span.compare(0, other.size(), other) == 0 && span[other.size()] == ' ';
  });
}

double median_of(const EffectMeasurement& m, const std::string& span) { return stats_of(m.spans_ms.at(span)).median; }

bool passed(const EffectMeasurement& m) { return m.check && m.check->ok(); }

// The rows of one heading, in the run's order.
std::vector<const EffectMeasurement*> group(const Report& r, const std::string& heading) {
  std::vector<const EffectMeasurement*> rows;
  for (const EffectMeasurement& m : r.effect_rows)
    if (effect_heading(m) == heading) rows.push_back(&m);
  return rows;
}

std::vector<std::string> headings(const Report& r) {
  std::vector<std::string> list;
  for (const EffectMeasurement& m : r.effect_rows)
    if (const std::string h = effect_heading(m); std::find(list.begin(), list.end(), h) == list.end()) list.push_back(h);
  return list;
}

std::string check_cell(const EffectMeasurement& m) {
  if (!m.check) return "-";
  if (const StageCheck* failed = m.check->first_failure()) return "FAIL " + failed->stage;
  return "ok";
}

// A name for files: letters, digits and dashes of the text.
std::string file_part(std::string_view text) {
  std::string out;
  for (char c : text) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return out;
}

std::string crop_name(size_t group_index, const std::string& what) { return "effect" + std::to_string(group_index + 1) + "_" + file_part(what) + ".png"; }

Image difference_image(const Image& a, const Image& b) {
  Image d(a.width, a.height);
  for (int y = 0; y < a.height; ++y)
    for (int x = 0; x < a.width; ++x) {
      float largest = 0.0f;
      for (int c = 0; c < 3; ++c) largest = std::max(largest, std::abs(a.at(x, y, c) - b.at(x, y, c)));
      const float shown = std::min(1.0f, largest * 8.0f);
      for (int c = 0; c < 3; ++c) d.at(x, y, c) = shown;
      d.at(x, y, 3) = 1.0f;
    }
  return d;
}

}  // namespace

EffectStages effect_stages(const EffectMeasurement& m) {
  EffectStages s;
  std::vector<std::string> all;
  for (const auto& [span, times] : m.spans_ms) all.push_back(span);
  for (const auto& [span, times] : m.spans_ms) {
    if (span == "total" || times.empty() || is_sub_span(span, all)) continue;
    std::optional<double>& stage = span == "prefilter" ? s.prefilter_ms : span == "composite" ? s.composite_ms : s.blur_ms;
    stage = stage.value_or(0.0) + median_of(m, span);
  }
  return s;
}

std::string effect_heading(const EffectMeasurement& m) {
  std::string values;
  for (const auto& [name, value] : m.settings.values) values += " " + name + "=" + value;
  return size_text(m.size) + " " + std::string(m.effect->name) + values + ", border " + std::string(name(m.settings.border.mode));
}

std::vector<EffectConclusion> conclude_effects(const Report& r) {
  std::vector<EffectConclusion> list;
  for (const std::string& heading : headings(r)) {
    EffectConclusion c;
    c.heading = heading;
    for (const EffectMeasurement* m : group(r, heading)) {
      if (m->check) ++c.checked;
      const auto total = m->total_median();
      if (total) ++c.timed;
      if (!total || !passed(*m)) continue;
      const auto faster = [&](const EffectMeasurement* best) { return !best || *total < *best->total_median(); };
      if (m->check->fidelity.max_lsb <= 1.0 && faster(c.within_one_lsb)) c.within_one_lsb = m;
      if (m->check->fidelity.psnr_db >= kEffectBarDb && faster(c.above_bar)) c.above_bar = m;
      const EffectFidelity& f = m->check->fidelity;
      if (!f.region.empty() && f.region_pixels > 0 &&
          (!c.closest_in_region || f.region_psnr_db > c.closest_in_region->check->fidelity.region_psnr_db))
        c.closest_in_region = m;
    }
    list.push_back(c);
  }
  return list;
}

namespace {

std::string pick_text(const Report& r, const EffectMeasurement& m) {
  std::string text = m.settings.implementation + ", " + ms_text(*m.total_median()) + " ms";
  if (const auto copy = r.effect_copy_ms(m)) text += " (" + fixed(*m.total_median() / *copy, 1) + "x a copy of the frame)";
  text += ", max " + fixed(m.check->fidelity.max_lsb, 0) + " LSB, " + db_text(m.check->fidelity.psnr_db) + " dB";
  return text;
}

std::vector<std::string> conclusion_lines(const Report& r) {
  std::vector<std::string> lines;
  if (r.gl.software)
    lines.push_back("Timed on a CPU rasterizer (" + r.gl.renderer +
                    "): how fast a CPU runs the shaders ranks the implementations here, which does not carry to GPUs; the fidelity does.");
  for (const EffectConclusion& c : conclude_effects(r)) {
    lines.push_back(c.heading + ":");
    if (c.timed == 0 || c.checked == 0) {
      lines.push_back("  no implementation was both timed and checked (--check, --frames above 0): nothing to conclude");
      continue;
    }
    lines.push_back("  fastest within 1 LSB of the ground truth on the shipped frame: " +
                    (c.within_one_lsb ? pick_text(r, *c.within_one_lsb) : "none of those timed and checked"));
    lines.push_back("  fastest at " + fixed(kEffectBarDb, 0) + " dB or more: " + (c.above_bar ? pick_text(r, *c.above_bar) : "none"));
    if (c.closest_in_region) {
      const EffectFidelity& f = c.closest_in_region->check->fidelity;
      lines.push_back("  closest to the ground truth at " + f.region + ": " + pick_text(r, *c.closest_in_region) + "; there max " +
                      fixed(f.region_max_lsb, 0) + " LSB, " + db_text(f.region_psnr_db) + " dB");
    }
  }
  return lines;
}

}  // namespace

void write_effect_conclusion_text(const Report& r, std::ostream& out) {
  out << "\nConclusion (each effect on the frame it ships, against its ground truth):\n";
  for (const std::string& line : conclusion_lines(r)) out << wrapped(line, kTableWidth, "    ") << "\n";
}

void write_effect_conclusion_markdown(const Report& r, std::ostream& out) {
  out << "## Conclusion\n\nEach effect on the frame it ships, against its ground truth:\n\n";
  for (const std::string& line : conclusion_lines(r))
    out << (line.rfind("  ", 0) == 0 ? "  - " + markdown_text(trim(line)) : "- " + markdown_text(line)) << "\n";
}

std::vector<std::string> effect_table_header() {
  return {"implementation", "prefilter ms", "blur ms", "composite ms", "total ms", "x copy", "max LSB", "PSNR dB", "layer RMS %",
          "region max", "region dB", "check"};
}

std::vector<std::vector<std::string>> effect_table_rows(const Report& r, const std::string& heading, std::vector<std::string>& footnotes) {
  std::vector<std::vector<std::string>> rows;
  for (const EffectMeasurement* m : group(r, heading)) {
    if (m->unsupported) {
      const std::string why = m->unsupported->reason + " (" + std::string(name(m->unsupported->limit)) + ")";
      auto it = std::find(footnotes.begin(), footnotes.end(), why);
      if (it == footnotes.end()) it = footnotes.insert(footnotes.end(), why);
      rows.push_back({m->settings.implementation, "refused [" + std::to_string(it - footnotes.begin() + 1) + "]", "-", "-", "-", "-", "-", "-", "-",
                      "-", "-", "-"});
      continue;
    }
    const EffectStages s = effect_stages(*m);
    const auto total = m->total_median();
    const auto copy = r.effect_copy_ms(*m);
    auto opt = [](const std::optional<double>& v) { return v ? ms_text(*v) : std::string("-"); };
    const EffectFidelity* f = m->check ? &m->check->fidelity : nullptr;
    rows.push_back({m->settings.implementation, opt(s.prefilter_ms), opt(s.blur_ms), opt(s.composite_ms), opt(total),
                    total && copy ? fixed(*total / *copy, 2) : "-", f ? fixed(f->max_lsb, 0) : "-", f ? db_text(f->psnr_db) : "-",
                    f && !f->layer.empty() ? fixed(100.0 * f->layer_rms_relative, 3) : "-",
                    f && f->region_pixels ? fixed(f->region_max_lsb, 0) : "-", f && f->region_pixels ? db_text(f->region_psnr_db) : "-",
                    check_cell(*m)});
  }
  return rows;
}

void write_effect_table(const Report& r, std::ostream& out) {
  TextTable table(effect_table_header());
  std::vector<std::string> footnotes;
  bool first = true;
  for (const std::string& heading : headings(r)) {
    if (!first) table.add_separator();
    first = false;
    table.add_title("== " + heading);
    for (auto& row : effect_table_rows(r, heading, footnotes)) table.add_row(std::move(row));
  }
  table.print(out);
  for (size_t i = 0; i < footnotes.size(); ++i) out << "[" << i + 1 << "] " << wrapped(footnotes[i], kTableWidth - 4, "    ") << "\n";
  std::vector<std::string> copies;
  for (const Measurement& m : r.rows)
    if (m.variant->role == Role::Floor && m.total_median())
      copies.push_back(size_text(m.size) + " " + ms_text(*m.total_median()) + " ms");
  out << "\n"
      << wrapped("Times are GPU medians; a stage's is the sum of its passes' medians. x copy: the total over a copy of the rgba16f frame "
                 "in this run (" + (copies.empty() ? std::string("not timed") : [&] {
                   std::string t;
                   for (const std::string& c : copies) t += (t.empty() ? "" : ", ") + c;
                   return t;
                 }()) + "). max LSB, PSNR: the shipped rgba8 frame against the ground truth (computed on the CPU in double from the same "
                 "HDR frame). layer RMS %: the effect's layer (bloom: the light the PSF spread) against the ground truth's, RMS of the "
                 "difference over RMS of the truth. region max, region dB: max LSB and PSNR over the region of the frame the effect names (depth of "
                 "field: the pixels near depth edges, where halos and cut silhouettes show; the report names it). check: every stage against the CPU given the stage's own input (see the report "
                 "for each stage's tolerance).",
                 kTableWidth)
      << "\n";
}

nlohmann::json effect_rows_json(const Report& r) {
  using nlohmann::json;
  json rows = json::array();
  for (const EffectMeasurement& m : r.effect_rows) {
    json row;
    row["effect"] = m.effect->name;
    row["implementation"] = m.settings.implementation;
    row["width"] = m.size.x;
    row["height"] = m.size.y;
    row["values"] = m.settings.values;
    row["border"] = name(m.settings.border.mode);
    json knobs = json::object();
    for (const auto& [k, v] : m.settings.knobs)
      if (const Knob* knob = find_any_knob(k)) knobs[k] = knob->text(v);
    row["knobs"] = knobs;
    row["description"] = m.description;
    if (m.unsupported)
      row["unsupported"] = {{"limit", name(m.unsupported->limit)}, {"reason", m.unsupported->reason},
                            {"needed", m.unsupported->needed}, {"available", m.unsupported->available}};
    json spans = json::object();
    for (const std::string& span : m.span_order) {
      const Stats st = stats_of(m.spans_ms.at(span));
      spans[span] = {{"median_ms", st.median}, {"min_ms", st.min}, {"max_ms", st.max}, {"spread_ms", st.spread}, {"count", st.count}};
    }
    row["spans"] = spans;
    const EffectStages s = effect_stages(m);
    auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
    row["stages_ms"] = {{"prefilter", opt(s.prefilter_ms)}, {"blur", opt(s.blur_ms)}, {"composite", opt(s.composite_ms)}};
    row["total_ms"] = opt(m.total_median());
    row["copy_ms"] = opt(r.effect_copy_ms(m));
    if (m.total_median() && r.effect_copy_ms(m)) row["x_copy"] = *m.total_median() / *r.effect_copy_ms(m);
    if (m.check) {
      json stages = json::array();
      for (const StageCheck& st : m.check->stages)
        stages.push_back({{"stage", st.stage}, {"ok", st.result.ok}, {"max_error", st.result.text()}, {"worst", st.result.worst_text()},
                          {"tolerance", st.tolerance.reason}});
      const EffectFidelity& f = m.check->fidelity;
      row["check"] = {{"ok", m.check->ok()},
                      {"stages", stages},
                      {"fidelity",
                       {{"max_lsb", f.max_lsb},
                        {"rms_lsb", f.rms_lsb},
                        {"psnr_db", std::isfinite(f.psnr_db) ? json(f.psnr_db) : json(nullptr)},
                        {"layer", f.layer},
                        {"layer_max_relative", f.layer_max_relative},
                        {"layer_rms_relative", f.layer_rms_relative},
                        {"region", f.region},
                        {"region_pixels", f.region_pixels},
                        {"region_max_lsb", f.region_max_lsb},
                        {"region_rms_lsb", f.region_rms_lsb},
                        {"region_psnr_db", std::isfinite(f.region_psnr_db) ? json(f.region_psnr_db) : json(nullptr)}}}};
    }
    rows.push_back(row);
  }
  return rows;
}

void write_effect_csv(const Report& r, std::ostream& out) {
  out << "effect,implementation,width,height,parameters,border,supported,reason,prefilter_ms,blur_ms,composite_ms,total_median_ms,copy_ms,"
         "x_copy,check,failed_stage,max_lsb,rms_lsb,psnr_db,layer_max_relative,layer_rms_relative,region,region_pixels,region_max_lsb,"
         "region_rms_lsb,region_psnr_db\n";
  auto opt = [](const std::optional<double>& v) { return v ? format_double(*v, 6) : std::string(); };
  for (const EffectMeasurement& m : r.effect_rows) {
    std::string values;
    for (const auto& [name, value] : m.settings.values) values += (values.empty() ? "" : " ") + name + "=" + value;
    const EffectStages s = effect_stages(m);
    const auto total = m.total_median();
    const auto copy = r.effect_copy_ms(m);
    const EffectFidelity* f = m.check ? &m.check->fidelity : nullptr;
    const StageCheck* failed = m.check ? m.check->first_failure() : nullptr;
    std::vector<std::string> fields{std::string(m.effect->name), m.settings.implementation, std::to_string(m.size.x), std::to_string(m.size.y),
                                    values, std::string(name(m.settings.border.mode)), m.unsupported ? "no" : "yes",
                                    m.unsupported ? m.unsupported->reason : "", opt(s.prefilter_ms), opt(s.blur_ms), opt(s.composite_ms),
                                    opt(total), opt(copy), total && copy ? format_double(*total / *copy, 6) : "",
                                    m.check ? (m.check->ok() ? "ok" : "fail") : "", failed ? failed->stage : "",
                                    f ? format_double(f->max_lsb, 6) : "", f ? format_double(f->rms_lsb, 6) : "",
                                    f && std::isfinite(f->psnr_db) ? format_double(f->psnr_db, 6) : "",
                                    f ? format_double(f->layer_max_relative, 6) : "", f ? format_double(f->layer_rms_relative, 6) : "",
                                    f ? f->region : "", f && f->region_pixels ? std::to_string(f->region_pixels) : "",
                                    f && f->region_pixels ? format_double(f->region_max_lsb, 6) : "",
                                    f && f->region_pixels ? format_double(f->region_rms_lsb, 6) : "",
                                    f && f->region_pixels && std::isfinite(f->region_psnr_db) ? format_double(f->region_psnr_db, 6) : ""};
    for (size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << csv_field(fields[i]);
    out << "\n";
  }
}

std::vector<std::pair<std::string, std::string>> effect_crop_files(const Report& r) {
  std::vector<std::pair<std::string, std::string>> files;
  const std::vector<std::string> list = headings(r);
  for (size_t g = 0; g < list.size(); ++g) {
    bool truth_written = false;
    for (const EffectMeasurement* m : group(r, list[g])) {
      if (!m->crop || !m->truth_crop) continue;
      if (!truth_written) {
        files.emplace_back(crop_name(g, "ground-truth"), codecs::encode_png(*m->truth_crop, 8));
        truth_written = true;
      }
      files.emplace_back(crop_name(g, m->settings.implementation), codecs::encode_png(*m->crop, 8));
      files.emplace_back(crop_name(g, m->settings.implementation + "-difference"), codecs::encode_png(difference_image(*m->crop, *m->truth_crop), 8));
    }
  }
  return files;
}

void write_effect_markdown(const Report& r, std::ostream& out) {
  const std::vector<std::string> list = headings(r);
  for (size_t g = 0; g < list.size(); ++g) {
    out << "\n### " << markdown_text(list[g]) << "\n\n";
    std::vector<std::string> footnotes;
    md_table(out, effect_table_header(), effect_table_rows(r, list[g], footnotes));
    if (!footnotes.empty()) out << "\n";
    for (size_t i = 0; i < footnotes.size(); ++i) out << "[" << i + 1 << "] " << markdown_text(footnotes[i]) << "\n\n";
    const std::vector<const EffectMeasurement*> rows = group(r, list[g]);
    const auto with_crop = std::find_if(rows.begin(), rows.end(), [](const EffectMeasurement* m) { return m->crop && m->truth_crop; });
    if (with_crop == rows.end()) continue;
    const glm::ivec2 o = (*with_crop)->crop_origin;
    const std::string& region = (*with_crop)->check ? (*with_crop)->check->fidelity.region : std::string();
    out << "\nWhere the effect shows most" << (region.empty() ? "" : " at " + markdown_text(region)) << " (a " << (*with_crop)->crop->width << "x"
        << (*with_crop)->crop->height << " crop at " << o.x << "," << o.y
        << "): the ground truth, then each implementation's shipped frame and its difference to the truth (x8).\n\n";
    out << "![ground truth](" << crop_name(g, "ground-truth") << ")\n\n";
    for (const EffectMeasurement* m : rows)
      if (m->crop && m->truth_crop)
        out << "**" << markdown_text(m->settings.implementation) << "**\n\n![" << markdown_text(m->settings.implementation) << "]("
            << crop_name(g, m->settings.implementation) << ")\n![difference](" << crop_name(g, m->settings.implementation + "-difference")
            << ")\n\n";
  }
}

std::string effect_failure_text(const EffectMeasurement& m) {
  const StageCheck* failed = m.check ? m.check->first_failure() : nullptr;
  if (!failed) return m.settings.implementation + ": ok";
  return effect_heading(m) + ": " + m.settings.implementation + ", stage " + failed->stage + " over its tolerance: " + failed->result.text() +
         ", " + failed->result.worst_text() + " (" + failed->tolerance.reason + ")";
}

}  // namespace blurlab::report
