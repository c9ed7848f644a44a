//! Embeds the files of `rules/` into the binary as the built-in rule set, and names the prover's
//! source by a hash (`SLINK_PROVER_HASH`: the cache of proven rules is kept per prover).

use std::fmt::Write;
use std::path::Path;

/// The crate's directory, as cargo says when it runs the script (not `env!`, which would
/// bake in the directory the script was compiled in: a target directory shared by two
/// checkouts would then embed the other checkout's rules, or none).
fn manifest_dir() -> std::path::PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .expect("cargo sets CARGO_MANIFEST_DIR for build scripts")
        .into()
}

fn main() {
    let dir = manifest_dir().join("rules");
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
    assert!(
        !paths.is_empty(),
        "no rule files in {}: the built-in rule set would be empty",
        dir.display()
    );
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
    prover_hash();
}

/// FNV-1a over the files a proof's verdict depends on.
fn prover_hash() {
    let root = manifest_dir();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for file in ["src/soundness.rs", "src/rules/expand.rs", "src/geometry.rs"] {
        let path = root.join(file);
        println!("cargo:rerun-if-changed={}", path.display());
        for byte in std::fs::read(&path).unwrap_or_default() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    println!("cargo:rustc-env=SLINK_PROVER_HASH={hash:016x}");
}
