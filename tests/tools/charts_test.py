#!/usr/bin/env python3
"""Checks docs/tools/charts.py on a made-up report (tests/CMakeLists.txt runs it as report.charts):
each variant has one colour in every chart, --log puts the radius on a log scale too, and a chart
names the variants of the report it does not show (box-only variants in the Gaussian chart).

  python3 tests/tools/charts_test.py docs/tools/charts.py
"""
import importlib.util
import sys

spec = importlib.util.spec_from_file_location("charts", sys.argv[1])
charts = importlib.util.module_from_spec(spec)
spec.loader.exec_module(charts)

VARIANTS = ["copy", "frag-naive", "frag-separable", "compute-separable", "compute-sliding"]


def row(variant, stage, role, kernel, radius, ms, kernels="box,gauss", supported=True):
    r = {"variant": variant, "stage": stage, "role": role, "kernels": kernels, "size": {"width": 64, "height": 48},
         "settings": {"input_format": "rgba8", "kernel": kernel, "radius": radius}, "supported": supported}
    if supported:
        r["spans"] = {"total": {"median_ms": ms}}
    else:
        r["reason"] = "box kernel only (a running sum cannot weight taps)"
    return r


def report(radii):
    results = [row("copy", "compute", "floor", "box", 0, 0.1)]
    for kernel in ("box", "gauss"):
        for r in radii:
            results.append(row("frag-naive", "fragment", "baseline", kernel, r, 1.0 + r * r))
            results.append(row("frag-separable", "fragment", "blur", kernel, r, 0.5 + r))
            results.append(row("compute-separable", "compute", "blur", kernel, r, 0.4 + r))
            results.append(row("compute-sliding", "compute", "blur", kernel, r, 0.3, "box", kernel == "box"))
    # Registry order differs from name order, so a colour cannot come from sorting.
    return {"gl": {"renderer": "test"}, "variants": list(reversed(VARIANTS)), "results": results}


failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


made = charts.charts(report([1, 2, 4, 8]), log=True)
check([tag for tag, _ in made] == ["time_vs_radius_64x48_rgba8_box", "bars_64x48_rgba8_box_r8", "time_vs_radius_64x48_rgba8_gauss",
                                   "bars_64x48_rgba8_gauss_r8"], f"charts made: {[tag for tag, _ in made]}")
colours = {}
for tag, fig in made:
    ax = fig.axes[0]
    drawn = [(line.get_label(), line.get_color()) for line in ax.get_lines()]
    drawn += [(label.get_text(), patch.get_facecolor()) for label, patch in zip(ax.get_yticklabels(), ax.patches)]
    for label, colour in drawn:
        if label in VARIANTS:
            rgb = tuple(round(c, 4) for c in charts.matplotlib.colors.to_rgb(colour))
            check(colours.setdefault(label, rgb) == rgb, f"{label} is {rgb} in {tag}, {colours[label]} elsewhere")
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    if tag.startswith("time_vs_radius"):
        check(ax.get_xscale() == "log", f"{tag}: --log leaves the radius axis {ax.get_xscale()}")
        check(ax.get_yscale() == "log", f"{tag}: --log leaves the time axis {ax.get_yscale()}")
    if "gauss" in tag:
        check(any("not shown (box kernel only): compute-sliding" in t for t in legend), f"{tag} does not name compute-sliding: {legend}")
    else:
        check(not any("not shown" in t for t in legend), f"{tag} names variants it shows: {legend}")
check(len(colours) == 4, f"variants seen: {sorted(colours)}")
check(len(set(colours.values())) == len(colours), f"two variants share a colour: {colours}")

# r = 0 cannot sit on a log axis: symlog keeps it.
with_zero = charts.charts(report([0, 1, 2, 4]), log=True)
check(with_zero[0][1].axes[0].get_xscale() == "symlog", "r = 0 with --log: the radius axis is not symlog")
check(charts.charts(report([1, 2]), log=False)[0][1].axes[0].get_xscale() == "linear", "without --log the radius axis is not linear")

for message in failures:
    print("FAIL:", message)
print(f"charts_test: {len(failures)} failures, {len(colours)} variants with one colour each")
sys.exit(1 if failures else 0)
