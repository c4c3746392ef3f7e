#!/usr/bin/env python3
"""The results files of docs/results/ (one per GPU), made from blurlab's JSON reports.

  python3 docs/tools/results.py merge OUT.json REPORT.json [MORE.json ...]
      Joins the reports of one GPU (blurlab --headless --json, e.g. one per image size) into one
      results file: the first report's header, every report's rows, and under "sources" each
      report's date, run settings and roofline. A results file may stand for a report: its rows
      and sources are kept, so new runs can be added to it. Each row names its run ("run": its
      report's index in "sources"). Refuses reports of different GPUs or drivers.

  python3 docs/tools/results.py table RESULTS.json [--radius R,R,...] [--defaults] [--mark-older [--digests FILE]]
      Prints the Markdown tables of docs/PERFORMANCE.md's "Current results" and the README's
      "Which blur to ship": per kernel and radius, the fastest exact variant at each image size
      (each variant by its newest row of the setting, as the ranking and the targets take it)
      with its median GPU time and its time over the copy pass of the same run, and where the
      file has approximate Gaussians, the fastest of them with its fidelity to the exact one.
      --defaults: only rows at the variants' defaults compete (no --tuned knobs, no knob sweep);
      --mark-older: "(older)" after a row made by other code of its variant than today's (the
      digests as for `older`).

  python3 docs/tools/results.py ranking RESULTS.json [--kernel gauss|box] [--radius R,R,...] [--top N]
      Every exact variant the file measured at each radius (rgba8, clamp), fastest first by its x
      copy at the larger size, with ms, x copy and own-bound fraction at each size, then the
      variants refused there with their reasons: what the table's fastest was chosen among.
      --top N: the N fastest in the table, the others named on one line.

  python3 docs/tools/results.py effects RESULTS.json
      The effect rows (blurlab --effect ... --json: "effect_results"), as docs/EFFECTS.md shows
      them: effect and parameters, implementation, size, ms, x copy, and the fidelity to the
      effect's ground truth (max LSB, PSNR, and the PSNR at edges where a row has one:
      check.fidelity.edges_psnr_db); a refused row with its reason.

  python3 docs/tools/results.py docs [--check] [FILE.md ...]
      Makes again every block of the docs (README.md, docs/PERFORMANCE.md, docs/TARGETS.md, docs/EFFECTS.md,
      docs/GPU.md by default) between `<!-- results: COMMAND ARGS -->` and `<!-- /results -->`
      from what `results.py COMMAND ARGS` prints now (COMMAND: table, ranking, targets, effects or
      older; run from the tree's root). --check changes nothing and fails naming the files whose
      blocks differ (the test report.results_docs).

  python3 docs/tools/results.py targets RESULTS.json [--targets TARGETS.json]
      Prints the file's rows against the project's performance targets (docs/targets.json,
      which says what a target is, or another targets file), as docs/TARGETS.md shows them:
      each row at the two image sizes the targets name (rgba8, clamp) with its time, its time over
      the copy pass of its own run and its fraction of its own bound, the target, and whether the
      number meets it (at most the limit, as measured, unrounded). A target per pass (spans p1,
      p2, ...) is decided by the worst pass; the fastest exact row of a setting is the fastest of
      role "blur" or "baseline" (rows of reports older than roles have none and do not compete); a
      size ratio compares the smaller size's x copy with the larger's.
      Which row answers: of the rows for one variant, kernel, radius or sigma, border, format and
      size, the one latest in the file. merge keeps its reports' order, so that is the row of the
      report given last; a row replaced by hand in a results file keeps the place of the one it
      replaced, so such a file holds one row per setting. The latest row wins whatever its knobs:
      the targets are for files of default runs (measure.sh's); where a run swept knobs the cell says "the last of N knob sets its run timed", which need not be
      the defaults. A row the file does not hold reads "not measured".

  python3 docs/tools/results.py older RESULTS.json [--digests FILE]
      Which rows still hold for today's code: per variant, how many of its rows were made by the
      code the tree has now, and for the others the commit that made them. Each row of a report
      says what made it ("made_by": the commit the program was built from and "code", the digest
      of the variant's code: its C++ file, the helpers of src/variants/ it includes and its shaders,
      comments left out; src/util/code_digest.h). Today's digests come from
      build-release/src/blurlab-code-digests run on this tree, or from FILE (its output: "NAME
      DIGEST" lines). blurlab's conclusion on a CPU rasterizer ranks only such rows, at the
      variant's defaults (report/results_files.h), and names the variants whose rows it left out.
      Rows of results files made before blurlab recorded "made_by" hold one worked out from the
      date of their run ("inferred"), or none where that cannot tell.

docs/results/measure.sh runs merge and older after its sweeps; `docs` then redraws the docs' tables.
"""
import argparse
import collections
import json
import os
import subprocess
import sys

