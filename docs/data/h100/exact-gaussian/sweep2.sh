#!/usr/bin/env bash
# One-off GPU run: compute-separable-regblock's streamed taps at large r (and larger workgroups at
# r = 16, 30), every row --check'ed with copy and the roofline in each run; the table text of each
# run is kept even when its JSON is not written.
set -uo pipefail
B=.device/bin/blurlab
common=(--headless --check --roofline --frames 15 --warmup 3 --budget 0.15 --size 4096x4096,1920x1080 --kernel gauss)
run() {
  local name=$1; shift
  [ $SECONDS -lt 520 ] || { echo "$name: skipped, $SECONDS s gone"; return; }
  local start=$SECONDS
  timeout $((575 - SECONDS)) "$B" "${common[@]}" "$@" --json "$OUT/$name.json" > "$OUT/$name.txt" 2>&1
  echo "$name: rc $? in $((SECONDS - start)) s"
}
V=(--variant copy,compute-separable-regblock --taps streamed --cache fp16)
run l1 --radius 64,90,128 "${V[@]}" --workgroup 64,128 --lines 2,4 --block-x 6,8 --tiles 1,2
run l2 --radius 64,90,128 "${V[@]}" --workgroup 256 --lines 2,4 --block-x 6,8 --tiles 1
run l3 --radius 64,90,128 "${V[@]}" --workgroup 128 --lines 2 --block-x 7 --tiles 1,2
run mid --radius 16,30 --variant copy,compute-separable-regblock --taps unrolled,streamed --cache fp16 --workgroup 128 --lines 2,4 --block-x 6,8 --tiles 2
run inline --radius 64,90 --variant copy,compute-inline-regblock --taps unrolled,streamed
