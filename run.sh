#!/usr/bin/env bash
# The two commands of the README, for a fresh Debian 12 machine (as root). ./run.sh --help says how.
set -euo pipefail
cd "$(dirname "$0")"

usage() {
  cat <<'USAGE'
usage: ./run.sh [run] [BLURLAB ARGS...]   install what is missing, build (Release), run blurlab: the window
                                         when a display is available, else the headless timing table on the
                                         scene and the report page out/report.md (with its charts, CSV, JSON)
       ./run.sh test [CTEST ARGS...]     the same set-up, then the test suite's first tier through CTest
                                         (ctest -LE full: one case of every variant, every unit, CLI and
                                         bad-input test; tests/tiers.cmake says what it keeps)
       ./run.sh test --full [CTEST ARGS...]  the same with both tiers: every radius, border mode and knob
                                         of every variant, every image and export case, the long runs
       ./run.sh --help                   this text (blurlab's own options: ./run.sh run --help)
On Debian 12, as root, it installs the packages it needs with apt-get.
USAGE
}

mode=run
case ${1:-} in
  -h|--help) usage; exit 0 ;;
  run|test) mode=$1; shift ;;
esac
tier=(-LE full)  # the first tier (tests/tiers.cmake)
if [ "$mode" = test ] && [ "${1:-}" = --full ]; then
  tier=()
  shift
fi

packages=(build-essential cmake pkg-config
          libglfw3-dev libepoxy-dev libglm-dev libpng-dev libjpeg62-turbo-dev libgtest-dev googletest libimgui-dev
          libcli11-dev nlohmann-json3-dev zlib1g-dev
          libegl1 libegl-dev libgl1 libegl-mesa0 libgl1-mesa-dri libglx-mesa0
          xvfb xauth python3 python3-matplotlib glslang-tools)
missing=()
for p in "${packages[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "run.sh: missing Debian packages: ${missing[*]} (run as root, or install them)" >&2
    exit 1
  fi
  echo "run.sh: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

jobs=$(nproc)
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release >/dev/null
# Build what the mode runs: the program (and the runner of the blurs it exports) for a run, the test
# programs too for the tests.
if [ "$mode" = run ]; then
  [ -x build-release/app/blurlab ] || echo "run.sh: building blurlab (how long a first build takes: README.md, \"The two commands\")"
  cmake --build build-release -j"$jobs" --target blurlab blurlab-run-recipe
else
  [ -x build-release/tests/blurlab_unit_tests ] ||
    echo "run.sh: building blurlab and its test programs before any test runs (how long: README.md, \"The two commands\")"
  cmake --build build-release -j"$jobs"
fi

case $mode in
  run)
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
      exec build-release/app/blurlab "$@"
    fi
    for arg in "$@"; do  # blurlab only prints something: no report
      case $arg in -h|--help|--list-variants|--print-kernel) exec build-release/app/blurlab "$@" ;; esac
    done
    # No display: the headless timing table, and the report page with its charts (blurlab runs
    # its copy of docs/tools/charts.py with Debian's python3, which has python3-matplotlib).
    [ -x /usr/bin/python3 ] && export BLURLAB_PYTHON=${BLURLAB_PYTHON:-/usr/bin/python3}
    build-release/app/blurlab --headless --report out "$@"
    echo
    echo "run.sh: the report to share is out/report.md (its charts and data are beside it in out/)"
    ;;
  test)
    cd build-release
    exec ctest --output-on-failure -j"$jobs" "${tier[@]}" "$@" ;;
esac
