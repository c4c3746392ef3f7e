#!/usr/bin/env bash
# One-off GPU run: compute-separable-regblock's knobs per radius at both sizes (every row --check'ed,
# copy and the roofline in each run), the other exact Gaussians at their defaults, every program dumped.
set -uo pipefail
B=.device/bin/blurlab
common=(--headless --check --roofline --frames 20 --warmup 3 --budget 0.2 --size 4096x4096,1920x1080 --kernel gauss)
run() {  # name, then blurlab's arguments
  local name=$1; shift
  local start=$SECONDS
  "$B" "${common[@]}" "$@" --json "$OUT/$name.json" --dump-programs "/tmp/dump/$name" > "/tmp/$name.txt" 2>&1
  echo "$name: rc $? in $((SECONDS - start)) s"; tail -n 4 "/tmp/$name.txt"
}
mkdir -p /tmp/dump
run base --radius 9,16,30,64,90,128 \
  --variant copy,compute-separable-regblock,compute-separable-lds,compute-inline-regblock,compute-strip-regblock,compute-separable
run small --radius 9,16,30 --variant copy,compute-separable-regblock \
  --taps unrolled,streamed --cache fp16,fp32 --block-x 6,8,12 --lines 4,8
run large --radius 64,90,128 --variant copy,compute-separable-regblock \
  --taps streamed --cache fp16,fp32 --block-x 8,12,16 --lines 4,8 --workgroup 64,128 --tiles 1
run inline --radius 30,64,90 --variant copy,compute-inline-regblock --taps unrolled,streamed --cache fp16,fp32
tar czf "$OUT/dumps.tgz" -C /tmp dump base.txt small.txt large.txt inline.txt
