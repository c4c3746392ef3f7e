#!/usr/bin/env bash
# Makes a results file of docs/results/ (one per GPU: what docs/PERFORMANCE.md and the charts in
# docs/charts/ are drawn from) and redraws its charts. docs/GPU.md says how to run it on the lent
# GPU machine; in short:
#
#   docs/results/measure.sh sweep SIZE...     on the GPU: one blurlab sweep per image size, each
#                                             its own JSON report in $OUT (default .)
#   docs/results/measure.sh results NAME REPORT.json...
#                                             here: docs/results/NAME.json from those reports, its
#                                             charts docs/charts/NAME_*.png, and the table of
#                                             docs/PERFORMANCE.md's "Current results"
#   docs/results/measure.sh all NAME          both, on one machine, for 4096x4096 and 1920x1080
#
# The sweep: every variant (the copy pass, exact blurs and approximate Gaussians) at their default
# knobs, box and Gaussian (sigma r/3, so the approximations answer with the same kernel), radii
# RADII, rgba8 and the clamp border, --check (every row against the CPU reference, or an
# approximation against its CPU model, with its fidelity to the exact Gaussian), --roofline and
# --json. A setting a variant refuses is a row with the reason, never dropped; a failed check makes
# blurlab exit 1 and write nothing, and this script stop.
# Environment: BLURLAB (the program; default .device/bin/blurlab where ../shared/device/pack.sh put
# it, else build-release/app/blurlab), RADII (default 1,2,4,8,16,32,64), KERNELS (box,gauss),
# FRAMES (30), BUDGET (0.3 s of frames per row), TUNED (a --tune file, for knobs other than the
# defaults), BLURLAB_PYTHON (a python3 with matplotlib, as for blurlab --report).
# Expect several minutes per size at 4096x4096 (an estimate, not yet run on a GPU: about 280 checked
# rows of a second or so each, and the naive 2D variants' slow frames at large r): give each size
# its own device call (10 minutes at most), or split it by KERNELS. On llvmpipe, 64x48 at r = 1, 2
# took 59 s.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] || usage

blurlab=${BLURLAB:-}
[ -n "$blurlab" ] || { [ -x "$root/.device/bin/blurlab" ] && blurlab=$root/.device/bin/blurlab || blurlab=$root/build-release/app/blurlab; }
# Python with matplotlib for the charts: as blurlab --report looks for it (Debian's python3-matplotlib).
python=${BLURLAB_PYTHON:-}
[ -n "$python" ] || { [ -x /usr/bin/python3 ] && python=/usr/bin/python3 || python=python3; }
radii=${RADII:-1,2,4,8,16,32,64}
kernels=${KERNELS:-box,gauss}
out=${OUT:-.}

# One image size: $out/<size>_<kernels>.json (and the table blurlab prints, .txt).
sweep() {
  local size=$1 report="$out/${1}_${kernels//,/-}"
  local tuned=()
  [ -n "${TUNED:-}" ] && tuned=(--tuned "$TUNED")
  echo "== $size: $blurlab, kernels $kernels, radii $radii -> $report.json"
  local start=$SECONDS
  "$blurlab" --headless --check --roofline --variant all --kernel "$kernels" --radius "$radii" --size "$size" \
             --input-format rgba8 --border clamp --frames "${FRAMES:-30}" --warmup 10 --budget "${BUDGET:-0.3}" "${tuned[@]}" \
             --json "$report.json" > "$report.txt" 2>&1 || { tail -20 "$report.txt" >&2; exit 1; }
  echo "$size done in $((SECONDS - start)) s: $(grep -c '"variant":' "$report.json") rows"
}

# docs/results/NAME.json from the reports, its charts, and PERFORMANCE.md's "Current results" table.
results() {
  local name=$1; shift
  "$python" "$root/docs/tools/results.py" merge "$root/docs/results/$name.json" "$@"
  rm -f "$root/docs/charts/${name}"_*.png
  "$python" "$root/docs/tools/charts.py" "$root/docs/results/$name.json" --out "$root/docs/charts" --log --radius 16 --prefix "${name}_"
  "$python" "$root/docs/tools/results.py" table "$root/docs/results/$name.json"
}

case $1 in
  sweep)
    shift
    [ $# -ge 1 ] || usage
    for size in "$@"; do sweep "$size"; done
    ;;
  results)
    shift
    [ $# -ge 2 ] || usage
    results "$@"
    ;;
  all)
    [ $# -eq 2 ] || usage
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
    for size in 4096x4096 1920x1080; do sweep "$size"; done
    results "$2" "$out"/*.json
    ;;
  *) usage ;;
esac
