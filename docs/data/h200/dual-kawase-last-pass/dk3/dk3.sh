#!/usr/bin/env bash
# Device call (issue 41, dual Kawase): the final build at its defaults (last-pass auto: the stream
# at 4096x4096 from two levels, the chain at 1920x1080 and at one level), sigma 3 / 10 / 30, both
# sizes, the copy in the same run, every row --check'ed; at 4096x4096 the chain to the output
# (last-pass chain, the old default) again beside it.
B=${B:-.device/bin/blurlab}
EXTRA=${EXTRA:-"--frames 15 --warmup 5 --budget 0.15"}
COMMON="--headless --check --roofline --input-format rgba8 --border clamp --kernel gauss $EXTRA"
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/r"
start=$SECONDS
run() {  # name, size, args...
  local name=$1 size=$2; shift 2
  if [ $((SECONDS - start)) -gt ${GUARD:-300} ]; then echo "SKIP $name $size"; return; fi
  local t=$SECONDS
  "$B" $COMMON --size "$size" "$@" --json "$OUT/r/${size}_$name.json" > "$OUT/r/${size}_$name.txt" 2>&1
  echo "$name $size rc=$? $((SECONDS - t)) s"
}
run defaults 4096x4096 --sigma 3,10,30 --variant copy,dual-kawase
run defaults 1920x1080 --sigma 3,10,30 --variant copy,dual-kawase
run chain 4096x4096 --sigma 10,30 --variant copy,dual-kawase --last-pass chain
tar -czf "$OUT/dk3.tgz" -C "$OUT" r && rm -rf "$OUT/r"
echo "total $((SECONDS - start)) s"
