#!/usr/bin/env bash
# Timing sweeps on the GPU machine for docs/PERFORMANCE.md: every variant at 4096x4096 and
# 1920x1080, box and Gaussian over the radii, medians of many frames after warm-up, the copy
# pass timed in the same run. The naive 2D variants get the small radii only (their cost grows
# with r^2). Writes JSON/CSV/charts under $OUT.
set -uo pipefail
source .device/env.sh
B=.device/bin/blurlab
common=(--headless --size 4096x4096,1920x1080 --kernel box,gauss --frames ${FRAMES:-60} --warmup 10 --budget 1.5)
$B "${common[@]}" --variant copy,frag-separable,frag-separable-linear,compute-separable,compute-separable-linear,compute-separable-lds,compute-inline-lds,compute-inline-persistent,compute-sliding,compute-sliding-inline,compute-scan \
   --radius 1,2,4,8,16,32,64 --json "$OUT/sweep.json" --csv "$OUT/sweep.csv" > "$OUT/sweep.txt" 2>&1
echo "sweep exit $?"
$B "${common[@]}" --variant frag-naive,compute-naive,compute-naive-lds,frag-linear-2d --radius 1,2,4,8,16 \
   --json "$OUT/naive.json" --csv "$OUT/naive.csv" > "$OUT/naive.txt" 2>&1
echo "naive exit $?"
grep -E "FAIL" "$OUT/sweep.txt" "$OUT/naive.txt" | head
python3 .device/charts.py "$OUT/sweep.json" --out "$OUT" --log --radius 16 --prefix h200_ 2>&1 | head -3
grep -E "^== 4096x4096 rgba8 (box r=(1|32|64)|gauss r=16)" -A14 "$OUT/sweep.txt" | cut -c1-150
