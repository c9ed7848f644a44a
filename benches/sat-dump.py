#!/usr/bin/env python3
"""Other SAT solvers on an instance that slink dumped (issue 25; docs/search.md, fifth round).

    SLINK_SAT_DUMP=g.cnf slink --jobs 1 g.in > /dev/null
    benches/sat-dump.py g.cnf g.in WIDTH SOLVER...

solves the dumped instance (the clue, dot and colour clauses, without the loop theory: the
first round of the lazy loop only) with each named solver of the `python-sat` package
(minisat22, cadical153, cadical195, glucose4, maplechrono, ...), first as it is, then with
the parity equations of the clues and decided edges (each clue fixes the sum mod 2 of its
four neighbours' colours) reduced by Gauss-Jordan elimination over the whole grid and the
rows over at most WIDTH cells added as clauses. Prints CPU seconds and conflicts.
"""

import itertools
import sys
import time

from pysat.solvers import Solver


def main() -> None:
    cnf, puz, maxw = sys.argv[1], sys.argv[2], int(sys.argv[3])
    cells, clauses = {}, []
    for line in open(cnf):
        if line.startswith("c cell"):
            _, _, v, y, x, f = line.split()
            cells[(int(y), int(x))] = (int(v), f == "1")
        elif line[0] not in "cp":
            clauses.append([int(t) for t in line.split()[:-1]])
    cellvars = {v for v, _ in cells.values()}
    y0 = min(y for y, _ in cells)
    x0 = min(x for _, x in cells)
    lines = open(puz).read().split("\n")
    rows, cols = map(int, lines[0].split())
    grid = [line.split() for line in lines[1 : 1 + rows]]
    vmin = min(cellvars)
    # An equation: bit 0 the sum, bit (v - vmin + 1) for variable v.
    eqs = []
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] == ".":
                continue
            row = int(grid[r][c]) % 2
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                cell = (2 * (r + dr) + y0, 2 * (c + dc) + x0)
                if cell in cells:
                    v, f = cells[cell]
                    row ^= (1 << (v - vmin + 1)) | int(f)
            eqs.append(row)
    pairs = {}
    for cl in clauses:
        if not all(abs(t) in cellvars for t in cl):
            continue
        if len(cl) == 1:
            eqs.append((1 << (abs(cl[0]) - vmin + 1)) | int(cl[0] > 0))
        elif len(cl) == 2:
            a, b = sorted(cl, key=abs)
            pairs.setdefault((abs(a), abs(b)), set()).add((a > 0, b > 0))
    for (a, b), signs in pairs.items():
        bits = (1 << (a - vmin + 1)) | (1 << (b - vmin + 1))
        if signs == {(True, True), (False, False)}:
            eqs.append(bits | 1)
        elif signs == {(True, False), (False, True)}:
            eqs.append(bits)
    t = time.process_time()
    piv = {}
    for row in eqs:
        while row >> 1:
            p = (row >> 1).bit_length()
            if p not in piv:
                piv[p] = row
                break
            row ^= piv[p]
    keys = sorted(piv)
    for i, p in enumerate(keys):
        for q in keys[i + 1 :]:
            if piv[q] & (1 << p):
                piv[q] ^= piv[p]
    extra = []
    for row in piv.values():
        vs = [i + vmin - 1 for i in range(1, (row >> 1).bit_length() + 1) if (row >> i) & 1]
        if len(vs) > maxw:
            continue
        for signs in itertools.product((0, 1), repeat=len(vs)):
            if sum(signs) % 2 != row & 1:
                extra.append([v if s == 0 else -v for v, s in zip(vs, signs)])
    print(f"{len(eqs)} equations, rank {len(piv)}, {len(extra)} parity clauses "
          f"({time.process_time() - t:.1f} s)")
    for name in sys.argv[4:]:
        for tag, cls in (("plain", clauses), ("parity", clauses + extra)):
            t = time.process_time()
            s = Solver(name=name, bootstrap_with=cls)
            sat = s.solve()
            conflicts = s.accum_stats().get("conflicts")
            print(f"{name} {tag}: {sat}, {time.process_time() - t:.2f} s, {conflicts} conflicts",
                  flush=True)


if __name__ == "__main__":
    main()