from tool_io import ArgumentParser, ToolError, check_output, fail, one_line, read_json, read_text, run_tool, write_bytes  # beside this file: blurlab's file and message rules

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def is_whole(value, low, high):
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def check_row(row):
    """The fields of a row the tables read, each of its kind: a report with another kind there is
    refused naming it (a traceback once said it, at length)."""
    if not isinstance(row, dict) or not isinstance(row.get("variant"), str) or not isinstance(row.get("settings"), dict):
        raise TypeError(f"a row without a variant name and settings: {str(row)[:80]}")
    size = row.get("size")
    if not isinstance(size, dict) or not is_whole(size.get("width"), 1, 65536) or not is_whole(size.get("height"), 1, 65536):
        raise ValueError(f"row {row['variant']}: its size is not two whole numbers in 1..65536: {str(size)[:80]}")
    s = row["settings"]
    if "radius" in s and not is_whole(s["radius"], 0, 128):
        raise ValueError(f"row {row['variant']}: its radius {str(s['radius'])[:40]} is not a whole number in 0..128")
    for key in ("sigma", "x_copy", "copy_ms"):
        value = s.get(key) if key == "sigma" else row.get(key)
        if value is not None and (not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value < 1e12):
            raise ValueError(f"row {row['variant']}: {key} {str(value)[:40]} is not a number")
    if "run" in row and not is_whole(row["run"], 0, 1_000_000):
        raise ValueError(f"row {row['variant']}: its run {str(row['run'])[:40]} is not a whole number in 0..1000000")
    spans = row.get("spans", {})
    if not isinstance(spans, dict) or any(not isinstance(v, dict) or not isinstance(v.get("median_ms", 0), (int, float))
                                          or isinstance(v.get("median_ms", 0), bool) for v in spans.values()):
        raise ValueError(f"row {row['variant']}: its spans are not times in milliseconds")


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 1e12


def check_effect_row(row):
    """The fields of an effect's row (blurlab's "effect_results") the effects table reads, each of
    its kind."""
    if not isinstance(row, dict) or not isinstance(row.get("effect"), str) or not isinstance(row.get("implementation"), str):
        raise TypeError(f"an effect row without an effect and an implementation: {str(row)[:80]}")
    if not is_whole(row.get("width"), 1, 65536) or not is_whole(row.get("height"), 1, 65536):
        raise ValueError(f"effect row {row['effect']}: its size is not two whole numbers in 1..65536")
    values = row.get("values", {})
    if not isinstance(values, dict) or any(not isinstance(v, str) for v in values.values()):
        raise ValueError(f"effect row {row['effect']}: its values are not a table of texts")
    for key in ("total_ms", "copy_ms", "x_copy"):
        if row.get(key) is not None and not is_number(row[key]):
            raise ValueError(f"effect row {row['effect']}: {key} {str(row[key])[:40]} is not a number")
    fidelity = row.get("check", {}).get("fidelity", {}) if isinstance(row.get("check", {}), dict) else None
    if not isinstance(fidelity, dict):
        raise ValueError(f"effect row {row['effect']}: its check has no fidelity table")
    for key in ("max_lsb", "psnr_db", "edges_psnr_db"):
        if fidelity.get(key) is not None and not is_number(fidelity[key]):
            raise ValueError(f"effect row {row['effect']}: fidelity {key} {str(fidelity[key])[:40]} is not a number")


def load(path):
    """A blurlab JSON report (or results file), read as blurlab reads a file (a regular file of
    bounded size, one line for anything else) and checked for the fields the tables read.
    (charts.py reads reports the same way; it needs matplotlib at import, so this does not import it.)"""
    report = read_json(path, "the report")
    try:
        if not isinstance(report, dict) or not isinstance(report["results"], list) or not isinstance(report["gl"]["renderer"], str):
            raise TypeError("no \"results\" list and \"gl\" renderer")
        sources = report.get("sources", [])
        if not isinstance(sources, list):
            raise TypeError("\"sources\" is not a list")
        for row in report["results"]:
            check_row(row)
            # A row's run is its report's index in "sources": one past them names no run.
            if "run" in row and row["run"] >= len(sources):
                raise ValueError(f"row {row['variant']}: its run {row['run']} is not one of the file's {len(sources)} sources")
        if not isinstance(report.get("effect_results", []), list):
            raise TypeError("\"effect_results\" is not a list")
        for row in report.get("effect_results", []):
            check_effect_row(row)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        fail(f"{path} is not a blurlab JSON report ({type(e).__name__}: {e})")
    return report


