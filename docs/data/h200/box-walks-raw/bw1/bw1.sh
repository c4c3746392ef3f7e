#!/usr/bin/env bash
# Device call 1 (issue 42, box walks): compute-sliding's new knobs against its default and
# compute-sliding-tiles (the fastest running-sum box from r = 8), box r = 1 / 32 / 128, both sizes,
# every row --check'ed, the copy in the same run:
#   order rows-first|transposed x walk-io typed|raw at segment 128;
#   order transposed, walk-io raw: segment 64 / 256 / 512 and unroll 8.
B=${B:-.device/bin/blurlab}
EXTRA=${EXTRA:-"--frames 15 --warmup 5 --budget 0.15"}
COMMON="--headless --check --input-format rgba8 --border clamp --kernel box $EXTRA"
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/r"
start=$SECONDS
run() {  # name, size, args...
  local name=$1 size=$2; shift 2
  if [ $((SECONDS - start)) -gt ${GUARD:-330} ]; then echo "SKIP $name $size"; return; fi
  local t=$SECONDS
  "$B" $COMMON --size "$size" "$@" --json "$OUT/r/${size}_$name.json" > "$OUT/r/${size}_$name.txt" 2>&1
  echo "$name $size rc=$? $((SECONDS - t)) s"
}
for size in 4096x4096 1920x1080; do
  run grid $size --radius 1,32,128 --variant copy,compute-sliding-tiles,compute-sliding --order rows-first,transposed --walk-io typed,raw
  run segment $size --radius 1,32,128 --variant copy,compute-sliding --order transposed --walk-io raw --segment 64,256,512
  run unroll $size --radius 1,32,128 --variant copy,compute-sliding --order transposed --walk-io raw --unroll 8
done
tar -czf "$OUT/bw1.tgz" -C "$OUT" r && rm -rf "$OUT/r"
echo "total $((SECONDS - start)) s"
