#!/usr/bin/env bash
# Issue 16's exploration on the GPU machine: the new copy, compute-box-prefix and
# compute-strip-regblock over their knobs at 4096x4096 and 1920x1080, every row checked against
# the CPU reference in the same run (--check), the copy pass and the roofline measured in the
# same runs. Writes JSON reports and logs under $OUT (at most 8 files come back) and prints a
# summary. PART=check|copy|box|blocked|gauss|best|separable|bound|gauss_bound|gauss_footprint|gauss_prefetch|gauss_halves|all
# (default all; best, separable, bound and the gauss_* parts are not part of all).
set -uo pipefail
source .device/env.sh
B=.device/bin/blurlab
part=${PART:-all}
common=(--headless --check --frames ${FRAMES:-40} --warmup 10 --budget ${BUDGET:-0.4})
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
summary() {  # the best supported row per group of a report, as "group: variant settings ms x-copy"
  python3 - "$1" <<'PY'
import json, sys, collections
doc = json.load(open(sys.argv[1]))
rows = [r for r in doc["results"] if r.get("supported") and "total" in r.get("spans", {})]
best = collections.OrderedDict()
for r in rows:
    s = r["settings"]
    key = (r["size"]["width"], r["size"]["height"], s.get("kernel", "copy"), s.get("radius", 0))
    ms = r["spans"]["total"]["median_ms"]
    if key not in best or ms < best[key][0]:
        best[key] = (ms, r)
roof = doc.get("roofline", {})
if roof:
    print(f"roofline: texture {roof['texture_copy_gbps']:.0f} GB/s ({roof['texture_copy_setting']}), buffer {roof['buffer_copy_gbps']:.0f} GB/s, {roof['fma_tflops']:.1f} TFLOP/s")
for key, (ms, r) in best.items():
    knobs = " ".join(f"{k}={v}" for k, v in r["settings"].get("knobs", {}).items())
    bound = r.get("bound", {})
    print(f"{key[0]}x{key[1]} {key[2]} r={key[3]}: {r['variant']} {knobs} {ms:.4f} ms x{r.get('x_copy', 0):.2f} "
          f"{bound.get('limit', '')} {100 * bound.get('fraction', 0):.0f}% check={r.get('error', {}).get('ok')}")
fails = [r for r in doc["results"] if "error" in r and not r["error"]["ok"]]
print(f"{len(rows)} timed rows, {len(fails)} failed checks")
PY
}
if [ "$part" = check ] || [ "$part" = all ]; then
  $B --headless --check --frames 0 --variant copy,compute-box-prefix,compute-strip-regblock --kernel box,gauss --radius 0,1,7,16,30,64,128 \
     --size 517x389,131x97,4096x4096,1920x1080 --input-format rgba8,rgba16f > "$OUT/check.txt" 2>&1
  echo "check defaults exit $?"
  $B --headless --check --frames 0 --variant compute-box-prefix --kernel box --radius 1,16,64,128 --size 517x389,4096x4096 \
     --workgroup 256,512,1024 --batch 2,4,8 --scan shared,subgroup --segment 256,2048 >> "$OUT/check.txt" 2>&1
  echo "check box-prefix knobs exit $?"
  $B --headless --check --frames 0 --variant compute-strip-regblock --kernel box,gauss --radius 1,16,30 --size 517x389 \
     --workgroup 128,256,512 --strip 32,64,128 --block 4,8,16 --cache fp16,fp32 >> "$OUT/check.txt" 2>&1
  echo "check strip knobs exit $?"
  grep -cE " ok$" "$OUT/check.txt"; grep -E "FAIL|GL error|subgroups" "$OUT/check.txt" | sort | uniq -c | head
fi
if [ "$part" = copy ] || [ "$part" = all ]; then
  $B "${common[@]}" --roofline --variant copy --size 4096x4096,1920x1080 --workgroup 64x4,16x16,32x8,128x2,256x1 --texels 1,2,4,8 \
     --access raw,typed --json "$OUT/copy.json" > "$OUT/copy.txt" 2>&1
  echo "copy exit $?"; summary "$OUT/copy.json"