def merge(out, paths):
    check_output(out, "the results file")  # before reading anything: a file it would not write is refused first
    reports = [load(p) for p in paths]
    first = reports[0]
    gpu = (first["gl"]["renderer"], first["gl"].get("version"))
    for path, report in zip(paths, reports):
        if (report["gl"]["renderer"], report["gl"].get("version")) != gpu:
            fail(f"{path} is from {report['gl']['renderer']} {report['gl'].get('version')}, "
                     f"{paths[0]} from {gpu[0]} {gpu[1]}: one GPU and driver per results file")
    merged = {key: value for key, value in first.items() if key not in ("results", "effect_results", "run", "roofline", "date")}
    merged["date"] = max(r.get("date", "") for r in reports)
    # A results file given as a report keeps its own sources: new runs can join an existing file.
    # Each row names its run, the index of its report in "sources" ("run"), so that the rows of
    # one run are known as such (a knob sweep is told from the defaults by it, not by its copy time,
    # which two runs may share); rows merged before rows named their run have none.
    merged["sources"], merged["results"] = [], []
    for r in reports:
        first_source = len(merged["sources"])
        merged["sources"] += r.get("sources", [{key: r[key] for key in ("date", "run", "roofline") if key in r}])
        for row in r["results"]:
            if "sources" not in r:
                row["run"] = first_source
            elif "run" in row:
                row["run"] += first_source
            merged["results"].append(row)
    effect_rows = [row for r in reports for row in r.get("effect_results", [])]
    if effect_rows:
        merged["effect_results"] = effect_rows
    write_bytes(out, (json.dumps(merged, indent=1, sort_keys=True) + "\n").encode("utf-8"), "the results file")
    print(f"{out}: {len(merged['results'])} rows from {len(reports)} reports of {gpu[0]}")


def timed_ms(row):
    spans = row.get("spans", {})
    return spans["total"]["median_ms"] if row.get("supported") and "total" in spans else None


def speed(row):
    """What the table ranks by: the row's time over its run's copy, else its time."""
    return row.get("x_copy") or timed_ms(row)


def ms_text(ms):
    """Three significant digits, trailing zeros kept (0.200, 16.0), whole milliseconds from 100."""
    return f"{ms:.0f}" if ms >= 100 else f"{ms:#.3g}"


def size_name(size):
    w, h = size
    return "1080p" if (w, h) == (1920, 1080) else f"{w}x{h}"


def variant_cell(row, today=None):
    """The variant, and for an approximation its fidelity to the exact Gaussian; with `today` (the
    digests of today's code), "(older)" after a row made by other code of its variant."""
    text = row["variant"]
    if today is not None and row.get("made_by", {}).get("code") != today.get(row["variant"]):
        text += " (older)"
    fidelity = row.get("fidelity", {})
    if fidelity and not fidelity.get("exact"):
        text += f" (max {fidelity['max_lsb']:.0f}, RMS {fidelity['rms_lsb']:.2f} LSB)"
    return text


def at_defaults(report, row):
    """The row ran the variant at its defaults as far as the file tells: not with a --tuned file's
    knobs, and the only knob set its run timed for that setting (a sweep of knobs is no default)."""
    return not row["settings"].get("tuned") and knob_sets_of_run(report, row) == 1


def table(path, radii, defaults=False, today=None):
    """With `defaults`, only rows at the variants' defaults compete; with `today`, rows made by
    other code than today's say "(older)"."""
    report = load(path)
    # Each variant competes with its newest row of a setting (the latest in the file, as for the
    # ranking and the targets): an older run of other code, or a luckier one, does not answer.
    newest_rows = {}
    for row in report["results"]:
        s = row["settings"]
        if row.get("role") == "floor" or "kernel" not in s:
            continue
        setting = (row["variant"], s["kernel"], s.get("radius"), s.get("sigma"), s.get("radius_map", ""), s.get("border", "clamp"),
                   s.get("input_format", "rgba8"), bool(s.get("linear")), row["size"]["width"], row["size"]["height"])
        if defaults and not at_defaults(report, row):
            continue
        newest_rows.pop(setting, None)  # so the dict keeps the file's order of the newest rows
        newest_rows[setting] = row
    # (kernel, radius, exact or not) -> size -> the fastest timed row
    best = collections.defaultdict(dict)
    sizes = []
    for row in newest_rows.values():
        s = row["settings"]
        ms = timed_ms(row)
        if ms is None or s.get("border", "clamp") != "clamp":
            continue
        if s.get("input_format", "rgba8") != "rgba8" or s.get("linear"):
            continue
        if radii and s["radius"] not in radii:
            continue
        size = (row["size"]["width"], row["size"]["height"])
        if size not in sizes:
            sizes.append(size)
        exact = row.get("fidelity", {"exact": True}).get("exact", False)
        key = (s["kernel"], s["radius"], not exact, s.get("radius_map", ""))
        # By the ratio to the copy of the row's own run: a results file may join several runs, whose
        # milliseconds do not compare (clocks, the machine's state), while their ratios do.
        if size not in best[key] or speed(row) < speed(best[key][size]):
            best[key][size] = row
    if not best:
        fail(f"{path} has no timed rgba8 blur with the clamp border")
    sizes.sort(key=lambda wh: -wh[0] * wh[1])
    gpu = report["gl"]["renderer"]
    head = "| kernel, r | " + " | ".join(f"{size_name(z)}: fastest | ms | x copy" for z in sizes) + " |"
    print(f"{gpu}, rgba8, clamp ({os.path.relpath(os.path.abspath(path), ROOT)}"
          + (", each variant at its defaults" if defaults else "")
          + ("; (older): made by other code of the variant than today's" if today is not None else "") + "):\n")
    print(head)
    print("|" + " --- |" * (1 + 3 * len(sizes)))
    for (kernel, radius, approximate, radius_map) in sorted(best, key=lambda k: (k[3], k[0], k[1], k[2])):
        cells = []
        for size in sizes:
            row = best[(kernel, radius, approximate, radius_map)].get(size)
            if row is None:
                cells += ["-", "", ""]
            else:
                cells += [variant_cell(row, today), ms_text(timed_ms(row)), f"{row['x_copy']:.2f}"]
        # A radius map: each pixel's radius from 0 to r (variable-radius variants), not one radius.
        label = f"{kernel} r = {radius}" if not radius_map else f"{kernel} r = 0..{radius} by radius map {radius_map}"
        if kernel == "gauss":
            sigma = next(iter(best[(kernel, radius, approximate, radius_map)].values()))["settings"].get("sigma")
            if sigma:
                label += f", sigma {sigma:.3g}"
        if approximate:
            label += ", approximate"
        print(f"| {label} | " + " | ".join(cells) + " |")


