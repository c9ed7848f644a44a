#!/usr/bin/env python3
"""CPU seconds of `slink gen --blanks --minimal` per seed, binaries interleaved.

    benches/gen-cpu.py N SEEDS RUNS BINARY... [-- ARG...]

For each of RUNS rounds and each seed (`1-8` or `1,3,8`), runs every BINARY in turn with
`gen --rows N --cols N --blanks --minimal --seed S -j 1`, output thrown away, and takes the
CPU time (user + system) the kernel reports for it. Prints a table: per binary and seed the
median over the rounds, and the mean over the seeds; then the same for the wall time.
Interleaving lets a change in the machine's load fall on every binary alike. A binary that
exits non-zero stops the run. Arguments after `--` replace `-j 1` (`-- -j 2`).
"""

import os
import statistics
import sys
import time


def seeds_of(text):
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(s) for s in text.split(",")]


def cpu_of(binary, n, seed, extra):
    """The CPU and wall seconds of one run."""
    args = [binary, "gen", "--rows", str(n), "--cols", str(n), "--blanks", "--minimal",
            "--seed", str(seed)] + extra
    out = os.open(os.devnull, os.O_WRONLY)
    start = time.monotonic()
    pid = os.posix_spawn(binary, args, os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, out, 1)])
    os.close(out)
    _, status, usage = os.wait4(pid, 0)
    wall = time.monotonic() - start
    if status != 0:
        sys.exit(f"{binary} failed on seed {seed}")
    return usage.ru_utime + usage.ru_stime, wall


def table(what, binaries, seeds, times):
    print(f"| {what} | " + " | ".join(str(s) for s in seeds) + " | mean |")
    print("| --- " * (len(seeds) + 2) + "|")
    for b in binaries:
        med = [statistics.median(times[(b, s)]) for s in seeds]
        cells = " | ".join(f"{m:.2f}" for m in med)
        print(f"| {b} | {cells} | {statistics.mean(med):.2f} |")


def main():
    argv, extra = sys.argv, ["-j", "1"]
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], argv[cut + 1:]
    if len(argv) < 5:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    n, seeds, runs = int(argv[1]), seeds_of(argv[2]), int(argv[3])
    binaries = argv[4:]
    cpu = {(b, s): [] for b in binaries for s in seeds}
    wall = {(b, s): [] for b in binaries for s in seeds}
    for _ in range(runs):
        for s in seeds:
            for b in binaries:
                c, w = cpu_of(b, n, s, extra)
                cpu[(b, s)].append(c)
                wall[(b, s)].append(w)
    table("CPU s", binaries, seeds, cpu)
    print()
    table("wall s", binaries, seeds, wall)
    return 0


if __name__ == "__main__":
    sys.exit(main())
