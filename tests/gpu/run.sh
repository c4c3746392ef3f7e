#!/usr/bin/env bash
# On the GPU machine, from the project's root, after `source PACK/env.sh` (tests/gpu/pack.sh PACK
# packed it): runs each packed build's tests with ctest, as here, and writes a summary into OUT.
#
#   tests/gpu/run.sh PACK OUT [BUILD...]      default: every build in PACK/gpu/, normal first
#
# Each build gets a share of the time (seconds, environment): NORMAL_S (270) for the normal build,
# BREAK_S (120) for each break; a build cut at its share reports what finished. JOBS: tests at a
# time (default: the cores). ONLY: a CTest regex run instead of every build's own (to try the
# script on a few tests). Writes OUT/gpu_summary.txt (each build: passed, failed, not run, and
# the failed tests' names; for a break, "red" when any test failed, as it must, else "SURVIVED")
# and OUT/gpu_logs.tar.gz (each build's ctest output). Exit code 0 when the normal build passed
# and every break went red.
set -uo pipefail
root=$(pwd)
[ $# -ge 2 ] || { echo "usage: tests/gpu/run.sh PACK OUT [BUILD...]" >&2; exit 2; }
pack=$(cd "$1" 2>/dev/null && pwd) || { echo "run.sh: no folder '$1'" >&2; exit 2; }
out=$2
shift 2
mkdir -p "$out" || exit 2
[ -d "$pack/gpu" ] || { echo "run.sh: no $pack/gpu: pack it with tests/gpu/pack.sh $1 and copy it here" >&2; exit 2; }
cmake_program=$(command -v cmake) || { echo "run.sh: cmake is not on this machine" >&2; exit 2; }
command -v ctest >/dev/null || { echo "run.sh: ctest is not on this machine" >&2; exit 2; }
jobs=${JOBS:-$(nproc)}
# The GL test program runs on llvmpipe unless told otherwise (tests/gl/gl_main.cpp): here, the GPU.
export BLURLAB_TEST_DEVICE=gpu
builds=("$@")
if [ ${#builds[@]} -eq 0 ]; then
  builds=(normal)
  for d in "$pack"/gpu/*/; do d=$(basename "$d"); [ "$d" = normal ] || builds+=("$d"); done
fi
work=/tmp/blurlab-gpu-run
rm -rf "$work" && mkdir -p "$work/logs"
glslang=$pack/bin/glslangValidator
summary=$out/gpu_summary.txt
{
  echo "GPU test run, $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/GPU: /'
} > "$summary"
status=0
for b in "${builds[@]}"; do
  src=$pack/gpu/$b
  [ -f "$src/test_regex" ] || { echo "$b: not packed" >> "$summary"; status=1; continue; }
  # The build tree where its CTest files point: the programs and CTest files, their paths filled in.
  dir=$work/$b
  cp -r "$src" "$dir"
  # A break's programs that are the normal build's were left out when packed.
  for p in "$pack"/gpu/normal/app/* "$pack"/gpu/normal/tests/blurlab*; do
    rel=${p#"$pack"/gpu/normal/}
    [ -e "$dir/$rel" ] || cp "$p" "$dir/$rel"
  done
  sed -i -e "s#@BUILD@#$dir#g" -e "s#@SOURCE@#$root#g" -e "s#@CMAKE@#$cmake_program#g" -e "s#@GLSLANG@#$glslang#g" \
    "$dir/CTestTestfile.cmake" "$dir"/tests/*.cmake
  regex=$(cat "$src/test_regex")
  [ -n "${ONLY:-}" ] && regex=$ONLY
  share=${BREAK_S:-120}
  [ "$b" = normal ] && share=${NORMAL_S:-270}
  log=$work/logs/$b.log
  start=$SECONDS
  echo "== $b: ctest -R '$regex' -j$jobs, at most $share s" | tee -a "$summary"
  (cd "$dir" && timeout -k 10 "$share" ctest -R "$regex" -j"$jobs" --timeout 300 --output-on-failure) > "$log" 2>&1
  code=$?
  listed=$(cd "$dir" && ctest -N -R "$regex" | sed -n 's/^Total Tests: //p')
  # Each finished test's line: Passed, ***Skipped (a case that checked nothing), else a failure
  # (***Failed, ***Timeout, ***Exception, Not Run).
  grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' "$log" > "$work/results_$b" || true
  passed=$(grep -cE ' Passed +[0-9.]+ sec' "$work/results_$b")
  skipped=$(grep -cE '\*\*\*Skipped' "$work/results_$b")
  grep -vE ' Passed +[0-9.]+ sec|\*\*\*Skipped' "$work/results_$b" > "$work/failed_$b" || true
  failed=$(wc -l < "$work/failed_$b")
  cut=""
  [ $code -eq 124 ] || [ $code -eq 137 ] && cut=" (cut at its share of $share s)"
  echo "$b: $passed passed, $failed failed, $skipped skipped, $((listed - passed - failed - skipped)) not run of $listed in $((SECONDS - start)) s$cut" >> "$summary"
  sed -E 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+).*/  failed: \1/' "$work/failed_$b" >> "$summary"
  if [ "$b" = normal ]; then
    [ "$failed" -eq 0 ] && [ -z "$cut" ] || status=1
  elif [ "$failed" -gt 0 ]; then
    echo "$b: red, as a break must be" >> "$summary"
  else
    echo "$b: SURVIVED (no test failed with the break in place)" >> "$summary"
    status=1
  fi
done
tar -czf "$out/gpu_logs.tar.gz" -C "$work" logs
cat "$summary"
exit $status