# --- targets: the rows of a targets file, each against the copy of its own run ------------------

DEFAULT_TARGETS = os.path.join(ROOT, "docs", "targets.json")


def parse_size(text):
    w, h = text.split("x")
    return int(w), int(h)


def load_targets(path):
    """A targets file (docs/targets.json says what one holds), checked enough that a typo
    fails here rather than judging nothing."""
    targets = read_json(path, "the targets file")
    try:
        sizes = [parse_size(z) for z in targets["sizes"]]
        for t in targets["targets"] + targets.get("references", []):
            if t["kernel"] not in ("box", "gauss") or not (t.get("sigmas") or t.get("radii")):
                raise ValueError(f"a row needs a kernel and sigmas or radii: {t}")
            if "variant" not in t and not t.get("fastest_exact"):
                raise ValueError(f"a row names a variant or is the fastest exact one: {t}")
        for t in targets["targets"]:
            if ("x_copy" in t) == ("size_ratio" in t):
                raise ValueError(f"a target is x_copy or size_ratio: {t}")
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        fail(f"{path} is not a targets file ({type(e).__name__}: {e})")
    if len(sizes) != 2:
        fail(f"{path}: a targets file names two image sizes, the larger first")
    return targets, sizes


def is_plain_setting(row, size, kernel, radius=None, sigma=None):
    """The row blurs `kernel` in rgba8 with the clamp border, one radius for the image, at `size`."""
    s = row["settings"]
    if (row["size"]["width"], row["size"]["height"]) != size or s.get("kernel") != kernel:
        return False
    if s.get("border", "clamp") != "clamp" or s.get("input_format", "rgba8") != "rgba8" or s.get("linear"):
        return False
    if s.get("radius_map"):
        return False
    if sigma is not None:
        # blurlab's radius for --sigma alone is 3 sigma: those rows, not a sweep's other radii.
        return s.get("sigma") is not None and abs(s["sigma"] - sigma) < 1e-6 and s.get("radius") == 3 * sigma
    return s.get("radius") == radius


def newest(rows):
    """The row latest in the file: the newest measurement (see the docstring)."""
    return rows[-1] if rows else None


def variant_row(report, variant, size, kernel, radius=None, sigma=None):
    return newest([row for row in report["results"]
                   if row["variant"] == variant and is_plain_setting(row, size, kernel, radius, sigma)])


def is_exact_blur(row):
    """blurlab's role for an exact blur is "blur" ("baseline" for the naive ones); rows of reports
    from before roles were written have none and do not count, nor do approximations."""
    return row.get("role") in ("blur", "baseline")


def best_exact(report, size, kernel, radius=None, sigma=None):
    """The fastest exact variant at one setting, each variant by its newest row, ranked by x copy."""
    candidates = {}
    for row in report["results"]:
        if is_exact_blur(row) and is_plain_setting(row, size, kernel, radius, sigma):
            candidates[row["variant"]] = row  # later rows replace earlier ones
    timed = [row for row in candidates.values() if timed_ms(row) is not None]
    return min(timed, key=speed) if timed else None


def pass_ratios(row):
    """A row's passes (spans p1, p2, ...) over the copy of the row's run, in pass order."""
    passes = [(name, span["median_ms"]) for name, span in row["spans"].items() if name[1:].isdigit() and name[0] == "p"]
    passes.sort(key=lambda p: int(p[0][1:]))
    return [(name, ms / row["copy_ms"]) for name, ms in passes]


