#!/usr/bin/env bash
# Packs the GL grid, the image tests and the export round trips for one run on another Linux
# machine with a GPU (and no build tools), with the same test programs and the same CTest lists as
# here, in several builds:
#   normal                                    this checkout's build-release/
#   <each GPU break of tests/mutation/run.sh> a scratch clone of HEAD with that break, built apart
# (a barrier missing between dispatches changes nothing on llvmpipe, which runs one at a time: only
# a GPU can show those tests red). Run it from the project's root; it builds what it packs:
#
#   tests/gpu/pack.sh DIR            every build (about 1 minute on 2 cores with ccache warm, more cold)
#   tests/gpu/pack.sh DIR normal     the normal build only
#
# It fills DIR (docs/tools/pack_device.sh: programs, libraries, GL loaders) with gpu/<build>/,
# each a build tree cut down to the test programs and the CTest files that list their tests, its
# absolute paths made placeholders that tests/gpu/run.sh fills in on the GPU machine, and gpu/<build>/
# test_regex, the CTest regex of the tests that build runs. Copy DIR and this tree to the GPU
# machine; there, from the project's root:
#
#   source DIR/env.sh && tests/gpu/run.sh DIR OUT    runs each build's tests, writes OUT/gpu_summary.txt
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
[ $# -ge 1 ] || { echo "usage: tests/gpu/pack.sh DIR [normal]" >&2; exit 2; }
pack=$1
only=${2:-}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$root")}
jobs=${BUILD_JOBS:-$(nproc)}
# What the grid, image and export tests run: the program, the GL test program and the tools the
# cmake drivers call.
targets=(blurlab blurlab_gl_tests blurlab-compare blurlab-golden blurlab-make-chart blurlab-run-recipe)
glslang=$(command -v glslangValidator) || { echo "pack.sh: glslangValidator (glslang-tools) is needed" >&2; exit 1; }

# Work in build-gpu/ (ignored, kept between runs): the clone beside this checkout's sources in the
# same layout, so that ccache (base dir above the checkout) finds the objects the normal build made
# and only the broken file compiles.
work=$root/build-gpu
stage=$work/stage
rm -rf "$stage" "$work/src" && mkdir -p "$stage/gpu"

build() {  # build SOURCE BUILD_DIR
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
  cmake --build "$2" -j"$jobs" --target "${targets[@]}" >/dev/null
}

# Copies the test programs and the CTest files of BUILD_DIR (built from SOURCE) to gpu/NAME with
# the paths of this machine as @BUILD@, @SOURCE@, @CMAKE@ and @GLSLANG@.
stage_build() {  # stage_build NAME SOURCE BUILD_DIR TEST_REGEX
  local name=$1 source=$2 dir=$3 out=$stage/gpu/$1
  mkdir -p "$out/app" "$out/tests"
  # The programs where the CTest drivers look for them (their generated configs name each one).
  local programs=() p
  for p in $(sed -n "s#^set([A-Z_]* \"$dir/\([^\"]*\)\")#\1#p" "$dir"/tests/*_config.cmake | sort -u); do
    [ -f "$dir/$p" ] && [ -x "$dir/$p" ] && programs+=("$p")
  done
  [ ${#programs[@]} -eq 6 ] || { echo "pack.sh: $dir's test configs name ${#programs[@]} programs" >&2; exit 1; }
  # Stripped (the code is the same, the symbol tables are not needed); a break's program that is
  # the normal build's byte for byte is left out, and run.sh takes the normal one.
  for p in "${programs[@]}"; do
    strip -o "$out/$p" "$dir/$p"
    if [ "$name" != normal ] && cmp -s "$out/$p" "$stage/gpu/normal/$p"; then rm "$out/$p"; fi
  done
  cp "$dir/CTestTestfile.cmake" "$out/"
  cp "$dir"/tests/*.cmake "$out/tests/"
  rm -f "$out/tests/cmake_install.cmake"
  # Only tests/: the fuzz replays and the others below need programs not packed.
  printf 'subdirs("tests")\n' > "$out/CTestTestfile.cmake"
  sed -i '/^subdirs(/d' "$out/tests/CTestTestfile.cmake"
  sed -i -e "s#$dir#@BUILD@#g" -e "s#$source#@SOURCE@#g" -e "s#$(command -v cmake)#@CMAKE@#g" -e "s#$glslang#@GLSLANG@#g" \
    "$out/CTestTestfile.cmake" "$out"/tests/*.cmake
  printf '%s\n' "$4" > "$out/test_regex"
}

if [ -z "$only" ] || [ "$only" = normal ]; then
  echo "gpu pack: normal build (build-release/)"
  build "$root" "$root/build-release"
  stage_build normal "$root" "$root/build-release" '^(gl|image|export)\.'
fi
if [ -z "$only" ]; then
  [ -d "$stage/gpu/normal" ] || { echo "pack.sh: the breaks are packed with the normal build" >&2; exit 2; }
  git clone -q "$root" "$work/src"
  while IFS='|' read -r name file edit tests; do
    echo "gpu pack: $name"
    git -C "$work/src" checkout -q -- .
    (cd "$work/src" && perl -0pi -e "$edit" "$file")
    if git -C "$work/src" diff --quiet; then echo "gpu pack: $name no longer applies to $file: update tests/mutation/run.sh" >&2; exit 1; fi
    build "$work/src" "$work/src/build-$name"
    stage_build "$name" "$work/src" "$work/src/build-$name" "$tests"
  done < <(tests/mutation/run.sh --gpu-list)
fi

# blurlab for its libraries (the test programs link a subset of them), and glslangValidator for
# the export tests' validation of every exported shader.
docs/tools/pack_device.sh "$pack" build-release/app/blurlab "$glslang" "$stage/gpu"
echo "on the GPU machine: source $pack/env.sh && tests/gpu/run.sh $pack OUT"
