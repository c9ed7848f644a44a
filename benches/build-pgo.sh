#!/usr/bin/env bash
# A statically linked release binary optimised with the profile of a training run
# (profile-guided optimisation), x86-64 Linux only:
#
#   benches/build-pgo.sh          # -> target/pgo/x86_64-unknown-linux-gnu/dist/slink
#   benches/build-pgo.sh --find-profdata   # prints the llvm-profdata it would use (exit 1: none)
#
# 1. builds an instrumented binary (`-C profile-generate`, under target/pgo-gen);
# 2. runs it on the training streams: the sample, both corpora of tests/data, and a stream of
#    generated 20x20 and 60x60 puzzles (made by that same binary, with a fixed seed);
# 3. merges the counts with `llvm-profdata` (the rustup component llvm-tools when installed,
#    else Debian's llvm-profdata-NN; LLVM 19 or newer reads this compiler's raw profiles);
# 4. builds the binary again with `-C profile-use` and `+crt-static` (as `cargo build-static`).
#
# The profile is made afresh from the code being built, never kept in the repository, so it
# cannot go stale. Answers are the same as any other build's (CI checks them); only the code
# layout and branch arrangement differ. See docs/performance.md.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

target=x86_64-unknown-linux-gnu
if [ "$(uname -sm)" != "Linux x86_64" ]; then
    echo "build-pgo.sh: x86-64 Linux only" >&2
    exit 1
fi

profdata=""
sysroot_tools="$(rustc --print sysroot)/lib/rustlib/$target/bin/llvm-profdata"
if [ -x "$sysroot_tools" ]; then
    profdata=$sysroot_tools
else
    for v in 22 21 20 19; do
        if command -v "llvm-profdata-$v" >/dev/null 2>&1; then
            profdata=llvm-profdata-$v
            break
        fi
    done
fi
if [ "${1:-}" = --find-profdata ]; then
    [ -n "$profdata" ] && echo "$profdata"
    [ -n "$profdata" ]
    exit
fi
if [ -z "$profdata" ]; then
    echo "build-pgo.sh: no llvm-profdata (LLVM 19 or newer): 'rustup component add llvm-tools'" \
        "or Debian's llvm-19 package" >&2
    exit 1
fi

raw="$PWD/target/pgo-raw"
rm -rf "$raw"
mkdir -p "$raw"
static="target.$target.rustflags = ['-C', 'target-feature=+crt-static'"

echo "build-pgo.sh: instrumented build"
CARGO_TARGET_DIR=target/pgo-gen cargo build --profile dist --target "$target" \
    --config "$static, '-C', 'profile-generate=$raw']"
trainer=target/pgo-gen/$target/dist/slink

echo "build-pgo.sh: training run"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$trainer" gen --rows 20 --cols 20 --count 2000 --seed 1 >"$work/g20.in"
"$trainer" gen --rows 60 --cols 60 --count 20 --seed 2 >"$work/g60.in"
# Only solving is trained on: the counts of the two generator runs are thrown away.
rm -f "$raw"/*.profraw
for input in tests/data/sample.in tests/data/puzzles-slink.in tests/data/puzzles-slitherlink.in \
    "$work/g20.in" "$work/g60.in"; do
    "$trainer" --jobs 1 "$input" >/dev/null
done
"$profdata" merge -o "$raw/slink.profdata" "$raw"/*.profraw

echo "build-pgo.sh: optimised build"
CARGO_TARGET_DIR=target/pgo cargo build --profile dist --target "$target" \
    --config "$static, '-C', 'profile-use=$raw/slink.profdata']"
echo "build-pgo.sh: target/pgo/$target/dist/slink"
