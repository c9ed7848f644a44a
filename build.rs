//! Embeds the files of `rules/` into the binary as the built-in rule set.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "rules"))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    let mut code = String::from("&[\n");
    for path in &paths {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = format!("rules/{}", path.file_name().unwrap().to_string_lossy());
        writeln!(
            code,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .unwrap();
    }
    code.push(']');
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("builtin_rules.rs");
    std::fs::write(out, code).unwrap();
}
