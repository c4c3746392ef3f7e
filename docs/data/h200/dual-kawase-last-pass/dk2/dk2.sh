#!/usr/bin/env bash
# Device call (issue 41, dual Kawase): the streamed last pass rebuilt so a warp's stores are 32
# consecutive texels (an invocation per target column, phase 1 as phase 0 mirrored), against the
# chain to the output (today's default), stream-rows 4 / 8 / 16, the copy in the same run, every row
# --check'ed; a probe of the store pattern (the copy with each invocation's two texels adjacent, so
# each warp instruction touches every other texel: --shader-dir, typed and raw); the dumps.
B=${B:-.device/bin/blurlab}
SIZES=${SIZES:-4096x4096 1920x1080}
EXTRA=${EXTRA:-"--frames 15 --warmup 5 --budget 0.15"}
COMMON="--headless --check --roofline --input-format rgba8 --border clamp $EXTRA"
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/r"
start=$SECONDS
run() {  # name, size, args...
  local name=$1 size=$2; shift 2
  if [ $((SECONDS - start)) -gt ${GUARD:-400} ]; then echo "SKIP $name $size"; return; fi
  local t=$SECONDS
  "$B" $COMMON --size "$size" "$@" --json "$OUT/r/${size}_$name.json" > "$OUT/r/${size}_$name.txt" 2>&1
  echo "$name $size rc=$? $((SECONDS - t)) s"
}
for size in $SIZES; do
  run last "$size" --kernel gauss --sigma 3,10,30 --variant copy,dual-kawase --last-pass chain,stream
  run rows "$size" --kernel gauss --sigma 3,10,30 --variant copy,dual-kawase --last-pass stream --stream-rows 4,16
  run copy "$size" --kernel box --radius 1 --variant copy --texels 2 --access raw,typed
  run pairs "$size" --kernel box --radius 1 --variant copy --texels 2 --access raw,typed --shader-dir .device/probe/glsl
done
"$B" --headless --size 1920x1080 --kernel gauss --sigma 10 --variant dual-kawase --last-pass stream --frames 1 --warmup 0 \
  --dump-programs "$OUT/r/dumps" > "$OUT/r/dumps.txt" 2>&1
python3 docs/tools/program_dump.py "$OUT/r/dumps" --define DK_UP,DK_CHAIN,DK_FOLD,DK_STREAM_ROWS >> "$OUT/r/dumps.txt" 2>&1
tar -czf "$OUT/dk2.tgz" -C "$OUT" r && rm -rf "$OUT/r"
echo "total $((SECONDS - start)) s"
