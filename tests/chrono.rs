//! The vendored SAT solver's chronological backtracking (`SolverOpts::chrono`) and stable
//! phases (`SolverOpts::stable_phases`; vendor/batsat/SLINK-CHANGES.md): with every
//! backjump chronological (threshold 0) or most of them (2), and with phases without
//! restarts from the first conflicts on, random 3-SAT instances near the threshold get the
//! verdict a brute force gives, and every model satisfies every clause. (The verdict search's use of it, with the
//! loop theory, is tested in tests/search.rs.)

mod common;

use batsat::{BasicCallbacks, Lit, Solver, SolverInterface, SolverOpts, lbool};
use common::Lcg;

/// A clause as (variable, positive) pairs.
type Clause = Vec<(usize, bool)>;

fn brute_force_satisfiable(n: usize, clauses: &[Clause]) -> bool {
    (0u32..1 << n).any(|a| {
        clauses
            .iter()
            .all(|c| c.iter().any(|&(v, pos)| (a >> v & 1 == 1) == pos))
    })
}

#[test]
fn chronological_backtracking_and_stable_phases_agree_with_a_brute_force_on_random_3_sat() {
    let mut rng = Lcg(25);
    let mut verdicts = [0; 2];
    for _ in 0..300 {
        let n = 12 + rng.below(5) as usize;
        let m = n * 426 / 100;
        let clauses: Vec<Clause> = (0..m)
            .map(|_| {
                (0..3)
                    .map(|_| (rng.below(n as u64) as usize, rng.below(2) == 1))
                    .collect()
            })
            .collect();
        let want = brute_force_satisfiable(n, &clauses);
        verdicts[usize::from(want)] += 1;
        for (chrono, stable_phases) in [(-1, 0), (0, 0), (2, 0), (-1, 1), (0, 2), (2, 1)] {
            let opts = SolverOpts {
                chrono,
                stable_phases,
                ..SolverOpts::default()
            };
            let mut solver = Solver::new(opts, BasicCallbacks::new());
            let vars: Vec<_> = (0..n).map(|_| solver.new_var_default()).collect();
            for c in &clauses {
                let mut lits: Vec<Lit> = c.iter().map(|&(v, pos)| Lit::new(vars[v], pos)).collect();
                solver.add_clause_reuse(&mut lits);
            }
            let got = solver.solve_limited(&[]);
            assert_eq!(
                got == lbool::TRUE,
                want,
                "chrono {chrono}, stable phases {stable_phases}: {clauses:?}"
            );
            if got == lbool::TRUE {
                for c in &clauses {
                    assert!(
                        c.iter().any(
                            |&(v, pos)| solver.value_lit(Lit::new(vars[v], pos)) == lbool::TRUE
                        ),
                        "chrono {chrono}, stable phases {stable_phases}: the model breaks {c:?}"
                    );
                }
            }
        }
    }
    assert!(verdicts[0] > 50 && verdicts[1] > 50, "{verdicts:?}");
}
