#!/usr/bin/env bash
# Device call 3 (issue 42, box walks): compute-sliding at its new defaults (walk-io auto: raw for
# rgba8; unroll 8 over segments of 64 below r = 64, unroll 16 over 128 from it) at box r = 1 / 8 /
# 32 / 64 / 128, both sizes, every row --check'ed, the copy in the same run; at r = 64 the two
# neighbouring settings beside the default (the sweep had no r = 64).
B=${B:-.device/bin/blurlab}
EXTRA=${EXTRA:-"--frames 15 --warmup 5 --budget 0.15"}
COMMON="--headless --check --roofline --input-format rgba8 --border clamp --kernel box $EXTRA"
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/r"
start=$SECONDS
run() {  # name, size, args...
  local name=$1 size=$2; shift 2
  if [ $((SECONDS - start)) -gt ${GUARD:-150} ]; then echo "SKIP $name $size"; return; fi
  local t=$SECONDS
  "$B" $COMMON --size "$size" "$@" --json "$OUT/r/${size}_$name.json" > "$OUT/r/${size}_$name.txt" 2>&1
  echo "$name $size rc=$? $((SECONDS - t)) s"
}
for size in 4096x4096 1920x1080; do
  run defaults $size --radius 1,8,32,64,128 --variant copy,compute-sliding
  run r64 $size --radius 64 --variant copy,compute-sliding --unroll 8 --segment 64,256
done
tar -czf "$OUT/bw3.tgz" -C "$OUT" r && rm -rf "$OUT/r"
echo "total $((SECONDS - start)) s"
