#!/usr/bin/env python3
"""cli.print_kernel: `blurlab --print-kernel` prints the 2r+1 weights the blurs use; each case is
checked against weights computed here from their definition (the box: 1/(2r+1); the Gaussian: the
normal density integrated over each texel, taps to r, normalized), not from blurlab's code.
usage: print_kernel_test.py BLURLAB"""
import math
import subprocess
import sys


def gaussian(radius, sigma):
    phi = lambda x: 0.5 * (1.0 + math.erf(x / (sigma * math.sqrt(2.0))))
    w = [phi(i + 0.5) - phi(i - 0.5) for i in range(-radius, radius + 1)]
    total = math.fsum(w)
    return [v / total for v in w]


CASES = [  # arguments, expected weights
    (["--kernel", "box", "--radius", "2"], [0.2] * 5),
    (["--kernel", "box", "--radius", "0"], [1.0]),
    (["--sigma", "2"], gaussian(6, 2.0)),  # r = ceil(3 sigma)
    (["--radius", "5", "--sigma", "1.3"], gaussian(5, 1.3)),
    (["--radius", "9"], gaussian(9, 3.0)),  # sigma = r / 3
    (["--sigma", "0.5"], gaussian(2, 0.5)),
]


def main():
    blurlab = sys.argv[1]
    failures = 0
    for args, expected in CASES:
        run = subprocess.run([blurlab, "--print-kernel", *args], capture_output=True, text=True, check=False)
        printed = [float(v) for v in run.stdout.split()]
        problem = None
        if run.returncode != 0 or run.stderr:
            problem = f"exit {run.returncode}, stderr {run.stderr!r}"
        elif len(printed) != len(expected):
            problem = f"{len(printed)} weights, expected {len(expected)}"
        else:
            worst = max(abs(p - e) / e for p, e in zip(printed, expected))
            if worst > 1e-12:  # both in double; erf and the summation order differ in the last bits
                problem = f"relative error {worst:.3g} (printed {printed}, expected {expected})"
        if problem:
            failures += 1
            print(f"--print-kernel {' '.join(args)}: {problem}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
