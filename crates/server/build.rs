//! Builds the games' rules for the browser (`crates/browser-rules`, as WebAssembly) so the server can
//! serve them from inside its binary (`/static/rules.wasm`): the recorder page checks entries with them
//! while the network is gone. A separate target directory keeps this build from waiting on the one that
//! runs it.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest.join("../..");
    // The rules of every game and the module's own code (a change anywhere in a crate's folder).
    for dir in ["core", "engine", "browser-rules", "catan", "carcassonne", "catan-cards", "cities-knights", "elasund"] {
        println!("cargo:rerun-if-changed={}", root.join("crates").join(dir).display());
    }
    let target_dir = root.join("target/wasm");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(&root)
        .args(["build", "--quiet", "-p", "almanac-browser-rules", "--release", "--target", "wasm32-unknown-unknown"])
        .arg("--target-dir")
        .arg(&target_dir)
        // The host's flags are not the module's; a small module without debug information, which panics by
        // stopping.
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_BUILD_TARGET")
        .env("CARGO_PROFILE_RELEASE_DEBUG", "0")
        .env("CARGO_PROFILE_RELEASE_STRIP", "symbols")
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "s")
        .env("CARGO_PROFILE_RELEASE_PANIC", "abort")
        .status()
        .expect("cargo runs");
    if !status.success() {
        panic!(
            "the games' rules for the browser did not build: is the WebAssembly target installed? \
             `rustup target add wasm32-unknown-unknown` (make does it)"
        );
    }
    let module = target_dir.join("wasm32-unknown-unknown/release/almanac_browser_rules.wasm");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("rules.wasm");
    std::fs::copy(&module, &out).unwrap_or_else(|e| panic!("{}: {e}", module.display()));
}