def knob_sets_of_run(report, row):
    """How many knob sets the row's run timed for its variant, setting and size: more than one is a
    sweep, of which the table shows the last row, not necessarily the defaults. The run is the one
    the row names; a row that names none (merged before rows did) shares its run's copy time."""
    def setting(r):
        return {k: v for k, v in r["settings"].items() if k not in ("knobs", "tuned")}

    def same_run(r):
        if "run" in r or "run" in row:
            return r.get("run") == row.get("run")
        return r.get("copy_ms") == row.get("copy_ms")
    return len({json.dumps(r["settings"].get("knobs"), sort_keys=True) for r in report["results"]
                if r["variant"] == row["variant"] and r["size"] == row["size"] and setting(r) == setting(row) and same_run(r)})


def measured_cell(report, row, with_variant=False):
    """ms (x copy, own-bound fraction), or why there is no number."""
    if row is None:
        return "not measured"
    if timed_ms(row) is None:
        return "not supported" if not row.get("supported") else "not timed"
    text = f"{ms_text(timed_ms(row))} ({row['x_copy']:.2f}x"
    if "own_bound" in row:
        text += f", {100 * row['own_bound']['fraction']:.0f}%"
    text += ")"
    swept = knob_sets_of_run(report, row)
    if swept > 1:
        text += f", the last of {swept} knob sets its run timed"
    return f"{row['variant']}: {text}" if with_variant else text


def per_pass_cell(report, row):
    """The whole blur, then its passes: a target per pass is decided by the worst one."""
    text = measured_cell(report, row)
    if timed_ms(row) is None:
        return text
    ratios = pass_ratios(row)
    worst = max(ratios, key=lambda p: p[1])
    low, high = min(r for _, r in ratios), worst[1]
    return text + f"; passes {low:.2f}-{high:.2f}x, worst {worst[0]}"


def judged_ratio(row, per_pass):
    """The number a target judges: the row's x copy, or its worst pass's."""
    if row is None or timed_ms(row) is None:
        return None
    return max(r for _, r in pass_ratios(row)) if per_pass else row["x_copy"]


def verdict(value, limit):
    """Met when the number is at most the limit, as measured: 2.54x does not meet 2.5x."""
    return "-" if value is None else ("yes" if value <= limit else "no")


def print_target_row(name, setting, target, cells, met):
    print(f"| {name} | {setting} | {target} | " + " | ".join(cells) + f" | {met} |")


def settings_of(t):
    """(label, radius, sigma) of each setting a targets row names."""
    if t.get("sigmas"):
        return [(f"σ {sigma:g}", None, sigma) for sigma in t["sigmas"]]
    return [(f"r {radius}", radius, None) for radius in t["radii"]]


def rows_of(report, t, sizes, radius, sigma):
    if t.get("fastest_exact"):
        return [best_exact(report, size, t["kernel"], radius, sigma) for size in sizes]
    return [variant_row(report, t["variant"], size, t["kernel"], radius, sigma) for size in sizes]


def target_rows(report, targets, sizes):
    """Every row of the targets file, each setting on a line; returns the rows shown."""
    shown = []
    (big, _), small = sizes[0], size_name(sizes[1])
    for t in targets["targets"]:
        name = t.get("variant") or f"exact {t['kernel']}, fastest"
        per_pass = t.get("per_pass", False)
        for label, radius, sigma in settings_of(t):
            rows = rows_of(report, t, sizes, radius, sigma)
            shown += rows
            if "size_ratio" in t:
                factor = t["size_ratio"]
                ratios = [judged_ratio(r, False) for r in rows]
                met = "-" if None in ratios else \
                    f"{verdict(ratios[1] / ratios[0], factor)} ({small} {ratios[1] / ratios[0]:.2f}x its {size_name(sizes[0])} ratio)"
                print_target_row(name, label, f"{small} <= {factor}x its {size_name(sizes[0])} ratio",
                                 [measured_cell(report, r) for r in rows], met)
                continue
            limit = t["x_copy"]
            cells = [per_pass_cell(report, r) if per_pass and r is not None
                     else measured_cell(report, r, with_variant=t.get("fastest_exact", False)) for r in rows]
            met = " / ".join(verdict(judged_ratio(r, per_pass), limit) for r in rows)
            print_target_row(name, label, f"<= {limit}x" + (" a pass" if per_pass else ""), cells, met)
    return shown


def reference_rows(report, targets, sizes, shown):
    """No target: the references the file names, and the copy passes that the rows shown were
    divided by (one per run: a results file may join several)."""
    for t in targets.get("references", []):
        name = t.get("variant") or f"exact {t['kernel']}, fastest"
        for label, radius, sigma in settings_of(t):
            rows = rows_of(report, t, sizes, radius, sigma)
            shown = shown + rows
            print_target_row(name, label, "(reference)", [measured_cell(report, r, with_variant=t.get("fastest_exact", False))
                                                          for r in rows], "")
    cells = []
    for size in sizes:
        copies = sorted({row["copy_ms"] for row in shown if row is not None and row.get("copy_ms")
                         and (row["size"]["width"], row["size"]["height"]) == size})
        if not copies:
            cells.append("not measured")
        elif copies[0] == copies[-1]:
            cells.append(f"{ms_text(copies[0])} (1.00x)")
        else:
            cells.append(f"{ms_text(copies[0])}-{ms_text(copies[-1])} (1.00x)")
    print_target_row("copy", "the floor, each run's", "(reference)", cells, "")


