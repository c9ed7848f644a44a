//! Words in messages: counts with their noun in the right number, and durations at a precision that says something.

use std::time::Duration;

/// `1 puzzle`, `2 puzzles`: a count with its noun, made plural with `s` unless it is one.
pub fn count<N: std::fmt::Display + PartialEq + From<u8>>(n: N, noun: &str) -> String {
    let s = if n == N::from(1) { "" } else { "s" };
    format!("{n} {noun}{s}")
}

/// A time taken: `under 1 ms`, `340 ms`, `2.5 s`, `74 s`.
pub fn duration(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if d < Duration::from_millis(1) {
        "under 1 ms".to_string()
    } else if secs < 1.0 {
        format!("{:.0} ms", secs * 1e3)
    } else if secs < 10.0 {
        format!("{secs:.1} s")
    } else {
        format!("{secs:.0} s")
    }
}

/// A time given (a limit): as many digits as it was given with, `0.0001 s`, `2.5 s`, `3 s`.
pub fn limit(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_times_read_right() {
        assert_eq!(count(1usize, "puzzle"), "1 puzzle");
        assert_eq!(count(0usize, "step"), "0 steps");
        assert_eq!(count(2u64, "node"), "2 nodes");
        assert_eq!(duration(Duration::from_micros(20)), "under 1 ms");
        assert_eq!(duration(Duration::from_micros(1500)), "2 ms");
        assert_eq!(duration(Duration::from_millis(2500)), "2.5 s");
        assert_eq!(duration(Duration::from_secs(74)), "74 s");
        assert_eq!(limit(Duration::from_secs_f64(0.0001)), "0.0001 s");
        assert_eq!(limit(Duration::from_secs(3)), "3 s");
    }
}
