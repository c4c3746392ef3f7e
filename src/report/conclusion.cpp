#include "report/conclusion.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "util/markup.h"
#include "util/strings.h"

namespace blurlab::report {

namespace {

std::optional<Pick> pick(const Measurement& m) {
  const auto it = m.spans_ms.find("total");
  if (m.unsupported || it == m.spans_ms.end() || it->second.empty()) return std::nullopt;
  const Stats s = stats_of(it->second);
  return Pick{&m, s.median, s.median > 0 ? 50.0 * s.spread / s.median : 0.0};
}

bool passed(const Measurement& m) { return !m.check || m.check->ok; }

double psnr(const Measurement& m) { return m.fidelity ? m.fidelity->psnr_db : -INFINITY; }

// The rows of one conclusion: same image, input format, light, kernel and border.
auto kernel_group(const Measurement& m) {
  const Kernel& k = m.settings.kernel;
  return std::tuple(m.size.x, m.size.y, static_cast<int>(m.settings.input_format), m.settings.linear, static_cast<int>(k.type),
                    k.radius, k.sigma, static_cast<int>(m.settings.border.mode), m.settings.border.value,
                    m.settings.radius_map.get());  // a per-pixel radius map blurs another image than the uniform rows
}

std::string fixed(double v, int digits) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

std::string time_text(const Pick& p) {
  return format_double(p.median_ms, 4) + " ms +-" + fixed(p.spread_percent, 0) + "%";
}

std::string name_of(const Pick& p) { return std::string(p.row->variant->name); }

std::string psnr_text(const Pick& p) { return std::isfinite(psnr(*p.row)) ? fixed(psnr(*p.row), 1) + " dB" : "equal"; }

std::string exact_text(const KernelConclusion& k) {
  if (!k.exact) return "none ran and passed its check";
  return name_of(*k.exact) + ", " + time_text(*k.exact);
}

std::string approximation_text(const Conclusion& c, const KernelConclusion& k) {
  if (k.approximation) {
    std::string text = name_of(*k.approximation) + ", " + time_text(*k.approximation) + ", " + psnr_text(*k.approximation);
    if (k.exact)
      text += k.approximation->median_ms < k.exact->median_ms
                  ? ", " + format_double(k.exact->median_ms / k.approximation->median_ms, 3) + "x as fast as the exact one"
                  : ", no faster than the exact one";
    return text;
  }
  if (k.closest_approximation)
    return "none reaches " + fixed(c.min_psnr_db, 0) + " dB (the closest: " + name_of(*k.closest_approximation) + ", " +
           psnr_text(*k.closest_approximation) + ")";
  return "";
}

std::string uncertain_text(const KernelConclusion& k) {
  return k.heading + ": " + name_of(*k.exact) + " (" + time_text(*k.exact) + ") and " + name_of(*k.runner_up) + " (" +
         time_text(*k.runner_up) + ") overlap within their spreads, so which is faster is not settled by this run";
}

std::string spread_text(const Pick& p) {
  return name_of(p) + " in " + group_heading(p.row->size, *p.row->variant, p.row->settings) + ": " + time_text(p);
}

}  // namespace

Conclusion conclude(const Report& report, double min_psnr_db, double wide_spread_percent) {
  Conclusion c;
  c.min_psnr_db = min_psnr_db;
  c.wide_spread_percent = wide_spread_percent;
  // The groups in the order their first row ran.
  std::vector<std::vector<const Measurement*>> groups;
  std::map<decltype(kernel_group(report.rows.front())), size_t> index;
  for (const Measurement& m : report.rows) {
    if (const auto p = pick(m)) {
      c.timed = true;
      if (p->spread_percent > wide_spread_percent) c.wide_spreads.push_back(*p);
    }
    if (!is_blur(*m.variant)) continue;
    const auto [it, added] = index.try_emplace(kernel_group(m), groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back(&m);
  }
  if (!c.timed) return c;
  for (const auto& rows : groups) {
    KernelConclusion k;
    k.heading = group_heading(rows.front()->size, *rows.front()->variant, rows.front()->settings);
    std::vector<Pick> exact;
    for (const Measurement* m : rows) {
      const auto p = pick(*m);
      if (!p || !passed(*m)) continue;
      if (!is_approximation(*m->variant)) {
        exact.push_back(*p);
      } else if (psnr(*m) >= min_psnr_db) {
        if (!k.approximation || p->median_ms < k.approximation->median_ms) k.approximation = p;
      } else if (!k.closest_approximation || psnr(*m) > psnr(*k.closest_approximation->row)) {
        k.closest_approximation = p;
      }
    }
    if (k.approximation) k.closest_approximation.reset();
    std::stable_sort(exact.begin(), exact.end(), [](const Pick& a, const Pick& b) { return a.median_ms < b.median_ms; });
    if (!exact.empty()) k.exact = exact[0];
    if (exact.size() > 1) {
      k.runner_up = exact[1];
      // median +- (p90 - p10) / 2, which spread_percent is in percent of the median.
      auto reach = [](const Pick& p, double side) { return p.median_ms * (1 + side * p.spread_percent / 100); };
      k.uncertain = reach(exact[0], +1) >= reach(exact[1], -1);
    }
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
  out << "From this run's rows: per image and kernel the fastest exact variant that passed its check (times are medians, "
         "+- half the p90 - p10 spread), and the fastest approximation of the Gaussian whose PSNR against the exact "
         "Gaussian is at least "
      << fixed(c.min_psnr_db, 0) << " dB.\n\n";
  const bool approximations = std::any_of(c.kernels.begin(), c.kernels.end(), [](const KernelConclusion& k) {
    return k.approximation || k.closest_approximation;
  });
  out << "| image and kernel | fastest exact |" << (approximations ? " fastest approximation at PSNR >= " + fixed(c.min_psnr_db, 0) + " dB |" : "")
      << "\n| --- | --- |" << (approximations ? " --- |" : "") << "\n";
  for (const KernelConclusion& k : c.kernels) {
    out << "| " << markdown_text(k.heading) << " | " << exact_text(k) << (k.uncertain ? " (uncertain, see below)" : "") << " |";
    if (approximations) out << " " << (approximation_text(c, k).empty() ? "-" : approximation_text(c, k)) << " |";
    out << "\n";
  }
  std::vector<std::string> warnings;
  for (const KernelConclusion& k : c.kernels)
    if (k.uncertain) warnings.push_back("Uncertain ranking: " + uncertain_text(k) + ".");
  if (!c.wide_spreads.empty()) {
    std::string list;
    for (const Pick& p : c.wide_spreads) list += "\n  - " + spread_text(p);
    warnings.push_back("Spread above +-" + fixed(c.wide_spread_percent, 0) +
                       "%: these times moved too much between frames to rank them (a busy machine, clocks changing; "
                       "more --frames or a quieter machine):" + list);
  }
  if (!warnings.empty()) out << "\n";
  for (const std::string& w : warnings) out << "- " << w << "\n";
}

void write_conclusion_text(const Conclusion& c, std::ostream& out) {
  if (!c.timed || c.kernels.empty()) return;
  out << "\nConclusion (the page made by --report says more):\n";
  for (const KernelConclusion& k : c.kernels) {
    std::string line = k.heading + ": fastest exact " + exact_text(k);
    if (const std::string approximation = approximation_text(c, k); !approximation.empty())
      line += "; fastest approximation at PSNR >= " + fixed(c.min_psnr_db, 0) + " dB: " + approximation;
    out << "- " << wrapped(line, kTableWidth - 2, "  ") << "\n";
  }
  for (const KernelConclusion& k : c.kernels)
    if (k.uncertain) out << "- " << wrapped("uncertain: " + uncertain_text(k), kTableWidth - 2, "  ") << "\n";
  for (const Pick& p : c.wide_spreads)
    out << "- " << wrapped("spread above +-" + fixed(c.wide_spread_percent, 0) + "%: " + spread_text(p), kTableWidth - 2, "  ") << "\n";
}

}  // namespace blurlab::report