fi
if [ "$part" = box ] || [ "$part" = all ]; then
  # copy is the implicit floor at its own defaults (listing it would sweep it over these workgroups)
  $B "${common[@]}" --variant compute-box-prefix --kernel box --radius ${BOX_RADII:-1,8,32,64,128} --size 4096x4096,1920x1080 \
     --workgroup ${BOX_WG:-256,512,1024} --segment ${BOX_SEG:-64,128,256,512} --batch ${BOX_BATCH:-2,4} --scan subgroup \
     --json "$OUT/box.json" > "$OUT/box.txt" 2>&1
  echo "box exit $?"; summary "$OUT/box.json"
  [ -n "${BOX_BEFORE:-1}" ] && $B "${common[@]}" --variant compute-sliding,compute-inline-regblock --tuned docs/data/h200/tune.json --kernel box \
     --radius 1,8,32,64,128 --size 4096x4096,1920x1080 --json "$OUT/box_before.json" > "$OUT/box_before.txt" 2>&1
  echo "box before exit $?"; summary "$OUT/box_before.json"
fi
if [ "$part" = blocked ] || [ "$part" = all ]; then
  # compute-box-blocked: its subgroup scan checked at odd sizes first, then timed over its knobs.
  $B --headless --check --frames 0 --variant compute-box-blocked --kernel box --radius 1,16,64,128 --size 517x389,131x97 \
     --workgroup 32,64,128 --columns 4,8,16 --batch 1,2 --scan shared,subgroup --border clamp,wrap,constant \
     > "$OUT/blocked_check.txt" 2>&1
  echo "check blocked knobs exit $?, $(grep -c ' ok ' "$OUT/blocked_check.txt") ok, $(grep -c FAIL "$OUT/blocked_check.txt") failed"
  $B "${common[@]}" --variant compute-box-blocked --kernel box --radius ${BLOCKED_RADII:-1,8,32,64,128} \
     --size ${BLOCKED_SIZES:-4096x4096,1920x1080} --workgroup ${BLOCKED_WG:-32,64,128} --columns ${BLOCKED_COLUMNS:-4,8} \
     --batch ${BLOCKED_BATCH:-1} --segment ${BLOCKED_SEG:-16,32,128,256} --scan ${BLOCKED_SCAN:-subgroup} \
     --json "$OUT/blocked.json" > "$OUT/blocked.txt" 2>&1
  echo "blocked exit $?"; summary "$OUT/blocked.json"
fi
if [ "$part" = best ]; then
  # The best box and Gaussian found so far at each radius, each command with the roofline and the copy floor:
  # compute-box-blocked at the knobs the blocked sweeps found fastest (short walks of one warp at small r, longer
  # and wider at large r), compute-sliding and compute-inline-regblock at the H200's tuned knobs, the exact Gaussian
  # (compute-separable-regblock at its defaults; run 6 timed compute-strip-regblock here).
  best=(--headless --check --frames ${FRAMES:-40} --warmup 10 --budget ${BUDGET:-0.4} --size 4096x4096,1920x1080 --roofline)
  $B "${best[@]}" --variant compute-box-blocked --kernel box --scan subgroup --radius 1,8,16 --workgroup 32 --columns 4 \
     --segment 16,32 --json "$OUT/best_blocked_small.json" > "$OUT/best_blocked_small.txt" 2>&1
  echo "blocked small exit $?"; summary "$OUT/best_blocked_small.json"
  $B "${best[@]}" --variant compute-box-blocked --kernel box --scan subgroup --radius 32,64,128 --workgroup 64,128 --columns 4,8 \
     --segment 128,256 --json "$OUT/best_blocked_large.json" > "$OUT/best_blocked_large.txt" 2>&1
  echo "blocked large exit $?"; summary "$OUT/best_blocked_large.json"
  $B "${best[@]}" --variant compute-sliding,compute-inline-regblock --kernel box --radius 1,8,16,32,64,128 \
     --tuned docs/data/h200/tune.json --json "$OUT/best_others.json" > "$OUT/best_others.txt" 2>&1
  echo "others exit $?"; summary "$OUT/best_others.json"
  $B "${best[@]}" --variant compute-separable-regblock --kernel gauss --sigma 10 --radius 16,30 \
     --json "$OUT/best_gauss.json" > "$OUT/best_gauss.txt" 2>&1
  echo "gauss exit $?"; summary "$OUT/best_gauss.json"
