#!/usr/bin/env bash
# Makes a results file of docs/results/ (one per GPU measured: what README.md's and
# docs/PERFORMANCE.md's tables and the charts in docs/charts/ are drawn from) and redraws its
# charts. docs/GPU.md says how to run it on another Linux machine with a GPU; in short:
#
#   docs/results/measure.sh sweep DIR SIZE... on the GPU: the sweep's runs per image size (below),
#                                             each its own JSON report in the folder DIR
#   docs/results/measure.sh results NAME REPORT.json...
#                                             here: docs/results/NAME.json from those reports, after
#                                             the rows it already holds if it exists (the newest row
#                                             of a setting answers; delete it to start afresh), its charts
#                                             docs/charts/NAME_*.png, and which rows hold for
#                                             today's code (results.py older); then
#                                             `python3 docs/tools/results.py docs` makes the docs'
#                                             tables again from the files
#   docs/results/measure.sh all NAME          both, on one machine, for 4096x4096 and 1920x1080
#
# Each row says what made it ("made_by": the commit and the digest of its variant's code; results.py
# older, report/results_files.h): rows of code older than the tree's are no answer for today's
# program, so measure again after a variant's code changes.
# The sweep, in parts, each one blurlab run with its own copy pass (the floor its rows are divided
# by), --check (every row against the CPU reference, or an approximation against its CPU model with
# its fidelity to the exact Gaussian), --roofline and --json, rgba8 and the clamp border; a setting
# a variant refuses is a row with the reason, never dropped; a failed check makes blurlab exit 1 and
# write nothing, and this script stop:
#   gauss   every variant (the copy pass, exact blurs and approximate Gaussians) at its default
#           knobs, sigma r/3, r = GAUSS_RADII (9,16,30,64,90,128: sigma 3, 10 and 30 among them);
#           the variants that sum the whole (2r+1)^2 kernel per pixel (SLOW_2D) only up to r = 16,
#           where a frame of theirs takes milliseconds, not seconds
#   box     the same for the box, r = BOX_RADII (1,4,16,64,128), in two runs (r <= 16, above), the
#           SLOW_2D variants in the first only
#   map     the variable-radius variants on the ramp map, R = 64, box and Gaussian
# Environment: BLURLAB (the program; default build-release/app/blurlab where it was built, else
# blurlab on PATH, as docs/tools/pack_device.sh's env.sh sets it), PARTS (default gauss,box,map),
# VARIANTS (a comma list: only these variants and the copy pass, for a refresh that `results`
# merges into a results file after its earlier reports: the newest row of a setting answers),
# GAUSS_RADII, BOX_RADII, FRAMES (15), BUDGET (0.15 s of frames per row), TUNED (a --tune file, for
# knobs other than the defaults), BLURLAB_PYTHON (a python3 with matplotlib, as for blurlab --report).
# The gauss part runs in three blurlab runs (r <= 16, <= 64, above), each writing its report as it
# ends, so that a sweep stopped early keeps the runs it finished; one size's gauss part at
# 4096x4096 is the longest part (the fragment variants are slow on Hopper: a fullscreen fragment
# pass there is ~19x slower than the same compute pass, few of its units running fragment shaders).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

