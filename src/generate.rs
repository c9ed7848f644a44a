//! Random Slink puzzles: a random single loop, its clue counts, kept only when the rules finish it.
