//! Shared by the HTTP and browser tests: the real server on a free port, a real SQLite file, and a
//! small HTTP client.

#![allow(dead_code)]

use serde_json::Value;
use std::net::TcpListener;
use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn sample(name: &str) -> String {
    std::fs::read_to_string(root().join("data/samples").join(name)).unwrap()
}

pub struct TestApp {
    pub address: String,
    agent: ureq::Agent,
    _dir: tempfile::TempDir,
}

/// Starts Almanac on 127.0.0.1 with a fresh database; it runs until the test process ends.
pub fn spawn_app(max_upload: usize) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    let config = almanac_server::Config {
        max_upload,
        workers: Some(2),
        ..almanac_server::Config::new(dir.path().join("almanac.db"))
    };
    let server = almanac_server::run(listener, config).expect("the server starts");
    std::thread::spawn(move || actix_rt::System::new().block_on(server));
    let agent = ureq::Agent::config_builder().http_status_as_error(false).build().new_agent();
    TestApp { address, agent, _dir: dir }
}

impl TestApp {
    pub fn get_text(&self, path: &str) -> (u16, String, String) {
        let mut r = self.agent.get(&format!("{}{path}", self.address)).call().unwrap();
        let ct = r.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        (r.status().as_u16(), ct, r.body_mut().read_to_string().unwrap())
    }

    pub fn get_json(&self, path: &str) -> (u16, Value) {
        let (status, _, body) = self.get_text(path);
        (status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}")))
    }

    pub fn post(&self, path: &str, body: &[u8]) -> (u16, Value) {
        let mut r = self.agent.post(&format!("{}{path}", self.address)).send(body).unwrap();
        let text = r.body_mut().with_config().limit(64 << 20).read_to_string().unwrap();
        (r.status().as_u16(), serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text}")))
    }

    pub fn post_json(&self, path: &str, body: &Value) -> (u16, Value) {
        self.post(path, body.to_string().as_bytes())
    }
}
