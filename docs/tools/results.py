#!/usr/bin/env python3
"""The results files of docs/results/ (one per GPU), made from blurlab's JSON reports.

  python3 docs/tools/results.py merge OUT.json REPORT.json [MORE.json ...]
      Joins the reports of one GPU (blurlab --headless --json, e.g. one per image size) into one
      results file: the first report's header, every report's rows, and under "sources" each
      report's date, run settings and roofline. Refuses reports of different GPUs or drivers.

  python3 docs/tools/results.py table RESULTS.json [--radius R,R,...]
      Prints the Markdown table that opens docs/PERFORMANCE.md (and, for one GPU, the README's
      "Which blur to ship"): per kernel and radius, the fastest exact variant at each image size
      with its median GPU time and its time over the copy pass of the same run, and where the
      file has approximate Gaussians, the fastest of them with its fidelity to the exact one.

docs/results/measure.sh runs both after its sweeps.
"""
import argparse
import collections
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# charts.py reads reports the same way: it runs alone (embedded in blurlab, under python3 -I) and
# needs matplotlib at import, so neither can import the other.
def load(path):
    try:
        with open(path) as f:
            report = json.load(f)
        report["results"], report["gl"]["renderer"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"results.py: {path} is not a blurlab JSON report ({e})")
    return report


def merge(out, paths):
    reports = [load(p) for p in paths]
    first = reports[0]
    gpu = (first["gl"]["renderer"], first["gl"].get("version"))
    for path, report in zip(paths, reports):
        if (report["gl"]["renderer"], report["gl"].get("version")) != gpu:
            sys.exit(f"results.py: {path} is from {report['gl']['renderer']} {report['gl'].get('version')}, "
                     f"{paths[0]} from {gpu[0]} {gpu[1]}: one GPU and driver per results file")
    merged = {key: value for key, value in first.items() if key not in ("results", "run", "roofline", "date")}
    merged["date"] = max(r.get("date", "") for r in reports)
    merged["sources"] = [{key: r[key] for key in ("date", "run", "roofline") if key in r} for r in reports]
    merged["results"] = [row for r in reports for row in r["results"]]
    with open(out, "w") as f:
        json.dump(merged, f, indent=1, sort_keys=True)
        f.write("\n")
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


def variant_cell(row):
    """The variant, and for an approximation its fidelity to the exact Gaussian."""
    text = row["variant"]
    fidelity = row.get("fidelity", {})
    if fidelity and not fidelity.get("exact"):
        text += f" (max {fidelity['max_lsb']:.0f}, RMS {fidelity['rms_lsb']:.2f} LSB)"
    return text


def table(path, radii):
    report = load(path)
    # (kernel, radius, exact or not) -> size -> the fastest timed row
    best = collections.defaultdict(dict)
    sizes = []
    for row in report["results"]:
        s = row["settings"]
        ms = timed_ms(row)
        if ms is None or row.get("role") == "floor" or "kernel" not in s or s.get("border", "clamp") != "clamp":
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
        sys.exit(f"results.py: {path} has no timed rgba8 blur with the clamp border")
    sizes.sort(key=lambda wh: -wh[0] * wh[1])
    gpu = report["gl"]["renderer"]
    head = "| kernel, r | " + " | ".join(f"{size_name(z)}: fastest | ms | x copy" for z in sizes) + " |"
    print(f"{gpu}, rgba8, clamp ({os.path.relpath(os.path.abspath(path), ROOT)}, {report.get('date', '?')[:10]}):\n")
    print(head)
    print("|" + " --- |" * (1 + 3 * len(sizes)))
    for (kernel, radius, approximate, radius_map) in sorted(best, key=lambda k: (k[3], k[0], k[1], k[2])):
        cells = []
        for size in sizes:
            row = best[(kernel, radius, approximate, radius_map)].get(size)
            if row is None:
                cells += ["-", "", ""]
            else:
                cells += [variant_cell(row), ms_text(timed_ms(row)), f"{row['x_copy']:.2f}"]
        # A radius map: each pixel's radius from 0 to r (variable-radius variants), not one radius.
        label = f"{kernel} r = {radius}" if not radius_map else f"{kernel} r = 0..{radius} by radius map {radius_map}"
        if kernel == "gauss":
            sigma = next(iter(best[(kernel, radius, approximate, radius_map)].values()))["settings"].get("sigma")
            if sigma:
                label += f", sigma {sigma:.3g}"
        if approximate:
            label += ", approximate"
        print(f"| {label} | " + " | ".join(cells) + " |")


def main():
    parser = argparse.ArgumentParser(prog="results.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    m = commands.add_parser("merge", help="join reports of one GPU into one results file")
    m.add_argument("out")
    m.add_argument("reports", nargs="+")
    t = commands.add_parser("table", help="the fastest variant per kernel, radius and size, as Markdown")
    t.add_argument("results")
    t.add_argument("--radius", help="only these radii, e.g. 1,8,16,32")
    args = parser.parse_args()
    if args.command == "merge":
        merge(args.out, args.reports)
    else:
        radii = {int(r) for r in args.radius.split(",")} if args.radius else None
        table(args.results, radii)


if __name__ == "__main__":
    main()
