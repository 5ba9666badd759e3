//! Builds the games' rules for the browser (`crates/browser-rules`, as WebAssembly) so the server can
//! serve them from inside its binary (`/static/rules.wasm`): the recorder page checks entries with them
//! while the network is gone. A separate target directory keeps this build from waiting on the one that
//! runs it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest.join("../..");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // Built again when anything in the folder of a crate the module is made of changes: the module's crate
    // and every crate of this workspace it depends on, as the workspace's own manifests say (a game added
    // to the registry is among them without a line here).
    for dir in module_crates(&cargo, &root) {
        println!("cargo:rerun-if-changed={}", dir.display());
    }
    let target_dir = root.join("target/wasm");
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

/// The folders of the browser module's crate and of every workspace crate it depends on, directly or not
/// (`cargo metadata`: each member's path dependencies).
fn module_crates(cargo: &str, root: &Path) -> Vec<PathBuf> {
    let out = Command::new(cargo)
        .current_dir(root)
        .args(["metadata", "--no-deps", "--offline", "--format-version", "1"])
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&out.stderr));
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).expect("cargo metadata writes JSON");
    let members = metadata["packages"].as_array().expect("packages");
    let folder = |name: &str| {
        members.iter().find(|p| p["name"] == name).map(|p| {
            let manifest = PathBuf::from(p["manifest_path"].as_str().expect("a manifest path"));
            (p, manifest.parent().expect("a crate's folder").to_path_buf())
        })
    };
    let mut seen = BTreeSet::new();
    let mut todo = vec!["almanac-browser-rules".to_string()];
    let mut dirs = Vec::new();
    while let Some(name) = todo.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        let Some((package, dir)) = folder(&name) else { continue };
        dirs.push(dir);
        for dep in package["dependencies"].as_array().into_iter().flatten() {
            // Path dependencies are the workspace's own crates; development ones do not make the module.
            if dep.get("path").is_some() && dep["kind"].is_null() {
                todo.push(dep["name"].as_str().expect("a name").to_string());
            }
        }
    }
    assert!(dirs.len() > 1, "the browser module depends on the workspace's crates");
    dirs
}