def targets_table(path, targets_path):
    report = load(path)
    targets, sizes = load_targets(targets_path)
    sys.stdout.reconfigure(encoding="utf-8")  # σ, as PERFORMANCE.md has it, whatever the locale
    print(f"{report['gl']['renderer']}, against {os.path.relpath(os.path.abspath(targets_path), ROOT)}: rgba8, clamp, "
          f"each row over the copy of its own run ({os.path.relpath(os.path.abspath(path), ROOT)}):\n")
    print(f"| variant | setting | target | {size_name(sizes[0])} ms (x copy, own bound) | "
          f"{size_name(sizes[1])} ms (x copy, own bound) | met? ({size_name(sizes[0])} / {size_name(sizes[1])}) |")
    print("|" + " --- |" * 6)
    shown = target_rows(report, targets, sizes)
    reference_rows(report, targets, sizes, shown)


def ranking(path, kernel, radii, top=None):
    """Every exact variant a file measured at each radius of `kernel` (rgba8, clamp, one radius for
    the image), fastest first by x copy at the larger size, each by its newest row: ms, x copy and
    own-bound fraction at each size; then the variants refused there, with their reasons, so that a
    reader sees what the fastest was chosen among. With `top`, the `top` fastest, then the others'
    names on one line."""
    report = load(path)
    sizes = sorted({(row["size"]["width"], row["size"]["height"]) for row in report["results"]}, key=lambda wh: -wh[0] * wh[1])
    shown = sorted({row["settings"].get("radius") for row in report["results"]
                    if is_exact_blur(row) and row["settings"].get("kernel") == kernel and not row["settings"].get("radius_map")}
                   - {None})
    if radii:
        shown = [r for r in shown if r in radii]
    if not shown:
        fail(f"{path} has no exact {kernel} rows")
    print(f"{report['gl']['renderer']}, every exact {kernel} variant the file measured, rgba8, clamp "
          f"({os.path.relpath(os.path.abspath(path), ROOT)}):")
    for radius in shown:
        rows = {}  # variant -> size -> newest row
        for row in report["results"]:
            for size in sizes:
                if is_exact_blur(row) and is_plain_setting(row, size, kernel, radius):
                    rows.setdefault(row["variant"], {})[size] = row
        timed = [v for v in rows if any(timed_ms(r) is not None for r in rows[v].values())]
        refused = sorted(v for v in rows if v not in timed)

        def key(variant):
            row = rows[variant].get(sizes[0])
            # A variant timed at the smaller size only (no row at the larger) after the timed ones.
            untimed = row is None or timed_ms(row) is None
            return (untimed, 0 if untimed else speed(row))

        print(f"\n{kernel} r = {radius}: {len(timed)} exact variant{'s' if len(timed) != 1 else ''} timed"
              + (f", {len(refused)} refused" if refused else "") + "\n")
        print("| variant | " + " | ".join(f"{size_name(z)} ms (x copy, own bound)" for z in sizes) + " |")
        print("|" + " --- |" * (1 + len(sizes)))
        ordered = sorted(timed, key=key)
        for variant in ordered[:top]:
            cells = []
            for size in sizes:
                row = rows[variant].get(size)
                if row is None or timed_ms(row) is None:
                    cells.append("-")
                    continue
                own = row.get("own_bound", {}).get("fraction")
                ratio = f"{row['x_copy']:.2f}x" if row.get("x_copy") else "?"
                cells.append(f"{ms_text(timed_ms(row))} ({ratio}" + (f", {own * 100:.0f}%" if own else "") + ")")
            print(f"| {variant} | " + " | ".join(cells) + " |")
        if top is not None and len(ordered) > top:
            print(f"\n- slower: {', '.join(ordered[top:])}")
        if refused:
            print("" if top is not None and len(ordered) > top else "\n", end="")
        # Refusals with a reason get a line each; those the file records without one share a line.
        unexplained = []
        for variant in refused:
            reason = next((r.get("unsupported", {}).get("reason") for r in rows[variant].values() if r.get("unsupported")), None)
            if reason:
                print(f"- refused: {variant} ({reason})")
            else:
                unexplained.append(variant)
        if unexplained:
            print(f"- refused: {', '.join(unexplained)}")


def radius_list(text):
    """--radius R,R,...: whole numbers in 0..512."""
    radii = set()
    for word in text.split(","):
        if not word.strip().isdigit() or not 0 <= int(word) <= 512:
            fail(f"--radius '{text}' is not a list of whole numbers in 0..512", 2)
        radii.add(int(word))
    return radii


