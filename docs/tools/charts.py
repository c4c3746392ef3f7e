#!/usr/bin/env python3
"""Charts from a blurlab report (blurlab --headless --json REPORT.json).

  python3 docs/tools/charts.py REPORT.json [MORE.json ...] [--out DIR] [--log] [--radius R] [--prefix NAME]

Writes, for every image size, input format and kernel in the report:
  <prefix>time_vs_radius_<size>_<format>_<kernel>.png   median GPU time per variant against r
                                                         (with the copy pass as the floor)
  <prefix>bars_<size>_<format>_<kernel>_r<R>.png         one bar per variant at radius R
                                                         (default: the largest radius measured)
and, when the report has approximations of the Gaussian (blurlab --kernel gauss --sigma ...):
  <prefix>frontier_<size>_<format>.png                   the quality-cost frontier, one panel per
                                                         sigma: GPU time (x) against the error
                                                         to the exact Gaussian (y, --metric rms or
                                                         max LSB), the exact variants on the floor,
                                                         the Pareto front marked
and prints the paths. --log draws time on a log scale (naive 2D is 100x slower than the rest).
"""
import argparse
import collections
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

STAGE_STYLE = {"fragment": "--", "compute": "-"}
# Sixteen variants: twenty distinct colours, so no two lines share one.
plt.rcParams["axes.prop_cycle"] = plt.cycler(color=plt.get_cmap("tab20").colors)


def load(path):
    try:
        with open(path) as f:
            report = json.load(f)
        report["results"], report["gl"]["renderer"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"charts.py: {path} is not a blurlab JSON report ({e})")
    return report


def total_ms(row):
    return row["spans"]["total"]["median_ms"] if row.get("supported") and "total" in row.get("spans", {}) else None


def groups(report):
    """(width, height, format, kernel) -> {variant: {radius: ms}}, plus the copy pass per size."""
    series = collections.defaultdict(lambda: collections.defaultdict(dict))
    floors = {}
    for row in report["results"]:
        ms = total_ms(row)
        if ms is None:
            continue
        s, size = row["settings"], (row["size"]["width"], row["size"]["height"])
        if row.get("role") == "floor":
            floors[(size, s["input_format"])] = ms
            continue
        key = (size, s["input_format"], s["kernel"])
        previous = series[key][row["variant"]].get(s["radius"])
        series[key][row["variant"]][s["radius"]] = ms if previous is None else min(previous, ms)
    return series, floors


def stage_of(report, variant):
    for row in report["results"]:
        if row["variant"] == variant:
            return row["stage"]
    return "compute"


def title(report, size, fmt, kernel):
    return f"{report['gl']['renderer']}\n{size[0]}x{size[1]} {fmt}, {kernel}"


def frontier_points(report):
    """(size, format) -> {sigma: [(ms, fidelity, variant, row)]} of the timed Gaussian rows with a fidelity."""
    points = collections.defaultdict(lambda: collections.defaultdict(list))
    for row in report["results"]:
        ms = total_ms(row)
        s = row["settings"]
        if ms is None or s.get("kernel") != "gauss" or "fidelity" not in row:
            continue
        size = (row["size"]["width"], row["size"]["height"])
        points[(size, s["input_format"])][s["sigma"]].append((ms, row["fidelity"], row["variant"], row))
    return points


def pareto(points):
    """The points no other is both faster and closer than, fastest first: (ms, error)."""
    front, best = [], float("inf")
    for ms, error in sorted(points):
        if error < best:
            front.append((ms, error))
            best = error
    return front


