//! Vetting a rule set read from files before it is used: every rule proven sound (or the set
//! refused), a progress line on a terminal while a proof takes long, and warnings about what a
//! rule directory holds.

use super::io::{Io, say};
use super::proof_cache::ProofCache;
use super::{EXIT_BAD_INPUT, rules_check};
use crate::deduce::Deducer;
use crate::rules::prove::{Budget, Verdict, prove_with};
use crate::rules::{Rule, RuleSet};
use std::path::Path;
use std::time::{Duration, Instant};

/// How long a proof runs before a progress line shows (on a terminal only).
const QUIET_FOR: Duration = Duration::from_millis(300);

/// Proves rule `index` of `total` within the default budget. While a proof takes long, a
/// progress line on standard error (when it is a terminal) names the rule and the steps taken.
pub fn prove_rule(io: &mut Io, rule: &Rule, index: usize, total: usize) -> Verdict {
    let terminal = io.err_terminal;
    let started = Instant::now();
    let mut shown = false;
    let budget = Budget::DEFAULT;
    let verdict = prove_with(rule, budget, &mut |steps| {
        if terminal && started.elapsed() >= QUIET_FOR {
            shown = true;
            io.say_raw(&format!(
                "\r\x1b[Kslink: proving rule {}/{total} `{}` ({}:{}): {} of at most {} million search steps",
                index + 1,
                rule.name,
                rule.file,
                rule.line,
                steps / 1_000_000,
                budget.steps / 1_000_000
            ));
        }
    });
    if shown {
        io.say_raw("\r\x1b[K");
    }
    verdict
}

/// Proves every rule of a set read from `source`; prints what fails and refuses the set
/// (exit status 2) unless every rule is proven sound or never fires. With `trust`, nothing is
/// proven and a warning says what the answers then rest on. With `cached`, rules proven sound
/// before (in the cache `io` names) are not proven again, and the rules proven now are added.
/// `check` is the command that shows every proof (`slink rules check DIR...`).
pub fn vet(
    io: &mut Io,
    set: &RuleSet,
    source: &str,
    check: &str,
    trust: bool,
    cached: bool,
) -> Result<(), i32> {
    if trust {
        say!(
            io,
            "slink: warning: the rules of {source} are used without proof (--trust-rules): \
             answers are still checked, but \"no solution\" and \"the only answer\" hold only \
             as far as those rules are sound"
        );
        return Ok(());
    }
    let total = set.rules.len();
    let mut refused = 0;
    let mut cache = match (&io.proof_cache, cached) {
        (Some(dir), true) => ProofCache::open(dir),
        _ => ProofCache::none(),
    };
    for (index, rule) in set.rules.iter().enumerate() {
        if cache.proven(rule) {
            continue;
        }
        let verdict = prove_rule(io, rule, index, total);
        match &verdict {
            Verdict::Sound { .. } => cache.record(rule),
            Verdict::NeverFires => say!(
                io,
                "slink: warning: rule `{}` ({}:{}) can never fire: no board obeying the clue and \
                 dot laws matches its premise",
                rule.name,
                rule.file,
                rule.line
            ),
            _ => {
                refused += 1;
                io.say_raw(&rules_check::describe(rule, &verdict));
            }
        }
    }
    cache.save();
    if refused == 0 {
        return Ok(());
    }
    say!(
        io,
        "slink: refusing the rules of {source}: {refused} of its {} {} not proven \
         sound (`{check}` shows every proof; --trust-rules uses the rules \
         anyway)",
        crate::format::words::count(total, "rule"),
        if refused == 1 { "is" } else { "are" }
    );
    Err(EXIT_BAD_INPUT)
}

/// Names deducers: "loop-closure, colouring and search".
pub fn deducer_list(deducers: &[Deducer]) -> String {
    let names: Vec<&str> = deducers.iter().map(|d| d.name()).collect();
    match names.as_slice() {
        [] => "none".to_string(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The deducers the built-in set uses that `set` leaves off.
pub fn missing_deducers(set: &RuleSet) -> Vec<Deducer> {
    let builtin = RuleSet::builtin();
    Deducer::ALL
        .into_iter()
        .filter(|d| builtin.uses(*d) && !set.uses(*d))
        .collect()
}

/// Warns (on standard error) about a rule directory without rule files, and about a set that
/// leaves off deducers the built-in set uses, naming the deducers in use. Several directories
/// loaded together are judged as one set.
pub fn warn_about_contents(io: &mut Io, set: &RuleSet, dirs: &[&Path]) {
    let names: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    let shown = names.join(" and ");
    if set.rules.is_empty() && set.deducers.is_empty() {
        let files: usize = dirs
            .iter()
            .map(|d| crate::rules::rule_files(d).map_or(0, |f| f.len()))
            .sum();
        if files == 0 {
            say!(
                io,
                "slink: warning: {shown} holds no `*.rules` files: the rule set is empty and \
                 deduces nothing"
            );
        } else {
            say!(
                io,
                "slink: warning: the rule files of {shown} hold no rules and no `use` lines: \
                 the rule set deduces nothing"
            );
        }
        return;
    }
    let missing = missing_deducers(set);
    if !missing.is_empty() {
        say!(
            io,
            "slink: warning: the rules of {shown} use {} of the global deducers; the built-in \
             set also uses {} (a `use NAME` line switches one on)",
            deducer_list(&set.deducers),
            deducer_list(&missing)
        );
    }
}