def today_digests(path):
    """variant -> the digest of its code in this tree (or as `path`, blurlab-code-digests' output, says)."""
    if path:
        text = read_text(path, "--digests")
    else:
        tool = os.environ.get("BLURLAB_CODE_DIGESTS", os.path.join(ROOT, "build-release", "src", "blurlab-code-digests"))
        try:
            text = subprocess.run([tool, ROOT], check=True, capture_output=True, text=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            fail(f"cannot run {tool} ({e}); build it (cmake --build build-release --target blurlab-code-digests) "
                 "or give --digests FILE")
    digests = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) != 2:
            fail(f"'{line}' is not a line of blurlab-code-digests (NAME DIGEST)")
        digests[parts[0]] = parts[1]
    return digests


def older(path, digests_path):
    """Per variant, the rows made by today's code and the commits that made the others."""
    report = load(path)
    today = today_digests(digests_path)
    counts = collections.OrderedDict()  # variant -> [holding, older, {commit}]
    for row in report["results"]:
        if row.get("role") == "floor" or row["variant"] not in today:
            continue
        made_by = row.get("made_by", {})
        entry = counts.setdefault(row["variant"], [0, 0, set()])
        if made_by.get("code") == today[row["variant"]]:
            entry[0] += 1
        else:
            entry[1] += 1
            entry[2].add(made_by.get("commit", "none recorded"))
    holding = sum(e[0] for e in counts.values())
    total = sum(e[0] + e[1] for e in counts.values())
    print(f"{report['gl']['renderer']} ({os.path.relpath(os.path.abspath(path), ROOT)}): {holding} of {total} rows made by "
          "today's code of their variant\n")
    print("| variant | rows of today's code | older rows | made by |")
    print("| --- | --- | --- | --- |")
    for variant, (now, old, commits) in counts.items():
        print(f"| {variant} | {now} | {old} | {', '.join(sorted(commits)) if old else '-'} |")


# --- effects: the rows of the effects (bloom, depth of field), as docs/EFFECTS.md shows them --------

def effects_table(path):
    """Each effect row of a results file (blurlab's "effect_results"), in the file's order: the
    effect and its parameters, the implementation, the size, its median time, its time over the
    copy of its own run, and its fidelity to the effect's ground truth (max LSB, PSNR, and the
    PSNR at the edges where the row has one); a refused row says why."""
    report = load(path)
    rows = report.get("effect_results", [])
    where = os.path.relpath(os.path.abspath(path), ROOT)
    if not rows:
        print(f"{report['gl']['renderer']}: {where} holds no effect rows (blurlab --effect ... --json FILE makes them; "
              "`results.py merge` joins them to a results file).")
        return
    edges = any(r.get("check", {}).get("fidelity", {}).get("edges_psnr_db") is not None for r in rows)
    sys.stdout.reconfigure(encoding="utf-8")
    print(f"{report['gl']['renderer']}, each effect row over the copy of its own run ({where}):\n")
    print("| effect | implementation | size | ms | × copy | max LSB | PSNR dB |" + (" edges PSNR dB |" if edges else ""))
    print("|" + " --- |" * (7 + edges))
    for r in rows:
        values = ", ".join(f"{k} {v}" for k, v in sorted(r.get("values", {}).items()))
        effect = r["effect"] + (f" ({values})" if values else "")
        size = f"{r['width']}x{r['height']}"
        if r.get("unsupported") or r.get("total_ms") is None:
            reason = r.get("unsupported", {}).get("reason", "not timed") if isinstance(r.get("unsupported"), dict) else "not timed"
            print(f"| {effect} | {r['implementation']} | {size} | refused: {one_line(reason)} |" + " |" * (3 + edges))
            continue
        fidelity = r.get("check", {}).get("fidelity", {})
        cells = [ms_text(r["total_ms"]), f"{r['x_copy']:.2f}" if r.get("x_copy") is not None else "-",
                 f"{fidelity['max_lsb']:.0f}" if fidelity.get("max_lsb") is not None else "-",
                 f"{fidelity['psnr_db']:.1f}" if fidelity.get("psnr_db") is not None else "-"]
        if edges:
            cells.append(f"{fidelity['edges_psnr_db']:.1f}" if fidelity.get("edges_psnr_db") is not None else "-")
        print(f"| {effect} | {r['implementation']} | {size} | " + " | ".join(cells) + " |")


# --- docs: the marked blocks of the docs, each the output of the command its marker names -----------

DOCS = ("README.md", "docs/PERFORMANCE.md", "docs/TARGETS.md", "docs/EFFECTS.md", "docs/GPU.md")
BLOCK_COMMANDS = ("table", "ranking", "targets", "effects", "older")
BLOCK_END = "<!-- /results -->"


