//! The `slink` command line: parses arguments and hands over to [`slink::cli`].

#![forbid(unsafe_code)]

fn main() {
    std::process::exit(slink::cli::main());
}
