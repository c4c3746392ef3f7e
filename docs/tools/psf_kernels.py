#!/usr/bin/env python3
"""The kernel images bloom's fft-2d ships (assets/psf_*.png), made here, not drawn.

  python3 docs/tools/psf_kernels.py OUT_DIR        writes psf_star.png and psf_disk.png into OUT_DIR
  python3 docs/tools/psf_kernels.py --check DIR    exits 1 unless DIR's files hold exactly the
                                                   pixels this script makes (the test suite runs it)

Both are 16-bit grey PNGs of 255 x 255 pixels (odd: the centre, the PSF's origin, is pixel 127's),
linear weights (bloom normalises them to a sum of 1; a PSF is data, not a picture):

  psf_star   a lens's point-spread function with a 6-bladed aperture: a sharp core (a Gaussian of
             sigma 1.2 px), a wide faint skirt (1 / (1 + (r / 6)^2)^1.5, 3% of the core's peak) and
             six blades (three lines through the centre at 0, 60 and 120 degrees, each a Gaussian of
             sigma 0.8 px across, fading as e^(-r / 45), 25% of the core's peak)
  psf_disk   a soft disk (a defocused lens's bokeh): 1 inside radius 90 px, falling to 0 at 110 px
             along a half cosine

Each is multiplied by a window, cos^2(pi r / 254) (0 at the image's inscribed circle), so nothing is
cut off at the image's edge, then scaled so that its largest value is 65535. Standard library only.
"""
import math
import struct
import sys
import zlib

SIZE = 255
CENTRE = SIZE // 2


def window(r):
    return math.cos(math.pi * r / (2 * CENTRE)) ** 2 if r < CENTRE else 0.0


def star(x, y):
    dx, dy = x - CENTRE, y - CENTRE
    r = math.hypot(dx, dy)
    core = math.exp(-r * r / (2 * 1.2 ** 2))
    skirt = 0.03 / (1 + (r / 6) ** 2) ** 1.5
    blades = 0.0
    for k in range(3):
        angle = math.pi * k / 3
        across = -dx * math.sin(angle) + dy * math.cos(angle)  # distance from the blade's line
        blades += 0.25 * math.exp(-across * across / (2 * 0.8 ** 2)) * math.exp(-r / 45)
    return (core + skirt + blades) * window(r)


def disk(x, y):
    r = math.hypot(x - CENTRE, y - CENTRE)
    if r <= 90:
        edge = 1.0
    elif r >= 110:
        edge = 0.0
    else:
        edge = 0.5 + 0.5 * math.cos(math.pi * (r - 90) / 20)
    return edge * window(r)


KERNELS = {"psf_star.png": star, "psf_disk.png": disk}


def pixels(shape):
    values = [[shape(x, y) for x in range(SIZE)] for y in range(SIZE)]
    peak = max(max(row) for row in values)
    return [[int(round(v / peak * 65535)) for v in row] for row in values]


def raw_rows(grid):
    """The PNG's image data before compression: a filter byte (0, none) and big-endian 16-bit values per row."""
    return b"".join(b"\x00" + b"".join(struct.pack(">H", v) for v in row) for row in grid)


def png(grid):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", SIZE, SIZE, 16, 0, 0, 0, 0)  # 16-bit grey, no interlace
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw_rows(grid), 9)) + chunk(b"IEND", b"")


def stored_rows(data):
    """The raw rows of a PNG this script wrote (IDAT decompressed), or None if it is not one."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    at, idat, header = 8, b"", None
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I", data[at:at + 4])[0], data[at + 4:at + 8]
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    if header != struct.pack(">IIBBBBB", SIZE, SIZE, 16, 0, 0, 0, 0):
        return None
    return zlib.decompress(idat)


def main(args):
    if len(args) == 2 and args[0] == "--check":
        wrong = [name for name, shape in KERNELS.items() if stored_rows(open(f"{args[1]}/{name}", "rb").read()) != raw_rows(pixels(shape))]
        for name in wrong:
            print(f"{args[1]}/{name} is not what docs/tools/psf_kernels.py makes: run it to remake the file", file=sys.stderr)
        return 1 if wrong else 0
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    for name, shape in KERNELS.items():
        with open(f"{args[0]}/{name}", "wb") as out:
            out.write(png(pixels(shape)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
