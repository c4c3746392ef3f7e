#!/usr/bin/env python3
"""Checks `blurlab --dump-programs` and docs/tools/program_dump.py (tests/CMakeLists.txt runs it as
report.program_dump): a run writes one dump per compiled program, each headed by its shader and the
defines it was compiled from (compute-separable-regblock's at r = 3 unrolls its taps, at r = 30
streams them, as its defaults by radius say); a dump in a folder that already holds files is
refused before any work; program_dump.py counts a made-up NVIDIA dump's instructions, multiply-adds,
registers, local memory and loops, and takes bad input as blurlab does (a FIFO or /dev/zero among the
dumps, a bad option: one line, an exit code).

  python3 tests/tools/program_dump_test.py docs/tools/program_dump.py build-release/app/blurlab
"""
import os
import subprocess
import sys
import tempfile

TOOL, BLURLAB = sys.argv[1], sys.argv[2]
failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


NV_DUMP = """# shaders: compute_separable_regblock.comp
# defines: RADIUS=90 BORDER=BORDER_CLAMP WG_X=64 LINES=4 BLOCK_X=6 STREAM_TAPS=0
# binary: format 0x8e21, 100 bytes; its printable runs follow
!!NVcp5.0
GROUP_SIZE 64;
TEMP R0, R1, R2;
TEMP lmem0[181], lmem1[4];
MOV.F lmem0[0].x, {0.1, 0, 0, 0};
REP.S {29, 0, 0, 0};
MAD.F R0, R1, R2, R0;
MAD.F R0, R1, R2.y, R0;
LDS.U32 R1.x, shared_mem[R2.x];
ENDREP;
END
"""

with tempfile.TemporaryDirectory() as tmp:
    dumps = os.path.join(tmp, "dumps")
    run = subprocess.run([BLURLAB, "--headless", "--variant", "compute-separable-regblock", "--kernel", "gauss", "--radius", "3,30",
                          "--size", "19x7", "--frames", "1", "--warmup", "0", "--dump-programs", dumps],
                         capture_output=True, text=True)
    expect(run.returncode == 0, f"blurlab --dump-programs failed: {run.stderr}")
    files = sorted(os.listdir(dumps)) if os.path.isdir(dumps) else []
    expect(f"wrote {len(files)} program dumps to {dumps}" in run.stdout, f"the run does not say what it wrote: {run.stdout[-300:]}")
    regblock = [f for f in files if f.endswith("_compute_separable_regblock.txt")]
    heads = [open(os.path.join(dumps, f)).read(4096) for f in regblock]
    expect(any("RADIUS=3 " in h and "STREAM_TAPS=0" in h for h in heads), "no dump of the r = 3 program with unrolled taps")
    expect(any("RADIUS=30 " in h and "STREAM_TAPS=1" in h for h in heads), "no dump of the r = 30 program with streamed taps")
    expect(all(h.startswith("# shaders: compute_separable_regblock.comp\n# defines: ") for h in heads), "a dump lacks its header")
    expect(all(f[:3].isdigit() for f in files) and len(set(f[:3] for f in files)) == len(files), "dumps are not numbered apart")

    # A folder that is a file is refused before any work, with one line on stderr.
    not_a_folder = os.path.join(tmp, "file")
    open(not_a_folder, "w").close()
    refused = subprocess.run([BLURLAB, "--headless", "--variant", "copy", "--size", "8x8", "--frames", "1", "--dump-programs", not_a_folder],
                             capture_output=True, text=True)
    expect(refused.returncode != 0 and refused.stderr.count("\n") == 1 and "--dump-programs" in refused.stderr,
           f"a file as --dump-programs was not refused in one line: {refused.returncode} {refused.stderr!r}")

    made_up = os.path.join(tmp, "nv")
    os.mkdir(made_up)
    with open(os.path.join(made_up, "020_compute_separable_regblock.txt"), "w") as f:
        f.write(NV_DUMP)
    table = subprocess.run([sys.executable, TOOL, made_up], capture_output=True, text=True)
    expect(table.returncode == 0, f"program_dump.py failed: {table.stderr}")
    rows = [line for line in table.stdout.splitlines() if line.startswith("| 020_")]
    expect(rows == ["| 020_compute_separable_regblock.txt | RADIUS=90 WG_X=64 LINES=4 BLOCK_X=6 STREAM_TAPS=0 | 6 | 2 | 1 | 3 | 185 | 1 |"],
           f"program_dump.py's counts are wrong: {rows}")
    kept = subprocess.run([sys.executable, TOOL, made_up, "--grep", "RADIUS=64"], capture_output=True, text=True)
    expect(not [line for line in kept.stdout.splitlines() if line.startswith("| 020_")], "--grep kept a dump that does not match")

    # Bad input as blurlab takes it: a FIFO or a link to /dev/zero among the dumps is one line and
    # exit 1 (a FIFO hung it, /dev/zero grew it without end), a bad option one line and exit 2.
    def refused(args, code, message, what):
        try:
            done = subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True, timeout=20)
        except subprocess.TimeoutExpired:
            return expect(False, f"{what}: hung")
        expect(done.returncode == code and done.stderr.startswith("program_dump.py: ") and done.stderr.count("\n") == 1
               and "Traceback" not in done.stderr and message in done.stderr,
               f"{what}: exit {done.returncode}, stderr {done.stderr[-300:]!r}")
    special = os.path.join(tmp, "special")
    os.mkdir(special)
    os.mkfifo(os.path.join(special, "010_fifo.txt"))
    refused([special], 1, "cannot read a dump '" + os.path.join(special, "010_fifo.txt") + "': it is a FIFO", "a FIFO among the dumps")
    os.remove(os.path.join(special, "010_fifo.txt"))
    os.symlink("/dev/zero", os.path.join(special, "011_zero.txt"))
    refused([special], 1, "it is a character device, not a regular file", "/dev/zero among the dumps")
    refused([made_up, "--frobnicate"], 2, "unrecognized arguments: --frobnicate", "an unknown option")

print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