def block_output(words):
    """What `results.py WORDS` prints, run from the tree's root as the marker says."""
    if not words or words[0] not in BLOCK_COMMANDS:
        raise ToolError(f"a results block runs one of {', '.join(BLOCK_COMMANDS)}, not '{one_line(' '.join(words))}'")
    done = subprocess.run([sys.executable, os.path.abspath(__file__), *words], cwd=ROOT, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise ToolError(f"results.py {' '.join(words)}: {done.stderr.strip() or f'exit {done.returncode}'}")
    return done.stdout


def rewritten(text, name):
    """`text` with each block between `<!-- results: COMMAND ARGS -->` and `<!-- /results -->` made
    again by `results.py COMMAND ARGS` (a blank line after it)."""
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        if not line.startswith("<!-- results:"):
            continue
        if not line.endswith("-->"):
            raise ToolError(f"{name}:{i}: a results marker ends its line with '-->'")
        words = line[len("<!-- results:"):-len("-->")].split()
        end = next((j for j in range(i, len(lines)) if lines[j].startswith("<!-- results:") or lines[j] == BLOCK_END), None)
        if end is None or lines[end] != BLOCK_END:
            raise ToolError(f"{name}:{i}: its results block has no '{BLOCK_END}' before the next block or the end")
        out += block_output(words).rstrip("\n").split("\n") + ["", BLOCK_END]
        i = end + 1
    return "\n".join(out)


def docs(paths, check):
    """Makes every marked block again; with `check`, changes nothing and fails naming the files
    whose blocks differ from what their commands print now."""
    stale = []
    for path in paths or [os.path.join(ROOT, d) for d in DOCS]:
        text = read_text(path, "the doc")
        new = rewritten(text, os.path.relpath(os.path.abspath(path), ROOT))
        if new == text:
            continue
        stale.append(os.path.relpath(os.path.abspath(path), ROOT))
        if not check:
            write_bytes(path, new.encode("utf-8"), "the doc")
    if check and stale:
        fail(f"the results blocks of {', '.join(stale)} differ from what their commands print: "
             "python3 docs/tools/results.py docs makes them again")
    print(("stale: " if check else "made again: ") + (", ".join(stale) if stale else "none"))


def main():
    parser = ArgumentParser(prog="results.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    m = commands.add_parser("merge", help="join reports of one GPU into one results file")
    m.add_argument("out")
    m.add_argument("reports", nargs="+")
    t = commands.add_parser("table", help="the fastest variant per kernel, radius and size, as Markdown")
    t.add_argument("results")
    t.add_argument("--radius", help="only these radii, e.g. 1,8,16,32")
    t.add_argument("--defaults", action="store_true", help="only rows at the variants' defaults (no --tuned knobs, no knob sweep)")
    t.add_argument("--mark-older", action="store_true", help="'(older)' after a row made by other code of its variant than today's")
    t.add_argument("--digests", help="blurlab-code-digests' output for today's tree (default: run it)")
    e = commands.add_parser("effects", help="the effect rows (bloom, depth of field), as Markdown")
    e.add_argument("results")
    d = commands.add_parser("docs", help="make the docs' marked results blocks again (or --check them)")
    d.add_argument("files", nargs="*", help=f"the docs (default: {', '.join(DOCS)})")
    d.add_argument("--check", action="store_true", help="change nothing; fail when a block differs from its command's output")
    g = commands.add_parser("targets", help="each row of a targets file against its target, as Markdown")
    g.add_argument("results")
    g.add_argument("--targets", default=DEFAULT_TARGETS, help="the targets file (default: docs/targets.json)")
    k = commands.add_parser("ranking", help="every exact variant per radius, fastest first, and those refused, as Markdown")
    k.add_argument("results")
    k.add_argument("--kernel", default="gauss", choices=("gauss", "box"))
    k.add_argument("--radius", help="only these radii, e.g. 9,16,30")
    k.add_argument("--top", type=int, help="only the N fastest in the table, the others named on one line")
    o = commands.add_parser("older", help="per variant, the rows made by today's code and the commits of the others")
    o.add_argument("results")
    o.add_argument("--digests", help="blurlab-code-digests' output for today's tree (default: run it)")
    args = parser.parse_args()
    if args.command == "merge":
        merge(args.out, args.reports)
    elif args.command == "targets":
        targets_table(args.results, args.targets)
    elif args.command == "older":
        older(args.results, args.digests)
    elif args.command == "ranking":
        if args.top is not None and args.top < 1:
            fail(f"--top {args.top} is not a whole number from 1", 2)
        ranking(args.results, args.kernel, radius_list(args.radius) if args.radius else None, args.top)
    elif args.command == "effects":
        effects_table(args.results)
    elif args.command == "docs":
        docs(args.files, args.check)
    else:
        table(args.results, radius_list(args.radius) if args.radius else None, args.defaults,
              today_digests(args.digests) if args.mark_older else None)


if __name__ == "__main__":
    sys.exit(run_tool("results.py", main))
