#include "report/conclusion.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "blur/radius_map.h"
#include "util/markup.h"
#include "util/strings.h"

namespace blurlab::report {

namespace {

// A ranking's candidate: its pick, whether it may be ranked at all, and among which.
struct Candidate {
  Pick pick;
  bool passed = true;  // ran its check within its tolerance, or was not checked
  bool approximation = false;
};

std::optional<Pick> pick(const Measurement& m) {
  const auto it = m.spans_ms.find("total");
  if (m.unsupported || it == m.spans_ms.end() || it->second.empty()) return std::nullopt;
  const Stats s = stats_of(it->second);
  Pick p{&m, std::string(m.variant->name), s.median, s.median > 0 ? 50.0 * s.spread / s.median : 0.0, s.median};
  if (m.fidelity && std::isfinite(m.fidelity->psnr_db)) p.psnr_db = m.fidelity->psnr_db;
  return p;
}

Pick pick(const ResultsRow& r) {
  Pick p{nullptr, r.variant, r.median_ms, r.median_ms > 0 ? 50.0 * r.spread_ms / r.median_ms : 0.0, r.x_copy};
  p.x_copy = r.x_copy;
  p.psnr_db = r.psnr_db;
  return p;
}

// An approximation's PSNR; one equal to the exact kernel has none (infinite).
double psnr(const Pick& p) {
  if (p.row) return p.row->fidelity ? p.row->fidelity->psnr_db : -INFINITY;
  return p.psnr_db.value_or(-INFINITY);
}

// value +- half the spread, `side` -1 or +1.
double reach(const Pick& p, double side) { return p.value * (1 + side * p.spread_percent / 100); }

// The fastest of `picks` (each variant by its fastest row) and the variants within its reach.
Ranking rank(std::vector<Pick> picks) {
  std::stable_sort(picks.begin(), picks.end(), [](const Pick& a, const Pick& b) { return a.value < b.value; });
  Ranking r;
  std::vector<std::string> seen;
  for (Pick& p : picks) {
    if (std::find(seen.begin(), seen.end(), p.variant) != seen.end()) continue;
    seen.push_back(p.variant);
    if (!r.fastest) r.fastest = std::move(p);
    else if (reach(*r.fastest, +1) >= reach(p, -1)) r.tied.push_back(std::move(p));
  }
  return r;
}

Answer answer(const std::vector<Candidate>& candidates, double min_psnr_db) {
  Answer a;
  std::vector<Pick> exact, close;
  std::vector<std::string> variants;
  for (const Candidate& c : candidates) {
    if (std::find(variants.begin(), variants.end(), c.pick.variant) == variants.end()) {
      variants.push_back(c.pick.variant);
      if (!c.approximation) ++a.exact_variants;
    }
    if (!c.passed) continue;
    if (!c.approximation) exact.push_back(c.pick);
    else if (psnr(c.pick) >= min_psnr_db) close.push_back(c.pick);
    else if (!a.closest_approximation || psnr(c.pick) > psnr(*a.closest_approximation)) a.closest_approximation = c.pick;
  }
  a.variants = variants.size();
  a.exact = rank(std::move(exact));
  a.approximation = rank(std::move(close));
  if (a.approximation.fastest) a.closest_approximation.reset();
  return a;
}

// The rows of one conclusion: same image, input format, light, kernel and border.
auto kernel_group(const Measurement& m) {
  const Kernel& k = m.settings.kernel;
  return std::tuple(m.size.x, m.size.y, static_cast<int>(m.settings.input_format), m.settings.linear, static_cast<int>(k.type),
                    k.radius, k.sigma, static_cast<int>(m.settings.border.mode), m.settings.border.value,
                    m.settings.radius_map.get());  // a per-pixel radius map blurs another image than the uniform rows
}

// --- what the GPUs' results files answer -------------------------------------------------------

// "NVIDIA NAME/PCIe/SSE2" -> "NVIDIA NAME": NVIDIA's GL_RENDERER names the bus and the CPU's
// instruction set after the GPU.
std::string gpu_name(const std::string& renderer) { return renderer.substr(0, renderer.find('/')); }

bool same_sigma(double a, double b) { return std::abs(a - b) <= 1e-3 * std::max(1.0, std::abs(b)); }

// How far a kernel the file measured is from the one asked for: 0 for the same; otherwise the
// ratio of the sigmas (gauss) or of the widths (box) on a log scale.
double kernel_distance(const Kernel& measured, const Kernel& asked) {
  if (measured.radius == asked.radius && same_sigma(measured.sigma, asked.sigma)) return 0.0;
  if (asked.type == KernelType::Gauss) return std::abs(std::log(measured.sigma / asked.sigma)) + 1e-6 * std::abs(measured.radius - asked.radius);
  return std::abs(std::log((2.0 * measured.radius + 1) / (2.0 * asked.radius + 1)));
}

std::optional<GpuAnswer> gpu_answer(const ResultsFile& file, const Measurement& asked, double min_psnr_db) {
  const BlurSettings& s = asked.settings;
  const std::string map = s.radius_map ? describe(s.radius_map.get()) : "";
  std::vector<const ResultsRow*> rows, older;
  for (const ResultsRow& r : file.rows)
    if (r.kernel.type == s.kernel.type && r.input_format == gl::name(s.input_format) && r.linear == s.linear &&
        r.border == name(s.border.mode) && r.radius_map == map)
      (older_than_code(r) ? older : rows).push_back(&r);
  // Only rows made by today's code at its defaults answer; where none is, the file's rows for the
  // kernel are named as older, and nothing of them is ranked.
  const bool none_current = rows.empty();
  if (none_current) rows = older;
  if (rows.empty()) return std::nullopt;
  // The kernel nearest the one asked for, then the size nearest the run's in pixels, then the most
  // variants.
  const auto pixels = [](glm::ivec2 z) { return std::log(static_cast<double>(z.x) * z.y); };
  const ResultsRow* best = rows.front();
  const auto variants_of = [&](const ResultsRow& like) {
    std::vector<std::string> names;
    for (const ResultsRow* r : rows)
      if (r->size == like.size && r->kernel == like.kernel && std::find(names.begin(), names.end(), r->variant) == names.end())
        names.push_back(r->variant);
    return names.size();
  };
  const auto key = [&](const ResultsRow& r) {
    return std::tuple(kernel_distance(r.kernel, s.kernel), std::abs(pixels(r.size) - pixels(asked.size)), -static_cast<double>(variants_of(r)));
  };
  for (const ResultsRow* r : rows)
    if (key(*r) < key(*best)) best = r;
  std::vector<Candidate> candidates;
  if (!none_current)
    for (const ResultsRow* r : rows)
      if (r->size == best->size && r->kernel == best->kernel) candidates.push_back({pick(*r), r->check_ok, r->approximation});
  GpuAnswer g;
  for (const ResultsRow* r : older)
    if (r->size == best->size && r->kernel == best->kernel && std::find(g.older.begin(), g.older.end(), r->variant) == g.older.end() &&
        std::none_of(candidates.begin(), candidates.end(), [&](const Candidate& c) { return c.pick.variant == r->variant; }))
      g.older.push_back(r->variant);
  g.gpu = gpu_name(file.renderer);
  g.file = file.name;
  g.size = best->size;
  g.kernel = kernel_text(best->kernel);
  g.same_kernel = kernel_distance(best->kernel, s.kernel) == 0.0;
  g.answer = answer(candidates, min_psnr_db);
  return g;
}

// --- the words -------------------------------------------------------------------------------

std::string fixed(double v, int digits) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

// This run's rows by their median; a results file's by their time over the copy.
std::string time_text(const Pick& p) {
  if (!p.row && p.x_copy) return format_double(*p.x_copy, 3) + "x copy";
  return format_double(p.median_ms, 4) + " ms +-" + fixed(p.spread_percent, 0) + "%";
}

std::string psnr_text(const Pick& p) { return std::isfinite(psnr(p)) ? fixed(psnr(p), 1) + " dB" : "equal"; }

// "a (1 ms +-40%), b (1.2 ms +-0%) and 3 more overlap within their spreads"
std::string tied_text(const Ranking& r) {
  constexpr size_t kNamed = 4;
  std::vector<const Pick*> all{&*r.fastest};
  for (const Pick& p : r.tied) all.push_back(&p);
  std::string text;
  for (size_t i = 0; i < std::min(all.size(), kNamed); ++i)
    text += (i == 0 ? "" : i + 1 == all.size() ? " and " : ", ") + all[i]->variant + " (" + time_text(*all[i]) + ")";
  if (all.size() > kNamed) text += " and " + std::to_string(all.size() - kNamed) + " more";
  return text + " overlap within their spreads";
}

// The page's cells (under their column's heading) and the terminal's words, which name the column.
// No exact blur timed (only approximations asked, or a results file's exact rows all older than
// the code) is no exact blur failing: the cell is empty and the terminal says nothing of it.
std::string exact_cell(const Answer& a) {
  if (!a.exact.fastest) return a.exact_variants == 0 ? "" : "none passed its check";
  if (!a.exact.settled()) return "not settled: " + tied_text(a.exact);
  return a.exact.fastest->variant + ", " + time_text(*a.exact.fastest);
}

std::string exact_text(const Answer& a) {
  if (a.exact_variants == 0) return "";
  return a.exact.fastest ? "fastest exact " + exact_cell(a) : "no exact blur passed its check";
}

std::string approximation_cell(const Conclusion& c, const Answer& a) {
  if (a.approximation.fastest) {
    if (!a.approximation.settled()) return "not settled: " + tied_text(a.approximation);
    const Pick& p = *a.approximation.fastest;
    std::string text = p.variant + ", " + time_text(p) + ", " + psnr_text(p);
    // A ratio between two picks holds only where both are settled.
    if (a.exact.settled())
      text += p.value < a.exact.fastest->value ? ", " + format_double(a.exact.fastest->value / p.value, 3) + "x as fast as the exact one"
                                               : ", no faster than the exact one";
    return text;
  }
  if (a.closest_approximation)
    return "none reaches " + fixed(c.min_psnr_db, 0) + " dB (the closest: " + a.closest_approximation->variant + ", " +
           psnr_text(*a.closest_approximation) + ")";
  return "";
}

std::string approximation_text(const Conclusion& c, const Answer& a) {
  if (a.approximation.fastest) return "fastest approximation at PSNR >= " + fixed(c.min_psnr_db, 0) + " dB " + approximation_cell(c, a);
  if (a.closest_approximation) return "no approximation " + approximation_cell(c, a).substr(std::string("none ").size());
  return "";
}

std::string answer_text(const Conclusion& c, const Answer& a) {
  const std::string exact = exact_text(a), approximation = approximation_text(c, a);
  if (exact.empty() && approximation.empty()) return a.variants == 0 ? "nothing ranked" : "no blur ranked";
  return exact + (exact.empty() || approximation.empty() ? "" : "; ") + approximation;
}

std::string variants_text(size_t n) { return std::to_string(n) + (n == 1 ? " variant" : " variants") + " timed"; }

std::string names_text(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return text;
}

std::string source_text(const GpuAnswer& g) {
  const std::string where = g.gpu + " (" + size_text(g.size) + (g.same_kernel ? "" : ", " + g.kernel + ", the nearest kernel it measured");
  if (g.answer.variants == 0)  // every row of the file for this kernel is older: its numbers are not today's answer
    return where + ", " + g.file + "; every row older than today's code or defaults, so none is ranked: " + names_text(g.older) + ")";
  return where + "; " + variants_text(g.answer.variants) + ", " + g.file +
         (g.older.empty() ? "" : "; not ranked, their rows older than today's code or defaults: " + names_text(g.older)) + ")";
}

std::string this_run_text(const Conclusion& c, const Answer& a) {
  return "this run (" + std::string(c.cpu_rasterizer.empty() ? "" : "CPU rasterizer; ") + variants_text(a.variants) + ")";
}

std::string cpu_rasterizer_text(const Conclusion& c) {
  return "This run is on a CPU rasterizer (" + c.cpu_rasterizer +
         "): its ranking says how a CPU runs these shaders and does not carry to GPUs. Beside it, what blurlab measured on "
         "GPUs (the results files in docs/results/ of its source), ranked by the time over a copy of the image in the same "
         "run, for the same kernel or the nearest one measured.";
}

std::string spread_text(const Pick& p) {
  return p.variant + " in " + group_heading(p.row->size, *p.row->variant, p.row->settings) + ": " + time_text(p);
}

std::string unmapped_text(const Conclusion& c) {
  std::string names;
  for (size_t i = 0; i < c.unmapped_variable.size(); ++i)
    names += (i == 0 ? "" : i + 1 == c.unmapped_variable.size() ? " and " : ", ") + c.unmapped_variable[i];
  return "Not ranked: " + names + " blur by a radius map and ran without one (every pixel at r = R, a uniform blur); " +
         "--radius-map ramp (or band, circle, a PNG) ranks them among themselves.";
}

std::string cell(const std::string& text) { return text.empty() ? "-" : text; }

}  // namespace

Conclusion conclude(const Report& report, double min_psnr_db, double wide_spread_percent) {
  static const std::vector<ResultsFile> none;
  return conclude(report, report.gl.software ? embedded_results_files() : none, min_psnr_db, wide_spread_percent);
}

Conclusion conclude(const Report& report, const std::vector<ResultsFile>& gpu_results, double min_psnr_db, double wide_spread_percent) {
  Conclusion c;
  c.min_psnr_db = min_psnr_db;
  c.wide_spread_percent = wide_spread_percent;
  if (report.gl.software) c.cpu_rasterizer = report.gl.renderer;
  // The groups in the order their first row ran.
  std::vector<std::vector<const Measurement*>> groups;
  std::map<decltype(kernel_group(report.rows.front())), size_t> index;
  for (const Measurement& m : report.rows) {
    if (const auto p = pick(m)) {
      c.timed = true;
      if (p->spread_percent > wide_spread_percent) c.wide_spreads.push_back(*p);
    }
    if (!is_blur(*m.variant)) continue;
    if (m.variant->variable_radius && !m.settings.radius_map) {
      if (std::find(c.unmapped_variable.begin(), c.unmapped_variable.end(), m.variant->name) == c.unmapped_variable.end())
        c.unmapped_variable.emplace_back(m.variant->name);
      continue;
    }
    const auto [it, added] = index.try_emplace(kernel_group(m), groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back(&m);
  }
  if (!c.timed) return c;
  for (const auto& rows : groups) {
    KernelConclusion k;
    const Measurement& first = *rows.front();
    k.heading = group_heading(first.size, *first.variant, first.settings);
    std::vector<Candidate> candidates;
    for (const Measurement* m : rows)
      if (const auto p = pick(*m)) candidates.push_back({*p, !m->check || m->check->ok, is_approximation(*m->variant)});
    k.answer = answer(candidates, min_psnr_db);
    for (const ResultsFile& file : gpu_results)
      if (report.gl.software && !file.software)
        if (auto g = gpu_answer(file, first, min_psnr_db)) k.gpus.push_back(std::move(*g));
    c.kernels.push_back(std::move(k));
  }
  return c;
}

void write_conclusion_markdown(const Conclusion& c, std::ostream& out) {
  out << "## Conclusion\n\n";
  if (!c.timed) {
    out << "Nothing was timed (--frames 0), so nothing is ranked; the correctness summary below holds.\n";
    return;
  }
  if (!c.cpu_rasterizer.empty()) out << "**" << cpu_rasterizer_text(c) << "**\n\n";
  out << "Per image and kernel: the fastest exact variant that passed its check and the fastest approximation of the "
         "Gaussian whose PSNR against the exact Gaussian is at least "
      << fixed(c.min_psnr_db, 0)
      << " dB, each named only where the spreads settle it (times are medians, +- half the p90 - p10 spread).\n\n";
  const bool approximations = std::any_of(c.kernels.begin(), c.kernels.end(), [](const KernelConclusion& k) {
    const auto has = [](const Answer& a) { return a.approximation.fastest || a.closest_approximation; };
    return has(k.answer) || std::any_of(k.gpus.begin(), k.gpus.end(), [&](const GpuAnswer& g) { return has(g.answer); });
  });
  const bool sources = !c.cpu_rasterizer.empty();
  out << "| image and kernel |" << (sources ? " measured on |" : "") << " fastest exact |"
      << (approximations ? " fastest approximation at PSNR >= " + fixed(c.min_psnr_db, 0) + " dB |" : "") << "\n| --- |"
      << (sources ? " --- |" : "") << " --- |" << (approximations ? " --- |" : "") << "\n";
  for (const KernelConclusion& k : c.kernels) {
    auto row = [&](const std::string& heading, const std::string& source, const Answer& a) {
      out << "| " << markdown_text(heading) << " |" << (sources ? " " + source + " |" : "") << " " << cell(exact_cell(a)) << " |";
      if (approximations) out << " " << cell(approximation_cell(c, a)) << " |";
      out << "\n";
    };
    bool first = true;
    for (const GpuAnswer& g : k.gpus) {
      row(first ? k.heading : "", source_text(g), g.answer);
      first = false;
    }
    row(first ? k.heading : "", this_run_text(c, k.answer), k.answer);
  }
  std::vector<std::string> warnings;
  for (const KernelConclusion& k : c.kernels)
    if (sources && k.gpus.empty()) warnings.push_back("No GPU's results file has " + k.heading + ".");
  if (!c.wide_spreads.empty()) {
    std::string list;
    for (const Pick& p : c.wide_spreads) list += "\n  - " + spread_text(p);
    warnings.push_back("Spread above +-" + fixed(c.wide_spread_percent, 0) +
                       "%: these times moved too much between frames to rank them (a busy machine, clocks changing; "
                       "more --frames or a quieter machine):" + list);
  }
  if (!c.unmapped_variable.empty()) warnings.push_back(unmapped_text(c));
  if (!warnings.empty()) out << "\n";
  for (const std::string& w : warnings) out << "- " << w << "\n";
}

void write_conclusion_text(const Conclusion& c, std::ostream& out) {
  if (!c.timed || c.kernels.empty()) return;
  const auto item = [&](const std::string& text, const std::string& indent = "") {
    out << indent << "- " << wrapped(text, kTableWidth - 2 - indent.size(), indent + "  ") << "\n";
  };
  out << "\nConclusion (the page made by --report says more):\n";
  if (!c.cpu_rasterizer.empty()) item(cpu_rasterizer_text(c));
  for (const KernelConclusion& k : c.kernels) {
    if (c.cpu_rasterizer.empty()) {
      item(k.heading + ": " + answer_text(c, k.answer));
      continue;
    }
    item(k.heading + ":");
    for (const GpuAnswer& g : k.gpus) item(source_text(g) + ": " + answer_text(c, g.answer), "  ");
    if (k.gpus.empty()) item("no GPU's results file has this kernel", "  ");
    item(this_run_text(c, k.answer) + ": " + answer_text(c, k.answer), "  ");
  }
  for (const Pick& p : c.wide_spreads)
    item("spread above +-" + fixed(c.wide_spread_percent, 0) + "%: " + spread_text(p));
  if (!c.unmapped_variable.empty()) item(unmapped_text(c));
}

}  // namespace blurlab::report
