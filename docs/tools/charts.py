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
rest; radius sweeps are often geometric, 1:64:x2). Each variant keeps one colour and one marker in
every chart, both its own however many variants there are (the registry's order); a variant of the
report missing from a chart is named in its legend with the reason (box-only variants in the
Gaussian charts, unsupported settings). A sweep of one radius gets the bar chart only (a line
needs two radii). Legends sit beside or below the axes, never on their labels.
blurlab --report runs this script itself (the program carries a copy).
"""
import argparse
import collections
import io
import math
import os
import re
import sys
import textwrap
import warnings

# blurlab's rules for files and messages (docs/tools/tool_io.py), beside this file; blurlab --report
# runs this text with python3 -I -c in a private folder where it wrote tool_io.py too.
try:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
except NameError:
    sys.path.insert(0, os.getcwd())
from tool_io import ArgumentParser, check_output, check_plain_name, fail, one_line, output_folder, read_json, run_tool, write_bytes

try:
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    # A name in a character the font lacks is drawn as a box, not warned about on stderr line by line.
    warnings.filterwarnings("ignore", message="Glyph .* missing from current font")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.colors import hsv_to_rgb, to_rgb
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter, NullLocator
    from matplotlib.transforms import blended_transform_factory, offset_copy
except ImportError as e:
    sys.exit(f"charts.py: matplotlib is missing for {sys.executable} ({e}); on Debian: apt-get install python3-matplotlib")

STAGE_STYLE = {"fragment": "--", "compute": "-"}
# Thirty colours: tab10's ten, then twenty from tab20, tab20b, tab20c and ColorBrewer's sets
# (none lighter than a luminance of 0.75), each picked as the farthest (RGB) from those before it,
# so the nearest two of the thirty are 0.19 apart and neighbours in the registry's order differ in
# hue. More variants get golden-ratio hues (palette()).
PALETTE = [to_rgb(c) for c in plt.get_cmap("tab10").colors] + [
    to_rgb(c) for c in ("#fdae6b", "#f0027f", "#393b79", "#6baed6", "#bcbddc", "#d6616b", "#7fc97f", "#1b9e77", "#c49c94",
                        "#a6761d", "#66a61e", "#6a3d9a", "#8ca252", "#637939", "#e6ab02", "#d95f02", "#9e9ac8", "#fb9a99",
                        "#a55194", "#fd8d3c")]
# Fifteen filled markers, then the same hollow: thirty variants each a marker of its own, on top
# of its colour (beyond thirty they cycle, apart from the colours, so two never share both).
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">", "*", "h", "p", "H", "d", "8"]
# Text sizes in points: at the page's 110 dpi, 9 points are 14 pixels, readable at 100% zoom.
FONT, SMALL = 9, 8
# A legend of more entries than this gives way to labels beside the lines they name.
DIRECT_LABELS_FROM = 8


def palette(count):
    """`count` distinct colours: PALETTE, then hues a golden ratio apart, alternately dark and light."""
    extra = [tuple(hsv_to_rgb(((i * 0.6180339887) % 1.0, 0.8, 0.55 if i % 2 else 0.85))) for i in range(max(0, count - len(PALETTE)))]
    return (PALETTE + extra)[:count]


def load(path):
    """A blurlab JSON report, read as blurlab reads a file (bounded, regular) and checked for the
    fields every chart reads: a value of another kind is one line naming it, never a traceback."""
    report = read_json(path, "the report")
    try:
        check_report(report)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        fail(f"{path} is not a blurlab JSON report ({type(e).__name__}: {e})")
    return report


def check_report(report):
    """The fields the charts read, each of its kind (raises KeyError, TypeError or ValueError)."""
    if not isinstance(report, dict) or not isinstance(report["results"], list) or not isinstance(report["gl"]["renderer"], str):
        raise TypeError("no \"results\" list and \"gl\" renderer")
    for row in report["results"]:
        if not isinstance(row, dict) or not isinstance(row["variant"], str) or not isinstance(row["settings"], dict):
            raise TypeError(f"a row without a variant name and settings: {str(row)[:80]}")
        size = row["size"]
        if not all(isinstance(size[k], int) and not isinstance(size[k], bool) and 0 < size[k] <= 65536 for k in ("width", "height")):
            raise ValueError(f"a row's size is not two whole numbers in 1..65536: {str(size)[:80]}")
        s = row["settings"]
        if "radius" in s and (not isinstance(s["radius"], int) or isinstance(s["radius"], bool) or not 0 <= s["radius"] <= 128):
            raise ValueError(f"a row's radius is not a whole number in 0..128: {str(s['radius'])[:40]}")
        for key in ("kernel", "input_format", "border", "radius_map"):
            if key in s and s[key] is not None and not isinstance(s[key], str):
                raise TypeError(f"a row's {key} is not text: {str(s[key])[:40]}")
        ms = total_ms(row) if isinstance(row.get("spans", {}), dict) and isinstance(row.get("spans", {}).get("total", {}), dict) else None
        if ms is not None and (not isinstance(ms, (int, float)) or isinstance(ms, bool) or not 0 < ms < 1e9):
            raise ValueError(f"a row's median time is not a number of milliseconds in (0, 1e9): {str(ms)[:40]}")
        # Names are drawn as text: a control character shown escaped, as on the terminal.
        row["variant"] = one_line(row["variant"])
        for key in ("kernel", "input_format", "border", "radius_map"):
            if isinstance(s.get(key), str):
                s[key] = one_line(s[key])
    report["gl"]["renderer"] = one_line(report["gl"]["renderer"])


def total_ms(row):
    return row["spans"]["total"]["median_ms"] if row.get("supported") and "total" in row.get("spans", {}) else None


def variant_order(report):
    """Every variant of the report: the registry's order when the report has it."""
    order = list(report.get("variants", []))
    for row in report["results"]:
        if row["variant"] not in order:
            order.append(row["variant"])
    return order


def colours(report):
    """variant -> colour, the same in every chart and each variant's own."""
    order = variant_order(report)
    return dict(zip(order, palette(len(order))))


def markers(report):
    """variant -> (marker, filled), the same in every chart."""
    return {v: (MARKERS[i % len(MARKERS)], i // len(MARKERS) % 2 == 0) for i, v in enumerate(variant_order(report))}


def text_colour(colour):
    """A variant's colour dark enough for text on white: light ones (lavender, light blue) darkened."""
    r, g, b = to_rgb(colour)
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return (r, g, b) if luminance < 0.45 else tuple(c * 0.45 / luminance for c in (r, g, b))


def marker_style(colour, marker, size=6, edge=None):
    """The keyword arguments that draw a variant's marker: filled in its colour, or hollow; `edge`
    outlines a filled one (on a bar of its own colour)."""
    shape, filled = marker
    return {"marker": shape, "markersize": size, "markeredgecolor": edge if edge and filled else colour, "markeredgewidth": 1.2,
            "markerfacecolor": colour if filled else "white"}


def number(value):
    """About three significant digits and no exponent: 0.0123, 1.23, 12.3, 8232."""
    if value <= 0:
        return f"{value:.0f}"
    return f"{value:.{max(0, 2 - math.floor(math.log10(float(f'{value:.3g}'))))}f}"


def label_log_axis(axis, lo, hi):
    """At least two labelled ticks on a log axis from lo to hi: a range within one decade gets
    1-2-5 ticks, a narrower one every integer multiple, all labelled as plain numbers."""
    for subs in ((1.0,), (1.0, 2.0, 5.0), tuple(range(1, 10))):
        locator = LogLocator(base=10, subs=subs)
        if sum(lo <= t <= hi for t in locator.tick_values(lo, hi)) >= 2:
            break
    axis.set_major_locator(locator)
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(NullFormatter())


def legend_below(fig, handles, ncol):
    """A figure legend below everything the figure has (the x-axis labels included): its top at the
    figure's bottom edge; savefig's bbox_inches="tight" takes it in."""
    return fig.legend(handles=handles, fontsize=SMALL, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=ncol, frameon=False)


def spread_labels(fig, texts):
    """Moves direct labels up, in pixels, until none overlaps another: from the lowest, each one
    that overlaps a label placed before it goes just above that label."""
    if not texts:
        return
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    placed = []
    for text in sorted(texts, key=lambda t: t.get_window_extent(renderer).y0):
        box = text.get_window_extent(renderer)
        y0 = box.y0
        moved = True
        while moved:
            moved = False
            for x0, x1, b0, b1 in placed:
                if box.x0 < x1 and x0 < box.x1 and y0 < b1 and b0 < y0 + box.height:
                    y0, moved = b1 + 1, True
        if y0 != box.y0:
            transform = text.get_transform()
            x, y = transform.transform(text.get_position())
            text.set_position(transform.inverted().transform((x, y + y0 - box.y0)))
        placed.append((box.x0, box.x1, y0, y0 + box.height))


def stack_labels(fig, texts):
    """Labels in one column (beside a chart's lines), moved apart vertically as little as they can
    be: labels that would overlap form a stack, centred on the points they name."""
    if not texts:
        return
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = sorted(((t, t.get_window_extent(renderer)) for t in texts), key=lambda tb: tb[1].y0 + tb[1].height / 2)
    want = [b.y0 + b.height / 2 for _, b in boxes]
    gaps = [0.0] + [(boxes[i - 1][1].height + boxes[i][1].height) / 2 + 1 for i in range(1, len(boxes))]
    at = list(want)
    for _ in range(len(boxes)):  # each round merges stacks that overlap; touching ones stay merged
        stacks = [[0]]
        for i in range(1, len(boxes)):
            if at[i] - at[i - 1] < gaps[i] + 1e-6:
                stacks[-1].append(i)
            else:
                stacks.append([i])
        if all(at[i] - at[i - 1] >= gaps[i] - 1e-6 for i in range(1, len(boxes))):
            break
        for stack in stacks:
            offsets = [0.0]
            for i in stack[1:]:
                offsets.append(offsets[-1] + gaps[i])
            start = sum(want[i] - o for i, o in zip(stack, offsets)) / len(stack)
            for i, o in zip(stack, offsets):
                at[i] = start + o
    for (text, box), y in zip(boxes, at):
        transform = text.get_transform()
        x0, y0 = transform.transform(text.get_position())
        text.set_position(transform.inverted().transform((x0, y0 + y - (box.y0 + box.height / 2))))


def kernel_label(settings):
    """The kernel, with the border mode when it is not clamp: "box", "box_wrap" (for file names)."""
    border = settings.get("border", "clamp")
    label = settings["kernel"] if border == "clamp" else f'{settings["kernel"]}_{border}'
    # A radius per pixel (--radius-map) is a problem of its own: never on a chart of uniform blurs.
    # The map's description ("band", "none (uniform r = R)", "file maps/focus.png (640x480, 8-bit)")
    # goes into file names and the page's links: letters, digits, dots and dashes only.
    if not settings.get("radius_map"):
        return label
    return f'{label}_map-{re.sub(r"[^A-Za-z0-9.]+", "-", settings["radius_map"]).strip("-")}'


def kernel_title(settings):
    """The kernel in words, for a chart's title: "Gaussian blur (sigma r / 3)", "box blur, border wrap"."""
    words = "Gaussian blur" if settings["kernel"] == "gauss" else "Box blur"
    border = settings.get("border", "clamp")
    if border != "clamp":
        words += f", border {border}"
    radius_map = settings.get("radius_map")
    if radius_map and radius_map.startswith("none"):
        words += ", variable-radius variants without a map (every pixel at r)"
    elif radius_map:
        words += f", radius per pixel by map {radius_map}"
    return words


def groups(report):
    """(size, format, kernel) -> {variant: {radius: ms}}, the copy pass per (size, format), the
    rows of every blur per (size, format), for saying who is missing from a chart, and each
    kernel's title. A border mode other than clamp is a kernel of its own ("box_wrap",
    kernel_label): modes are not mixed."""
    series = collections.defaultdict(lambda: collections.defaultdict(dict))
    floors = {}
    rows_of = collections.defaultdict(list)
    titles = {}
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
        titles[key] = kernel_title(s)
        previous = series[key][row["variant"]].get(s["radius"])
        series[key][row["variant"]][s["radius"]] = ms if previous is None else min(previous, ms)
    return series, floors, rows_of, titles


def missing(rows, kernel, shown):
    """Note lines for the variants of these rows that a chart of `kernel` (a kernel_label) does not
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
        lines.append(textwrap.fill(f"not in this chart ({reason}): " + ", ".join(variants), 60))
    return lines


def note_handles(lines):
    return [Line2D([], [], linestyle="none", label=line) for line in lines]


def stage_of(report, variant):
    for row in report["results"]:
        if row["variant"] == variant:
            return row["stage"]
    return "compute"


def title(report, what, size, fmt):
    """A chart's title: what it shows, then the GPU (or CPU rasterizer) and the image."""
    device = report["gl"]["renderer"] + (", a CPU rasterizer (its times are not a GPU's)" if report["gl"].get("software") else "")
    return f"{what}\n{device}, {size[0]}x{size[1]} {fmt}"


def frontier_points(report):
    """(size, format) -> {sigma: [(ms, fidelity, variant, row)]} of the timed Gaussian rows with a fidelity."""
    points = collections.defaultdict(lambda: collections.defaultdict(list))
    for row in report["results"]:
        ms = total_ms(row)
        s = row["settings"]
        if ms is None or s.get("kernel") != "gauss" or "fidelity" not in row or s.get("radius_map"):
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


def frontier_chart(report, size, fmt, by_sigma, metric, floor_ms, colour, marker):
    """One panel per requested sigma: time against error. Each approximation is labelled where it
    is drawn; of the exact variants (within 1 LSB by construction) only the fastest is drawn, on the
    floor, and the panel says how many others there are."""
    key = "rms_lsb" if metric == "rms" else "max_lsb"
    sigmas = sorted(by_sigma)
    cols = min(3, len(sigmas))
    rows = (len(sigmas) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(6.4 * cols, 4.8 * rows), squeeze=False)
    errors = [p[1][key] for sigma in sigmas for p in by_sigma[sigma] if not p[1].get("exact")]
    positive = [e for e in errors if e > 0]
    floor = min(positive) / 3 if positive else 0.1  # where the exact variants sit
    panel_labels = []
    for index, sigma in enumerate(sigmas):
        ax = axes[index // cols][index % cols]
        plotted, labels = [], []
        exact = sorted((p for p in by_sigma[sigma] if p[1].get("exact")), key=lambda p: p[0])
        approximate = sorted((p for p in by_sigma[sigma] if not p[1].get("exact")), key=lambda p: p[0])
        shown = ([exact[0]] if exact else []) + approximate
        fastest, slowest = min(p[0] for p in shown), max(p[0] for p in shown)
        labelled = set()
        for ms, fidelity, variant, row in shown:
            is_exact = bool(fidelity.get("exact"))
            y = floor if is_exact else max(fidelity[key], floor)
            ax.plot([ms], [y], linestyle="none", zorder=3, **marker_style(colour[variant], marker[variant], 7))
            plotted.append((ms, y))
            if variant in labelled:  # another setting of a variant already named
                continue
            labelled.add(variant)
            text = f"fastest exact: {variant}" if is_exact else variant
            # Right of the point, or left of it in the right third, where the text would leave the axes.
            right = math.log(ms) > math.log(slowest) - (math.log(slowest) - math.log(fastest)) / 3 if slowest > fastest else False
            labels.append(ax.text(ms, y, text, fontsize=SMALL, color=text_colour(colour[variant]), va="bottom",
                                  ha="right" if right else "left",
                                  transform=offset_copy(ax.transData, fig=fig, x=-5 if right else 5, y=3, units="points")))
        front = pareto(plotted)
        if front:
            xs, ys = zip(*front)
            ax.step(xs, ys, where="post", color="black", linewidth=0.8, linestyle="--", zorder=2, label="Pareto front")
        ax.axhline(floor, color="grey", linewidth=0.6, linestyle=":")
        others = len({p[2] for p in exact}) - 1
        note = "exact variants sit on this line (within 1 LSB by construction)"
        if others > 0:
            note += f"; {others} slower {'one' if others == 1 else 'ones'} not drawn"
        ax.text(0.01, 0.02, note, transform=ax.transAxes, fontsize=SMALL, color="grey")
        if floor_ms:
            ax.axvline(floor_ms, color="black", linewidth=0.8, linestyle=":", label=f"copy pass {number(floor_ms)} ms")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.margins(0.2)
        ax.autoscale_view()
        label_log_axis(ax.xaxis, *ax.get_xlim())
        label_log_axis(ax.yaxis, *ax.get_ylim())
        ax.set_title(f"sigma {sigma:.4g}", fontsize=FONT)
        ax.set_xlabel("median GPU time (ms)", fontsize=FONT)
        ax.set_ylabel(f"{metric.upper() if metric == 'rms' else metric} error against the exact Gaussian (LSB)", fontsize=FONT)
        ax.tick_params(labelsize=SMALL)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=SMALL, loc="upper right")  # the two lines; the points are labelled where they are
        panel_labels.append(labels)
    for index in range(len(sigmas), rows * cols):
        axes[index // cols][index % cols].axis("off")
    source = report.get("run", {}).get("input", "scene")
    fig.suptitle(title(report, f"Approximate Gaussians: error against time, on the {source}", size, fmt), fontsize=FONT + 1)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    for labels in panel_labels:  # in the final layout: pixels moved now stay moved
        spread_labels(fig, labels)
    return fig


def direct_labels(fig, ax, by_variant, colour):
    """Each line's name beside its last point, right of the axes (to be moved apart with
    spread_labels once the layout is final): a legend this long would leave a reader matching
    colours."""
    transform = offset_copy(blended_transform_factory(ax.transAxes, ax.transData), fig=fig, x=4, y=0, units="points")
    texts = []
    ax.set_xlim(*ax.get_xlim())  # the leaders below must not widen the axis
    right = ax.get_xlim()[1]
    for variant, points in by_variant.items():
        last = max(points)
        # A line that ends before the widest radius leads to its name with a faint dotted line.
        ax.plot([last, right], [points[last]] * 2, ":", color=colour[variant], linewidth=0.7, alpha=0.6, label="_leader")
        texts.append(ax.text(1.0, points[last], variant, fontsize=SMALL, color=text_colour(colour[variant]), va="center", ha="left",
                             transform=transform, clip_on=False))
    return texts


def time_chart(report, size, fmt, kernel_words, by_variant, floor, notes, colour, marker, log):
    """Median GPU time against the radius, a line per variant; the copy pass as the floor."""
    fig, ax = plt.subplots(figsize=(11, 6.5))
    for variant, points in sorted(by_variant.items()):
        radii = sorted(points)
        ax.plot(radii, [points[r] for r in radii], STAGE_STYLE.get(stage_of(report, variant), "-"), color=colour[variant],
                label=variant, **marker_style(colour[variant], marker[variant], 5))
    if floor:
        ax.axhline(floor, color="black", linewidth=1, linestyle=":", label=f"copy pass (floor) {number(floor)} ms")
    ax.set_xlabel("radius r (taps -r..r)" + (", log scale" if log else ""), fontsize=FONT)
    ax.set_ylabel("median GPU time (ms)", fontsize=FONT)
    ax.tick_params(labelsize=SMALL)
    if log:
        ax.set_yscale("log")
        label_log_axis(ax.yaxis, *ax.get_ylim())
        radii = {r for points in by_variant.values() for r in points}
        # Radius sweeps are often geometric (1:64:x2); r = 0 needs a linear stretch near zero.
        if 0 in radii:
            ax.set_xscale("symlog", base=2, linthresh=1)
        else:
            ax.set_xscale("log", base=2)
        ax.xaxis.set_major_formatter(FuncFormatter(lambda r, _: f"{r:g}"))  # 1, 2, 4, ... rather than powers
    radii = sorted({r for points in by_variant.values() for r in points})
    if len(radii) <= 16:  # the radii measured labelled (a sweep of 6 and 15 had only "8"), none within a
        ticks = []        # quarter octave of the one before (30 and 32 would print over each other)
        for r in radii:
            if not ticks or (r > 0 and (ticks[-1] <= 0 or math.log2(r / ticks[-1]) >= 0.25)):
                ticks.append(r)
        ax.set_xticks(ticks)
        ax.xaxis.set_minor_locator(NullLocator())
    ax.set_title(title(report, f"{kernel_words}: GPU time against radius", size, fmt), fontsize=FONT + 1)
    ax.grid(True, which="both", alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    stages = {stage_of(report, v) for v in by_variant}
    style_note = ["dashed: fragment, solid: compute"] if len(stages) > 1 else []
    texts = []
    if len(by_variant) >= DIRECT_LABELS_FROM:
        texts = direct_labels(fig, ax, by_variant, colour)
        handles = [h for h, label in zip(handles, labels) if label not in by_variant]  # the floor alone
        legend_below(fig, handles + note_handles(style_note + notes), 1)
    else:
        # Beside the axes: the lines of slow variants run along the top, where a legend inside would sit.
        ax.legend(handles=handles + note_handles(style_note + notes), fontsize=SMALL, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    stack_labels(fig, texts)
    return fig


def bar_chart(report, size, fmt, kernel_words, radius, bars, floor, notes, colour, marker, log):
    """One bar per variant at one radius, fastest first, each named on its axis."""
    fig, ax = plt.subplots(figsize=(9, 0.38 * len(bars) + 1.8))
    names = [v for _, v in bars]
    values = [ms for ms, _ in bars]
    ax.barh(names, values, color=[colour[v] for v in names], edgecolor="white")
    fragment = [stage_of(report, name) == "fragment" for name in names]
    for patch, hatched in zip(ax.patches, fragment):
        if hatched:
            patch.set_hatch("//")
    for y, (ms, name) in enumerate(zip(values, names)):  # the variant's marker, as in the other charts
        ax.plot([ms], [y], linestyle="none", **marker_style(colour[name], marker[name], 7, edge="black"))
    handles = []
    if floor:
        ax.axvline(floor, color="black", linewidth=1, linestyle=":", label=f"copy pass (floor) {number(floor)} ms")
        handles, _ = ax.get_legend_handles_labels()
    for y, ms in enumerate(values):
        ax.text(ms, y, f"   {number(ms)} ms" + (f" ({number(ms / floor)}x copy)" if floor else ""), va="center", fontsize=SMALL)
    if log:
        ax.set_xscale("log")
        lo, hi = min(values + ([floor] if floor else [])), max(values)
        ax.set_xlim(lo / 1.5, hi * 4)  # room for the last bar's text
        label_log_axis(ax.xaxis, *ax.get_xlim())
    else:
        ax.set_xlim(0, max(values) * 1.35)
    ax.invert_yaxis()
    ax.tick_params(labelsize=SMALL)
    # Hatching is named only where a bar has it.
    ax.set_xlabel("median GPU time (ms)" + ("; hatched: fragment, plain: compute" if any(fragment) and not all(fragment) else
                                            "; hatched: fragment" if any(fragment) else ""), fontsize=FONT)
    ax.set_title(title(report, f"{kernel_words}, r = {radius}: GPU time per variant", size, fmt), fontsize=FONT + 1)
    fig.tight_layout()
    if handles or notes:  # below the x-axis label: the bars fill the axes
        legend_below(fig, handles + note_handles(notes), 1)
    return fig


def charts(report, log=False, radius=None, metric="rms"):
    """Every chart of the report: (file name tag, figure)."""
    series, floors, rows_of, titles = groups(report)
    colour, marker = colours(report), markers(report)
    made = []
    for (size, fmt), by_sigma in sorted(frontier_points(report).items()):
        if not any(not p[1].get("exact") for points in by_sigma.values() for p in points):
            continue  # no approximation: no frontier to draw
        fig = frontier_chart(report, size, fmt, by_sigma, metric, floors.get((size, fmt)), colour, marker)
        made.append((f"frontier_{size[0]}x{size[1]}_{fmt}", fig))
    for (size, fmt, kernel), by_variant in sorted(series.items()):
        tag = f"{size[0]}x{size[1]}_{fmt}_{kernel}"
        words = titles[(size, fmt, kernel)]
        floor = floors.get((size, fmt))
        notes = missing(rows_of[(size, fmt)], kernel, by_variant)
        radii = sorted({r for points in by_variant.values() for r in points})
        if len(radii) > 1:  # one radius makes a column of dots: the bar chart says it
            made.append((f"time_vs_radius_{tag}", time_chart(report, size, fmt, words, by_variant, floor, notes, colour, marker, log)))
        at = radius if radius is not None else radii[-1]
        bars = sorted(((points[at], v) for v, points in by_variant.items() if at in points))
        if bars:
            made.append((f"bars_{tag}_r{at}", bar_chart(report, size, fmt, words, at, bars, floor, notes, colour, marker, log)))
    return made


def main():
    parser = ArgumentParser(prog="charts.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reports", nargs="+", help="JSON reports of one GPU (several sweeps are merged)")
    parser.add_argument("--out", default=".", help="the folder the charts go into (made if missing)")
    parser.add_argument("--log", action="store_true", help="log scales for time and radius")
    parser.add_argument("--radius", type=int, help="radius of the bar chart, 0..128 (default: the largest measured)")
    parser.add_argument("--prefix", default="", help="file name prefix, e.g. h200_ (letters, digits, '.', '-', '_')")
    parser.add_argument("--metric", choices=["rms", "max"], default="rms", help="frontier error: RMS or max LSB")
    args = parser.parse_args()
    if args.radius is not None and not 0 <= args.radius <= 128:
        fail(f"--radius {args.radius} is out of range 0..128", 2)
    check_plain_name(args.prefix, "--prefix")  # a chart never goes outside --out
    report = load(args.reports[0])
    for more in args.reports[1:]:
        report["results"] += load(more)["results"]
    series = groups(report)[0]
    if not series:
        if any(total_ms(row) is not None for row in report["results"]):
            fail("the report times only the copy pass: no blur to chart against it (add a blur to --variant)")
        fail("the report has no timed blur results (run with --frames above 0)")
    if args.radius is not None and not any(args.radius in points for by_variant in series.values() for points in by_variant.values()):
        measured = sorted({r for by_variant in series.values() for points in by_variant.values() for r in points})
        fail(f"--radius {args.radius} was not timed: the report's blurs were timed at r = {', '.join(map(str, measured))}", 2)
    output_folder(args.out, "--out")
    made = []  # (path, PNG): every chart drawn and its target checked before the first is written
    for tag, fig in charts(report, args.log, args.radius, args.metric):
        path = os.path.join(args.out, f"{args.prefix}{tag}.png")
        png = io.BytesIO()
        fig.savefig(png, format="png", dpi=110, bbox_inches="tight")  # legends outside the axes included
        plt.close(fig)
        check_output(path, "a chart")
        made.append((path, png.getvalue()))
    for path, png in made:
        write_bytes(path, png, "a chart")
    for path, _ in made:
        print(path)


if __name__ == "__main__":
    sys.exit(run_tool("charts.py", main))
