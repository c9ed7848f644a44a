//! The `slink` command line: parses arguments and hands over to [`slink::cli`].

fn main() {
    std::process::exit(slink::cli::main());
}
