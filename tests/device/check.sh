#!/usr/bin/env bash
# Correctness on the GPU machine (device tool): the GL test grid, then --check sweeps of every
# variant. Run from the repository root after ../shared/device/pack.sh build-release/app/blurlab
# build-release/tests/blurlab_gl_tests; writes logs and JSON under $OUT.
set -uo pipefail
source .device/env.sh
B=.device/bin/blurlab
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
echo "== GL test grid (every variant vs the CPU reference)"
BLURLAB_TEST_DEVICE=gpu .device/bin/blurlab_gl_tests > "$OUT/gl_tests.txt" 2>&1
echo "gl tests exit $?"; grep -E "GL_RENDERER|GL_VERSION|PASSED|FAILED|OK \]" "$OUT/gl_tests.txt" | tail -22
echo "== --check: all variants, r 0..128, both kernels, all formats, odd sizes"
$B --headless --check --frames 0 --variant all --kernel box,gauss --radius 0,1,2,7,16,33,64,128 \
   --size 517x389,131x97,3x2,1x1 --input-format rgba8,rgba16f --format rgba8,rgba16f,rgba32f \
   --json "$OUT/check_small.json" > "$OUT/check_small.txt" 2>&1
echo "check exit $?"; grep -cE " ok$" "$OUT/check_small.txt"; grep -E "FAIL" "$OUT/check_small.txt" | head -20
echo "== --check at 4096x4096 and 1920x1080"
$B --headless --check --frames 0 --variant all --kernel box,gauss --radius 16,64 --size 4096x4096,1920x1080 \
   --json "$OUT/check_large.json" > "$OUT/check_large.txt" 2>&1
echo "check exit $?"; grep -E "FAIL|unsupported" "$OUT/check_large.txt" | head -20
echo "== every knob candidate at 48 KiB"
$B --headless --check --frames 0 --variant compute-naive-lds,compute-separable-lds,compute-inline-lds,compute-inline-persistent,compute-inline-regblock,compute-sliding-inline,compute-scan \
   --kernel box --radius 16,64 --size 517x389 --workgroup 8x8,16x16,32x8,128x1,256x1,64x4,8x128,16x64,32x32,16x8,8x4,32x1,16x1 \
   --cache fp32,fp16 > "$OUT/check_knobs.txt" 2>&1
echo "check exit $?"; grep -cE " ok$" "$OUT/check_knobs.txt"; grep -E "FAIL" "$OUT/check_knobs.txt" | head