fi
# ablate NAME SHADER OLD NEW [OLD NEW ...]: a copy of glsl/ under $ablated/NAME whose SHADER has each line OLD
# (whole, exactly once) replaced by NEW, for --shader-dir; fails if a line is not there.
# The copy is of $ablate_from (default glsl/).
ablate() {
  python3 - "${ablate_from:-glsl}" "$ablated" "$@" <<'PY' || exit 1
import shutil, sys
src, out, name, shader, *pairs = sys.argv[1:]
shutil.copytree(src, f"{out}/{name}")
path = f"{out}/{name}/{shader}"
lines = open(path).read().split("\n")
for old, new in zip(pairs[::2], pairs[1::2]):
    assert lines.count(old) == 1, f"{name}: the line to change is not once in {shader}: {old}"
    lines[lines.index(old)] = new
open(path, "w").write("\n".join(lines))
PY
}
# time_modes PREFIX MODE... -- BLURLAB_ARGS...: blurlab once per mode, a mode named real* as built, any other through
# --shader-dir $ablated/MODE; writes $OUT/PREFIX_MODE.txt (and .json: blurlab writes none when a check fails).
time_modes() {
  local prefix=$1 modes=() mode; shift
  while [ "$1" != -- ]; do modes+=("$1"); shift; done; shift
  for mode in "${modes[@]}"; do
    local dir=(); [[ $mode = real* ]] || dir=(--shader-dir "$ablated/$mode")
    $B "$@" "${dir[@]}" --json "$OUT/${prefix}_$mode.json" > "$OUT/${prefix}_$mode.txt" 2>&1
    echo "$prefix $mode exit $?"; grep -E "^(==|copy|compute)" "$OUT/${prefix}_$mode.txt"
  done
}
if [ "$part" = bound ]; then
  # What bounds compute-box-blocked: the variant, then the same shader with no global loads (each texel made from its
  # coordinates, 6 bits per channel so no field overflows) and with neither loads nor stores (a store under a condition
  # that never holds), through --shader-dir (they fail --check by design).
  ablated=$(mktemp -d)
  load="  return texel_bits(imageLoad(u_src_raw, border_texel(p, size)));"
  no_load="  ivec2 q = border_texel(p, size); return uint(q.x * 0x9E3779B1 ^ q.y * 0x85EBCA77) & 0x3F3F3F3Fu;"
  store="  imageStore(u_dst_raw, p, uvec4(q.r | q.g << 8 | q.b << 16 | q.a << 24));"
  no_store="  if ((q.r | q.g | q.b | q.a) > 255u) imageStore(u_dst_raw, p, uvec4(q.r | q.g << 8 | q.b << 16 | q.a << 24));"
  ablate noload compute_box_blocked.comp "$load" "$no_load"
  ablate noglobal compute_box_blocked.comp "$load" "$no_load" "$store" "$no_store"
  time_modes bound real noload noglobal -- --headless --check --frames ${FRAMES:-40} --warmup 10 --budget ${BUDGET:-0.4} \
    --size ${BOUND_SIZES:-4096x4096} --variant compute-box-blocked --kernel box --radius ${BOUND_RADII:-1,8,16,32,64,128} \
    --workgroup 32,128 --columns 4 --segment 32,256 --scan subgroup
  rm -rf "$ablated"
fi
# compute-separable-regblock's Gaussian as PART=gauss_bound and gauss_footprint time it, and the line of its shader
# that both ablate (the sums of a tile).
gauss=(--headless --check --frames ${FRAMES:-40} --warmup 10 --budget ${BUDGET:-0.4} --size 4096x4096 --roofline
       --variant compute-separable-regblock --kernel gauss --sigma 10 --radius 16,30)
