//! The map stays true (ARCHITECTURE.md): every crate depends only on the crates it may, and nothing
//! outside a game's crate and the registry names a game, its resources or its formats. No comment or
//! document cites a file outside the repository.

use almanac_engine::GAMES;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `almanac-*` crates a crate's `[dependencies]` name (dev-dependencies are the tests' own affair).
fn dependencies(krate: &str) -> BTreeSet<String> {
    every_dependency(krate).iter().filter_map(|name| name.strip_prefix("almanac-").map(str::to_string)).collect()
}

fn crates() -> Vec<String> {
    let mut all: Vec<String> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    all.sort();
    all
}

/// The game crates: what the registry depends on besides core.
fn game_crates() -> BTreeSet<String> {
    dependencies("engine").into_iter().filter(|c| c != "core").collect()
}

#[test]
fn dependencies_point_one_way() {
    let games = game_crates();
    // The toy game of "Adding a game" is registered in the tests (the engine's dev-dependency on itself).
    assert_eq!(games.len(), GAMES.len(), "one crate per registered game: {games:?}");
    let set = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<BTreeSet<String>>();
    for krate in crates() {
        let deps = dependencies(&krate);
        let allowed: BTreeSet<String> = match krate.as_str() {
            // The derives of the game contract, which core re-exports.
            "derive" => set(&[]),
            "core" => set(&["derive"]),
            // A game may build on another game's parts (a Catan family member on Catan's resources).
            g if games.contains(g) => {
                games.iter().filter(|o| o.as_str() != g).cloned().chain(["core".to_string()]).collect()
            }
            "engine" => games.iter().cloned().chain(["core".to_string()]).collect(),
            "store" | "analysis" => set(&["core"]),
            // The rules for the browser: the registry and nothing else (no store, no HTTP).
            "browser-rules" => set(&["core", "engine"]),
            "charts" => set(&["core", "analysis"]),
            "service" => set(&["core", "engine", "store", "analysis", "charts"]),
            "server" => set(&["core", "store", "service"]),
            "cli" => crates().into_iter().filter(|c| c != "cli").collect(),
            other => panic!("crates/{other} is not on the map: give it its place in ARCHITECTURE.md and here"),
        };
        let extra: Vec<&String> = deps.difference(&allowed).collect();
        assert!(extra.is_empty(), "crates/{krate} depends on {extra:?}, which it must not");
    }
}

/// Every file under `dir` whose name ends with one of `exts`.
fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, exts, out);
        } else if exts.iter().any(|x| path.to_string_lossy().ends_with(x)) {
            out.push(path);
        }
    }
}

