#!/usr/bin/env python3
"""Charts from a blurlab report (blurlab --headless --json REPORT.json).

  python3 docs/tools/charts.py REPORT.json [MORE.json ...] [--out DIR] [--log] [--radius R] [--prefix NAME]

Writes, for every image size, input format and kernel (with its border mode, when not clamp:
"box_wrap") in the report:
  <prefix>time_vs_radius_<size>_<format>_<kernel>.png   median GPU time per variant against r
                                                         (with the copy pass as the floor)
  <prefix>bars_<size>_<format>_<kernel>_r<R>.png         one bar per variant at radius R
                                                         (default: the largest radius measured)
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
    """(width, height, format, kernel) -> {variant: {radius: ms}}, plus the copy pass per size.
    A border mode other than clamp is a kernel of its own ("box_wrap"): modes are not mixed."""
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
        border = s.get("border", "clamp")
        key = (size, s["input_format"], s["kernel"] if border == "clamp" else f'{s["kernel"]}_{border}')
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


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reports", nargs="+", help="JSON reports of one GPU (several sweeps are merged)")
    parser.add_argument("--out", default=".")
    parser.add_argument("--log", action="store_true", help="log scale for time")
    parser.add_argument("--radius", type=int, help="radius of the bar chart (default: the largest measured)")
    parser.add_argument("--prefix", default="", help="file name prefix, e.g. h200_")
    args = parser.parse_args()
    report = load(args.reports[0])
    for more in args.reports[1:]:
        report["results"] += load(more)["results"]
    os.makedirs(args.out, exist_ok=True)
    series, floors = groups(report)
    if not series:
        sys.exit("charts.py: the report has no timed blur results (run with --frames above 0)")
    written = []
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
