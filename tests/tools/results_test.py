#!/usr/bin/env python3
"""Checks docs/tools/results.py on made-up reports (tests/CMakeLists.txt runs it as report.results):
merge joins the rows of reports of one GPU and refuses another GPU's; table shows, per kernel,
radius and size, the fastest timed exact row with its own time over the copy, and the fastest
approximation apart with its fidelity, leaving out unsupported rows, other border modes and formats;
ranking lists every exact variant per radius by x copy with the refused ones named; targets judges
the rows of a targets file made up here (not the project's) from the numbers as measured (2.5x
meets 2.5x, 2.54x does not), holds a per-pass target to the worst pass, picks the fastest exact box,
compares a variant's sizes, answers with the latest row of a setting, says "not measured" for a row
the file lacks, and refuses a targets file that names no limit. Bad input is taken as blurlab takes
it: a FIFO, /dev/zero, values of the wrong kind and bad options are one line on stderr with an exit
code (no hang, no traceback); merge writes its file as blurlab writes an output (a link through
/proc and a read-only file refused, a link kept); docs/results/measure.sh refuses a NAME or SIZE
that would leave its folders; older counts per variant the rows
made by today's code (by the digests given) and names the commits of the others.

  python3 tests/tools/results_test.py docs/tools/results.py
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

TOOL = sys.argv[1]


def row(variant, size, kernel, radius, ms, x_copy, supported=True, border="clamp", fmt="rgba8", fidelity=None):
    r = {"variant": variant, "role": "blur", "size": {"width": size[0], "height": size[1]}, "supported": supported,
         "settings": {"input_format": fmt, "kernel": kernel, "radius": radius, "border": border}, "x_copy": x_copy}
    if kernel == "gauss":
        r["settings"]["sigma"] = radius / 3
    if supported:
        r["spans"] = {"total": {"median_ms": ms}}
    if fidelity:
        r["fidelity"] = fidelity
    return r


def copy_row(size, ms):
    return {"variant": "copy", "role": "floor", "size": {"width": size[0], "height": size[1]}, "supported": True,
            "settings": {"input_format": "rgba8"}, "spans": {"total": {"median_ms": ms}}, "x_copy": 1.0}


BIG, HD = (4096, 4096), (1920, 1080)
APPROX = {"exact": False, "max_lsb": 35.6, "rms_lsb": 0.39}
first = {"date": "2026-01-01T00:00:00+0000", "gl": {"renderer": "GPU A", "version": "4.3 X"}, "run": {"frames": 30},
         "results": [copy_row(BIG, 0.05),
                     row("slow", BIG, "box", 8, 0.30, 6.0),
                     row("fast", BIG, "box", 8, 0.10, 2.0),
                     row("faster-but-refused", BIG, "box", 8, 0.01, 0.2, supported=False),
                     row("faster-but-wrap", BIG, "box", 8, 0.02, 0.4, border="wrap"),
                     row("faster-but-hdr", BIG, "box", 8, 0.03, 0.6, fmt="rgba16f"),
                     row("exact-gauss", BIG, "gauss", 30, 0.45, 9.0, fidelity={"exact": True}),
                     row("dual-kawase", BIG, "gauss", 30, 0.35, 7.0, fidelity=APPROX)]}
second = {"date": "2026-01-02T00:00:00+0000", "gl": {"renderer": "GPU A", "version": "4.3 X"}, "run": {"frames": 30},
          "results": [copy_row(HD, 0.0125), row("other", HD, "box", 8, 0.0300, 2.4)]}
other_gpu = dict(second, gl={"renderer": "GPU B", "version": "4.3 X"})

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


def run(*args):
    return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True, encoding="utf-8")


with tempfile.TemporaryDirectory() as tmp:
    paths = {}
    for name, report in (("first", first), ("second", second), ("other", other_gpu)):
        paths[name] = os.path.join(tmp, name + ".json")
        with open(paths[name], "w") as f:
            json.dump(report, f)
    merged_path = os.path.join(tmp, "merged.json")

    done = run("merge", merged_path, paths["first"], paths["second"])
    expect(done.returncode == 0, f"merge of one GPU's reports failed: {done.stderr}")
    merged = json.load(open(merged_path))
    expect(len(merged["results"]) == len(first["results"]) + len(second["results"]), "merge lost or added rows")
    # Each row names its run, its report's index in "sources".
    expect([r.get("run") for r in merged["results"]] == [0] * len(first["results"]) + [1] * len(second["results"]),
           f"merge did not name each row's run: {[r.get('run') for r in merged['results']]}")
    expect([s["date"] for s in merged["sources"]] == [first["date"], second["date"]], "merge did not list both sources")
    expect(merged["date"] == second["date"], "the merged file's date is not its newest report's")

    # A results file joined with a new report keeps its sources and rows, the report's after them.
    again_path = os.path.join(tmp, "again.json")
    done = run("merge", again_path, merged_path, paths["first"])
    expect(done.returncode == 0, f"merge of a results file and a report failed: {done.stderr}")
    again = json.load(open(again_path))
    expect([s["date"] for s in again["sources"]] == [first["date"], second["date"], first["date"]],
           "merge did not keep the results file's sources")
    expect(again["results"] == merged["results"] + [dict(r, run=2) for r in first["results"]],
           "merge did not keep the results file's rows first (with their runs), the report's after them as run 2")

    refused = run("merge", os.path.join(tmp, "mixed.json"), paths["first"], paths["other"])
    expect(refused.returncode != 0 and "GPU B" in refused.stderr, "merge of two GPUs' reports was not refused")
    expect(not os.path.exists(os.path.join(tmp, "mixed.json")), "a refused merge wrote a file")

    table = run("table", merged_path)
    expect(table.returncode == 0, f"table failed: {table.stderr}")
    lines = table.stdout.splitlines()
    box = [line for line in lines if line.startswith("| box r = 8 |")]
    expect(box == ["| box r = 8 | fast | 0.100 | 2.00 | other | 0.0300 | 2.40 |"],
           f"box r = 8 is not the fastest exact clamp rgba8 row per size with its own x copy: {box}")
    exact = [line for line in lines if line.startswith("| gauss r = 30, sigma 10 |")]
    expect(exact == ["| gauss r = 30, sigma 10 | exact-gauss | 0.450 | 9.00 | - |  |  |"],
           f"the exact Gaussian row is wrong: {exact}")
    approximate = [line for line in lines if line.startswith("| gauss r = 30, sigma 10, approximate |")]
    expect(approximate == ["| gauss r = 30, sigma 10, approximate | dual-kawase (max 36, RMS 0.39 LSB) | 0.350 | 7.00 | - |  |  |"],
           f"the approximation is not apart with its fidelity: {approximate}")
    expect(any(line.startswith("| kernel, r | 4096x4096: fastest | ms | x copy | 1080p: fastest |") for line in lines),
           "the larger size does not come first")

    # A variant competes with its newest row of a setting: "fast" measured again, slower, no longer
    # answers with its older, faster row; "slow" is the fastest now.
    third = dict(second, date="2026-01-03T00:00:00+0000", results=[copy_row(BIG, 0.05), row("fast", BIG, "box", 8, 0.40, 8.0)])
    paths["third"] = os.path.join(tmp, "third.json")
    with open(paths["third"], "w") as f:
        json.dump(third, f)
    newer_path = os.path.join(tmp, "newer.json")
    expect(run("merge", newer_path, merged_path, paths["third"]).returncode == 0, "merge of a third report failed")
    box = [line for line in run("table", newer_path).stdout.splitlines() if line.startswith("| box r = 8 |")]
    expect(box == ["| box r = 8 | slow | 0.300 | 6.00 | other | 0.0300 | 2.40 |"],
           f"an older, faster row of a variant measured again still answered: {box}")

    # --defaults: a knob sweep is told by its run, not by its copy time, which a later run of the
    # defaults may share (the newer row at the defaults competes; the sweep's rows do not).
    def knobbed(knobs, x_copy):
        r = row("tuned-one", HD, "box", 8, 0.05, x_copy)
        r["copy_ms"] = 0.0125
        r["settings"]["knobs"] = knobs
        return r
    sweep = dict(second, results=[copy_row(HD, 0.0125), knobbed({"unroll": "4"}, 1.1), knobbed({"unroll": "8"}, 1.2)])
    defaults_run = dict(second, date="2026-01-04T00:00:00+0000", results=[copy_row(HD, 0.0125), knobbed({"unroll": "8"}, 1.3)])
    for name, report in (("sweep", sweep), ("defaults_run", defaults_run)):
        paths[name] = os.path.join(tmp, name + ".json")
        with open(paths[name], "w") as f:
            json.dump(report, f)
    for reports, expected, what in (
            (["second", "sweep"], "| box r = 8 | other | 0.0300 | 2.40 |", "--defaults let a knob sweep's rows compete"),
            (["second", "sweep", "defaults_run"], "| box r = 8 | tuned-one | 0.0500 | 1.30 |",
             "--defaults did not take the row of a later run at the defaults with the sweep's copy time")):
        runs_path = os.path.join(tmp, "runs.json")
        expect(run("merge", runs_path, *[paths[n] for n in reports]).returncode == 0, f"merge of {reports} failed")
        box = [line for line in run("table", runs_path, "--defaults").stdout.splitlines() if line.startswith("| box r = 8 |")]
        expect(box == [expected], f"{what}: {box}")

    # ranking: every exact variant at the radius, fastest first by x copy at the larger size (the
    # faster-by-ms but slower-by-ratio one after), the refused one named with its reason, the
    # approximation and the other border and format left out.
    refused = row("too-wide", BIG, "box", 8, 0.0, 0.0, supported=False)
    refused["unsupported"] = {"reason": "needs 60 KiB of shared memory"}
    ranked_report = dict(first, results=first["results"] + [row("quick-ms-slow-ratio", BIG, "box", 8, 0.09, 2.2), refused])
    ranked_path = os.path.join(tmp, "ranked.json")
    with open(ranked_path, "w") as f:
        json.dump(ranked_report, f)
    ranked = run("ranking", ranked_path, "--kernel", "box")
    expect(ranked.returncode == 0, f"ranking failed: {ranked.stderr}")
    lines = ranked.stdout.splitlines()
    rows = [line.split(" | ")[0].lstrip("| ") for line in lines if line.startswith("| ") and "---" not in line and "variant" not in line]
    expect(rows == ["fast", "quick-ms-slow-ratio", "slow"], f"ranking's order is not by x copy: {rows}")
    expect("box r = 8: 3 exact variants timed, 2 refused" in lines, f"ranking's count is wrong: {lines}")
    expect("- refused: too-wide (needs 60 KiB of shared memory)" in lines, f"ranking does not name the refusal: {lines}")
    expect(any(line.startswith("| fast | 0.100 (2.00x") for line in lines), f"ranking's cell is wrong: {lines}")

# --- targets ----------------------------------------------------------------------------------


def timed_row(variant, size, role, x_copy, kernel="gauss", sigma=None, radius=None, copy_ms=0.05, passes=None, knobs=None):
    """A row as blurlab writes it: role, knobs, copy_ms, own bound; spans per pass."""
    r = row(variant, size, kernel, radius if radius is not None else 3 * sigma, x_copy * copy_ms, x_copy)
    r["role"] = role
    r["copy_ms"] = copy_ms
    r["settings"]["knobs"] = knobs or {}
    if sigma is not None:
        r["settings"]["sigma"] = float(sigma)
    r["own_bound"] = {"fraction": 0.5, "limit": "memory"}
    for i, x in enumerate(passes or []):
        r["spans"][f"p{i + 1}"] = {"median_ms": x * copy_ms}
    return r


targets_file = {"about": "made up for the test", "sizes": ["4096x4096", "1920x1080"], "targets": [
    {"variant": "quick-blur", "kernel": "gauss", "sigmas": [3, 10, 30], "x_copy": 2.5},
    {"variant": "passes-blur", "kernel": "gauss", "sigmas": [3], "x_copy": 1.6, "per_pass": True},
    {"variant": "sweep-blur", "kernel": "gauss", "sigmas": [3], "x_copy": 4.0},
    {"fastest_exact": True, "kernel": "box", "radii": [8, 32], "x_copy": 2.5},
    {"variant": "sized-blur", "kernel": "box", "radii": [1, 8], "size_ratio": 1.3}],
    "references": [{"variant": "exact-gauss", "kernel": "gauss", "sigmas": [3]}]}

targets_report = {"date": "2026-02-01T00:00:00+0000", "gl": {"renderer": "GPU A", "version": "4.3 X"}, "results": [
    # quick-blur sigma 3 at 4096^2 first at 2.6x, then (later in the file, newer) at exactly 2.5x: the
    # later row answers and meets 2.5x; at 1080p 2.54x, a hair past 2.5x, does not.
    timed_row("quick-blur", BIG, "approximation", 2.6, sigma=3),
    timed_row("quick-blur", BIG, "approximation", 2.5, sigma=3),
    timed_row("quick-blur", HD, "approximation", 2.54, sigma=3, copy_ms=0.0125),
    # The same setting in a later run (its own copy) at other knobs: still the newest row.
    timed_row("quick-blur", BIG, "approximation", 3.0, sigma=10),
    timed_row("quick-blur", BIG, "approximation", 2.45, sigma=10, copy_ms=0.051, knobs={"fold": "off"}),
    # Two knob sets in one run (the same copy): a sweep, whose last row the cell says it shows.
    timed_row("sweep-blur", BIG, "approximation", 30.0, sigma=3, knobs={"lookahead": "8"}),
    timed_row("sweep-blur", BIG, "approximation", 20.0, sigma=3, knobs={"lookahead": "4"}),
    # passes-blur: the total is far above 1.6x, the target is per pass; the worst pass decides.
    timed_row("passes-blur", BIG, "approximation", 4.5, sigma=3, passes=[1.5, 1.55, 1.45]),
    timed_row("passes-blur", HD, "approximation", 4.9, sigma=3, copy_ms=0.0125, passes=[1.5, 1.7, 1.4]),
    # Exact boxes at r = 8: the fastest exact one wins, not the approximation nor the refused one,
    # and a variant by its newest row (fast-then-slow was fast in an older run).
    timed_row("slow-box", BIG, "blur", 4.0, kernel="box", radius=8),
    timed_row("fast-then-slow", BIG, "blur", 1.5, kernel="box", radius=8),
    timed_row("fast-box", BIG, "blur", 2.2, kernel="box", radius=8),
    timed_row("fast-then-slow", BIG, "blur", 3.5, kernel="box", radius=8),
    timed_row("faster-but-approximate", BIG, "approximation", 1.0, kernel="box", radius=8),
    dict(timed_row("faster-but-refused", BIG, "blur", 1.0, kernel="box", radius=8), supported=False),
    timed_row("sized-blur", HD, "blur", 6.0, kernel="box", radius=8, copy_ms=0.0125),
    # sized-blur at r = 1: 1080p at 1.25x its 4096^2 ratio meets 1.3x; at r = 8, 1.5x does not.
    timed_row("sized-blur", BIG, "blur", 4.0, kernel="box", radius=1),
    timed_row("sized-blur", HD, "blur", 5.0, kernel="box", radius=1, copy_ms=0.0125),
    timed_row("sized-blur", BIG, "blur", 4.0, kernel="box", radius=8),
    timed_row("exact-gauss", BIG, "blur", 3.5, sigma=3)]}


def target_line(lines, variant, setting):
    found = [line for line in lines if line.startswith(f"| {variant} | {setting} |")]
    return found[0].split(" | ") if len(found) == 1 else []


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "results.json")
    with open(path, "w") as f:
        json.dump(targets_report, f)
    targets_path = os.path.join(tmp, "targets.json")
    with open(targets_path, "w") as f:
        json.dump(targets_file, f)
    judged = run("targets", path, "--targets", targets_path)
    expect(judged.returncode == 0, f"targets failed: {judged.stderr}")
    lines = judged.stdout.splitlines()
    expect(lines and lines[0].startswith("GPU A, against ") and "targets.json" in lines[0] and "results.json)" in lines[0]
           and "2026" not in lines[0], f"the header does not name the GPU, the targets and the file (and no date: the docs hold none): {lines[:1]}")

    # (variant, setting, the cells of 4096x4096, 1080p and met?, what a mismatch means)
    for variant, setting, expected, why in (
            ("quick-blur", "σ 3", ["0.125 (2.50x, 50%)", "0.0318 (2.54x, 50%)", "yes / no |"],
             "2.5x (the newest row) should meet 2.5x and 2.54x not"),
            ("quick-blur", "σ 10", ["0.125 (2.45x, 50%)", "not measured", "yes / - |"],
             "the latest row (other knobs) should answer, 1080p not measured"),
            ("quick-blur", "σ 30", ["not measured", "not measured", "- / - |"], "a missing row is not 'not measured'"),
            ("sweep-blur", "σ 3", ["1.00 (20.00x, 50%), the last of 2 knob sets its run timed", "not measured", "no / - |"],
             "a knob sweep's last row is not marked as such"),
            ("exact box, fastest", "r 8", ["fast-box: 0.110 (2.20x, 50%)", "sized-blur: 0.0750 (6.00x, 50%)", "yes / no |"],
             "the fastest exact box is not the fastest exact row, each variant by its newest"),
            ("exact box, fastest", "r 32", ["not measured", "not measured", "- / - |"], "no exact box at r 32 is not 'not measured'"),
            ("exact-gauss", "σ 3", ["0.175 (3.50x, 50%)", "not measured", " |"], "the reference row is wrong")):
        cells = target_line(lines, variant, setting)
        expect(cells[3:6] == expected, f"{variant} {setting}: {why}: {cells}")

    cells = target_line(lines, "passes-blur", "σ 3")
    expect(len(cells) == 6 and cells[3].endswith("passes 1.45-1.55x, worst p2") and cells[4].endswith("passes 1.40-1.70x, worst p2")
           and cells[5] == "yes / no |", f"a per-pass target is not judged by the worst pass: {cells}")

    cells = target_line(lines, "sized-blur", "r 1")
    expect(len(cells) == 6 and cells[5].startswith("yes (1080p 1.25x"), f"sized-blur r 1 should meet 1.3x: {cells}")
    cells = target_line(lines, "sized-blur", "r 8")
    expect(len(cells) == 6 and cells[5].startswith("no (1080p 1.50x"), f"sized-blur r 8 should miss 1.3x: {cells}")

    cells = target_line(lines, "copy", "the floor, each run's")
    expect(cells[3:5] == ["0.0500-0.0510 (1.00x)", "0.0125 (1.00x)"], f"the copy row is not the copies the rows shown were divided by: {cells}")

    # A targets row without a limit is refused, not judged as nothing.
    broken = dict(targets_file, targets=[{"variant": "quick-blur", "kernel": "gauss", "sigmas": [3]}])
    with open(targets_path, "w") as f:
        json.dump(broken, f)
    refused = run("targets", path, "--targets", targets_path)
    expect(refused.returncode != 0 and "is not a targets file" in refused.stderr, f"a target with no limit was not refused: {refused.stderr}")

    # The project's own targets file is one.
    project = run("targets", path)
    expect(project.returncode == 0 and "docs/targets.json" in project.stdout, f"the project's targets file: {project.stderr}")


# --- bad input, as blurlab takes it (docs/tools/tool_io.py): one line on stderr, an exit code, no
# traceback, no hang, no file outside the folder asked for, no link or read-only file replaced ---
def one_line_refusal(done, code, message, what):
    expect(done.returncode == code, f"{what}: exit {done.returncode}, not {code}: {done.stderr[-300:]}")
    expect(done.stderr.startswith("results.py: ") and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr,
           f"{what}: not one line on stderr: {done.stderr[-300:]!r}")
    expect(message in done.stderr, f"{what}: '{message}' not in {done.stderr!r}")


def run_bounded(*args, env=None):
    """The tool, killed after 20 s: a FIFO once hung it."""
    try:
        return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True, encoding="utf-8", timeout=20, env=env)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(args, -1, "", "hung (killed after 20 s)\n")


with tempfile.TemporaryDirectory() as tmp:
    good = os.path.join(tmp, "good.json")
    with open(good, "w") as f:
        json.dump(first, f)
    fifo = os.path.join(tmp, "report.fifo")
    os.mkfifo(fifo)
    one_line_refusal(run_bounded("table", fifo), 1, "it is a FIFO, not a regular file", "a FIFO as the report")
    zero = os.path.join(tmp, "zero.json")  # a link of the test's own: /dev/zero is only read
    os.symlink("/dev/zero", zero)
    one_line_refusal(run_bounded("table", zero), 1, "it is a character device, not a regular file", "/dev/zero as the report")
    bad_row = os.path.join(tmp, "bad_row.json")
    with open(bad_row, "w") as f:
        json.dump(dict(first, results=[dict(first["results"][1], settings="gauss")]), f)
    one_line_refusal(run_bounded("table", bad_row), 1, "is not a blurlab JSON report (TypeError: a row without a variant name and settings",
                     "a row whose settings are text")
    bad_size = os.path.join(tmp, "bad_size.json")
    with open(bad_size, "w") as f:
        json.dump(dict(first, results=[dict(first["results"][1], size={"width": "wide", "height": 3})]), f)
    one_line_refusal(run_bounded("ranking", bad_size), 1, "its size is not two whole numbers", "a size that is text")
    # A row's run is its report's index among the file's sources: text, or one past them, is refused.
    for run_value, message in (("first", "its run first is not a whole number in 0..1000000"),
                               (1, "its run 1 is not one of the file's 1 sources")):
        bad_run = os.path.join(tmp, "bad_run.json")
        with open(bad_run, "w") as f:
            json.dump(dict(first, sources=[{"date": first["date"]}], results=[dict(first["results"][1], run=run_value)]), f)
        one_line_refusal(run_bounded("table", bad_run), 1, message, f"a row's run {run_value!r}")
    not_json = os.path.join(tmp, "not.json")
    with open(not_json, "wb") as f:
        f.write(b"{\"results\": \x9b[2J")
    done = run_bounded("table", not_json)
    one_line_refusal(done, 1, "is not JSON", "a report that is not JSON")
    expect("\x9b" not in done.stderr and "\x1b" not in done.stderr, f"a control byte of the file reached stderr: {done.stderr!r}")
    one_line_refusal(run_bounded("table", good, "--radius", "abc"), 2, "--radius 'abc' is not a list of whole numbers in 0..512", "--radius abc")
    one_line_refusal(run_bounded("table", good, "--radius", "-5"), 2, "is not a list of whole numbers", "--radius -5")
    one_line_refusal(run_bounded("frobnicate"), 2, "(--help lists the options)", "an unknown command")
    # merge's output as blurlab writes one: a link through /proc (a /dev/stdout of the test's own,
    # stdout a file) and a read-only file are refused before anything is read, and left as they were.
    proc_link = os.path.join(tmp, "stdout.json")
    os.symlink("/proc/self/fd/1", proc_link)
    with open(os.path.join(tmp, "captured"), "w") as captured:
        done = subprocess.run([sys.executable, TOOL, "merge", proc_link, good], stdout=captured, stderr=subprocess.PIPE, text=True, timeout=20)
    one_line_refusal(done, 1, "it leads through /proc to a file a process has open", "merge into a link through /proc")
    expect(os.path.islink(proc_link), "merge replaced a link through /proc")
    read_only = os.path.join(tmp, "read_only.json")
    with open(read_only, "w") as f:
        f.write("kept")
    os.chmod(read_only, 0o444)
    one_line_refusal(run_bounded("merge", read_only, good), 1, "it is read-only (mode 0444)", "merge into a read-only file")
    expect(open(read_only).read() == "kept", "merge replaced a read-only file")
    linked = os.path.join(tmp, "linked.json")
    with open(os.path.join(tmp, "good_copy.json"), "w") as f:
        f.write("old")
    os.symlink("good_copy.json", linked)
    expect(run_bounded("merge", linked, good).returncode == 0 and os.path.islink(linked)
           and json.load(open(os.path.join(tmp, "good_copy.json")))["results"] == [dict(r, run=0) for r in first["results"]],
           "merge into a link did not keep the link and write the file it leads to")
    expect(not [n for n in os.listdir(tmp) if n.startswith(".blurlab-")], f"temporary files left: {os.listdir(tmp)}")

    # docs/results/measure.sh: a NAME or SIZE that would leave its folders is refused (a "../" name
    # overwrote and deleted files outside docs/results and docs/charts). A copy of the tree's files.
    root = os.path.join(tmp, "tree")
    tools = os.path.dirname(os.path.abspath(TOOL))
    for folder in ("docs/results", "docs/tools", "docs/charts"):
        os.makedirs(os.path.join(root, folder))
    for name in os.listdir(tools):
        if name.endswith(".py"):
            shutil.copy(os.path.join(tools, name), os.path.join(root, "docs/tools", name))
    measure = os.path.join(root, "docs/results/measure.sh")
    shutil.copy(os.path.join(os.path.dirname(tools), "results", "measure.sh"), measure)
    outside = os.path.join(tmp, "escape_keep.png")
    with open(outside, "w") as f:
        f.write("kept")
    env = dict(os.environ, BLURLAB_PYTHON=sys.executable, BLURLAB="/bin/false")
    for args, message in ((["results", "../../../escape", good], "NAME '../../../escape' is not a plain file name"),
                          (["sweep", tmp, "../../x"], "SIZE '../../x' is not WxH"),
                          (["sweep", os.path.join(tmp, "no_such_folder"), "64x64"], "is not a folder it can write into"),
                          (["all", ".hidden"], "NAME '.hidden' is not a plain file name"),
                          (["nonsense"], "usage: measure.sh")):
        done = subprocess.run(["bash", measure, *args], capture_output=True, text=True, env=env, timeout=60)
        expect(done.returncode == 2 and done.stderr.count("\n") == 1 and message in done.stderr,
               f"measure.sh {' '.join(args)}: exit {done.returncode}, stderr {done.stderr[-300:]!r}")
    expect(os.path.exists(outside) and not os.path.exists(os.path.join(tmp, "escape.json")),
           "measure.sh results wrote or removed files outside docs/results and docs/charts")
    # measure.sh results of new reports keeps the rows a results file holds (a refresh of a few
    # settings once replaced the whole file with them).
    digests_tool = os.path.join(tmp, "digests.sh")
    with open(digests_tool, "w") as f:
        f.write("#!/bin/sh\necho 'fast 1111'\n")
    os.chmod(digests_tool, 0o755)
    older_report, newer = os.path.join(tmp, "older_report.json"), os.path.join(tmp, "newer_report.json")
    def charted(variant, ms, x_copy):  # a row with what the charts read too
        return dict(row(variant, BIG, "box", 16, ms, x_copy), stage="compute", copy_ms=0.05)
    with open(older_report, "w") as f:
        json.dump(dict(first, results=[copy_row(BIG, 0.05), charted("fast", 0.10, 2.0), charted("slow", 0.3, 6.0)]), f)
    with open(newer, "w") as f:
        json.dump(dict(first, date="2026-01-05T00:00:00+0000", results=[copy_row(BIG, 0.05), charted("fast", 0.12, 2.4)]), f)
    env_digests = dict(env, BLURLAB_CODE_DIGESTS=digests_tool)
    for report in (older_report, newer):
        done = subprocess.run(["bash", measure, "results", "refreshed", report], capture_output=True, text=True, env=env_digests, timeout=120)
        expect(done.returncode == 0, f"measure.sh results refreshed {os.path.basename(report)}: exit {done.returncode}, {done.stderr[-300:]!r}")
    refreshed = json.load(open(os.path.join(root, "docs/results/refreshed.json")))
    expect(len(refreshed["sources"]) == 2 and len(refreshed["results"]) == 5,
           f"measure.sh results dropped the rows the file held: {len(refreshed['sources'])} sources, {len(refreshed['results'])} rows")


# --- older: the rows made by today's code of their variant, by the digests given -------------------
with tempfile.TemporaryDirectory() as tmp:
    made = dict(first, results=[dict(r, made_by={"commit": "abc", "code": "1111"}) for r in first["results"]])
    made["results"][1] = dict(made["results"][1], made_by={"commit": "old1", "code": "0000"})  # "slow": older code
    made["results"][2] = {k: v for k, v in made["results"][2].items() if k != "made_by"}      # "fast": none recorded
    path = os.path.join(tmp, "made.json")
    with open(path, "w") as f:
        json.dump(made, f)
    digests = os.path.join(tmp, "digests.txt")
    with open(digests, "w") as f:
        f.write("".join(f"{v} 1111\n" for v in ("slow", "fast", "faster-but-refused", "faster-but-wrap", "faster-but-hdr",
                                                  "exact-gauss", "dual-kawase")))
    result = run("older", path, "--digests", digests)
    lines = result.stdout.splitlines()
    expect(result.returncode == 0 and "5 of 7 rows made by today's code" in result.stdout, f"older: {result.stdout}{result.stderr}")
    expect("| slow | 0 | 1 | old1 |" in lines and "| fast | 0 | 1 | none recorded |" in lines and "| exact-gauss | 1 | 0 | - |" in lines,
           f"older's rows: {lines}")
    with open(digests, "w") as f:
        f.write("not a digest line at all\n")
    refused = run("older", path, "--digests", digests)
    expect(refused.returncode != 0 and "is not a line of blurlab-code-digests" in refused.stderr, f"a bad digests file: {refused.stderr}")

# --- effects: the effect rows (blurlab's "effect_results"), as docs/EFFECTS.md shows them ------------
def effect_row(effect, implementation, ms, x_copy, max_lsb, psnr, edges=None, values=None, refused=None):
    r = {"effect": effect, "implementation": implementation, "width": 1920, "height": 1080, "values": values or {},
         "total_ms": None if refused else ms, "x_copy": None if refused else x_copy,
         "check": {"fidelity": {"max_lsb": max_lsb, "psnr_db": psnr}}}
    if edges is not None:
        r["check"]["fidelity"]["edges_psnr_db"] = edges
    if refused:
        r["unsupported"] = {"reason": refused}
    return r


with tempfile.TemporaryDirectory() as tmp:
    with_effects = dict(first, effect_results=[effect_row("bloom", "fft", 0.5, 10.0, 3.2, 51.26, values={"psf": "gauss:2%"}),
                                               effect_row("dof", "gather", 0.25, 5.0, 12.0, 44.04, edges=38.96),
                                               effect_row("bloom", "huge", 0, 0, 0, 0, refused="needs 64 KiB of shared memory")])
    path = os.path.join(tmp, "effects.json")
    with open(path, "w") as f:
        json.dump(with_effects, f)
    lines = run("effects", path).stdout.splitlines()
    expect("| effect | implementation | size | ms | × copy | max LSB | PSNR dB | edges PSNR dB |" in lines
           and "| bloom (psf gauss:2%) | fft | 1920x1080 | 0.500 | 10.00 | 3 | 51.3 | - |" in lines
           and "| dof | gather | 1920x1080 | 0.250 | 5.00 | 12 | 44.0 | 39.0 |" in lines
           and "| bloom | huge | 1920x1080 | refused: needs 64 KiB of shared memory | | | | |" in lines, f"effects: {lines}")
    no_edges = dict(first, effect_results=with_effects["effect_results"][:1])
    with open(path, "w") as f:
        json.dump(no_edges, f)
    lines = run("effects", path).stdout.splitlines()
    expect("| effect | implementation | size | ms | × copy | max LSB | PSNR dB |" in lines, f"effects without edges PSNR: {lines}")
    plain = os.path.join(tmp, "plain.json")
    with open(plain, "w") as f:
        json.dump(first, f)
    expect("holds no effect rows" in run("effects", plain).stdout, "a file without effect rows")
    # merge keeps the effect rows of every report
    merged = os.path.join(tmp, "merged_effects.json")
    expect(run("merge", merged, path, path).returncode == 0 and len(json.load(open(merged))["effect_results"]) == 2,
           "merge dropped the effect rows")
    # an effect row's number of another kind is refused in one line
    with open(path, "w") as f:
        json.dump(dict(first, effect_results=[dict(effect_row("bloom", "fft", 0.5, 10.0, 3, 50), x_copy="fast")]), f)
    done = run("effects", path)
    expect(done.returncode == 1 and done.stderr.count("\n") == 1 and "x_copy fast is not a number" in done.stderr,
           f"an effect row's text x_copy: {done.returncode} {done.stderr!r}")


# --- table --defaults and --mark-older; ranking --top ---------------------------------------------
with tempfile.TemporaryDirectory() as tmp:
    rows = [copy_row(BIG, 0.05),
            dict(row("tuned-fast", BIG, "box", 8, 0.05, 1.0), settings=dict(row("x", BIG, "box", 8, 0, 0)["settings"], tuned=True)),
            dict(row("swept", BIG, "box", 8, 0.06, 1.2), settings=dict(row("x", BIG, "box", 8, 0, 0)["settings"], knobs={"k": "1"})),
            dict(row("swept", BIG, "box", 8, 0.07, 1.4), settings=dict(row("x", BIG, "box", 8, 0, 0)["settings"], knobs={"k": "2"})),
            dict(row("plain", BIG, "box", 8, 0.10, 2.0), made_by={"code": "old"}),
            dict(row("today", BIG, "box", 16, 0.10, 2.0), made_by={"code": "1111"})]
    path = os.path.join(tmp, "defaults.json")
    with open(path, "w") as f:
        json.dump(dict(first, results=rows), f)
    digests = os.path.join(tmp, "digests.txt")
    with open(digests, "w") as f:
        f.write("plain 1111\ntoday 1111\ntuned-fast 1111\nswept 1111\n")
    lines = run("table", path).stdout.splitlines()
    expect("| box r = 8 | tuned-fast | 0.0500 | 1.00 |" in lines, f"table without --defaults: {lines}")
    lines = run("table", path, "--defaults", "--mark-older", "--digests", digests).stdout.splitlines()
    expect("| box r = 8 | plain (older) | 0.100 | 2.00 |" in lines and "| box r = 16 | today | 0.100 | 2.00 |" in lines,
           f"table --defaults --mark-older: {lines}")
    lines = run("ranking", path, "--kernel", "box", "--radius", "8", "--top", "1").stdout.splitlines()
    expect("| tuned-fast | 0.0500 (1.00x) |" in lines and "- slower: swept, plain" in lines and len([l for l in lines if l.startswith("| ")]) == 3,
           f"ranking --top 1: {lines}")
    one_line_refusal(run_bounded("ranking", path, "--top", "0"), 2, "--top 0 is not a whole number from 1", "--top 0")


# --- docs: each marked block is what its command prints -------------------------------------------
with tempfile.TemporaryDirectory() as tmp:
    report = os.path.join(tmp, "gpu.json")
    with open(report, "w") as f:
        json.dump(first, f)
    doc = os.path.join(tmp, "doc.md")
    stale = f"# A doc\n\nBefore.\n\n<!-- results: table {report} --radius 8 -->\nan old table\n<!-- /results -->\n\nAfter.\n"
    with open(doc, "w") as f:
        f.write(stale)
    done = run("docs", "--check", doc)
    expect(done.returncode == 1 and "differ from what their commands print" in done.stderr and open(doc).read() == stale,
           f"docs --check of a stale block: {done.returncode} {done.stderr!r}")
    done = run("docs", doc)
    table_now = run("table", report, "--radius", "8").stdout
    expect(done.returncode == 0 and open(doc).read() == stale.replace("an old table\n", table_now.rstrip("\n") + "\n\n"),
           f"docs did not write the block as its command prints it: {open(doc).read()!r}")
    expect(run("docs", "--check", doc).returncode == 0, "docs --check fails on the block docs just wrote")
    for text, message in ((f"<!-- results: table {report} -->\nno end\n", "has no '<!-- /results -->'"),
                          (f"<!-- results: merge {report} {report} -->\n<!-- /results -->\n", "a results block runs one of"),
                          (f"<!-- results: table {report} --radius x -->\n<!-- /results -->\n", "--radius 'x' is not a list")):
        with open(doc, "w") as f:
            f.write(text)
        done = run("docs", doc)
        expect(done.returncode == 1 and done.stderr.count("\n") == 1 and message in done.stderr and open(doc).read() == text,
               f"docs with {text!r}: {done.returncode} {done.stderr!r}")

for failure in failures:
    print("FAIL:", failure)
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
