#!/usr/bin/env python3
"""What the driver compiled blurlab's programs into, one line per program, from a folder that
`blurlab --headless ... --dump-programs DIR` wrote.

  python3 docs/tools/program_dump.py DIR [--define NAME,NAME,...] [--grep TEXT]

Each dump is the driver's program binary as text (gl/program_dump.h). NVIDIA's driver keeps its
assembly there (NV_gpu_program5: `TEMP R0, R1, ...;` the registers it asks for, `TEMP lmem0[N];`
arrays in local memory, `REP`/`ENDREP` and `BRA` for loops that stayed loops, one instruction a
line), so this table says, without timing anything, which settings unrolled their sums, which put
an array in local memory and how many instructions each kind of work takes:

  file       the dump
  defines    the values of the defines named by --define (default: RADIUS and the regblock knobs)
  instr      instructions (lines of the assembly that are one)
  fma        multiply-adds (MAD, FMA), the blur's arithmetic
  shared     shared-memory loads and stores (LDS, STS)
  temps      registers the program declares (TEMP names, arrays excluded)
  lmem       words of local memory (TEMP lmemN[size] summed): 0 unless an array was indexed at run time
  loops      REP and backward-branch loops left in the program

A dump with no assembly text (Mesa's binaries hold names, not code) counts zeros. --grep keeps
the dumps whose defines line holds TEXT (e.g. --grep RADIUS=90).
"""
import os
import re
import sys

from tool_io import ArgumentParser, fail, read_text, run_tool  # beside this file: blurlab's file and message rules

DEFAULT_DEFINES = "RADIUS,WG_X,LINES,BLOCK_X,TILES,CACHE_BITS,WEIGHTS_CONST,STREAM_TAPS"

INSTRUCTION = re.compile(r"^\s*([A-Z][A-Z0-9]*)(\.[A-Z0-9_.]+)?(\s|;)")
NOT_INSTRUCTIONS = {"TEMP", "OPTION", "PARAM", "ATTRIB", "OUTPUT", "SHARED", "SHARED_MEMORY", "GROUP_SIZE", "CBUFFER",
                    "BUFFER", "BUFFER4", "IMAGE", "TEXTURE", "END", "MAIN", "LONG", "SHORT", "INT", "UINT", "FLOAT"}
LMEM = re.compile(r"\blmem\d+\s*\[\s*(\d+)\s*\]")


# A dump is the driver's program as text: NVIDIA's of a large unrolled program run to a few MiB.
MAX_DUMP_BYTES = 64 << 20


def parse(text):
    lines = text.splitlines()
    defines = {}
    for line in lines:
        if line.startswith("# defines:"):
            for item in re.findall(r"(\w+)=([^ ]*)", line[len("# defines:"):]):
                defines.setdefault(item[0], item[1])
    counts = {"instr": 0, "fma": 0, "shared": 0, "temps": 0, "lmem": 0, "loops": 0}
    for line in lines:
        if line.startswith("#"):
            continue
        stripped = line.strip()
        if stripped.startswith("TEMP "):
            declared = stripped[len("TEMP "):].rstrip(";")
            for name in declared.split(","):
                name = name.strip()
                array = LMEM.search(name)
                if array:
                    counts["lmem"] += int(array.group(1))
                elif name and "[" not in name:
                    counts["temps"] += 1
            continue
        m = INSTRUCTION.match(line)
        if not m or m.group(1) in NOT_INSTRUCTIONS:
            continue
        op = m.group(1)
        counts["instr"] += 1
        if op in ("MAD", "FMA", "FFMA"):
            counts["fma"] += 1
        elif op in ("LDS", "STS"):
            counts["shared"] += 1
        elif op == "REP":
            counts["loops"] += 1
        elif op == "BRA" and re.search(r"\bBRA\S*\s+\w*LOOP|\bBRA\S*\s+L\d+", line):
            counts["loops"] += 1
    return defines, counts


def main():
    parser = ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir")
    parser.add_argument("--define", default=DEFAULT_DEFINES)
    parser.add_argument("--grep", default="")
    args = parser.parse_args()
    if not os.path.isdir(args.dir):
        fail(f"'{args.dir}' is not a folder of dumps (blurlab --dump-programs DIR)")
    names = [n.strip() for n in args.define.split(",") if n.strip()]
    rows = []
    for file in sorted(os.listdir(args.dir)):
        if not file.endswith(".txt"):
            continue
        path = os.path.join(args.dir, file)
        # Each one a regular file, read bounded (read_text): a FIFO or a link to /dev/zero is refused.
        text = read_text(path, "a dump", MAX_DUMP_BYTES)
        if args.grep and args.grep not in text[:4096]:
            continue
        defines, counts = parse(text)
        shown = " ".join(f"{n}={defines[n]}" for n in names if n in defines)
        rows.append([file, shown] + [str(counts[k]) for k in ("instr", "fma", "shared", "temps", "lmem", "loops")])
    header = ["file", "defines", "instr", "fma", "shared", "temps", "lmem", "loops"]
    print("| " + " | ".join(header) + " |")
    print("| " + " | ".join("---" for _ in header) + " |")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    sys.exit(run_tool("program_dump.py", main))
