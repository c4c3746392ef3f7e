#!/usr/bin/env python3
"""Fuzzes the python tools we ship (docs/tools/results.py and charts.py) as libFuzzer fuzzes
blurlab's readers: reports mutated from the seeds in tests/fuzz/corpus/tools/ (values replaced by
others of every kind, keys dropped, bytes flipped, cut or inserted, control bytes and nesting) go
through each command that reads a report, in this process. Every input must end in exit 0, or in
exit 1 or 2 with exactly one line on stderr, "TOOL: ...", of printable text (docs/tools/tool_io.py):
no traceback, no exception the tool does not turn into its line, no hang; and every seed, a good
report, must give exit 0 (a tool's own bug taken for an input's fault shows there).

  python3 tests/fuzz/fuzz_tools.py docs/tools CORPUS_DIR [--runs N] [--seconds S] [--seed K]

CTest replays the seeds and a few hundred mutations (fuzz_corpus.tools); .ci/run runs it for a
bounded time beside the libFuzzer targets. A failing input is written to the working directory
(tools-crash-N.json) to be added to the corpus.
"""
import argparse
import contextlib
import importlib.util
import io
import json
import os
import random
import sys
import tempfile
import time

parser = argparse.ArgumentParser()
parser.add_argument("tools")
parser.add_argument("corpus")
parser.add_argument("--runs", type=int, default=300)
parser.add_argument("--seconds", type=float, default=0)
parser.add_argument("--seed", type=int, default=1)
args = parser.parse_args()

sys.path.insert(0, args.tools)
import tool_io  # noqa: E402


def load_module(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(args.tools, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


results = load_module("results")
charts = load_module("charts")  # needs matplotlib: the python blurlab --report runs
charts.plt.rcParams["figure.max_open_warning"] = 0

seeds = []
for name in sorted(os.listdir(args.corpus)):
    with open(os.path.join(args.corpus, name), "rb") as f:
        seeds.append(f.read())
rng = random.Random(args.seed)

ODD_VALUES = [None, True, -1, 0, 2 ** 63, -2 ** 70, 1e308, float("nan"), float("inf"), "", "x\x1b[2J\n", "\x9b", "gauss",
              [], [1, "a"], {}, {"total": {"median_ms": "fast"}}, 0.5, 129, 65537]


def mutate_value(value, depth=0):
    """The value with one part of it replaced, dropped or nested."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(list(value))
        roll = rng.random()
        if roll < 0.15:
            value = dict(value)
            del value[key]
            return value
        return dict(value, **{key: mutate_value(value[key], depth + 1)})
    if isinstance(value, list) and value and rng.random() < 0.8:
        i = rng.randrange(len(value))
        copy = list(value)
        copy[i] = mutate_value(copy[i], depth + 1)
        if rng.random() < 0.1:
            copy.append(copy[i])
        return copy
    if rng.random() < 0.05:
        nested = rng.choice(ODD_VALUES)
        for _ in range(rng.choice([10, 100, 1000])):
            nested = [nested]
        return nested
    return rng.choice(ODD_VALUES)


def mutate(seed):
    roll = rng.random()
    if roll < 0.7:
        try:
            text = json.dumps(mutate_value(json.loads(seed)))
            return text.encode("utf-8", "surrogateescape")
        except (ValueError, RecursionError):
            pass
    data = bytearray(seed)
    for _ in range(rng.randint(1, 8)):
        action = rng.random()
        at = rng.randrange(len(data) + 1)
        if action < 0.3 and data:
            data[min(at, len(data) - 1)] = rng.randrange(256)
        elif action < 0.5:
            data[at:at] = rng.choice([b"\x9b", b"\x1b[2J", b"\x00", b"\xc2\x9b", b"[", b"{", b"\"", b"\n", b"1e999"])
        elif action < 0.7:
            del data[at:at + rng.randint(1, 32)]
        else:
            data = data[:at]
    return bytes(data)


COMMANDS = [("results.py", results.main, ["table", "{}"]), ("results.py", results.main, ["ranking", "{}", "--kernel", "box"]),
            ("results.py", results.main, ["targets", "{}"]), ("charts.py", charts.main, ["{}", "--out", "{out}", "--radius", "1"])]


def run_one(data, index, tmp, seed=False):
    """Runs every command on `data`; a seed (a good report) must succeed: a tool that turns its own
    bug into an input's one line (a catch-all) shows there."""
    path = os.path.join(tmp, "report.json")
    with open(path, "wb") as f:
        f.write(data)
    for tool, main, argv in COMMANDS:
        if tool == "charts.py" and index % 5:  # charts draw with matplotlib: every fifth input
            continue
        sys.argv = [tool] + [a.format(path, out=os.path.join(tmp, "charts")) for a in argv]
        err_r, err_w = os.pipe()
        saved = os.dup(2)
        os.dup2(err_w, 2)
        try:
            with contextlib.redirect_stdout(io.TextIOWrapper(io.BytesIO(), encoding="utf-8")):
                code = tool_io.run_tool(tool, main)
        except BaseException as e:  # what the tool does not turn into its one line: a finding
            code = f"an exception escaped: {type(e).__name__}: {e}"
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            os.close(err_w)
        with os.fdopen(err_r, "rb") as f:
            err = f.read().decode("utf-8", "replace")
        charts.plt.close("all")
        ok = code == 0 and err == "" or not seed and code in (1, 2) and err.startswith(tool + ": ") and err.count("\n") == 1 \
            and err.endswith("\n") and all(c >= " " and c != "\x7f" and not "\x80" <= c <= "\x9f" for c in err[:-1])
        if not ok:
            crash = f"tools-crash-{index}.json"
            with open(crash, "wb") as f:
                f.write(data)
            print(f"fuzz_tools: {' '.join(sys.argv)}: exit {code}, stderr {err!r}; the input is in {crash}", file=sys.stderr)
            return False
    return True


start = time.monotonic()
done = failed = 0
with tempfile.TemporaryDirectory() as tmp:
    for index, seed in enumerate(seeds):  # the seeds themselves, then mutations of them
        failed += not run_one(seed, index, tmp, seed=True)
        done += 1
    while (done < len(seeds) + args.runs) if not args.seconds else (time.monotonic() - start < args.seconds):
        failed += not run_one(mutate(rng.choice(seeds)), done, tmp)
        done += 1
print(f"fuzz_tools: {done} inputs in {time.monotonic() - start:.0f} s, {failed} failed")
sys.exit(1 if failed else 0)
