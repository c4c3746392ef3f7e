#!/usr/bin/env python3
"""Charts from a blurlab report (blurlab --headless --json REPORT.json).

  python3 docs/tools/charts.py REPORT.json [MORE.json ...] [--out DIR] [--log] [--radius R] [--prefix NAME]

Writes, for every image size, input format and kernel (with its border mode, when not clamp:
"box_wrap") in the report:
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
and prints the paths. --log draws time and radius on log scales (naive 2D is 100x slower than the
rest; radius sweeps are often geometric, 1:64:x2). Each variant keeps one colour in every chart
(the registry's order); a variant of the report missing from a chart is named in its legend
with the reason (box-only variants in the Gaussian charts, unsupported settings).
blurlab --report runs this script itself (the program carries a copy).
"""
import argparse
import collections
import json
import os
import sys
import textwrap

try:
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.ticker import FuncFormatter, NullFormatter
except ImportError as e:
    sys.exit(f"charts.py: matplotlib is missing for {sys.executable} ({e}); on Debian: apt-get install python3-matplotlib")

STAGE_STYLE = {"fragment": "--", "compute": "-"}
# Twenty colours for sixteen variants: tab20's ten dark hues first, then their light pairs, so
# neighbours in the registry's order differ in hue.
PALETTE = plt.get_cmap("tab20").colors[0::2] + plt.get_cmap("tab20").colors[1::2]


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


def colours(report):
    """variant -> colour, the same in every chart: the registry's order when the report has it."""
    order = list(report.get("variants", []))
    for row in report["results"]:
        if row["variant"] not in order:
            order.append(row["variant"])
    return {v: PALETTE[i % len(PALETTE)] for i, v in enumerate(order)}


def kernel_label(settings):
    """The kernel, with the border mode when it is not clamp: "box", "box_wrap"."""
    border = settings.get("border", "clamp")
    return settings["kernel"] if border == "clamp" else f'{settings["kernel"]}_{border}'


def groups(report):
    """(size, format, kernel) -> {variant: {radius: ms}}, the copy pass per (size, format), and
    the rows of every blur per (size, format), for saying who is missing from a chart. A border
    mode other than clamp is a kernel of its own ("box_wrap", kernel_label): modes are not mixed."""
    series = collections.defaultdict(lambda: collections.defaultdict(dict))
    floors = {}
    rows_of = collections.defaultdict(list)
    for row in report["results"]:
        s, size = row["settings"], (row["size"]["width"], row["size"]["height"])
        if row.get("role") == "floor" or "kernel" not in s:  # the copy pass (older reports have no role)
            ms = total_ms(row)
            if ms is not None:
                floors[(size, s["input_format"])] = ms
            continue
        rows_of[(size, s["input_format"])].append(row)
        ms = total_ms(row)
        if ms is None:
            continue
        key = (size, s["input_format"], kernel_label(s))
        previous = series[key][row["variant"]].get(s["radius"])
        series[key][row["variant"]][s["radius"]] = ms if previous is None else min(previous, ms)
    return series, floors, rows_of


def missing(rows, kernel, shown):
    """Legend lines for the variants of these rows that a chart of `kernel` (a kernel_label) does not
    show, and why."""
    why = collections.OrderedDict()
    for row in rows:
        variant = row["variant"]
        if variant in shown or variant in why:
            continue
        same = "kernel" in row["settings"] and kernel_label(row["settings"]) == kernel
        if kernel.split("_")[0] not in row.get("kernels", "box,gauss").split(","):
            why[variant] = f"{row.get('kernels')} kernel only"
        elif same and not row.get("supported", True):
            why[variant] = "unsupported: " + row.get("reason", "?")
        elif same:
            why[variant] = "not timed"
    by_reason = collections.OrderedDict()
    for variant, reason in why.items():
        by_reason.setdefault(reason, []).append(variant)
    lines = []
    for reason, variants in by_reason.items():
        if len(reason) > 90:
            reason = reason[:87] + "..."
        lines.append(textwrap.fill(f"not shown ({reason}): " + ", ".join(variants), 44))
    return lines


def note_handles(lines):
    return [Line2D([], [], linestyle="none", label=line) for line in lines]


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


