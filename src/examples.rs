//! Rule examples: run one rule on a little board and name the outcome (passed, did not fire, fired where it must not, wrong result).