def frontier_chart(report, size, fmt, by_sigma, metric, floor_ms, path):
    """One panel per requested sigma: time against error, exact variants on the floor."""
    key = "rms_lsb" if metric == "rms" else "max_lsb"
    sigmas = sorted(by_sigma)
    cols = min(3, len(sigmas))
    rows = (len(sigmas) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 4.2 * rows), squeeze=False)
    variants = sorted({p[2] for sigma in sigmas for p in by_sigma[sigma]})
    colors = {v: plt.get_cmap("tab20")(i % 20) for i, v in enumerate(variants)}
    errors = [p[1][key] for sigma in sigmas for p in by_sigma[sigma] if not p[1].get("exact")]
    positive = [e for e in errors if e > 0]
    floor = min(positive) / 3 if positive else 0.1  # where the exact variants sit
    for index, sigma in enumerate(sigmas):
        ax = axes[index // cols][index % cols]
        plotted = []
        for ms, fidelity, variant, row in by_sigma[sigma]:
            exact = bool(fidelity.get("exact"))
            y = floor if exact else max(fidelity[key], floor)
            ax.scatter([ms], [y], color=colors[variant], marker="s" if exact else "o", s=22, zorder=3, label=variant)
            plotted.append((ms, y))
            if not exact:
                text = row["settings"].get("approximation", {}).get("parameters", "")
                ax.annotate(text, (ms, y), fontsize=5, xytext=(3, 2), textcoords="offset points", color=colors[variant])
        front = pareto(plotted)
        if front:
            xs, ys = zip(*front)
            ax.step(xs, ys, where="post", color="black", linewidth=0.8, linestyle="--", zorder=2, label="Pareto front")
        ax.axhline(floor, color="grey", linewidth=0.6, linestyle=":")
        ax.text(0.01, 0.02, "exact variants (within 1 LSB max by construction)", transform=ax.transAxes, fontsize=6,
                color="grey")
        if floor_ms:
            ax.axvline(floor_ms, color="black", linewidth=0.8, linestyle=":", label=f"copy {floor_ms:.3g} ms")
        ax.set_xscale("log")
        ax.set_yscale("log")
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
            axis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_title(f"sigma {sigma:g}", fontsize=9)
        ax.set_xlabel("median GPU time (ms)", fontsize=8)
        ax.set_ylabel(f"{metric} error vs the exact Gaussian (LSB)", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(True, which="both", alpha=0.3)
    for index in range(len(sigmas), rows * cols):
        axes[index // cols][index % cols].axis("off")
    handles, labels = [], []
    for ax in axes.flat:
        for h, l in zip(*ax.get_legend_handles_labels()):
            if l not in labels:
                handles.append(h)
                labels.append(l)
    fig.legend(handles, labels, fontsize=7, loc="lower center", ncol=min(6, len(labels)), frameon=False)
    source = report.get("run", {}).get("input", "scene")
    fig.suptitle(f"{report['gl']['renderer']}: {size[0]}x{size[1]} {fmt}, input {source}", fontsize=10)
    fig.tight_layout(rect=(0, 0.08 if len(labels) > 6 else 0.05, 1, 0.96))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reports", nargs="+", help="JSON reports of one GPU (several sweeps are merged)")
    parser.add_argument("--out", default=".")
    parser.add_argument("--log", action="store_true", help="log scale for time")
    parser.add_argument("--radius", type=int, help="radius of the bar chart (default: the largest measured)")
    parser.add_argument("--prefix", default="", help="file name prefix, e.g. h200_")
    parser.add_argument("--metric", choices=["rms", "max"], default="rms", help="frontier error: RMS or max LSB")
    args = parser.parse_args()
    report = load(args.reports[0])
    for more in args.reports[1:]:
        report["results"] += load(more)["results"]
    os.makedirs(args.out, exist_ok=True)
    series, floors = groups(report)
    if not series:
        sys.exit("charts.py: the report has no timed blur results (run with --frames above 0)")
    written = []
    for (size, fmt), by_sigma in sorted(frontier_points(report).items()):
        if not any(not p[1].get("exact") for points in by_sigma.values() for p in points):
            continue  # no approximation: no frontier to draw
        path = os.path.join(args.out, f"{args.prefix}frontier_{size[0]}x{size[1]}_{fmt}.png")
        frontier_chart(report, size, fmt, by_sigma, args.metric, floors.get((size, fmt)), path)
        written.append(path)
    for (size, fmt, kernel), by_variant in sorted(series.items()):
        tag = f"{size[0]}x{size[1]}_{fmt}_{kernel}"
        floor = floors.get((size, fmt))

        fig, ax = plt.subplots(figsize=(9, 5.5))
        for variant, points in sorted(by_variant.items()):
            radii = sorted(points)
            ax.plot(radii, [points[r] for r in radii], STAGE_STYLE.get(stage_of(report, variant), "-"), marker="o",
                    markersize=3, label=variant)
        if floor:
            ax.axhline(floor, color="black", linewidth=1, linestyle=":", label=f"copy pass (floor) {floor:.3g} ms")
        ax.set_xlabel("radius r (taps -r..r)")
        ax.set_ylabel("median GPU time (ms)")
        if args.log:
            ax.set_yscale("log")
        ax.set_title(title(report, size, fmt, kernel), fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
        fig.tight_layout()
        path = os.path.join(args.out, f"{args.prefix}time_vs_radius_{tag}.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)

        radii = sorted({r for points in by_variant.values() for r in points})
        radius = args.radius if args.radius is not None else radii[-1]
        bars = sorted(((points[radius], v) for v, points in by_variant.items() if radius in points))
        if not bars:
            continue
        fig, ax = plt.subplots(figsize=(9, 0.35 * len(bars) + 1.8))
        names = [v for _, v in bars]
        values = [ms for ms, _ in bars]
        colors = ["tab:orange" if stage_of(report, v) == "fragment" else "tab:blue" for v in names]
        ax.barh(names, values, color=colors)
        if floor:
            ax.axvline(floor, color="black", linewidth=1, linestyle=":", label=f"copy pass (floor) {floor:.3g} ms")
            ax.legend(fontsize=8, loc="upper right")
        for y, ms in enumerate(values):
            ax.text(ms, y, f" {ms:.3g} ms" + (f" ({ms / floor:.1f}x copy)" if floor else ""), va="center", fontsize=7)
        if args.log:
            ax.set_xscale("log")
        ax.invert_yaxis()
        ax.set_xlabel("median GPU time (ms); orange: fragment, blue: compute")
        ax.set_title(title(report, size, fmt, f"{kernel} r={radius}"), fontsize=10)
        fig.tight_layout()
        path = os.path.join(args.out, f"{args.prefix}bars_{tag}_r{radius}.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
