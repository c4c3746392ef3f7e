#!/usr/bin/env bash
# Device call 2 (issue 42, box walks): compute-sliding with walk-io auto (raw for rgba8), rows first:
# loads in flight (unroll 4 / 8 / 16) x walk length (segment 64 / 128 / 256) at box r = 1 / 32 / 128,
# both sizes, and r = 0 (no warm-up: the walk's own cost) at 4096x4096; every row --check'ed, the
# copy in the same run.
B=${B:-.device/bin/blurlab}
EXTRA=${EXTRA:-"--frames 15 --warmup 5 --budget 0.15"}
COMMON="--headless --check --input-format rgba8 --border clamp --kernel box $EXTRA"
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/r"
start=$SECONDS
run() {  # name, size, args...
  local name=$1 size=$2; shift 2
  if [ $((SECONDS - start)) -gt ${GUARD:-300} ]; then echo "SKIP $name $size"; return; fi
  local t=$SECONDS
  "$B" $COMMON --size "$size" "$@" --json "$OUT/r/${size}_$name.json" > "$OUT/r/${size}_$name.txt" 2>&1
  echo "$name $size rc=$? $((SECONDS - t)) s"
}
run walk 1920x1080 --radius 1,32,128 --variant copy,compute-sliding --unroll 4,8,16 --segment 64,128,256
run floor 4096x4096 --radius 0 --variant copy,compute-sliding --unroll 4,16 --segment 128
run walk 4096x4096 --radius 1,32,128 --variant copy,compute-sliding --unroll 4,8,16 --segment 64,128,256
tar -czf "$OUT/bw2.tgz" -C "$OUT" r && rm -rf "$OUT/r"
echo "total $((SECONDS - start)) s"
