#!/usr/bin/env python3
"""Checks docs/tools/charts.py on made-up reports (tests/CMakeLists.txt runs it as report.charts,
and two parts of it, --words and --bad-input, in the first tier):
each variant has one colour and one marker in every chart, its own among 25, 30 and 45 variants;
--log puts the radius on a log scale too, and a log axis has at least two labelled ticks however
narrow its range; a chart names the variants of the report it does not show (box-only variants in
the Gaussian charts); no legend overlaps an x-axis label or tick label (read from matplotlib's
drawn extents); a sweep of one radius gets a bar chart and no time-vs-radius chart; bad input is one
line on stderr with an exit code (a FIFO, /dev/zero, values of the wrong kind, --radius -5 or one not
timed, --prefix ../../x, a copy-only report), and a chart never replaces a link through /proc.

  python3 tests/tools/charts_test.py docs/tools/charts.py [--words | --bad-input]
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

spec = importlib.util.spec_from_file_location("charts", sys.argv[1])
charts = importlib.util.module_from_spec(spec)
spec.loader.exec_module(charts)
charts.plt.rcParams["figure.max_open_warning"] = 0  # the checks keep every chart open

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


def frontier_report():
    results = [row("copy", "compute", "floor", "box", 0, 0.1)]
    for sigma, r in ((2.0, 6), (5.0, 15)):
        for variant, ms, rms in (("compute-separable", 1.0, None), ("frag-separable", 1.2, None), ("compute-sliding", 0.9, None),
                                 ("dual-kawase", 0.3, 1.5), ("kawase", 0.2, 4.0), ("box-iterated", 0.5, 0.7),
                                 ("recursive-gaussian", 0.6, 0.4), ("recursive-gaussian-blocks", 0.45, 0.4)) + tuple(
                                     (f"exact-{i}", 1.0 + 0.1 * i, None) for i in range(16)):
            x = row(variant, "compute", "blur" if rms is None else "approximation", "gauss", r, ms * sigma)
            x["settings"]["sigma"] = sigma
            x["fidelity"] = {"exact": True} if rms is None else {"rms_lsb": rms, "max_lsb": 4 * rms}
            if rms is not None:
                x["settings"]["approximation"] = {"parameters": "passes=4 offsets=0.5,1.5"}
            results.append(x)
    names = [f"variant-{i}" for i in range(20)] + sorted({r["variant"] for r in results})
    return {"gl": {"renderer": "test"}, "variants": names, "results": results}


def finish(summary=""):
    for message in failures:
        print("FAIL:", message)
    print(f"charts_test: {len(failures)} failures{summary}")
    sys.exit(1 if failures else 0)


# --- bad input, as blurlab takes it (docs/tools/tool_io.py): one line on stderr and an exit code,
# no traceback, no hang, and charts only inside --out ------------------------------------------
def run_charts(*args):
    try:
        return subprocess.run([sys.executable, sys.argv[1], *args], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(args, -1, "", "hung (killed after 60 s)\n")


def one_line_refusal(done, code, message, what):
    check(done.returncode == code, f"{what}: exit {done.returncode}, not {code}: {done.stderr[-300:]}")
    check(done.stderr.startswith("charts.py: ") and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr,
          f"{what}: not one line on stderr: {done.stderr[-300:]!r}")
    check(message in done.stderr, f"{what}: '{message}' not in {done.stderr!r}")


def check_bad_input():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "report.json")
        with open(path, "w") as f:
            json.dump(report([1, 2]), f)
        out = os.path.join(tmp, "out", "a")
        os.makedirs(out)
        before = sorted(os.listdir(tmp))
        one_line_refusal(run_charts(path, "--out", out, "--prefix", "../../x"), 2, "--prefix '../../x' is not a plain file name",
                         "--prefix leaving --out")
        check(sorted(os.listdir(tmp)) == before and not os.listdir(out), f"a chart was written for --prefix ../../x: {os.listdir(tmp)}")
        one_line_refusal(run_charts(path, "--out", out, "--radius", "-5"), 2, "--radius -5 is out of range 0..128", "--radius -5")
        one_line_refusal(run_charts(path, "--out", out, "--radius", "7"), 2, "--radius 7 was not timed: the report's blurs were timed at r = 1, 2",
                         "--radius 7, not timed")
        one_line_refusal(run_charts(path, "--out", out, "--radius", "x"), 2, "(--help lists the options)", "--radius x")
        fifo = os.path.join(tmp, "fifo.json")
        os.mkfifo(fifo)
        one_line_refusal(run_charts(fifo, "--out", out), 1, "it is a FIFO, not a regular file", "a FIFO as the report")
        zero = os.path.join(tmp, "zero.json")
        os.symlink("/dev/zero", zero)
        one_line_refusal(run_charts(zero, "--out", out), 1, "it is a character device, not a regular file", "/dev/zero as the report")
        bad = os.path.join(tmp, "bad.json")
        broken = report([1, 2])
        broken["results"][1]["settings"]["radius"] = "wide"
        with open(bad, "w") as f:
            json.dump(broken, f)
        one_line_refusal(run_charts(bad, "--out", out), 1, "a row's radius is not a whole number in 0..128", "a radius that is text")
        copy_only = os.path.join(tmp, "copy_only.json")
        with open(copy_only, "w") as f:
            json.dump(dict(report([1]), results=[row("copy", "compute", "floor", "box", 0, 0.1)]), f)
        one_line_refusal(run_charts(copy_only, "--out", out), 1, "the report times only the copy pass", "a report of the copy alone")
        # A chart's name in --out planted as a link through /proc (a /dev/stdout of the test's own): refused, kept.
        planted = os.path.join(out, "bars_64x48_rgba8_box_r2.png")
        os.symlink("/proc/self/fd/1", planted)
        with open(os.path.join(tmp, "captured"), "w") as captured:
            done = subprocess.run([sys.executable, sys.argv[1], path, "--out", out], stdout=captured, stderr=subprocess.PIPE, text=True, timeout=60)
        one_line_refusal(done, 1, "it leads through /proc to a file a process has open", "a chart over a link through /proc")
        check(os.path.islink(planted), "a link through /proc in --out was replaced")
        os.remove(planted)
        made = run_charts(path, "--out", out)
        check(made.returncode == 0 and len([n for n in os.listdir(out) if n.endswith(".png")]) == 4,
              f"the charts of a good report: {made.stderr[-300:]} {os.listdir(out)}")


# --bad-input: the refusals alone (report.charts_bad_input, the first tier's); report.charts runs
# them after its chart checks.
if "--bad-input" in sys.argv[2:]:
    check_bad_input()
    finish()


# --- the conclusion's words: no unsettled winner, the 50 dB bar, approximations named -------------
frontier = frontier_report()
for tag, fig in charts.charts(frontier, log=True):
    if tag.startswith("frontier"):
        for ax in fig.axes:
            bar = [line for line in ax.get_lines() if "50 dB" in line.get_label()]
            check(len(bar) == 1 and abs(bar[0].get_ydata()[0] - 255 / 10 ** 2.5) < 1e-9,
                  f"{tag}: the 50 dB bar is not drawn at RMS 255 / 10^2.5 LSB: {[line.get_label() for line in ax.get_lines()]}")
    if tag.startswith("bars") and "gauss" in tag:
        names = [t.get_text() for t in fig.axes[0].get_yticklabels()]
        check("kawase (approximation)" in names and "compute-separable" in names,
              f"{tag}: an approximation's bar does not say so, or an exact one does: {names}")
# Two exact variants whose spreads overlap (0.9 +- 0.05 and 0.95 +- 0.05): the frontier names no
# fastest exact, as the conclusion calls it not settled.
tied = frontier_report()
for x in tied["results"]:
    if x["variant"] in ("compute-sliding", "compute-separable") and "spans" in x:
        x["spans"]["total"]["median_ms"] = (0.9 if x["variant"] == "compute-sliding" else 0.95) * x["settings"]["sigma"]
        x["spans"]["total"]["spread_ms"] = 0.1 * x["settings"]["sigma"]
for tag, fig in charts.charts(tied, log=True):
    if tag.startswith("frontier"):
        for ax in fig.axes:
            names = [t.get_text() for t in ax.texts]
            check(not any(n.startswith("fastest exact") for n in names) and any("not settled" in n for n in names),
                  f"{tag}: an unsettled exact winner named: {names}")
# A variable-radius variant run without a map: its charts named "unmapped", and their notes say
# nothing of the uniform variants (box-only ones included).
unmapped = report([1, 2])
for r in (1, 2):
    x = row("variable-naive", "compute", "blur", "gauss", r, 2.0 + r)
    x["settings"]["radius_map"] = "none (uniform r = R)"
    unmapped["results"].append(x)
unmapped["variants"].append("variable-naive")
for tag, fig in charts.charts(unmapped, log=True):
    if "variable" in str([line.get_label() for line in fig.axes[0].get_lines()]) or "unmapped" in tag:
        check(tag.endswith(("_gauss_unmapped", "_gauss_unmapped_r2")) and "none" not in tag, f"chart file name: {tag}")
        legend = [t.get_text() for lg in [fig.axes[0].get_legend()] + fig.legends if lg for t in lg.get_texts()]
        check(not any("compute-sliding" in t or "compute-separable" in t for t in legend), f"{tag}: notes of uniform variants: {legend}")


# Two image sizes: time against the pixels, a line per variant, the copy pass and the slope of a
# cost in proportion to the pixels.
two_sizes = report([4])
for x in list(two_sizes["results"]):
    y = json.loads(json.dumps(x))
    y["size"] = {"width": 128, "height": 96}
    if "spans" in y:
        y["spans"]["total"]["median_ms"] *= 4
    two_sizes["results"].append(y)
sized = {tag: fig for tag, fig in charts.charts(two_sizes, log=True)}
check("time_vs_size_rgba8_gauss_r4" in sized, f"no chart of time against size: {sorted(sized)}")
if "time_vs_size_rgba8_gauss_r4" in sized:
    labels = [line.get_label() for line in sized["time_vs_size_rgba8_gauss_r4"].axes[0].get_lines()]
    check("compute-separable" in labels and "copy pass (floor)" in labels and "time in proportion to the pixels" in labels,
          f"time against size: {labels}")


# --words: the checks of what a chart says against the report's conclusion alone (report.charts_words,
# the first tier's); the rest is the full tier's (report.charts).
if "--words" in sys.argv[2:]:
    finish()


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
    legend = [t.get_text() for lg in [ax.get_legend()] + fig.legends if lg for t in lg.get_texts()]
    if tag.startswith("time_vs_radius"):
        check(ax.get_xscale() == "log", f"{tag}: --log leaves the radius axis {ax.get_xscale()}")
        check(ax.get_yscale() == "log", f"{tag}: --log leaves the time axis {ax.get_yscale()}")
    if "gauss" in tag:
        check(any("not in this chart (box kernel only): compute-sliding" in t for t in legend),
              f"{tag} does not name compute-sliding: {legend}")
    else:
        check(not any("not in this chart" in t for t in legend), f"{tag} names variants it shows: {legend}")
check(len(colours) == 4, f"variants seen: {sorted(colours)}")
check(len(set(colours.values())) == len(colours), f"two variants share a colour: {colours}")

# r = 0 cannot sit on a log axis: symlog keeps it.
with_zero = charts.charts(report([0, 1, 2, 4]), log=True)
check(with_zero[0][1].axes[0].get_xscale() == "symlog", "r = 0 with --log: the radius axis is not symlog")
check(charts.charts(report([1, 2]), log=False)[0][1].axes[0].get_xscale() == "linear", "without --log the radius axis is not linear")



# --- colours and markers: each variant its own, however many -----------------------------------
def many(count):
    names = [f"variant-{i}" for i in range(count)]
    return {"gl": {"renderer": "test"}, "variants": names, "results": []}


for count in (25, 30, 45):
    names = many(count)["variants"]
    colour, marker = charts.colours(many(count)), charts.markers(many(count))
    rgb = [tuple(charts.matplotlib.colors.to_rgb(colour[v])) for v in names]
    pairs = {(c, marker[v]) for c, v in zip(rgb, names)}
    check(len(set(rgb)) == count, f"{count} variants: {count - len(set(rgb))} share a colour")
    check(len(pairs) == count, f"{count} variants: {count - len(pairs)} share a colour and a marker")
    nearest = min(sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5 for i, a in enumerate(rgb) for b in rgb[:i])
    # Thirty are picked to stay apart; beyond them golden-ratio hues need only differ.
    check(nearest >= (0.18 if count <= 30 else 0.01), f"{count} variants: two colours are {nearest:.3f} apart")
    neighbours = [marker[a] == marker[b] for a, b in zip(names, names[1:])]
    check(not any(neighbours), f"{count} variants: neighbours share a marker")


# --- legends clear of the x-axis labels, in every chart ------------------------------------------
def extent(artist, renderer):
    return artist.get_window_extent(renderer)


def overlaps(a, b):
    return a.width > 0 and b.width > 0 and a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


legends_checked = 0
for tag, fig in charts.charts(report([1, 2, 4, 8]), log=True) + charts.charts(frontier_report(), log=True):
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legends = [lg for lg in fig.legends + [ax.get_legend() for ax in fig.axes] if lg]
    labels = [ax.xaxis.label for ax in fig.axes] + [t for ax in fig.axes for t in ax.get_xticklabels() if t.get_text()]
    for lg in legends:
        legends_checked += 1
        for label in labels:
            check(not overlaps(extent(lg, renderer), extent(label, renderer)),
                  f"{tag}: the legend overlaps the x-axis text '{label.get_text()}'")
check(legends_checked >= 5, f"only {legends_checked} legends checked")
check(any(tag.startswith("frontier") for tag, _ in charts.charts(frontier_report(), log=True)), "no frontier chart drawn")


# --- readable at a glance: titles, markers, direct labels, notes that match ----------------------
def texts_of(fig):
    return [t for ax in fig.axes for t in ax.texts]


def boxes_overlap(fig, texts):
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
    return [(a, b) for i, (a, x) in enumerate(boxes) for b, y in boxes[:i] if overlaps(x, y)]


def titles_of(fig):
    return [fig._suptitle.get_text()] if fig._suptitle else [ax.get_title() for ax in fig.axes[:1]]


# Twenty-four variants: a legend that long gives way to labels beside the lines.
crowded = report([1, 2, 4])
for i in range(20):
    for r in (1, 2, 4):
        crowded["results"].append(row(f"exact-{i}", "compute", "blur", "gauss", r, 0.5 + 0.01 * i + 0.001 * r))
crowded["variants"] += [f"exact-{i}" for i in range(20)]
for source, tag, fig in [(r, *made) for r in (crowded, frontier_report()) for made in charts.charts(r, log=True)]:
    for text in titles_of(fig):
        # A title says what the chart shows in words, never its file name.
        # What the chart shows first, in words; then the device and the image.
        check(tag not in text and "_" not in text and text.startswith(("Gaussian blur", "Box blur", "Approximate Gaussians")),
              f"{tag}: title {text!r}")
    if tag.startswith("time_vs_radius") and "gauss" in tag:
        ax = fig.axes[0]
        shown = {line.get_label() for line in ax.get_lines() if not line.get_label().startswith(("_", "copy"))}
        styles = [(line.get_marker(), line.get_markerfacecolor() == "white") for line in ax.get_lines() if line.get_label() in shown]
        check(len(set(styles)) == len(styles), f"{tag}: {len(styles) - len(set(styles))} variants share a marker and its fill")
        labels = {t.get_text() for t in ax.texts}
        check(shown <= labels, f"{tag}: lines without a label beside them: {sorted(shown - labels)}")
        legend = [t.get_text() for lg in fig.legends + [ax.get_legend()] if lg for t in lg.get_texts()]
        check(not (shown & set(legend)), f"{tag}: {len(shown)} variants also in a legend: {legend}")
        check(not boxes_overlap(fig, ax.texts), f"{tag}: labels overlap: {boxes_overlap(fig, ax.texts)}")
    if tag.startswith("frontier"):
        for ax in fig.axes:
            drawn = [line for line in ax.get_lines() if line.get_marker() not in ("None", None, "")]
            names = [t.get_text() for t in ax.texts]
            check(sum(n.startswith("fastest exact: ") for n in names) == 1, f"{tag}: exact variants named {names}")
            check(len(drawn) == 6, f"{tag}: {len(drawn)} markers, not the fastest exact and the five approximations")
            check(all(n in names for n in ("dual-kawase", "kawase", "box-iterated", "recursive-gaussian", "recursive-gaussian-blocks")),
                  f"{tag}: approximations not named where they are drawn: {names}")
            check(not any("passes=" in n for n in names), f"{tag}: a label with an approximation's parameters: {names}")
            # 19 exact variants (compute-separable, frag-separable, compute-sliding, exact-0..15): the fastest drawn.
            check(any("18 slower ones not drawn" in n for n in names), f"{tag}: the exact variants left out are not counted: {names}")
            check(not boxes_overlap(fig, [t for t in ax.texts if t.get_transform() != ax.transAxes]),
                  f"{tag}: labels overlap: {boxes_overlap(fig, ax.texts)}")
    if tag.startswith("bars"):
        xlabel = fig.axes[0].get_xlabel()
        fragments = any(charts.stage_of(source, v.get_text()) == "fragment" for v in fig.axes[0].get_yticklabels())
        check(("hatched" in xlabel) == fragments, f"{tag}: hatching named {'without' if not fragments else 'with'} fragment bars: {xlabel}")
compute_only = report([1, 2])
compute_only["results"] = [r for r in compute_only["results"] if r["stage"] == "compute"]
for tag, fig in charts.charts(compute_only, log=True):
    check("hatched" not in fig.axes[0].get_xlabel() and "dashed" not in str(texts_of(fig)), f"{tag}: names a fragment style it lacks")


# --- one radius: no column of dots -----------------------------------------------------------------
single = [tag for tag, _ in charts.charts(report([5]), log=True)]
check(single == ["bars_64x48_rgba8_box_r5", "bars_64x48_rgba8_gauss_r5"], f"charts of one radius: {single}")


# --- log axes: at least two labelled ticks in view ------------------------------------------------
def labelled_ticks(ax, axis):
    ax.figure.canvas.draw()
    lo, hi = sorted(ax.get_ylim() if axis == "y" else ax.get_xlim())
    ticks = ax.get_yticklabels() if axis == "y" else ax.get_xticklabels()
    return [t.get_text() for t in ticks if t.get_text() and lo <= t.get_position()[1 if axis == "y" else 0] <= hi]


def narrow(ms_of_radius):
    results = [row("copy", "compute", "floor", "box", 0, 0.3)]
    for r in (1, 2, 4):
        results.append(row("compute-separable", "compute", "blur", "box", r, ms_of_radius(r)))
        results.append(row("frag-separable", "fragment", "blur", "box", r, 1.1 * ms_of_radius(r)))
    return {"gl": {"renderer": "test"}, "variants": VARIANTS, "results": results}


for name, times in (("within a decade", lambda r: 0.3 + 0.1 * r), ("within 20%", lambda r: 0.50 + 0.01 * r),
                    ("across decades", lambda r: 0.01 * 10 ** r)):
    for tag, fig in charts.charts(narrow(times), log=True):
        ax = fig.axes[0]
        axis = "y" if tag.startswith("time_vs_radius") else "x"
        shown = labelled_ticks(ax, axis)
        check(len(shown) >= 2, f"{name}: {tag} labels {shown} on its log {axis} axis")

check_bad_input()
finish(f", {len(colours)} variants with one colour each")
