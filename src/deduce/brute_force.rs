//! Test support: every single loop of a small grid by brute force, to check deducers against every answer.

/// The lines of every single loop on a `rows` x `cols` grid, found by brute force over
/// the colourings of its cells (a loop is the boundary of the inside), as doubled-grid
/// points of the line edges.
pub fn loops(rows: usize, cols: usize) -> Vec<Vec<(usize, usize)>> {
    let mut all = Vec::new();
    for mask in 1u32..1 << (rows * cols) {
        let inside = |r: isize, c: isize| {
            r >= 0
                && c >= 0
                && (r as usize) < rows
                && (c as usize) < cols
                && mask >> (r as usize * cols + c as usize) & 1 == 1
        };
        let mut lines = Vec::new();
        for y in 0..=2 * rows {
            for x in 0..=2 * cols {
                let (a, b) = match (y % 2, x % 2) {
                    (0, 1) => (
                        (y as isize / 2 - 1, x as isize / 2),
                        (y as isize / 2, x as isize / 2),
                    ),
                    (1, 0) => (
                        (y as isize / 2, x as isize / 2 - 1),
                        (y as isize / 2, x as isize / 2),
                    ),
                    _ => continue,
                };
                if inside(a.0, a.1) != inside(b.0, b.1) {
                    lines.push((y, x));
                }
            }
        }
        if is_one_loop(&lines) {
            all.push(lines);
        }
    }
    all
}

/// Whether line edges (doubled-grid points) make one loop: every dot has 0 or 2 lines and
/// the lines are connected.
pub fn is_one_loop(lines: &[(usize, usize)]) -> bool {
    let ends = |&(y, x): &(usize, usize)| {
        if y % 2 == 0 {
            [(y, x - 1), (y, x + 1)]
        } else {
            [(y - 1, x), (y + 1, x)]
        }
    };
    let mut degree = std::collections::HashMap::new();
    for l in lines {
        for d in ends(l) {
            *degree.entry(d).or_insert(0) += 1;
        }
    }
    if degree.values().any(|&n| n != 2) {
        return false;
    }
    let mut seen = vec![false; lines.len()];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(k) = stack.pop() {
        let mine = ends(&lines[k]);
        for (j, l) in lines.iter().enumerate() {
            if !seen[j] && ends(l).iter().any(|d| mine.contains(d)) {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen.into_iter().all(|s| s)
}

/// The clue of cell (r, c) under a loop.
pub fn count(lines: &[(usize, usize)], r: usize, c: usize) -> usize {
    let (y, x) = (2 * r + 1, 2 * c + 1);
    [(y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)]
        .iter()
        .filter(|p| lines.contains(p))
        .count()
}
