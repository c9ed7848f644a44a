#!/usr/bin/env python3
"""Whole-process CPU time of slink binaries on one input, runs interleaved, one core.

    benches/cpu-time.py RUNS FILE BINARY...

Each round runs every BINARY once with FILE on standard input and its output thrown away,
in turn, so that a change in the machine's load falls on all of them alike. The process is
started with posix_spawn (no fork of this script's memory), pinned to one core (the last
one, with its threads: "one core" as the speed goals of the README count), and timed by
the CPU time (user + system) the kernel reports for it and its threads, and by the wall
clock. Prints each binary's median of both, and each median's ratio to the first binary's.
A binary that exits non-zero stops the measurement.
"""

import os
import statistics
import sys
import time


def main() -> int:
    if len(sys.argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    runs, path, binaries = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    core = max(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    cpu = {b: [] for b in binaries}
    wall = {b: [] for b in binaries}
    for _ in range(runs):
        for binary in binaries:
            stdin = os.open(path, os.O_RDONLY)
            stdout = os.open(os.devnull, os.O_WRONLY)
            start = time.perf_counter()
            pid = os.posix_spawn(
                binary,
                [binary],
                os.environ,
                file_actions=[
                    (os.POSIX_SPAWN_DUP2, stdin, 0),
                    (os.POSIX_SPAWN_DUP2, stdout, 1),
                ],
            )
            _, status, usage = os.wait4(pid, 0)
            end = time.perf_counter()
            os.close(stdin)
            os.close(stdout)
            if os.waitstatus_to_exitcode(status) != 0:
                print(f"{binary} exited with {status} on {path}", file=sys.stderr)
                return 1
            cpu[binary].append(usage.ru_utime + usage.ru_stime)
            wall[binary].append(end - start)
    first = binaries[0]
    base_cpu, base_wall = statistics.median(cpu[first]), statistics.median(wall[first])
    print(f"{path}: {runs} runs each, core {core}, medians")
    for binary in binaries:
        c, w = statistics.median(cpu[binary]), statistics.median(wall[binary])
        print(
            f"  {binary}: CPU {c * 1000:.2f} ms ({c / base_cpu:.3f}), "
            f"wall {w * 1000:.2f} ms ({w / base_wall:.3f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