def frontier_chart(report, size, fmt, by_sigma, metric, floor_ms, colour):
    """One panel per requested sigma: time against error, exact variants on the floor."""
    key = "rms_lsb" if metric == "rms" else "max_lsb"
    sigmas = sorted(by_sigma)
    cols = min(3, len(sigmas))
    rows = (len(sigmas) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 4.2 * rows), squeeze=False)
    errors = [p[1][key] for sigma in sigmas for p in by_sigma[sigma] if not p[1].get("exact")]
    positive = [e for e in errors if e > 0]
    floor = min(positive) / 3 if positive else 0.1  # where the exact variants sit
    for index, sigma in enumerate(sigmas):
        ax = axes[index // cols][index % cols]
        plotted = []
        for ms, fidelity, variant, row in by_sigma[sigma]:
            exact = bool(fidelity.get("exact"))
            y = floor if exact else max(fidelity[key], floor)
            ax.scatter([ms], [y], color=colour[variant], marker="s" if exact else "o", s=22, zorder=3, label=variant)
            plotted.append((ms, y))
            if not exact:
                text = row["settings"].get("approximation", {}).get("parameters", "")
                ax.annotate(text, (ms, y), fontsize=5, xytext=(3, 2), textcoords="offset points", color=colour[variant])
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
            axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
            axis.set_minor_formatter(NullFormatter())
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
    return fig


def time_chart(report, size, fmt, kernel, by_variant, floor, notes, colour, log):
    """Median GPU time against the radius, a line per variant; the copy pass as the floor."""
    fig, ax = plt.subplots(figsize=(12, 5.5))
    for variant, points in sorted(by_variant.items()):
        radii = sorted(points)
        ax.plot(radii, [points[r] for r in radii], STAGE_STYLE.get(stage_of(report, variant), "-"), marker="o",
                markersize=3, color=colour[variant], label=variant)
    if floor:
        ax.axhline(floor, color="black", linewidth=1, linestyle=":", label=f"copy pass (floor) {floor:.3g} ms")
    ax.set_xlabel("radius r (taps -r..r)" + (", log scale" if log else ""))
    ax.set_ylabel("median GPU time (ms)")
    if log:
        ax.set_yscale("log")
        radii = {r for points in by_variant.values() for r in points}
        # Radius sweeps are often geometric (1:64:x2); r = 0 needs a linear stretch near zero.
        if 0 in radii:
            ax.set_xscale("symlog", base=2, linthresh=1)
        else:
            ax.set_xscale("log", base=2)
        ax.xaxis.set_major_formatter(FuncFormatter(lambda r, _: f"{r:g}"))  # 1, 2, 4, ... rather than powers
    ax.set_title(title(report, size, fmt, kernel), fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    handles, _ = ax.get_legend_handles_labels()
    # Beside the axes: the lines of slow variants run along the top, where a legend inside would sit.
    ax.legend(handles=handles + note_handles(notes), fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    return fig


def bar_chart(report, size, fmt, kernel, radius, bars, floor, notes, colour, log):
    """One bar per variant at one radius, fastest first."""
    fig, ax = plt.subplots(figsize=(9, 0.35 * (len(bars) + len(notes)) + 1.8))
    names = [v for _, v in bars]
    values = [ms for ms, _ in bars]
    ax.barh(names, values, color=[colour[v] for v in names], edgecolor="white")
    for patch, name in zip(ax.patches, names):
        if stage_of(report, name) == "fragment":
            patch.set_hatch("//")
    handles = []
    if floor:
        ax.axvline(floor, color="black", linewidth=1, linestyle=":", label=f"copy pass (floor) {floor:.3g} ms")
        handles, _ = ax.get_legend_handles_labels()
    if handles or notes:  # below the bars, which fill the axes
        ax.legend(handles=handles + note_handles(notes), fontsize=7, loc="upper left", bbox_to_anchor=(0.0, -0.12))
    for y, ms in enumerate(values):
        ax.text(ms, y, f" {ms:.3g} ms" + (f" ({ms / floor:.1f}x copy)" if floor else ""), va="center", fontsize=7)
    if log:
        ax.set_xscale("log")
    ax.invert_yaxis()
    ax.set_xlabel("median GPU time (ms); hatched: fragment, plain: compute")
    ax.set_title(title(report, size, fmt, f"{kernel} r={radius}"), fontsize=10)
    fig.tight_layout()
    return fig


def charts(report, log=False, radius=None, metric="rms"):
    """Every chart of the report: (file name tag, figure)."""
    series, floors, rows_of = groups(report)
    colour = colours(report)
    made = []
    for (size, fmt), by_sigma in sorted(frontier_points(report).items()):
        if not any(not p[1].get("exact") for points in by_sigma.values() for p in points):
            continue  # no approximation: no frontier to draw
        fig = frontier_chart(report, size, fmt, by_sigma, metric, floors.get((size, fmt)), colour)
        made.append((f"frontier_{size[0]}x{size[1]}_{fmt}", fig))
    for (size, fmt, kernel), by_variant in sorted(series.items()):
        tag = f"{size[0]}x{size[1]}_{fmt}_{kernel}"
        floor = floors.get((size, fmt))
        notes = missing(rows_of[(size, fmt)], kernel, by_variant)
        made.append((f"time_vs_radius_{tag}", time_chart(report, size, fmt, kernel, by_variant, floor, notes, colour, log)))
        radii = sorted({r for points in by_variant.values() for r in points})
        at = radius if radius is not None else radii[-1]
        bars = sorted(((points[at], v) for v, points in by_variant.items() if at in points))
        if bars:
            made.append((f"bars_{tag}_r{at}", bar_chart(report, size, fmt, kernel, at, bars, floor, notes, colour, log)))
    return made


def main():
    parser = argparse.ArgumentParser(prog="charts.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reports", nargs="+", help="JSON reports of one GPU (several sweeps are merged)")
    parser.add_argument("--out", default=".")
    parser.add_argument("--log", action="store_true", help="log scales for time and radius")
    parser.add_argument("--radius", type=int, help="radius of the bar chart (default: the largest measured)")
    parser.add_argument("--prefix", default="", help="file name prefix, e.g. h200_")
    parser.add_argument("--metric", choices=["rms", "max"], default="rms", help="frontier error: RMS or max LSB")
    args = parser.parse_args()
    report = load(args.reports[0])
    for more in args.reports[1:]:
        report["results"] += load(more)["results"]
    if not groups(report)[0]:
        sys.exit("charts.py: the report has no timed blur results (run with --frames above 0)")
    os.makedirs(args.out, exist_ok=True)
    written = []
    for tag, fig in charts(report, args.log, args.radius, args.metric):
        path = os.path.join(args.out, f"{args.prefix}{tag}.png")
        fig.savefig(path, dpi=110, bbox_inches="tight")  # legends outside the axes included
        plt.close(fig)
        written.append(path)
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
