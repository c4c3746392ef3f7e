#!/usr/bin/env python3
"""The image tests' two judges at their thresholds (tests/CMakeLists.txt runs it as tools.compare):

- blurlab-compare passes an image that differs from its golden by exactly the tolerance, in any
  channel (alpha too), and fails one a step past it, saying where and writing the difference image;
  at tolerance 0 one step fails. A compare loosened by a step or more goes red here.
- tests/regenerated_test.cmake (the golden.* tests: a committed golden must be what its generator
  makes today) passes a generator that writes the committed image and fails one whose image is one
  step off in one channel of one texel. A regeneration test that accepts any difference goes red.

The images are written here, byte by byte (PNG, RGBA, 8 bits), so neither judge checks itself.

  python3 tests/tools/compare_test.py BLURLAB_COMPARE CMAKE tests/regenerated_test.cmake
  python3 tests/tools/compare_test.py --write OUT.png X Y C STEPS   (the generator the test gives
      regenerated_test.cmake: the base image with texel (X, Y)'s channel C moved by STEPS)
"""
import os
import struct
import subprocess
import sys
import tempfile
import zlib

WIDTH, HEIGHT = 7, 5


def base_image():
    """Values spread over 20..230, so a texel moves up or down by a few steps without clipping."""
    return [[[20 + (x * 31 + y * 17 + c * 53) % 211 for c in range(4)] for x in range(WIDTH)] for y in range(HEIGHT)]


def moved(x, y, c, steps):
    image = base_image()
    image[y][x][c] += steps
    return image


def write_png(path, image):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + bytes(v for texel in row for v in texel) for row in image)
    header = struct.pack(">IIBBBBB", len(image[0]), len(image), 8, 6, 0, 0, 0)  # 8 bits, RGBA
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


if sys.argv[1] == "--write":
    out, x, y, c, steps = sys.argv[2], *map(int, sys.argv[3:7])
    write_png(out, moved(x, y, c, steps))
    sys.exit(0)

COMPARE, CMAKE, REGENERATED = sys.argv[1:4]
failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


with tempfile.TemporaryDirectory() as tmp:
    golden = os.path.join(tmp, "golden.png")
    write_png(golden, base_image())

    # blurlab-compare: every channel, both directions, at the tolerance and one step past it.
    for tolerance in (0, 1, 2, 5):
        for c in range(4):
            for steps in (tolerance, tolerance + 1):
                if steps == 0:
                    continue
                sign = -1 if c % 2 else 1
                actual = os.path.join(tmp, f"actual_t{tolerance}_c{c}_{steps}.png")
                diff = os.path.join(tmp, f"diff_t{tolerance}_c{c}_{steps}.png")
                write_png(actual, moved(4, 2, c, sign * steps))
                done = subprocess.run([COMPARE, actual, golden, "--tolerance", str(tolerance), "--diff", diff],
                                      capture_output=True, text=True)
                what = f"channel {c} off by {steps} step(s) against tolerance {tolerance}"
                if steps <= tolerance:
                    expect(done.returncode == 0, f"{what}: compare failed it (exit {done.returncode}): {done.stderr}")
                    expect(f"largest difference {steps} LSB" in done.stdout, f"{what}: {done.stdout}")
                    expect(not os.path.exists(diff), f"{what}: a passing compare wrote a difference image")
                else:
                    expect(done.returncode == 1, f"{what}: compare passed it (exit {done.returncode}): {done.stdout}")
                    expect(f"by up to {steps} LSB" in done.stderr and "at (4,2)" in done.stderr,
                           f"{what}: the failure does not say how far and where: {done.stderr}")
                    expect(os.path.exists(diff), f"{what}: no difference image")
    # Equal images pass at tolerance 0; another size fails whatever the tolerance.
    done = subprocess.run([COMPARE, golden, golden, "--tolerance", "0"], capture_output=True, text=True)
    expect(done.returncode == 0, f"an image against itself: exit {done.returncode}")
    small = os.path.join(tmp, "small.png")
    write_png(small, [row[:-1] for row in base_image()])
    done = subprocess.run([COMPARE, small, golden, "--tolerance", "255"], capture_output=True, text=True)
    expect(done.returncode == 1 and "is 6x5 but the golden" in done.stderr, f"another size passed: {done.stderr}")

    # regenerated_test.cmake: the generator's image must equal the committed one bit for bit.
    def regenerate(steps):
        out = os.path.join(tmp, f"regenerated_{steps}.png")
        generate = ";".join([sys.executable, os.path.abspath(__file__), "--write", out, "3", "1", "2", str(steps)])
        return subprocess.run([CMAKE, f"-DGENERATE={generate}", f"-DCOMPARE={COMPARE}", f"-DEXPECTED={golden}", f"-DOUT={out}",
                               "-P", REGENERATED], capture_output=True, text=True)
    done = regenerate(0)
    expect(done.returncode == 0, f"the regeneration test failed the committed image itself: {done.stderr}")
    for steps in (1, -1, 200):
        done = regenerate(steps)
        expect(done.returncode != 0 and "is not what" in done.stderr,
               f"the regeneration test passed a generator {steps} step(s) off the committed image: {done.stdout}{done.stderr}")

for failure in failures:
    print("FAIL:", failure)
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
