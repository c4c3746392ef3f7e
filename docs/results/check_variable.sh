#!/usr/bin/env bash
# The variable-radius blurs' correctness on a GPU: every variable-radius variant against the per-pixel CPU
# reference at odd sizes, every border mode, rgba8 and rgba16f, box and Gaussian, the built-in maps
# and a 16-bit grey PNG map of another size. docs/PERFORMANCE.md ("Correctness on the GPU") says what it found.
#
#   docs/results/check_variable.sh map FILE.png   here: writes the 311x197 16-bit map the run reads
#   docs/results/check_variable.sh run [MAP.png]   on the GPU: the checks, one line per group
#
# On another Linux machine with a GPU: make the map into the pack's folder after
# docs/tools/pack_device.sh pack ..., copy both over, and there run
# `source pack/env.sh && docs/results/check_variable.sh run pack/map16.png`. Each group is one
# blurlab run with --check: it exits 1 if any run exceeds its tolerance, and says below its table
# where and by how much. Expected refusals: variable-sat with the Gaussian (a box kernel only), 10
# per image size.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
blurlab=${BLURLAB:-}
[ -n "$blurlab" ] || { [ -x "$root/build-release/app/blurlab" ] && blurlab=$root/build-release/app/blurlab || blurlab=blurlab; }

make_map() {  # a grey 16-bit PNG whose levels cover 0..65535 in smooth waves
  python3 - "$1" <<'PY'
import math, struct, sys, zlib
w, h = 311, 197
rows = b"".join(b"\0" + b"".join(struct.pack(">H", int(65535 * (0.5 + 0.5 * math.sin(x * 0.07) * math.cos(y * 0.05))))
                                  for x in range(w)) for y in range(h))
def chunk(kind, data): return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, 0, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
open(sys.argv[1], "wb").write(png)
PY
}

failed=0
group() {  # map R sizes
  local start=$SECONDS out
  out=$("$blurlab" --headless --check --frames 0 --variant variable-naive,variable-sat,variable-pyramid,variable-layers \
        --radius-map "$1" --radius "$2" --kernel box,gauss --border clamp,reflect,reflect101,wrap,constant \
        --border-value 1,0.5,0,1 --input-format rgba8,rgba16f --size "$3" 2>&1)
  local rc=$?
  echo "map $1, R $2, sizes $3: rc $rc, $(grep -c ' ok ' <<<"$out") checked ok, $(grep -c '^variable-[a-z]* .* n/a' <<<"$out") refused, $((SECONDS - start)) s"
  [ $rc = 0 ] || { failed=1; sed -n '/Runs over their tolerance/,$p' <<<"$out"; }
}

case "${1:-}" in
  map) [ $# = 2 ] || { echo "usage: $0 map FILE.png" >&2; exit 2; }; make_map "$2" ;;
  run)
    group ramp 64 1021x1019,517x263,1x1
    [ -n "${2:-}" ] && group "$2" 64 517x263,33x17
    group band 64 517x263,1x1
    group circle 64 517x263,1x1
    group ramp 5 517x263,33x17
    group circle 5 517x263,33x17
    exit $failed ;;
  *) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