sum="    block_sums(RbLine(false, ivec2(0), line * STAGE_STRIDE + x, 1, 0), sums);"
if [ "$part" = gauss_bound ]; then
  # What bounds compute-separable-regblock (run 10 of docs/data/h200/issue16 made the first two by hand; run 13 of
  # docs/data/h100/issue16 ran this part on the shader before its tiles, run 21 on the pipelined one): the variant,
  # then its shader with no staging and no stores (each store under a condition on all four channels that never
  # holds, the tile's fetch left dead: the sums alone), with no sums (staging and the transposed stores only), with
  # neither sums nor stores (the staging alone), with row-order stores instead of transposed ones (wrong places,
  # the same bytes), with no staging (the sums read whatever shared memory holds), with no stores (staging and
  # sums), with the staging's fetches but not its shared stores (each under a condition that never holds; the
  # prefetch registers and the global reads stay) and with its shared stores but not its fetches (a constant stored).
  # They fail --check by design.
  # Two knob sets: GAUSS_BOUND_KNOBS (the fastest whole blur) and GAUSS_BOUND_KNOBS2 (the fastest sums alone, fp32
  # cache), each timed in the modes GAUSS_BOUND_MODES and GAUSS_BOUND_MODES2 list (defaults below; " " for none).
  ablated=$(mktemp -d)
  stage="    if (i < LINES * STAGE_WIDTH) lds_store(i / STAGE_WIDTH * STAGE_STRIDE + i % STAGE_WIDTH, staged[s]);"
  store="        if (origin.x + x + k < size.x) store_target(ivec2(y, origin.x + x + k), sums[k]);"
  no_store="        if (dot(sums[k], vec4(1.0)) > 1e30) store_target(ivec2(y, origin.x + x + k), sums[k]);"
  row_store="        if (origin.x + x + k < size.x) store_target(ivec2(origin.x + x + k, y), sums[k]);"
  no_sum="    for (int k = 0; k < BLOCK_X; ++k) sums[k] = lds_load(line * STAGE_STRIDE + x + RADIUS + k);"
  ablate sumsonly compute_separable_regblock.comp "$stage" "    ;" "$store" "$no_store"
  ablate nosum compute_separable_regblock.comp "$sum" "$no_sum"
  ablate stageonly compute_separable_regblock.comp "$sum" "$no_sum" "$store" "$no_store"
  ablate rowstore compute_separable_regblock.comp "$sum" "$no_sum" "$store" "$row_store"
  ablate nostage compute_separable_regblock.comp "$stage" "    ;"
  ablate nostore compute_separable_regblock.comp "$store" "$no_store"
  ablate fetchonly compute_separable_regblock.comp "$stage" "${stage/if (i < LINES \* STAGE_WIDTH)/if (dot(staged[s], vec4(1.0)) > 1e30)}"
  ablate stsonly compute_separable_regblock.comp "$stage" "${stage/staged\[s\]);/vec4(0.5));}"
  time_modes gauss ${GAUSS_BOUND_MODES:-real sumsonly nosum stageonly rowstore real_again} -- "${gauss[@]}" \
    ${GAUSS_BOUND_KNOBS:---tiles 8}
  time_modes gauss_fp32 ${GAUSS_BOUND_MODES2:-real sumsonly} -- "${gauss[@]}" \
    ${GAUSS_BOUND_KNOBS2:---tiles 8 --workgroup 128 --lines 8 --block-x 8 --cache fp32}
  rm -rf "$ablated"
fi
if [ "$part" = gauss_footprint ]; then
  # Is the fp32 cache's loss (runs 15-23 of docs/data/h100/issue16) its precision or its shared-memory footprint? The
  # variant with the fp16 cache, the same with an unused shared array read once per tile (kept by the compiler) that
  # doubles its footprint to the fp32 cache's, the same with only its cache array declared twice as long (nothing
  # else changed: run 25), and the variant with the fp32 cache; all at GAUSS_FOOTPRINT_KNOBS. The padded and doubled
  # shaders compute the same image, so they pass --check.
  ablated=$(mktemp -d)
  include='#include "lds_common.glsl"'
  ablate padded compute_separable_regblock.comp "$include" "$include"$'\n''shared uvec2 s_pad[LDS_TEXELS];' \
    "$sum" "$sum"$'\n''    if (s_pad[n].x == 0x7fc00001u) sums[0] = vec4(0.0);'
  ablate doubled lds_common.glsl "shared uvec2 s_lds[LDS_TEXELS];" "shared uvec2 s_lds[2 * LDS_TEXELS];"
  time_modes footprint real padded doubled -- "${gauss[@]}" ${GAUSS_FOOTPRINT_KNOBS:---tiles 8} --cache fp16
  time_modes footprint_fp32 real -- "${gauss[@]}" ${GAUSS_FOOTPRINT_KNOBS:---tiles 8} --cache fp32
  rm -rf "$ablated"
fi
if [ "$part" = gauss_prefetch ]; then
  # How much of the next tile to fetch during the sums (run 31 of docs/data/h100/issue16): the variant, then its shader
  # with only the first quarter, half or three quarters of each invocation's texels of the next tile fetched before
  # the sums and the rest right before that tile is staged (fewer registers held through the sums, more latency
  # exposed); all compute the same image. At the fp16 defaults with 8 tiles and at the fp32 set of gauss_bound.
  ablated=$(mktemp -d)
  main="void main() {"
  fetch_next="    if (tile + 1 < TILES) fetch_tile(origin + ivec2(0, LINES), n, staged);  // in flight during the sums"
  stage_now="    stage_tile(n, staged);"
  for quarters in 1 2 3; do
    ablate head$quarters compute_separable_regblock.comp "$main" "const int HEAD = STAGED * $quarters / 4;
