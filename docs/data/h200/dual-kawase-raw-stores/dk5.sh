#!/usr/bin/env bash
# Device call (issue 41, dual Kawase): the streamed last pass storing its texels as their bits
# (blurlab) against the same build with typed stores (blurlab-typed, the commit before), sigma 10
# and 30 at 4096x4096 (where auto streams), each with its own copy, every row --check'ed;
# typed, raw, typed, raw, so that a drift between runs shows.
EXTRA=${EXTRA:-"--frames 15 --warmup 5 --budget 0.15"}
COMMON="--headless --check --input-format rgba8 --border clamp --kernel gauss $EXTRA"
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/r"
start=$SECONDS
run() {  # name, program, args...
  local name=$1 program=$2; shift 2
  if [ $((SECONDS - start)) -gt ${GUARD:-110} ]; then echo "SKIP $name"; return; fi
  local t=$SECONDS
  "$program" $COMMON "$@" --json "$OUT/r/$name.json" > "$OUT/r/$name.txt" 2>&1
  echo "$name rc=$? $((SECONDS - t)) s"
}
for round in 1 2; do
  run typed$round .device/bin/blurlab-typed --size 4096x4096 --sigma 10,30 --variant copy,dual-kawase
  run raw$round .device/bin/blurlab --size 4096x4096 --sigma 10,30 --variant copy,dual-kawase
done
tar -czf "$OUT/dk5.tgz" -C "$OUT" r && rm -rf "$OUT/r"
echo "total $((SECONDS - start)) s"
