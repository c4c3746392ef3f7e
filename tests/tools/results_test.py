#!/usr/bin/env python3
"""Checks docs/tools/results.py on made-up reports (tests/CMakeLists.txt runs it as report.results):
merge joins the rows of reports of one GPU and refuses another GPU's; table shows, per kernel,
radius and size, the fastest timed exact row with its own time over the copy, and the fastest
approximation apart with its fidelity, leaving out unsupported rows, other border modes and formats.

  python3 tests/tools/results_test.py docs/tools/results.py
"""
import json
import os
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
    return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)


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
    expect([s["date"] for s in merged["sources"]] == [first["date"], second["date"]], "merge did not list both sources")
    expect(merged["date"] == second["date"], "the merged file's date is not its newest report's")

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

for failure in failures:
    print("FAIL:", failure)
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