void fetch_part(ivec2 origin, int n, int from, int to, inout vec4 staged[STAGED]) {
  for (int s = from; s < to; ++s) {
    int i = n + s * N;
    staged[s] = source_texel(origin + ivec2(i % STAGE_WIDTH - RADIUS, i / STAGE_WIDTH));
  }
}
$main" "$stage_now" "    if (tile > 0) fetch_part(origin, n, HEAD, STAGED, staged);
$stage_now" "$fetch_next" "    if (tile + 1 < TILES) fetch_part(origin + ivec2(0, LINES), n, 0, HEAD, staged);"
  done
  time_modes prefetch real head1 head2 head3 -- "${gauss[@]}" --tiles 8
  time_modes prefetch_fp32 real head1 head2 head3 -- "${gauss[@]}" --tiles 8 --workgroup 128 --lines 8 --block-x 8 --cache fp32
  rm -rf "$ablated"
fi
if [ "$part" = gauss_halves ]; then
  # The experiment tests/device/experiments/compute_separable_regblock_halves.comp (two fp32 channels at a time in the
  # fp16 cache's 8 bytes: run 25 of docs/data/h100/issue16) beside the variant: the whole blur over GAUSS_HALVES_KNOBS,
  # then its sums alone (no staging, no stores; fails --check by design) at the fastest of them.
  ablated=$(mktemp -d)
  ablate_from=$ablated/halves_base
  cp -r glsl "$ablate_from" && cp tests/device/experiments/compute_separable_regblock_halves.comp "$ablate_from/compute_separable_regblock.comp"
  half_stage="    if (i < LINES * STAGE_WIDTH) s_lds[i / STAGE_WIDTH * STAGE_STRIDE + i % STAGE_WIDTH] = floatBitsToUint(high ? staged[s].zw : staged[s].xy);"
  half_store="        if (origin.x + x + k < size.x) store_target(ivec2(y, origin.x + x + k), vec4(lo[k], hi[k]));"
  half_no_store="        if (dot(vec4(lo[k], hi[k]), vec4(1.0)) > 1e30) store_target(ivec2(y, origin.x + x + k), vec4(lo[k], hi[k]));"
  ablate whole compute_separable_regblock.comp "$half_store" "$half_store"  # the experiment as written
  ablate sumsonly compute_separable_regblock.comp "$half_stage" "    ;" "$half_store" "$half_no_store"
  unset ablate_from
  time_modes halves real whole -- "${gauss[@]}" --cache fp16 \
    ${GAUSS_HALVES_KNOBS:---workgroup 64,128 --lines 4,8 --block-x 6,8 --tiles 2,8}
  time_modes halves sumsonly -- "${gauss[@]}" --cache fp16 ${GAUSS_HALVES_SUMS_KNOBS:---workgroup 128 --lines 8 --block-x 8 --tiles 8}
  rm -rf "$ablated"
fi
if [ "$part" = separable ]; then  # compute-separable-regblock over its knobs, strip-regblock's best beside it
  sep=(--headless --check --frames ${FRAMES:-40} --warmup 10 --budget ${BUDGET:-0.4} --roofline --kernel gauss --sigma 10)
  $B "${sep[@]}" --variant compute-separable-regblock --radius ${SEP_RADII:-16,30} --size ${SEP_SIZES:-4096x4096} \
     --workgroup ${SEP_WG:-64,128} --lines ${SEP_LINES:-2,4} --block-x ${SEP_BLOCK:-4,5,6,7} --cache ${SEP_CACHE:-fp16} \
     --format ${SEP_FORMAT:-rgba8} --weights constant --json "$OUT/separable.json" > "$OUT/separable.txt" 2>&1
  echo "separable exit $?"; summary "$OUT/separable.json"
  $B "${sep[@]}" --variant compute-strip-regblock --radius ${SEP_RADII:-16,30} --size ${SEP_SIZES:-4096x4096} --workgroup 256,512 \
     --strip 32 --block 8 --segment 1024 --fetch texture --weights constant --json "$OUT/strip.json" > "$OUT/strip.txt" 2>&1
  echo "strip exit $?"; summary "$OUT/strip.json"
fi
if [ "$part" = gauss ] || [ "$part" = all ]; then
  $B "${common[@]}" --variant compute-strip-regblock --kernel gauss --sigma 10 --radius 16,30 --size 4096x4096,1920x1080 \
     --workgroup ${GAUSS_WG:-128,256,512} --strip ${GAUSS_STRIP:-32} --block ${GAUSS_BLOCK:-8,16} --segment 1024 \
     --fetch ${GAUSS_FETCH:-image,texture,staged} --weights ${GAUSS_WEIGHTS:-uniform,constant} --json "$OUT/gauss.json" > "$OUT/gauss.txt" 2>&1
  echo "gauss exit $?"; summary "$OUT/gauss.json"
fi