# Bad arguments are one line on stderr and exit 2, as blurlab's; the comment above says more.
fail() { echo "measure.sh: $1" >&2; exit "${2:-1}"; }
usage() { fail "usage: measure.sh sweep DIR SIZE... | results NAME REPORT.json... | all NAME (the top of $0 says more)" 2; }
[ $# -ge 1 ] || usage
# What becomes part of a file name stays inside the folder it names: NAME a plain name (no "/", no
# leading "."; "../x" once overwrote and deleted files outside docs/results and docs/charts), SIZE
# WxH digits.
check_name() { [[ $1 =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || fail "NAME '$1' is not a plain file name (letters, digits, '.', '-', '_', not starting with '.')" 2; }
check_size() { [[ $1 =~ ^[1-9][0-9]{0,4}x[1-9][0-9]{0,4}$ ]] || fail "SIZE '$1' is not WxH (whole numbers, e.g. 1920x1080)" 2; }

blurlab=${BLURLAB:-}
[ -n "$blurlab" ] || { [ -x "$root/build-release/app/blurlab" ] && blurlab=$root/build-release/app/blurlab || blurlab=blurlab; }
# Python with matplotlib for the charts: as blurlab --report looks for it (Debian's python3-matplotlib).
python=${BLURLAB_PYTHON:-}
[ -n "$python" ] || { [ -x /usr/bin/python3 ] && python=/usr/bin/python3 || python=python3; }
parts=${PARTS:-gauss,box,map}
gauss_radii=${GAUSS_RADII:-9,16,30,64,90,128}
box_radii=${BOX_RADII:-1,4,16,64,128}
out=.
# Every tap of the (2r+1)^2 kernel per pixel: timed up to r = 16 only.
slow_2d=frag-naive,compute-naive,compute-naive-lds,frag-linear-2d

# The variants to run: every uniform-radius one ("all" without the variable-radius variants, which
# the map part runs), less those named in $1 (a comma list).
variants_except() {
  "$blurlab" --list-variants --json - |
    python3 -c 'import json, sys; print("\n".join(v["name"] for v in json.load(sys.stdin)["variants"] if v["family"] != "variable-radius"))' | grep -vxF -f <(tr ',' '\n' <<< "${1:-}") |
    { if [ -n "${VARIANTS:-}" ]; then grep -xF -f <(tr ',' '\n' <<< "copy,$VARIANTS"); else cat; fi; } | paste -sd, -
}

# One blurlab run: $out/<size>_<name>.json (and the table blurlab prints, .txt).
run() {
  local size=$1 name=$2; shift 2
  local report="$out/${size}_$name" tuned=()
  [ -n "${TUNED:-}" ] && tuned=(--tuned "$TUNED")
  echo "== $size $name: $blurlab $* -> $report.json"
  local start=$SECONDS
  "$blurlab" --headless --check --roofline --size "$size" --input-format rgba8 --border clamp --frames "${FRAMES:-15}" --warmup 5 \
             --budget "${BUDGET:-0.15}" "${tuned[@]}" "$@" --json "$report.json" > "$report.txt" 2>&1 || { tail -20 "$report.txt" >&2; exit 1; }
  echo "$size $name done in $((SECONDS - start)) s: $(grep -c '"variant":' "$report.json") rows"
}

# One image size, every part asked for.
sweep() {
  local size=$1 small=() mid=() large=()
  for r in ${gauss_radii//,/ }; do
    if [ "$r" -le 16 ]; then small+=("$r"); elif [ "$r" -le 64 ]; then mid+=("$r"); else large+=("$r"); fi
  done
  # Three runs, so that a sweep stopped early keeps the runs it finished (each writes its JSON at its end).
  if [[ ,$parts, == *,gauss,* ]]; then
    [ ${#small[@]} -eq 0 ] || run "$size" gauss-small --kernel gauss --radius "$(IFS=,; echo "${small[*]}")" --variant "$(variants_except)"
    [ ${#mid[@]} -eq 0 ] || run "$size" gauss-mid --kernel gauss --radius "$(IFS=,; echo "${mid[*]}")" --variant "$(variants_except "$slow_2d")"
    [ ${#large[@]} -eq 0 ] || run "$size" gauss-large --kernel gauss --radius "$(IFS=,; echo "${large[*]}")" --variant "$(variants_except "$slow_2d")"
  fi
  if [[ ,$parts, == *,box,* ]]; then
    local box_small=() box_large=()
    for r in ${box_radii//,/ }; do
      if [ "$r" -le 16 ]; then box_small+=("$r"); else box_large+=("$r"); fi
    done
    [ ${#box_small[@]} -eq 0 ] || run "$size" box-small --kernel box --radius "$(IFS=,; echo "${box_small[*]}")" --variant "$(variants_except)"
    [ ${#box_large[@]} -eq 0 ] || run "$size" box-large --kernel box --radius "$(IFS=,; echo "${box_large[*]}")" --variant "$(variants_except "$slow_2d")"
  fi
  if [[ ,$parts, == *,map,* ]]; then
    run "$size" map --kernel box,gauss --radius 64 --radius-map ramp --variant copy,variable-naive,variable-sat,variable-pyramid,variable-layers
  fi
}

# docs/results/NAME.json from the reports, its charts, and which rows hold for today's code.
results() {
  local name=$1; shift
  local file=$root/docs/results/$name.json earlier=() report
  # A results file that exists keeps its rows and sources: the new reports' rows come after them and
  # answer for their settings (a partial refresh must not drop what it did not measure again).
  if [ -f "$file" ]; then
    earlier=("$file")
    for report in "$@"; do [ "$(realpath "$report")" = "$(realpath "$file")" ] && earlier=(); done
  fi
  "$python" "$root/docs/tools/results.py" merge "$file" "${earlier[@]}" "$@"
  rm -f "$root/docs/charts/${name}"_*.png
  "$python" "$root/docs/tools/charts.py" "$root/docs/results/$name.json" --out "$root/docs/charts" --log --radius 16 --prefix "${name}_"
  "$python" "$root/docs/tools/results.py" older "$root/docs/results/$name.json"
  echo "now: python3 docs/tools/results.py docs   (the docs' tables drawn from the results files again)"
}

case $1 in
  sweep)
    shift
    [ $# -ge 2 ] || usage
    out=$1
    shift
    [ -d "$out" ] && [ -w "$out" ] || fail "DIR '$out' is not a folder it can write into" 2
    for size in "$@"; do check_size "$size"; done
    for size in "$@"; do sweep "$size"; done
    ;;
  results)
    shift
    [ $# -ge 2 ] || usage
    check_name "$1"
    results "$@"
    ;;
  all)
    [ $# -eq 2 ] || usage
    check_name "$2"
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
    for size in 4096x4096 1920x1080; do sweep "$size"; done
    results "$2" "$out"/*.json
    ;;
  *) usage ;;
esac
