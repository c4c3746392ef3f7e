"""Checks that a headless run's memory estimate (src/image/memory_budget.h) covers what each variant
takes (tests/CMakeLists.txt runs it as report.memory_estimate): for every variant blurlab lists, the
peak resident memory of a run at 1024x1024 less that of one at 256x256, per texel of the difference
(what grows with the image), against the bytes per texel the estimate counts, as the refusal of a
size beyond memory states them. The bound keeps a quarter of memory for what the estimate does not
see (the GL driver's own copies), so a variant may take up to 4/3 of its estimate; variable-layers
took 1.85 times it (its four float layers and its check's CPU layers were counted as one texture).

Usage: memory_estimate_test.py BLURLAB"""
import json
import os
import re
import resource
import subprocess
import sys

BLURLAB = sys.argv[1]
SMALL, LARGE = 256, 1024


def run_args(variant, kernel, size):
    args = ["--headless", "--variant", variant, "--kernel", kernel, "--radius", "8", "--size", size, "--frames", "0"]
    return args + (["--radius-map", "ramp"] if variant.startswith("variable-") else [])


def peak_kib(args):
    """Peak resident memory of one run (its own rusage, not the largest child's so far)."""
    child = subprocess.Popen([BLURLAB] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = child.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"blurlab {' '.join(args)} failed: {err}")
    return usage.ru_maxrss


def estimated_bytes_per_texel(variant, kernel):
    """The estimate's bytes per texel, from a size it refuses under a 2 GiB address-space limit."""
    limit = lambda: resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    run = subprocess.run([BLURLAB] + run_args(variant, kernel, "16384x16384"), capture_output=True, text=True, preexec_fn=limit)
    found = re.search(r"needs about [^(]*\((\d+) bytes per texel: ([^;]*);", run.stderr)
    if run.returncode != 2 or not found:
        sys.exit(f"{variant}: no estimate in the refusal of 16384x16384 (exit {run.returncode}): {run.stderr}")
    return int(found.group(1)), found.group(2)


listing = json.loads(subprocess.run([BLURLAB, "--list-variants", "--json", "-"], capture_output=True, text=True, check=True).stdout)
failures = []
for listed in listing["variants"]:
    variant = listed["name"]
    kernel = "gauss" if "gauss" in listed["kernels"] else "box"
    estimate, parts = estimated_bytes_per_texel(variant, kernel)
    grown = (peak_kib(run_args(variant, kernel, f"{LARGE}x{LARGE}")) - peak_kib(run_args(variant, kernel, f"{SMALL}x{SMALL}"))) * 1024
    measured = grown / (LARGE * LARGE - SMALL * SMALL)
    verdict = "ok" if measured <= estimate * 4 / 3 else "OVER"
    print(f"{variant:28} {measured:6.0f} bytes per texel measured, {estimate:4d} estimated ({parts}): {verdict}")
    if verdict != "ok":
        failures.append(variant)
if failures:
    sys.exit(f"took more than 4/3 of their memory estimate: {', '.join(failures)}")