/// Where `word` occurs in `text` as a whole word, ignoring case.
fn has_word(text: &str, word: &str) -> bool {
    let (text, word) = (text.to_lowercase(), word.to_lowercase());
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(&word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

#[test]
fn nothing_outside_a_game_crate_names_a_game_its_resources_or_its_formats() {
    let mut words: Vec<&str> = Vec::new();
    for g in GAMES {
        words.extend([g.id(), g.name()]);
        words.extend(g.importers().iter().map(|i| i.name));
        // The things players hold that have a colour of their own: resources, commodities, goods.
        words.extend(g.vocabulary().items.iter().filter(|t| t.color.is_some() && t.id != "unknown").map(|t| t.id));
    }
    words.sort_by_key(|w| w.to_lowercase());
    words.dedup_by_key(|w| w.to_lowercase());
    let games = game_crates();
    let mut sources = Vec::new();
    for krate in crates().into_iter().filter(|c| !games.contains(c)) {
        files(&root().join("crates").join(&krate).join("src"), &[".rs"], &mut sources);
        // A build script is code too: one that listed the games would miss the next.
        let build = root().join("crates").join(&krate).join("build.rs");
        if build.exists() {
            sources.push(build);
        }
    }
    files(&root().join("web"), &[".js", ".mjs", ".json", ".css", ".html"], &mut sources);
    let registry = root().join("crates/engine/src/lib.rs");
    let mut found = Vec::new();
    for path in &sources {
        let text = std::fs::read_to_string(path).unwrap();
        for (n, line) in text.lines().enumerate() {
            // The registry's one line per game names the game crates.
            if *path == registry && line.contains("almanac_") {
                continue;
            }
            for word in &words {
                if has_word(line, word) {
                    found.push(format!("{}:{}: `{word}` in {}", path.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "game words outside the game crates:\n{}", found.join("\n"));
}

#[test]
fn nothing_cites_a_file_outside_the_repository() {
    let mut paths = Vec::new();
    for dir in ["crates", "web", "docs", "tests", "bench", "data/schema"] {
        files(&root().join(dir), &[".rs", ".js", ".md", ".json", ".toml", ".sh", ".lua", ".sql", ".txt"], &mut paths);
    }
    paths.extend(["Makefile", "README.md", "ARCHITECTURE.md", ".ci/run"].map(|f| root().join(f)));
    let mut found = Vec::new();
    for path in paths.iter().filter(|p| !p.to_string_lossy().contains("/tests/data/")) {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            // The folders beside the checkout, spelled so that this file does not cite them itself.
            let outside = ["reference", "fixtures", "tools"].map(|d| format!("{}/{d}", "shared"));
            // The shared design document is not in the repository either: its sections are cited by name.
            let design = line.contains(concat!("DESIGN", " §"));
            let cites =
                outside.iter().any(|o| line.contains(o.as_str())) || line.contains(concat!("..", "/shared")) || design;
            // A build variable may point at a tool beside the checkout; a comment may not.
            let variable = path.ends_with("Makefile") && !line.trim_start().starts_with('#');
            if cites && !variable {
                found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "citations of files outside the repository:\n{}", found.join("\n"));
}

/// Every dependency a crate declares (`[dependencies]`, by its library name).
fn declared(krate: &str) -> Vec<String> {
    let manifest = std::fs::read_to_string(root().join("crates").join(krate).join("Cargo.toml")).unwrap();
    let mut deps = Vec::new();
    let mut in_deps = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
        } else if in_deps && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['.', '=', ' ']).next().unwrap_or_default();
            deps.push(name.replace('-', "_"));
        }
    }
    deps
}

#[test]
fn every_dependency_a_crate_declares_is_used() {
    let mut unused = Vec::new();
    for krate in crates() {
        let mut sources = Vec::new();
        files(&root().join("crates").join(&krate).join("src"), &[".rs"], &mut sources);
        let text: String = sources.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect();
        for dep in declared(&krate) {
            // Used: named in a path, an import or a macro call (`serde::Serialize`, `use rusqlite`, `json!`
            // comes with `serde_json::`).
            if !has_word(&text, &dep) {
                unused.push(format!("crates/{krate}: {dep}"));
            }
        }
    }
    assert!(unused.is_empty(), "dependencies declared and never used:\n{}", unused.join("\n"));
}

/// Every page the server writes is maud's `html!`, which escapes whatever text it is given: no page is a
/// string put together by hand, where each value would need an escaping call that can be forgotten. The one
/// text put in as it is, is JSON in a script element (its `<` written out, as a script's text is read raw).
#[test]
fn the_server_writes_html_only_through_maud() {
    let mut sources = Vec::new();
    files(&root().join("crates/server/src"), &[".rs"], &mut sources);
    let mut found = Vec::new();
    for path in &sources {
        let text = std::fs::read_to_string(path).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            // A string literal that opens a tag (`"<p`, `"</`, `"<!`).
            let tag = code.match_indices("\"<").any(|(at, _)| {
                code[at + 2..].chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '/' || c == '!')
            });
            let unescaped = code.contains("PreEscaped(") && !code.contains("application/json");
            if tag || code.contains("escape(") || unescaped {
                found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "HTML written by hand in the server:\n{}", found.join("\n"));
}

/// Every crate a crate's `[dependencies]` name, Almanac's own and others'.
fn every_dependency(krate: &str) -> BTreeSet<String> {
    let manifest = std::fs::read_to_string(root().join("crates").join(krate).join("Cargo.toml")).unwrap();
    let mut deps = BTreeSet::new();
    let mut in_deps = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
        } else if in_deps && !line.is_empty() && !line.starts_with('#') {
            if let Some(name) = line.split(['.', '=', ' ']).next() {
                deps.insert(name.to_string());
            }
        }
    }
    deps
}

/// A source file's code outside its tests: up to its `#[cfg(test)]` module (kept at a file's end), none of a
/// file that is a test module itself (`tests.rs`).
fn code_outside_tests(path: &Path) -> String {
    if path.file_name().is_some_and(|n| n == "tests.rs") {
        return String::new();
    }
    let text = std::fs::read_to_string(path).unwrap();
    match text.find("#[cfg(test)]") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

#[test]
fn the_rules_crates_are_pure() {
    // What reads the world: a file, the environment, the clock, the network, another process, chance.
    const WORLD: [&str; 14] = [
        "std::fs",
        "std::env",
        "std::time",
        "std::net",
        "std::process",
        "SystemTime",
        "Instant::now",
        "now_utc",
        "now_local",
        "Utc::now",
        "rand::",
        "getrandom",
        "thread_rng",
        "File::open",
    ];
    // (A calendar, such as the `time` crate core reads a moment with, is pure; its clock is what is not.)
    const WORLD_CRATES: [&str; 7] = ["rand", "getrandom", "rusqlite", "postgres", "actix-web", "ureq", "tokio"];
    let mut rules: Vec<String> = game_crates().into_iter().collect();
    rules.push("core".to_string());
    let mut checked = 0;
    for krate in &rules {
        let deps = every_dependency(krate);
        let impure: Vec<&&str> = WORLD_CRATES.iter().filter(|c| deps.contains(**c)).collect();
        assert!(impure.is_empty(), "crates/{krate} depends on {impure:?}: a rules crate reads nothing of the world");
        let mut sources = Vec::new();
        files(&root().join("crates").join(krate).join("src"), &[".rs"], &mut sources);
        for path in sources {
            // The seeded players and the file helpers of the games' tests (core's `testing` feature).
            if path.ends_with("core/src/testing.rs") {
                continue;
            }
            let code = code_outside_tests(&path);
            if let Some(word) = WORLD.iter().find(|w| code.contains(**w)) {
                panic!("{} uses {word}: a rules crate reads no file, clock, environment or chance", path.display());
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} files of the rules crates read");
}

#[test]
fn sql_lives_in_the_store_and_http_in_the_server() {
    const SQL: [&str; 3] = ["rusqlite", "postgres", "sqlx"];
    const HTTP: [&str; 6] = ["actix-web", "actix-rt", "ureq", "awc", "hyper", "reqwest"];
    for krate in crates() {
        let deps = every_dependency(&krate);
        if krate != "store" {
            let sql: Vec<&&str> = SQL.iter().filter(|c| deps.contains(**c)).collect();
            assert!(sql.is_empty(), "crates/{krate} depends on {sql:?}: SQL lives in crates/store only");
            let mut sources = Vec::new();
            files(&root().join("crates").join(&krate).join("src"), &[".rs"], &mut sources);
            for path in sources {
                let code = code_outside_tests(&path);
                for statement in ["SELECT ", "INSERT INTO", "CREATE TABLE", "DELETE FROM"] {
                    assert!(!code.contains(statement), "{} holds SQL ({statement})", path.display());
                }
            }
        }
        // The binary runs the server and a crowd against one (`bench-load`); nothing below them knows HTTP.
        if !["server", "cli"].contains(&krate.as_str()) {
            let http: Vec<&&str> = HTTP.iter().filter(|c| deps.contains(**c)).collect();
            assert!(http.is_empty(), "crates/{krate} depends on {http:?}: HTTP lives in crates/server only");
        }
    }
}

/// ARCHITECTURE.md is a map a newcomer reads in minutes: at most 300 lines, and every path it names (in
/// backticks, or in its code map) is there.
#[test]
fn the_map_is_short_and_names_only_what_exists() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let lines = text.lines().count();
    assert!(lines <= 300, "ARCHITECTURE.md is {lines} lines: a map, at most 300");
    let mut named = 0;
    let mut missing = Vec::new();
    let mut check = |path: &str| {
        let path = path.trim_end_matches([',', '.', ':', ')']);
        // A path: a folder of the repository and more, with no placeholder or pattern in it.
        let roots = ["crates/", "web/", "data/", "docs/", "bench/", "tests/"];
        if !roots.iter().any(|r| path.starts_with(r)) || path.contains(['<', '*', ' ', '{']) {
            return;
        }
        named += 1;
        if !root().join(path).exists() {
            missing.push(path.to_string());
        }
    };
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            check(part);
        }
    }
    // The code map's first column.
    for line in text.lines() {
        if let Some(first) = line.split_whitespace().next() {
            check(first);
        }
    }
    assert!(missing.is_empty(), "ARCHITECTURE.md names what is not there: {missing:?}");
    assert!(named > 30, "{named} paths named");
}

/// One job a file: a source over 800 lines says at its top (in the comment it opens with) why it is long, in
/// a sentence beginning "Long because". Documents (the OpenAPI description) are not code and are left out.
#[test]
fn a_long_file_says_why() {
    let mut sources = Vec::new();
    for krate in crates() {
        files(&root().join("crates").join(&krate).join("src"), &[".rs", ".js", ".mjs"], &mut sources);
    }
    files(&root().join("web"), &[".js", ".mjs", ".css"], &mut sources);
    let mut unexplained = Vec::new();
    for path in &sources {
        let text = std::fs::read_to_string(path).unwrap();
        let lines = text.lines().count();
        // Its top: the comment it opens with.
        let mut top = text.lines().take_while(|l| l.trim_start().starts_with("//"));
        if lines > 800 && !top.any(|l| l.contains("Long because")) {
            unexplained.push(format!("{} ({lines} lines)", path.display()));
        }
    }
    assert!(unexplained.is_empty(), "files over 800 lines that do not say why:\n{}", unexplained.join("\n"));
}
