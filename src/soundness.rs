//! Soundness proofs of rules by brute force over their window, and duplicate / subsumption reports.
