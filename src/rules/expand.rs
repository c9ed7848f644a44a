//! Symmetry expansion: every rule becomes its distinct rotations and reflections, each remembering its rule and symmetry.

use super::{Colour, Fact, Rule};
use crate::geometry::{Pos, Symmetry};

/// One rotation or reflection of a rule, placed so that its top-left dot is the origin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// Index of the rule in its rule set.
    pub rule: usize,
    /// The symmetry that maps the rule as written onto this variant.
    pub symmetry: Symmetry,
    /// The window's dots.
    pub dots: Vec<Pos>,
    /// What must hold (sorted).
    pub premise: Vec<Fact>,
    /// What it adds (sorted).
    pub conclusion: Vec<Fact>,
    /// The premise's colour letters, moved (letters renamed in order of appearance, each
    /// letter's first cell in lower case, so that variants that mean the same compare equal).
    pub premise_colours: Vec<Colour>,
    /// The conclusion's new colour letters, moved and renamed alike.
    pub conclusion_colours: Vec<Colour>,
}

impl Variant {
    /// Whether the variant reads or writes colours (it runs only while colouring is on).
    pub fn has_colours(&self) -> bool {
        !self.premise_colours.is_empty() || !self.conclusion_colours.is_empty()
    }
}

/// Colour facts moved by `place`, with letters renamed `a`, `b`, ... in order of their
/// first cell (premise first) and each letter's first cell in lower case.
fn place_colours(
    premise: &[Colour],
    conclusion: &[Colour],
    place: impl Fn(crate::geometry::Pos) -> crate::geometry::Pos,
) -> (Vec<Colour>, Vec<Colour>) {
    let moved = |list: &[Colour]| {
        let mut out: Vec<Colour> = list
            .iter()
            .map(|c| Colour {
                at: place(c.at),
                ..*c
            })
            .collect();
        out.sort_by_key(|c| c.at);
        out
    };
    let (mut p, mut c) = (moved(premise), moved(conclusion));
    let mut names: Vec<(u8, bool)> = Vec::new();
    for f in p.iter_mut().chain(c.iter_mut()) {
        let k = match names.iter().position(|&(l, _)| l == f.letter) {
            Some(k) => k,
            None => {
                names.push((f.letter, f.upper));
                names.len() - 1
            }
        };
        // Letters a, b, ... skipping x (a cross).
        let letter = b'a' + k as u8 + u8::from(k >= (b'x' - b'a') as usize);
        f.upper ^= names[k].1;
        f.letter = letter;
    }
    p.sort();
    c.sort();
    (p, c)
}

/// The distinct variants of one rule, identity first.
pub fn expand_rule(index: usize, rule: &Rule) -> Vec<Variant> {
    // At most eight variants: a scan of those kept finds a repeat without hashing. Each
    // symmetry is worked out in the same scratch lists, copied out only when it is new.
    let mut variants: Vec<Variant> = Vec::with_capacity(Symmetry::ALL.len());
    let mut dots: Vec<Pos> = Vec::with_capacity(rule.dots.len());
    let mut premise: Vec<Fact> = Vec::with_capacity(rule.premise.len());
    let mut conclusion: Vec<Fact> = Vec::with_capacity(rule.conclusion.len());
    let coloured = !rule.premise_colours.is_empty() || !rule.conclusion_colours.is_empty();
    for symmetry in Symmetry::ALL {
        dots.clear();
        dots.extend(rule.dots.iter().map(|&p| symmetry.apply(p)));
        let min_y = dots.iter().map(|p| p.y).min().unwrap_or(0);
        let min_x = dots.iter().map(|p| p.x).min().unwrap_or(0);
        let shift = Pos::new(min_y, min_x);
        let place = |facts: &[Fact], out: &mut Vec<Fact>| {
            out.clear();
            out.extend(facts.iter().map(|f| Fact {
                at: symmetry.apply(f.at) - shift,
                glyph: f.glyph,
            }));
            // Facts equal in order are equal: an unstable sort gives the same list.
            out.sort_unstable();
        };
        for p in &mut dots {
            *p = *p - shift;
        }
        dots.sort_unstable();
        place(&rule.premise, &mut premise);
        place(&rule.conclusion, &mut conclusion);
        let (premise_colours, conclusion_colours) = if coloured {
            place_colours(&rule.premise_colours, &rule.conclusion_colours, |p| {
                symmetry.apply(p) - shift
            })
        } else {
            (Vec::new(), Vec::new())
        };
        let repeat = variants.iter().any(|v| {
            v.premise == premise
                && v.conclusion == conclusion
                && v.dots == dots
                && v.premise_colours == premise_colours
                && v.conclusion_colours == conclusion_colours
        });
        if !repeat {
            variants.push(Variant {
                rule: index,
                symmetry,
                dots: dots.clone(),
                premise: premise.clone(),
                conclusion: conclusion.clone(),
                premise_colours,
                conclusion_colours,
            });
        }
    }
    variants
}

/// The distinct variants of every rule of a set, in rule order.
pub fn expand_all(rules: &[Rule]) -> Vec<Variant> {
    rules
        .iter()
        .enumerate()
        .flat_map(|(i, r)| expand_rule(i, r))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleSet;

    fn variants(text: &str) -> Vec<Variant> {
        let set = RuleSet::from_sources(&[("t.rules", text)]).unwrap();
        expand_rule(0, &set.rules[0])
    }

    #[test]
    fn an_asymmetric_rule_has_eight_variants() {
        // A line on the top side and a cross on the right side of a 2: no symmetry fixes it.
        let v =
            variants("rule a\nwhen\n  +---+\n    2 x\n  +   +\nthen\n  +---+\n  | 2 x\n  +   +\n");
        assert_eq!(v.len(), 8);
        let syms: std::collections::HashSet<Symmetry> = v.iter().map(|v| v.symmetry).collect();
        assert_eq!(syms.len(), 8);
    }

    #[test]
    fn a_symmetric_rule_dedupes() {
        let zero =
            variants("rule z\nwhen\n  +   +\n    0\n  +   +\nthen\n  + x +\n  x 0 x\n  + x +\n");
        assert_eq!(zero.len(), 1);
        assert_eq!(zero[0].symmetry, Symmetry::Identity);
        let threes = variants(
            "rule t\nwhen\n  +   +   +\n    3   3\n  +   +   +\nthen\n  +   +   +\n  | 3 | 3 |\n  +   +   +\n",
        );
        assert_eq!(threes.len(), 2);
    }

    #[test]
    fn variants_keep_kinds_and_sit_at_the_origin() {
        let v =
            variants("rule a\nwhen\n  +---+\n    2 x\n  +   +\nthen\n  +---+\n  | 2 x\n  +   +\n");
        for var in &v {
            assert_eq!(var.dots.iter().map(|d| (d.y, d.x)).min(), Some((0, 0)));
            assert!(var.premise.iter().any(|f| f.at == Pos::new(1, 1)));
        }
    }
}
