#!/usr/bin/env bash
# Issue 14 on the GPU machine: the quality-cost frontier of the approximate Gaussians
# (box-iterated, kawase, dual-kawase, recursive-gaussian and its blocks) next to the fastest exact Gaussians, at
# sigma 2, 5, 10, 20, 40, at 4096x4096 and 1920x1080 (the scene), each with the copy pass (the
# floor) and --roofline, every row checked in the same run (--check: an approximation against the
# CPU model of its own algorithm, an exact variant against the reference; the fidelity to the
# exact Gaussian of the sigma each approximation declares comes with the check). Budget: under
# 300 s (FRAMES 30, BUDGET 0.3 s of frames per row; the CPU models and references of the checks
# take most of it at 4096x4096). Run from the repository root after
#   ../shared/device/pack.sh build-release/app/blurlab build-release/tests/blurlab_gl_tests
# (device tool: carry [".device"]). Writes frontier_{4096,1080}.{json,txt} under $OUT and prints,
# per row, the time, x copy, fidelity (max, RMS, PSNR) and the check. PART=frontier|gl|all
# (default frontier; gl: the GL grid's approximation cases, about a minute more).
# Then, here: python3 docs/tools/charts.py frontier_4096.json --out docs/charts --prefix h200_ --log
#   (and frontier_1080.json), the data into docs/data/h200/approx/, the charts into PERFORMANCE.md.
set -uo pipefail
source .device/env.sh
B=.device/bin/blurlab
part=${PART:-frontier}
sigmas=2,5,10,20,40
approx=box-iterated,kawase,dual-kawase,recursive-gaussian,recursive-gaussian-blocks
# The exact Gaussians the frontier is measured against: the fastest on the H200 at some radius
# (docs/PERFORMANCE.md) and the plain separable pair; --tuned gives the H200 knobs where the tune
# file has them.
exact=compute-separable,compute-separable-linear,compute-inline-regblock,compute-strip-regblock
tuned=()
[ -f docs/data/h200/tune.json ] && tuned=(--tuned docs/data/h200/tune.json)
common=(--headless --check --roofline --frames ${FRAMES:-30} --warmup 5 --budget ${BUDGET:-0.3})
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
summary() {  # a line per row: size, sigma, variant, ms, x copy, fidelity, check; then the failures
  python3 - "$1" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
roof = doc.get("roofline", {})
if roof:
    print(f"roofline: texture {roof['texture_copy_gbps']:.0f} GB/s ({roof['texture_copy_setting']}), "
          f"buffer {roof['buffer_copy_gbps']:.0f} GB/s, {roof['fma_tflops']:.1f} TFLOP/s")
rows = doc["results"]
def order(r):  # by size, then sigma (the copy pass first), fastest first, unsupported last
    ms = r.get("spans", {}).get("total", {}).get("median_ms") if r.get("supported", True) else None
    return (r["size"]["width"], r["size"]["height"], r["settings"].get("sigma", -1), ms if ms is not None else float("inf"))
for r in sorted(rows, key=order):
    s = r["settings"]
    head = f"{r['size']['width']}x{r['size']['height']} sigma {s.get('sigma', 0):g}" if "kernel" in s else \
           f"{r['size']['width']}x{r['size']['height']} copy"
    if not r.get("supported", True):
        print(f"{head}: {r['variant']} unsupported: {r.get('reason', '?')}")
        continue
    ms = r.get("spans", {}).get("total", {}).get("median_ms")
    f = r.get("fidelity", {})
    if f.get("exact"):
        fid = "exact"
    elif f:
        fid = f"~sigma {f['sigma']:.3g} max {f['max_lsb']:.1f} rms {f['rms_lsb']:.2f} LSB {f.get('psnr_db', float('inf')):.1f} dB"
    else:
        fid = "-"
    ms_text = f"{ms:.4f} ms x{r.get('x_copy', 0):.2f}" if ms is not None else "not timed"
    check = r.get("error", {})
    print(f"{head}: {r['variant']} {ms_text} {fid} check={'ok' if check.get('ok') else 'FAIL' if check else '-'}")
fails = [r for r in rows if "error" in r and not r["error"]["ok"]]
print(f"{len(rows)} rows, {len(fails)} failed checks")
for r in fails:
    print("FAIL", r["variant"], r["size"], r["settings"].get("sigma"), r["error"]["max"], r["error"]["tolerance"])
PY
}
start=$SECONDS
if [ "$part" = frontier ] || [ "$part" = all ]; then
  for size in 4096x4096 1920x1080; do
    tag=${size%%x*}; [ "$tag" = 1920 ] && tag=1080
    $B "${common[@]}" "${tuned[@]}" --variant copy,$exact,$approx --kernel gauss --sigma $sigmas --size $size \
       --json "$OUT/frontier_$tag.json" > "$OUT/frontier_$tag.txt" 2>&1
    echo "frontier $size exit $? ($((SECONDS - start)) s)"; summary "$OUT/frontier_$tag.json"
  done
fi
if [ "$part" = gl ] || [ "$part" = all ]; then
  # The GL grid's approximation cases: the GPU against each CPU model, every format and knob.
  BLURLAB_TEST_DEVICE=gpu .device/bin/blurlab_gl_tests --gtest_filter='*box_iterated*:*kawase*:*recursive_gaussian*:RecursiveGaussianBlocks.*' \
    > "$OUT/approx_gl_tests.txt" 2>&1
  echo "gl tests exit $? ($((SECONDS - start)) s)"; grep -E "^\[  (PASSED|FAILED)" "$OUT/approx_gl_tests.txt" | tail -12
fi
