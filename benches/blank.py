#!/usr/bin/env python3
"""Random-blanked Slitherlink grids for the search benches (issue 25), with fixed seeds.

    benches/blank.py SLINK ROWS COLS GEN_SEED FRACTION BLANK_SEED [GEN_ARGS...]

runs `SLINK gen --rows ROWS --cols COLS --seed GEN_SEED [GEN_ARGS...]` (a puzzle with every
clue given) and prints it as a puzzle stream with FRACTION of its clues replaced by `.`,
the cells drawn by Python's `random.Random(BLANK_SEED)` (the same seeds give the same
puzzle on any machine). Most such puzzles have several solutions. GEN_ARGS pick the loop,
e.g. `--shape blob` (round and compact) or `--shape maze` (long and winding).
"""

import random
import subprocess
import sys


def blank(stream: str, fraction: float, seed: int) -> str:
    lines = stream.splitlines()
    rows, cols = map(int, lines[0].split())
    cells = [line.split() for line in lines[1 : 1 + rows]]
    rng = random.Random(seed)
    places = [(r, c) for r in range(rows) for c in range(cols)]
    for r, c in rng.sample(places, round(fraction * len(places))):
        cells[r][c] = "."
    body = "\n".join(" ".join(row) for row in cells)
    return f"{rows} {cols}\n{body}\n0 0\n"


def main() -> None:
    slink, rows, cols, gen_seed, fraction, blank_seed = sys.argv[1:7]
    gen = [slink, "gen", "--rows", rows, "--cols", cols, "--seed", gen_seed, *sys.argv[7:]]
    stream = subprocess.run(gen, check=True, capture_output=True, text=True).stdout
    sys.stdout.write(blank(stream, float(fraction), int(blank_seed)))


if __name__ == "__main__":
    main()
