#!/usr/bin/env bash
# The two commands of the README, for a fresh Debian 12 machine (as root):
#   ./run.sh        install what is missing, build (Release), run blurlab: the window when a
#                   display is available, otherwise the headless timing table on the scene,
#                   with the report (out/report.csv, out/report.json) and charts (out/*.png)
#   ./run.sh test   the same set-up, then the whole test suite through CTest
# Arguments after the mode go to blurlab (run) or ctest (test).
set -euo pipefail
cd "$(dirname "$0")"
mode=run
if [ $# -gt 0 ] && { [ "$1" = run ] || [ "$1" = test ]; }; then mode=$1; shift; fi

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
cmake --build build-release -j"$jobs"

case $mode in
  run)
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
      exec build-release/app/blurlab "$@"
    fi
    # No display: the headless timing table, plus the report as CSV/JSON and charts.
    mkdir -p out
    build-release/app/blurlab --headless --csv out/report.csv --json out/report.json "$@"
    python=python3; [ -x /usr/bin/python3 ] && python=/usr/bin/python3  # Debian's, with matplotlib
    "$python" docs/tools/charts.py out/report.json --out out --log > out/charts.txt
    echo
    echo "report: out/report.csv, out/report.json; charts: $(tr '\n' ' ' < out/charts.txt)"
    ;;
  test)
    cd build-release
    exec ctest --output-on-failure -j"$jobs" "$@" ;;
esac
