//! Solving statistics: per rule and per puzzle counts, and the tables `--stats` prints.
