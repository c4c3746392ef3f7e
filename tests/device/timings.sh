#!/usr/bin/env bash
# Timing sweeps on the GPU machine for docs/PERFORMANCE.md: every variant at 4096x4096 and
# 1920x1080, box and Gaussian over the radii, medians of many frames after warm-up, the copy
# pass timed in the same run. The naive 2D variants get the small radii only (their cost grows
# with r^2). Writes JSON/CSV/charts under $OUT. PART=sweep runs only the main sweep, PART=rest the
# others (one device call holds at most 10 minutes).
set -uo pipefail
source .device/env.sh
B=.device/bin/blurlab
common=(--headless --size 4096x4096,1920x1080 --kernel box,gauss --frames ${FRAMES:-60} --warmup 10 --budget 1.5 ${TUNED:+--tuned "$TUNED"})
if [ "${PART:-all}" != rest ]; then
$B "${common[@]}" --variant copy,frag-separable,frag-separable-linear,compute-separable,compute-separable-linear,compute-separable-lds,compute-inline-lds,compute-inline-persistent,compute-inline-regblock,compute-sliding,compute-sliding-inline,compute-scan \
   --radius 1,2,4,8,16,32,64 --json "$OUT/sweep.json" --csv "$OUT/sweep.csv" > "$OUT/sweep.txt" 2>&1
echo "sweep exit $?"
fi
[ "${PART:-all}" = sweep ] && exit 0
$B "${common[@]}" --variant frag-naive,compute-naive,compute-naive-lds,frag-linear-2d --radius 1,2,4,8,16 \
   --json "$OUT/naive.json" --csv "$OUT/naive.csv" > "$OUT/naive.txt" 2>&1
echo "naive exit $?"
grep -E "FAIL" "$OUT/sweep.txt" "$OUT/naive.txt" | head
# Run-to-run noise: the same configurations twice more.
for i in 1 2; do
  $B --headless --size 4096x4096 --kernel box,gauss --radius 1,8,16,32 --variant copy,compute-separable,compute-sliding \
     --frames ${FRAMES:-60} --warmup 10 --budget 1.5 --csv "$OUT/repeat$i.csv" > /dev/null 2>&1
done
echo "repeats done"
# The fastest knobs of the variants that have them, at 4096x4096.
$B --headless --tune --size 4096x4096 --kernel box,gauss --radius 16 --frames 30 --budget 1 --tune-file "$OUT/tune.json" \
   --variant compute-separable,compute-separable-lds,compute-inline-lds,compute-inline-persistent,compute-inline-regblock,compute-sliding,compute-sliding-inline,compute-scan \
   > "$OUT/tune.txt" 2>&1
echo "tune exit $?"; tail -14 "$OUT/tune.txt" | cut -c1-160
grep -E "^== 4096x4096 rgba8 (box r=(1|32|64)|gauss r=16)" -A14 "$OUT/sweep.txt" | cut -c1-110
