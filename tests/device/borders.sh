#!/usr/bin/env bash
# Issue 15 on the GPU machine: what each border mode costs against clamp for the fastest variants
# (compute-box-prefix, compute-strip-regblock, compute-inline-regblock, compute-sliding; copy is
# the floor) at 4096x4096 and 1920x1080, box and Gaussian r = 16, every row checked against the
# CPU reference in the same run (--check). Run from the repository root after
#   ../shared/device/pack.sh build-release/app/blurlab build-release/tests/blurlab_gl_tests
# (carry .device). Writes borders.json and borders.txt under $OUT and prints a summary: per size,
# kernel and variant, clamp's median ms and each mode's time over it (x_clamp).
#
# One sweep: 4 variants x 5 modes x 2 sizes (box; the two running-sum variants are box only, so
# the Gaussian has 2 variants x 5 modes x 2 sizes) and the copy pass per size: 62 timed rows of
# at least 0.5 s warm-up and BUDGET (0.3 s) or FRAMES (30) frames each, and 20 CPU references
# (5 modes x 2 kernels x 2 sizes): about 100 s on an H100 or H200, well under 240 s.
# Knobs: the variants' defaults (TUNED=docs/data/h200/tune.json adds --tuned for the H200's knobs).
# PART=grid also checks every variant x mode on the GPU (about 230 s more): --check of every variant
# (--variant all), both kernels, r = 16, the five modes at 1920x1080 (modes.json), and the GL border
# grid (gl_borders.txt: the cases ctest runs as gl.<variant>.border_* on llvmpipe).
set -uo pipefail
source .device/env.sh
B=.device/bin/blurlab
modes=clamp,reflect,reflect101,wrap,constant
tuned=()
[ -n "${TUNED:-}" ] && tuned=(--tuned "$TUNED")
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
start=$SECONDS
# A constant that is not 0: a GL image read outside the image returns 0, which would hide a
# missing border rule from --check.
$B --headless --check --frames ${FRAMES:-30} --warmup 10 --budget ${BUDGET:-0.3} "${tuned[@]}" \
   --variant copy,compute-box-prefix,compute-strip-regblock,compute-inline-regblock,compute-sliding \
   --kernel box,gauss --radius 16 --border $modes --border-value 1,0.5,0,1 --size 4096x4096,1920x1080 \
   --json "$OUT/borders.json" > "$OUT/borders.txt" 2>&1
echo "borders exit $? after $((SECONDS - start)) s"
python3 - "$OUT/borders.json" <<'PY'
import json, sys, collections
doc = json.load(open(sys.argv[1]))
modes = ["clamp", "reflect", "reflect101", "wrap", "constant"]
print(doc["gl"]["renderer"])
rows = collections.OrderedDict()
floors = {}
for r in doc["results"]:
    if not r.get("supported") or "total" not in r.get("spans", {}):
        continue
    s, size = r["settings"], f'{r["size"]["width"]}x{r["size"]["height"]}'
    ms = r["spans"]["total"]["median_ms"]
    if r["role"] == "floor":
        floors[size] = ms
        continue
    rows.setdefault((size, s["kernel"], s["radius"], r["variant"]), {})[s["border"]] = (ms, r.get("x_clamp"))
print(f"{'size':<10}{'kernel':<7}{'variant':<26}{'clamp ms':>10}" + "".join(f"{m:>12}" for m in modes[1:]))
for (size, kernel, radius, variant), by_mode in rows.items():
    clamp = by_mode.get("clamp", (None, None))[0]
    cells = [f"x{by_mode[m][1]:.2f}" if m in by_mode and by_mode[m][1] else "-" for m in modes[1:]]
    print(f"{size:<10}{f'{kernel} {radius}':<7}{variant:<26}{clamp if clamp is None else f'{clamp:.4f}':>10}"
          + "".join(f"{c:>12}" for c in cells))
for size, ms in floors.items():
    print(f"copy pass (floor) {size}: {ms:.4f} ms")
fails = [r for r in doc["results"] if "error" in r and not r["error"]["ok"]]
unsupported = collections.Counter(r["reason"] for r in doc["results"] if not r.get("supported"))
print(f"{len(doc['results'])} rows, {sum(1 for r in doc['results'] if 'error' in r)} checked, {len(fails)} failed checks")
for reason, n in unsupported.items():
    print(f"unsupported x{n}: {reason}")
for r in fails[:10]:
    print("FAIL", r["variant"], r["settings"]["kernel"], r["settings"]["border"], r["size"], r["error"]["max"])
PY
if [ "${PART:-}" = grid ]; then
  echo "== every variant x mode, --check, 1920x1080"
  $B --headless --check --frames 5 --warmup 2 --budget 0.05 --variant all --kernel box,gauss --radius 16 \
     --border $modes --border-value 1,0.5,0,1 --size 1920x1080 --json "$OUT/modes.json" > "$OUT/modes.txt" 2>&1
  echo "every-variant sweep exit $?"
  echo "== GL border grid on the GPU (every variant x mode vs the CPU reference)"
  BLURLAB_TEST_DEVICE=gpu .device/bin/blurlab_gl_tests --gtest_filter='Borders/*' > "$OUT/gl_borders.txt" 2>&1
  echo "gl border grid exit $?"; grep -E "GL_RENDERER|PASSED|FAILED" "$OUT/gl_borders.txt" | tail -12
fi
