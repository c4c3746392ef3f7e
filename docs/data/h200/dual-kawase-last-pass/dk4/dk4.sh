#!/usr/bin/env bash
# Device run (dual Kawase): last-pass auto's crossover (3.1 M texels, fitted from 4096x4096 and
# 1920x1080) checked at two sizes beside it, 2560x1440 (3.7 M: auto streams) and 2048x1152 (2.4 M:
# auto keeps the chain), the chain and the stream at sigma 10 and 30, the copy in each run, --check.
B=${B:-.device/bin/blurlab}
EXTRA=${EXTRA:-"--frames 15 --warmup 5 --budget 0.15"}
COMMON="--headless --check --roofline --input-format rgba8 --border clamp --kernel gauss $EXTRA"
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/r"
start=$SECONDS
for size in 2560x1440 2048x1152; do
  if [ $((SECONDS - start)) -gt ${GUARD:-200} ]; then echo "SKIP $size"; continue; fi
  t=$SECONDS
  "$B" $COMMON --size "$size" --sigma 10,30 --variant copy,dual-kawase --last-pass chain,stream \
    --json "$OUT/r/${size}_cross.json" > "$OUT/r/${size}_cross.txt" 2>&1
  echo "cross $size rc=$? $((SECONDS - t)) s"
done
tar -czf "$OUT/dk4.tgz" -C "$OUT" r && rm -rf "$OUT/r"
echo "total $((SECONDS - start)) s"
