#!/usr/bin/env bash
# Issue 7's table on the GPU machine: the candidates for the best variant at the target radii
# (box r 1, 8, 32, 64; Gaussian sigma 10 at r 16 and 30), at 4096x4096 and 1920x1080 RGBA8, with
# the copy pass timed in the same run. Step 1 (TUNE=1) tunes the variants with knobs and
# checks compute-inline-regblock; step 2 (default) times everything with those knobs. Writes under
# $OUT; pass the tune file back with TUNED=path.
set -uo pipefail
source .device/env.sh
B=.device/bin/blurlab
V=compute-separable-lds,compute-inline-lds,compute-inline-persistent,compute-inline-regblock,compute-strip-regblock,compute-sliding,compute-sliding-inline,compute-scan,compute-box-prefix
S=4096x4096,1920x1080
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
if [ "${TUNE:-0}" = 1 ]; then
  $B --headless --check --frames 0 --variant compute-inline-regblock --kernel box,gauss --radius 0,1,2,7,16,33,64,128 \
     --size 517x389,131x97,3x2,1x1 --input-format rgba8,rgba16f > "$OUT/check_regblock.txt" 2>&1
  echo "check exit $?"
  $B --headless --check --frames 0 --variant compute-inline-regblock --kernel box,gauss --radius 16,64 --size 517x389 \
     --workgroup 16x16,16x8,32x8,64x4 --block-y 4,8,16 --block-x 8,16 --cache fp16,fp32 >> "$OUT/check_regblock.txt" 2>&1
  echo "knobs check exit $?"; grep -cE " ok$" "$OUT/check_regblock.txt"; grep -E "FAIL" "$OUT/check_regblock.txt" | head
  tune=(--headless --tune --size $S --frames 20 --warmup 5 --budget 0.4 --tune-file "$OUT/tune.json"
        --variant compute-separable-lds,compute-inline-regblock,compute-strip-regblock,compute-sliding,compute-box-prefix)
  $B "${tune[@]}" --kernel box --radius 1,8,32,64,128 > "$OUT/tune.txt" 2>&1; echo "tune box exit $?"
  $B "${tune[@]}" --kernel gauss --sigma 10 --radius 16,30 >> "$OUT/tune.txt" 2>&1; echo "tune gauss exit $?"
  grep -E "^compute" "$OUT/tune.txt" | cut -c1-200
  exit 0
fi
tuned=(); [ -n "${TUNED:-}" ] && tuned=(--tuned "$TUNED")
common=(--headless --size $S --frames ${FRAMES:-100} --warmup 10 --budget 1.5 --check --roofline "${tuned[@]}" --variant copy,$V)
$B "${common[@]}" --kernel box --radius 1,8,32,64,128 --json "$OUT/best_box.json" > "$OUT/best_box.txt" 2>&1
echo "box exit $?"
$B "${common[@]}" --kernel gauss --sigma 10 --radius 16,30 --json "$OUT/best_gauss.json" > "$OUT/best_gauss.txt" 2>&1
echo "gauss exit $?"
grep -E "FAIL" "$OUT/best_box.txt" "$OUT/best_gauss.txt" | head
grep -E "^== |^(copy|compute)" "$OUT/best_box.txt" "$OUT/best_gauss.txt" | cut -c1-150
