//! The replay in a real headless Chromium (Debian's `chromium` and `chromium-driver`, which `make test`
//! installs when they are missing), driven over the WebDriver protocol.

mod support;

use base64::Engine;
use serde_json::{json, Value};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::{root, sample, spawn_app, spawn_postgres_app, TestApp};

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// chromedriver on a free port, stopped when dropped.
struct Driver {
    child: Child,
    url: String,
    agent: ureq::Agent,
    session: String,
    /// The phone or desktop screen emulated (`screen`), to set again when Chromium loses it.
    emulated: std::cell::Cell<Option<(u32, u32)>>,
    _profile: tempfile::TempDir,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.agent.delete(&format!("{}/session/{}", self.url, self.session)).call();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    fn start() -> Driver {
        Driver::start_with(json!({}))
    }

    /// A browser that saves downloads into `folder` without asking.
    fn start_downloading_into(folder: &std::path::Path) -> Driver {
        Driver::start_with(json!({
            "download.default_directory": folder.display().to_string(),
            "download.prompt_for_download": false,
        }))
    }

    /// A browser whose pages run no script, as some readers' do.
    fn start_without_scripts() -> Driver {
        Driver::start_with(json!({"profile.managed_default_content_settings.javascript": 2}))
    }

    /// A browser that reaches this machine's servers under the name `host` as well: an origin of plain HTTP
    /// that is not this machine's by name, as a club's laptop on a LAN is to a phone (the browser heeds no
    /// `Clear-Site-Data` there, and gives no service worker).
    fn start_reaching_as(host: &str) -> Driver {
        Driver::start_with_args(json!({}), &[format!("--host-resolver-rules=MAP {host} 127.0.0.1")])
    }

    fn start_with(prefs: Value) -> Driver {
        Driver::start_with_args(prefs, &[])
    }

    fn start_with_args(prefs: Value, more: &[String]) -> Driver {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver (Debian package chromium-driver; `make test` installs it)");
        let url = format!("http://127.0.0.1:{port}");
        let agent = ureq::Agent::config_builder().http_status_as_error(false).build().new_agent();
        let started = Instant::now();
        while agent.get(&format!("{url}/status")).call().is_err() {
            assert!(started.elapsed() < support::PATIENCE, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = tempfile::tempdir().unwrap();
        let mut args: Vec<String> = [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1400,1600",
        ]
        .map(String::from)
        .to_vec();
        args.push(format!("--user-data-dir={}", profile.path().display()));
        args.extend(more.iter().cloned());
        let caps = json!({"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": "/usr/bin/chromium",
            "args": args,
            "prefs": prefs
        }}}});
        let mut driver =
            Driver { child, url, agent, session: String::new(), emulated: Default::default(), _profile: profile };
        let created = driver.call("POST", "/session", Some(caps));
        driver.session = created["sessionId"].as_str().unwrap_or_else(|| panic!("no session: {created}")).to_string();
        driver
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{}", self.url, path);
        let mut response = match method {
            "GET" => self.agent.get(&url).call(),
            _ => self.agent.post(&url).send(body.unwrap_or(json!({})).to_string().as_bytes()),
        }
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let text = response.body_mut().with_config().limit(64 << 20).read_to_string().unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        if response.status().as_u16() >= 400 {
            panic!("{method} {path}: {}", v["value"]["message"]);
        }
        v.get("value").cloned().unwrap_or(v)
    }

    fn session(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    fn goto(&self, url: &str) {
        self.session("POST", "/url", Some(json!({"url": url})));
    }

    fn eval(&self, script: &str) -> Value {
        self.session("POST", "/execute/sync", Some(json!({"script": script, "args": []})))
    }

    /// Runs a script that calls its last argument with the result (`/execute/async`).
    fn eval_async(&self, script: &str) -> Value {
        self.session("POST", "/execute/async", Some(json!({"script": script, "args": []})))
    }

    /// Resizes the window to a desktop's or a phone's size.
    fn resize(&self, width: u32, height: u32) {
        self.session("POST", "/window/rect", Some(json!({"width": width, "height": height})));
    }

    fn wait_for(&self, what: &str, script: &str) {
        let started = Instant::now();
        while self.eval(script) != json!(true) {
            assert!(started.elapsed() < support::PATIENCE, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until the page's part `id` (the replay, the recorder, the start page) says it is ready.
    fn wait_ready(&self, id: &str) {
        let script = format!("return document.getElementById('{id}')?.dataset.ready === 'yes'");
        self.wait_for(&format!("the {id}"), &script);
    }

    fn find(&self, css: &str) -> String {
        let v = self.session("POST", "/element", Some(json!({"using": "css selector", "value": css})));
        v[ELEMENT].as_str().unwrap_or_else(|| panic!("no element {css}: {v}")).to_string()
    }

    /// An element's text, or one of its DOM properties, read by the driver (no page script needed).
    fn text_of(&self, css: &str) -> String {
        let e = self.find(css);
        self.session("GET", &format!("/element/{e}/text"), None).as_str().unwrap().to_string()
    }

    fn property(&self, css: &str, name: &str) -> Value {
        let e = self.find(css);
        self.session("GET", &format!("/element/{e}/property/{name}"), None)
    }

    fn click(&self, css: &str) {
        let e = self.find(css);
        self.session("POST", &format!("/element/{e}/click"), None);
    }

    /// A click where a person's pointer would be: at `(x, y)` of the page's viewport.
    fn click_at(&self, x: f64, y: f64) {
        self.session(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
                {"type": "pointerMove", "x": x.round() as i64, "y": y.round() as i64, "origin": "viewport"},
                {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}]})),
        );
    }

    /// Types text into an element (a file input takes a path).
    fn type_into(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.session("POST", &format!("/element/{e}/value"), Some(json!({"text": text})));
    }

    /// Presses a key at whatever has the focus, as a person would.
    fn press(&self, key: &str) {
        self.session(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
                {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]})),
        );
    }

    /// Shows pages as a screen of `width` × `height` CSS pixels shows them: a phone's (touch, dense pixels)
    /// below 800, a desktop's above.
    fn screen(&self, width: u32, height: u32) {
        self.emulated.set(Some((width, height)));
        let phone = width < 800;
        self.session("POST", "/window/rect", Some(json!({"width": width.max(600), "height": height + 150})));
        self.session(
            "POST",
            "/goog/cdp/execute",
            Some(json!({"cmd": "Emulation.setDeviceMetricsOverride", "params": {
                "width": width, "height": height, "deviceScaleFactor": if phone { 2 } else { 1 }, "mobile": phone}})),
        );
    }

    fn screenshot(&self, path: &std::path::Path) {
        let b64 = self.session("GET", "/screenshot", None);
        let png = base64::engine::general_purpose::STANDARD.decode(b64.as_str().unwrap()).unwrap();
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, png).unwrap();
    }
}

const ARROW_RIGHT: &str = "\u{E014}";
const ARROW_LEFT: &str = "\u{E012}";

/// A game whose entries say when they were made (as the table recorder writes them): the replay shows
/// what each entry took, each player's time per turn and the longest thinks, a pause left out and said.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_replay_shows_the_time_at_the_table_and_the_longest_thinks() {
    let app = spawn_app(16 << 20);
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    // Every entry 1.5 s after the one before; entry 40 after a think of 45 s, entry 80 after a pause of 20
    // minutes.
    let mut at = almanac_core::moment::parse("2026-12-03T19:00:00Z").unwrap();
    let mut timed = vec![lines[0].to_string()];
    for (k, line) in lines[1..].iter().enumerate() {
        let seq = k + 1;
        at += match seq {
            40 => 45_000,
            80 => 20 * 60_000,
            _ => 1_500,
        };
        let mut event: serde_json::Map<String, Value> = serde_json::from_str(line).unwrap();
        event.insert("time".into(), json!(almanac_core::moment::write(at)));
        timed.push(Value::Object(event).to_string());
    }
    let (status, body) = app.post("/api/games?publish=true", timed.join("\n").as_bytes());
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap();
    let driver = Driver::start();
    driver.goto(&format!("{}/games/{id}", app.address));
    driver.wait_ready("replay");
    let took = driver.eval("return [...document.querySelectorAll('#events li[data-seq=\"40\"] .took, #events li[data-seq=\"41\"] .took')].map((e) => e.textContent)");
    assert_eq!(took, json!([" · 45 s", " · 2 s"]));
    let thinker = serde_json::from_str::<Value>(lines[40]).unwrap()["player"].as_str().unwrap().to_string();
    let times = driver.eval(
        "const t = document.getElementById('times'); return [t.querySelectorAll('li').length, t.querySelector('a.think').textContent, t.querySelector('.hint').textContent]",
    );
    assert_eq!(times[0], json!(4), "{times}");
    assert!(times[1].as_str().unwrap().starts_with(&format!("{thinker} 45 s (turn ")), "{times}");
    assert!(times[2].as_str().unwrap().contains("1 pause of more than 10 minutes left out"), "{times}");
    // The think links to its entry.
    driver.click("#times a.think");
    driver.wait_for("the entry of the think", "return document.getElementById('position').dataset.seq === '40'");
}

#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_coach_steps_through_a_replay_and_jumps_from_a_chart() {
    let app = spawn_app(16 << 20);
    let id = app.publish_sample("catan-club-game.jsonl");
    let driver = Driver::start();

    // A deep link to the end of turn 12.
    driver.goto(&format!("{}/games/{id}?turn=12", app.address));
    driver.wait_ready("replay");
    driver.wait_for("the state", "return document.getElementById('replay').dataset.shown !== undefined");
    let turn = |d: &Driver| d.eval("return +document.getElementById('position').dataset.turn");
    let seq = |d: &Driver| d.eval("return +document.getElementById('position').dataset.seq").as_u64().unwrap();
    assert_eq!(turn(&driver), json!(12));
    let start = seq(&driver);
    let pieces = |d: &Driver| d.eval("return document.querySelector('#board .pieces').innerHTML");
    let before = pieces(&driver);

    // Clicking a button must not steal the keyboard: → still steps afterwards.
    driver.click("#next");
    driver.click("#prev");
    for _ in 0..5 {
        driver.press(ARROW_RIGHT);
    }
    driver
        .wait_for("five steps", &format!("return document.getElementById('replay').dataset.shown === '{}'", start + 5));
    assert_eq!(seq(&driver), start + 5);
    let shown_turn = turn(&driver).as_u64().unwrap();
    assert!(shown_turn >= 12, "turn {shown_turn}");
    assert_eq!(
        driver.eval("return document.querySelector('#events li.current').dataset.seq"),
        json!((start + 5).to_string()),
        "the event list follows"
    );
    // Turn 13 builds: after the five steps the board shows something new.
    let mut after = pieces(&driver);
    let mut extra = 0;
    while after == before && extra < 40 {
        driver.press(ARROW_RIGHT);
        extra += 1;
        driver.wait_for(
            "a step",
            &format!("return document.getElementById('replay').dataset.shown === '{}'", start + 5 + extra),
        );
        after = pieces(&driver);
    }
    assert_ne!(before, after, "the board never changed");

    // A click on turn 30 of the VP chart moves the replay there.
    driver.wait_for("the charts", "return document.getElementById('replay').dataset.charts === 'yes'");
    driver.eval("document.querySelector('figure[data-chart=vp]').scrollIntoView()");
    driver.click("figure[data-chart=vp] .turn-target[data-turn='30']");
    driver.wait_for("turn 30", "return document.getElementById('position').dataset.turn === '30'");
    assert!(driver.eval("return location.search").as_str().unwrap().contains("turn=30"), "the URL is a deep link");
    // And the keyboard still works after the click.
    let at = seq(&driver);
    driver.press(ARROW_RIGHT);
    driver.wait_for(
        "a step after the click",
        &format!("return document.getElementById('replay').dataset.shown === '{}'", at + 1),
    );

    driver.eval("window.scrollTo(0, 0)");
    driver.screenshot(&root().join("target/browser/replay.png"));
}

#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_carcassonne_replay_lays_tiles_step_by_step() {
    let app = spawn_app(16 << 20);
    let id = app.publish_sample("carcassonne-traders-builders.jsonl");
    let driver = Driver::start();
    driver.goto(&format!("{}/games/{id}?seq=0", app.address));
    driver.wait_ready("replay");
    let tiles = |d: &Driver| d.eval("return document.querySelectorAll('#board .tile').length").as_u64().unwrap();
    assert_eq!(tiles(&driver), 1, "the start tile");
    for _ in 0..9 {
        driver.press(ARROW_RIGHT);
    }
    driver.wait_for("nine steps", "return document.getElementById('replay').dataset.shown === '9'");
    assert!(tiles(&driver) >= 3, "tiles were laid: {}", tiles(&driver));
    // The last event's place is ringed when it has one (a tile laid), and only then.
    let ring = |d: &Driver| d.eval("return document.querySelectorAll('#board .last-event').length").as_u64().unwrap();
    let last_type = |d: &Driver| {
        d.eval("return document.querySelector('#events li.current') ? document.querySelector('#events li.current').textContent : ''")
    };
    let laid = last_type(&driver).as_str().unwrap().contains("places");
    assert_eq!(ring(&driver), laid as u64, "{}", last_type(&driver));
    let scroll_before = driver.eval("return window.scrollY");
    driver.press("\u{E010}"); // End
    driver.wait_for("the end", "return document.getElementById('position').dataset.seq === '217'");
    assert_eq!(driver.eval("return window.scrollY"), scroll_before, "End moves the list, never the page");
    // The start tile and every drawn tile but the discarded ones.
    assert_eq!(tiles(&driver), 1 + 95 - discards(&sample("carcassonne-traders-builders.jsonl")));
    // Scoring is in the list: who scored what.
    let scored =
        driver.eval("return [...document.querySelectorAll('#events .scores')].map((s) => s.textContent).join(' ')");
    assert!(scored.as_str().unwrap().contains("+"), "no scoring in the event list");
    driver.screenshot(&root().join("target/browser/carcassonne.png"));
    // The board zooms and comes back whole.
    let view = |d: &Driver| d.eval("return document.getElementById('board').getAttribute('viewBox')");
    let whole = view(&driver);
    driver.click(".zoom button[aria-label='Zoom in']");
    let zoomed = view(&driver);
    assert_ne!(zoomed, whole);
    let width = |v: &Value| v.as_str().unwrap().split(' ').nth(2).unwrap().parse::<f64>().unwrap();
    assert!(width(&zoomed) < width(&whole) * 0.7, "{zoomed} against {whole}");
    driver.screenshot(&root().join("target/browser/carcassonne-zoomed.png"));
    driver.click(".zoom button[aria-label='The whole board']");
    assert_eq!(view(&driver), whole);
}

/// A withdrawn entry stays in the replay's list, struck through and named by the withdrawal after it, and
/// the board after the withdrawal is the board before the entry.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_withdrawn_entry_is_struck_through_and_the_board_is_as_if_it_was_not_made() {
    let app = spawn_app(16 << 20);
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    // Mehmet's road (event 4) is entered, withdrawn (event 5) and entered again (event 6).
    let withdrawal = r#"{"type":"withdraw","seq":4}"#;
    let log = [&lines[..5], &[withdrawal], &lines[4..12]].concat().join("\n");
    let (status, body) = app.post("/api/games?publish=true", log.as_bytes());
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap();
    let driver = Driver::start();
    driver.goto(&format!("{}/games/{id}?seq=5", app.address));
    driver.wait_for("the replay", "return document.getElementById('replay').dataset.shown === '5'");
    let struck = driver.eval(
        "const li = document.querySelector('#events li[data-seq=\"4\"]'); \
         return [li.classList.contains('withdrawn'), getComputedStyle(li).textDecorationLine, li.textContent]",
    );
    assert_eq!(struck[0], json!(true), "{struck}");
    assert!(struck[1].as_str().unwrap().contains("line-through"), "{struck}");
    assert!(struck[2].as_str().unwrap().contains("withdrawn (event 5)"), "{struck}");
    let withdrawing = driver.eval("return document.querySelector('#events li[data-seq=\"5\"]').textContent");
    // What it took back, in words: the road of event 4.
    let withdrawing = withdrawing.as_str().unwrap();
    assert!(withdrawing.contains("takes back event 4: ") && withdrawing.contains("road"), "{withdrawing}");
    let roads = |d: &Driver| d.eval("return document.querySelectorAll('#board .road').length").as_u64().unwrap();
    assert_eq!(roads(&driver), 1, "after the withdrawal only Ayşe's road stands");
    driver.press(ARROW_LEFT);
    driver.wait_for("event 4", "return document.getElementById('replay').dataset.shown === '4'");
    assert_eq!(roads(&driver), 2, "with the entry, Mehmet's road stands");
    driver.press(ARROW_RIGHT);
    driver.press(ARROW_RIGHT);
    driver.wait_for("event 6", "return document.getElementById('replay').dataset.shown === '6'");
    assert_eq!(roads(&driver), 2, "entered again");
    driver.screenshot(&root().join("target/browser/withdrawn.png"));
}

/// Signs the browser in as the test club, through the sign-in page.
fn sign_in(driver: &Driver, app: &TestApp) {
    sign_in_at(driver, app, &app.address);
}

/// Signs in as the test club at `address` (the app's, or the same server under another name).
fn sign_in_at(driver: &Driver, app: &TestApp, address: &str) {
    driver.goto(&format!("{address}/"));
    driver.click("a.session");
    driver.wait_for("the sign-in form", "return !!document.getElementById('token')");
    driver.type_into("#token", &app.token);
    driver.click(".signin button[type=submit]");
    driver.wait_for("signed in", "return document.querySelector('.session b')?.textContent === 'Test club'");
}

/// A live game of the club's begun from `header` (a table about to play), and a phone signed in as the
/// club: the game's id and the browser.
fn table_with_a_phone(app: &TestApp, header: &str) -> (String, Driver) {
    let (status, body) = app.post("/api/games", header.as_bytes());
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let driver = Driver::start();
    driver.screen(PHONE.0, PHONE.1);
    sign_in(&driver, app);
    (id, driver)
}

/// Opens the recorder of game `id` and waits until it is ready.
fn open_recorder(driver: &Driver, app: &TestApp, id: &str) {
    driver.goto(&format!("{}/games/{id}/record", app.address));
    driver.wait_ready("recorder");
}

thread_local! {
    /// The taps and scrolls of this test's thread since it last asked (`taken`): what an entry cost.
    static TALLY: std::cell::Cell<(u32, u32)> = const { std::cell::Cell::new((0, 0)) };
}

/// The taps and scrolls since the last time this was asked.
fn taken() -> (u32, u32) {
    TALLY.with(|t| t.replace((0, 0)))
}

/// Taps, as a finger would, the centre of the first element `css` finds. One that is not in view (below the
/// screen, or in the sheet's hidden part) is scrolled to first, and the scroll is counted.
///
/// Between finding the element and the driver's click the page may move (a loaded machine takes a moment
/// between the two, a finger hardly any): a click that lands outside the element as it is then is kept from
/// the page and made again where the element now is, and said on the test's output. Only the tap that
/// lands is counted.
fn tap(driver: &Driver, css: &str) {
    for attempt in 0..5 {
        let at = driver.eval(&format!(
            "const e = document.querySelector({css:?}); if (!e) return null;
             const seen = (r) => r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;
             const sheet = e.closest('#chooser');
             const inSheet = (r) => !sheet || (r.top >= sheet.getBoundingClientRect().top && r.bottom <= sheet.getBoundingClientRect().bottom);
             let r = e.getBoundingClientRect(); let scrolled = false;
             if (!seen(r) || !inSheet(r)) {{ e.scrollIntoView({{block: 'center'}}); r = e.getBoundingClientRect(); scrolled = true; }}
             const kinds = ['pointerdown', 'mousedown', 'touchstart', 'pointerup', 'mouseup', 'touchend', 'click'];
             if (window.__tapGuard) for (const k of kinds) window.removeEventListener(k, window.__tapGuard, true);
             const name = (n) => n ? `${{n.tagName}}${{n.id ? '#' + n.id : ''}}.${{n.getAttribute('class') || ''}} ${{(n.textContent || '').slice(0, 40)}}` : 'nothing';
             window.__tapLanded = null;
             window.__tapGuard = (ev) => {{
               if (window.__tapLanded === null) {{
                 const b = e.isConnected ? e.getBoundingClientRect() : null;
                 const x = ev.clientX ?? ev.changedTouches?.[0]?.clientX, y = ev.clientY ?? ev.changedTouches?.[0]?.clientY;
                 window.__tapLanded = b && x >= b.left - 1 && x <= b.right + 1 && y >= b.top - 1 && y <= b.bottom + 1
                   ? 'yes' : `on ${{name(document.elementFromPoint(x, y))}} at ${{x}},${{y}}; the element ${{b ? `at ${{b.left}},${{b.top}}` : 'gone'}}`;
               }}
               if (window.__tapLanded !== 'yes') {{ ev.preventDefault(); ev.stopImmediatePropagation(); }}
               if (ev.type === 'click') for (const k of kinds) window.removeEventListener(k, window.__tapGuard, true);
             }};
             for (const k of kinds) window.addEventListener(k, window.__tapGuard, true);
             return [r.left + r.width / 2, r.top + r.height / 2, scrolled];"
        ));
        let at = at.as_array().unwrap_or_else(|| panic!("nothing to tap at {css}"));
        driver.click_at(at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        // A tap that opened another page leaves no word: it landed.
        let landed = driver.eval("return window.__tapLanded === undefined ? 'yes' : window.__tapLanded");
        if landed == json!("yes") || landed.is_null() {
            TALLY.with(|t| {
                let (taps, scrolls) = t.get();
                t.set((taps + 1, scrolls + u32::from(at[2] == json!(true))));
            });
            return;
        }
        println!("tap {attempt} at {css} missed: the page moved under it ({landed}); tapped again");
        // After a page opened by a script, Chromium at times takes the emulated phone's pointer in device
        // pixels (every tap lands at half its place): the screen set again puts it right.
        if let Some((width, height)) = driver.emulated.get() {
            driver.screen(width, height);
        }
    }
    panic!("five taps at {css} missed: the page keeps moving under them");
}

/// A sample's line as the recorder enters it: a roll by its total, on the pad (a table says "eight", and
/// which die showed which face changes nothing in these rules); any other line as it is.
fn as_entered(line: &str) -> String {
    let mut event: Value = serde_json::from_str(line).unwrap();
    if event["type"] == "roll" {
        if let Some(dice) = event["dice"].as_array().filter(|d| d.len() == 2) {
            let total = dice[0].as_u64().unwrap() + dice[1].as_u64().unwrap();
            let fields = event.as_object_mut().unwrap();
            fields.remove("dice");
            fields.insert("sum".into(), json!(total));
        }
    }
    event.to_string()
}

/// A stored log's events, with the moment each was made (`time`, RFC 3339: the recorder writes it on every
/// entry) checked and taken off, to compare with what was entered.
fn stored_events(log: &str) -> Vec<Value> {
    log.lines()
        .skip(1)
        .map(|l| {
            let mut event: Value = serde_json::from_str(l).unwrap();
            if let Some(time) = event.as_object_mut().unwrap().remove("time") {
                almanac_core::moment::parse(time.as_str().unwrap()).unwrap_or_else(|e| panic!("{l}: {e}"));
            }
            event
        })
        .collect()
}

/// Whether every event of a stored log carries the moment it was made.
fn all_timed(log: &str) -> bool {
    log.lines().skip(1).all(|l| serde_json::from_str::<Value>(l).unwrap()["time"].is_string())
}

/// The taps and scrolls per kind of entry over a game, printed, and held to the recorder's promises: a
/// roll, an end of turn and a build need no scroll, and the median entry takes two taps at most.
#[derive(Default)]
struct Cost {
    by_kind: std::collections::BTreeMap<String, Vec<(u32, u32)>>,
}

impl Cost {
    fn add(&mut self, line: &str, taps_scrolls: (u32, u32)) {
        let kind = serde_json::from_str::<Value>(line).unwrap()["type"].as_str().unwrap().to_string();
        self.by_kind.entry(kind).or_default().push(taps_scrolls);
    }

    fn check(&self, game: &str) {
        let mut all: Vec<u32> = self.by_kind.values().flatten().map(|c| c.0).collect();
        all.sort();
        println!("{game}: taps and scrolls per entry, by kind (entries, taps, scrolls, most taps)");
        for (kind, costs) in &self.by_kind {
            let taps: u32 = costs.iter().map(|c| c.0).sum();
            let scrolls: u32 = costs.iter().map(|c| c.1).sum();
            let most = costs.iter().map(|c| c.0).max().unwrap_or(0);
            println!("  {kind:<24} {:>4} {taps:>5} {scrolls:>4} {most:>3}", costs.len());
        }
        let median = all[all.len() / 2];
        println!("  median entry: {median} taps over {} entries", all.len());
        assert!(median <= 2, "{game}: the median entry takes {median} taps");
        for kind in ["roll", "end_turn", "build_road", "build_settlement", "build_city", "place_tile", "end_game"] {
            let scrolled: u32 = self.by_kind.get(kind).map_or(0, |c| c.iter().map(|c| c.1).sum());
            assert_eq!(scrolled, 0, "{game}: {kind} needed {scrolled} scroll(s)");
        }
    }
}

/// Enters one event of a sample at the recorder by taps only: its player's kind of event, then its place
/// on the board (or its words in the list, or its cards counted out with the steppers of its form); then
/// waits until the server has it. What it cost, in taps and scrolls.
fn record_by_taps(driver: &Driver, line: &str, seq_after: u64) -> (u32, u32) {
    let stored = format!("r.dataset.synced === '{seq_after}' || +r.dataset.waiting > 0 || r.dataset.sending === 'yes'");
    taken();
    tap_entry(driver, line, &stored);
    let cost = taken();
    driver.wait_for(
        &format!("event {seq_after} stored"),
        &format!("return document.getElementById('recorder').dataset.synced === '{seq_after}'"),
    );
    cost
}

/// Enters one event of a sample by taps only while the server is away: done when `waiting` entries wait
/// on the phone.
fn record_offline_by_taps(driver: &Driver, line: &str, waiting: u64) {
    tap_entry(driver, line, &format!("+r.dataset.waiting === {waiting}"));
}

/// The taps of one event (see `record_by_taps`), until `entered` (JavaScript, `r` the recorder) holds. What
/// is already in view is tapped first (a key of the pad, a place on the board, a choice in the sheet);
/// only when the event is not there is its player's kind of event tapped.
fn tap_entry(driver: &Driver, line: &str, entered: &str) {
    let line = &as_entered(line);
    let event: Value = serde_json::from_str(line).unwrap();
    let (kind, player) = (event["type"].as_str().unwrap(), event["player"].as_str().unwrap_or(""));
    // An event of no player's (the end of the game) is the decision's whoever it is.
    let who = if player.is_empty() { String::new() } else { format!("[data-player='{player}']") };
    let mut kind_taps = 0;
    let mut nothing_since: Option<Instant> = None;
    // Taps and short waits: an entry takes a handful of taps, a wait a tenth of a second.
    for _ in 0..60 {
        let found = driver.eval(&format!(
            "const line = {line:?};
             const canon = (v) => JSON.stringify(v, (k, x) => (x && typeof x === 'object' && !Array.isArray(x)
               ? Object.fromEntries(Object.keys(x).sort().map((f) => [f, x[f]])) : x));
             const same = (l) => canon(JSON.parse(l)) === canon(JSON.parse(line));
             const r = document.getElementById('recorder');
             if ({entered}) return 'entered';
             const sheet = document.querySelector('#chooser:not([hidden])');
             if (sheet && sheet.querySelector('button.confirm')) {{ sheet.querySelector('button.confirm').id = 'tap-me'; return 'choice'; }}
             if (sheet) {{
               for (const b of sheet.querySelectorAll('button.choice')) {{
                 const lines = b.dataset.lines ? JSON.parse(b.dataset.lines) : [b.dataset.line];
                 if (lines.some(same)) {{ b.id = 'tap-me'; return 'choice'; }} }}
               const event = JSON.parse(line);
               for (const b of sheet.querySelectorAll('button.form')) {{
                 const fixed = JSON.parse(b.dataset.line);
                 const picked = JSON.parse(b.dataset.picked || '[]');
                 if (Object.entries(fixed).every(([k, v]) => typeof v === 'object' || picked.includes(k) || event[k] === v)) {{
                   b.id = 'tap-me'; return 'choice'; }} }}
               if (sheet.querySelector('button.enter-form')) return 'form';
               for (const d of sheet.querySelectorAll('circle.target')) {{
                 if (JSON.parse(d.dataset.lines).some(same)) {{ d.id = 'tap-me'; return 'target'; }} }}
             }}
             for (const b of document.querySelectorAll('#choices button.key')) {{ if (same(b.dataset.line)) {{ b.id = 'tap-me'; return 'choice'; }} }}
             for (const d of document.querySelectorAll('#board circle.target')) {{
               if (JSON.parse(d.dataset.lines).some(same)) {{ d.id = 'tap-me'; return 'target'; }} }}
             return null;"
        ));
        if found.is_string() {
            nothing_since = None;
        }
        let kind_button = format!("button.kind[data-kind='{kind}']{who}");
        match found.as_str() {
            Some("target") | Some("choice") => {
                tap(driver, "#tap-me");
                driver.eval("const e = document.getElementById('tap-me'); if (e) e.removeAttribute('id');");
            }
            Some("entered") => break,
            Some("form") => fill_form(driver, line, &event),
            _ if kind_taps == 0 => {
                tap(driver, &kind_button);
                kind_taps += 1;
            }
            // What the kind opened may take a moment to show (a machine under load); a kind no longer
            // pressed was drawn again since (an answer from the server that moved the game on), and is
            // tapped again, as a person would.
            _ if nothing_since.get_or_insert_with(Instant::now).elapsed() < Duration::from_secs(3) => {
                std::thread::sleep(Duration::from_millis(100));
            }
            _ if kind_taps == 1
                && driver.eval(&format!(
                    "const b = document.querySelector({kind_button:?}); return !!b && b.getAttribute('aria-pressed') !== 'true'"
                )) == json!(true) =>
            {
                println!("{line}: the kind tapped was drawn again before it opened anything; tapped again");
                tap(driver, &kind_button);
                kind_taps += 1;
                nothing_since = None;
            }
            _ => {
                driver.screenshot(&root().join("target/browser/recorder-not-offered.png"));
                let listed = driver
                    .eval("return [...document.querySelectorAll('#chooser button.choice')].map((b) => b.dataset.line)");
                panic!(
                    "{line} is not offered: {} (listed: {listed})",
                    driver.eval("return document.getElementById('recorder').innerText")
                )
            }
        }
    }
    driver.wait_for("the entry made", &format!("const r = document.getElementById('recorder'); return {entered}"));
}

/// The form in the sheet filled to make `event`: each pick the option on the way to it (as the rules' test
/// reads a form; an option laid over the line by the rule the page asks the browser's rules for, `Almanac.lay`), each card of each counted field one + at a time (a stepper starts at the least its card
/// may be: what a hand is known to hold); then entered.
fn fill_form(driver: &Driver, line: &str, event: &Value) {
    let picks = driver.eval("return document.querySelectorAll('#chooser fieldset.pick').length");
    for i in 0..picks.as_u64().unwrap() {
        let found = driver.eval(&format!(
            "const event = JSON.parse({line:?});
             const line = JSON.parse(document.querySelector('#chooser button.enter-form').dataset.sofar || 'null');
             const group = document.querySelector('#chooser fieldset.pick[data-pick=\"{i}\"]');
             const sofar = line || {{}};
             const onTheWay = (set) => {{
               const next = JSON.parse(JSON.stringify(sofar)); Almanac.lay(next, set);
               return Object.keys(set).every((k) => {{
                 const a = next[k], b = event[k];
                 if (a === undefined) return b === undefined;
                 if (Array.isArray(a)) return Array.isArray(b) && a.every((x, j) => JSON.stringify(x) === JSON.stringify(b[j]));
                 if (a && typeof a === 'object') return b && typeof b === 'object' && Object.entries(a).every(([x, y]) => JSON.stringify(b[x]) === JSON.stringify(y));
                 return a === b; }}) ? next : null; }};
             const options = [...group.querySelectorAll('button.pick-option')];
             const pick = options.find((o) => Object.keys(JSON.parse(o.dataset.set)).length && onTheWay(JSON.parse(o.dataset.set)))
               || options.find((o) => !Object.keys(JSON.parse(o.dataset.set)).length);
             if (!pick) return null;
             document.querySelector('#chooser button.enter-form').dataset.sofar = JSON.stringify(onTheWay(JSON.parse(pick.dataset.set)) || sofar);
             pick.id = 'tap-me'; return true;"
        ));
        assert_eq!(found, json!(true), "{line}: no option of pick {i} leads to it");
        tap(driver, "#tap-me");
        driver.eval("document.getElementById('tap-me').removeAttribute('id')");
    }
    for (field, cards) in event.as_object().unwrap().iter().filter(|(_, v)| v.is_object()) {
        if driver.eval(&format!("return !!document.querySelector(\"#chooser button.step[data-field='{field}']\")"))
            != json!(true)
        {
            continue;
        }
        for (card, n) in cards.as_object().unwrap() {
            let more = format!("#chooser button.step[data-field='{field}'][data-card='{card}'][data-step='+1']");
            let shown =
                driver.eval(&format!("return +document.querySelector({more:?}).previousElementSibling.textContent"));
            for _ in shown.as_u64().unwrap()..n.as_u64().unwrap() {
                tap(driver, &more);
            }
        }
    }
    tap(driver, "#chooser button.enter-form");
}

/// A club records the start of the club sample at a phone, by taps only: every entry the rules allow is a
/// target of 44 px or more, the stored events are the sample's, a withdrawn entry is struck through and
/// the game is as if it had not been made.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_club_records_a_game_at_the_table_by_taps_on_a_phone() {
    let app = spawn_app(16 << 20);
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    let (id, driver) = table_with_a_phone(&app, lines[0]);
    // The owning club's replay page of the game opens its recorder.
    driver.goto(&format!("{}/games/{id}", app.address));
    driver.wait_ready("replay");
    tap(&driver, "a.record");
    driver.wait_ready("recorder");
    // The sample as it was played, up to its first trade: the setup, the rolls, the turns ended.
    let upto = lines.iter().position(|l| l.contains(r#""type":"trade""#)).unwrap() - 1;
    assert!(upto > 17, "{upto}");
    let mut cost = Cost::default();
    let draws = || driver.eval("return +document.getElementById('recorder').dataset.draws").as_u64().unwrap();
    let drawn_before = draws();
    for (k, line) in lines[1..=upto].iter().enumerate() {
        cost.add(line, record_by_taps(&driver, line, k as u64 + 1));
        if k == 0 {
            driver.screenshot(&root().join("target/browser/recorder-phone.png"));
        }
        if k == 1 {
            // The targets on the board are a finger's size.
            tap(&driver, "button.kind[data-kind='build_settlement'][data-player='Mehmet']");
            let smallest = driver.eval(
                "return Math.min(...[...document.querySelectorAll('#board circle.target')].map((c) => c.getBoundingClientRect().width))",
            );
            assert!(smallest.as_f64().unwrap() >= 44.0, "a target of {smallest} px");
            let problems = violations(&driver, &axe_script());
            assert!(problems.is_empty(), "the recorder: {problems:?}");
        }
    }
    // Each entry drew the game once, at the tap, as the browser's rules have it: the server's answers,
    // which say the same, drew nothing again (a sheet opened meanwhile stays open).
    assert_eq!(draws() - drawn_before, upto as u64, "one drawing per entry");
    // The last entry (a roll) stays in view with what it derived: what each player received.
    let row = &app.get_as(&format!("/api/games/{id}/events?from={upto}"), &app.token).json()["events"][0];
    let production = row["production"].as_array().expect("the roll produced");
    let shown = driver.eval(&format!("return document.querySelector('#entries li[data-seq=\"{upto}\"]').textContent"));
    for words in production {
        assert!(shown.as_str().unwrap().contains(words.as_str().unwrap()), "{shown} shows {words}");
    }
    // And under whose decision it is, in view without scrolling.
    let last = driver.eval(
        "const e = document.getElementById('last'); const r = e.getBoundingClientRect();
         return [e.dataset.seq, e.textContent, r.top >= 0 && r.bottom <= window.innerHeight]",
    );
    assert_eq!((&last[0], &last[2]), (&json!(upto.to_string()), &json!(true)), "{last}");
    for words in production {
        assert!(last[1].as_str().unwrap().contains(words.as_str().unwrap()), "{last} shows {words}");
    }
    // The last entry withdrawn, with the page's button: struck through, and the game as before it.
    tap(&driver, "#withdraw");
    driver.wait_for(
        "the withdrawal",
        &format!("return document.getElementById('recorder').dataset.synced === '{}'", upto + 1),
    );
    let struck = driver.eval(&format!(
        "return document.querySelector('#entries li[data-seq=\"{upto}\"]').classList.contains('withdrawn')"
    ));
    assert_eq!(struck, json!(true));
    // The last entries are numbered as the game numbers them.
    let numbered = driver.eval(&format!("return document.querySelector('#entries li[data-seq=\"{upto}\"]').value"));
    assert_eq!(numbered, json!(upto));
    // The game is private to the club: read with its token.
    let read = |path: String| app.get_as(&path, &app.token);
    let state_at = |at: String| {
        let mut state = read(format!("/api/games/{id}/state{at}")).json();
        assert!(state["players"].is_array(), "{state}");
        state.as_object_mut().unwrap().remove("seq");
        state
    };
    assert_eq!(state_at(String::new()), state_at(format!("?seq={}", upto - 1)), "as if the entry had not been made");
    assert_ne!(state_at(String::new()), state_at(format!("?seq={upto}")));
    // Made again, and the rest of the game to its end: trades and discards counted out with steppers, the
    // robber and the card it took, the bank's rates, the development cards. The stored log is the
    // sample's, with the withdrawn entry and its withdrawal between.
    // A trade late in the game, when hands are full.
    let like_for_like =
        lines[upto..].iter().enumerate().position(|(k, l)| k > 150 && l.contains(r#""type":"trade""#)).unwrap();
    for (k, line) in lines[upto..].iter().enumerate() {
        if k == 1 {
            // The first trade's form: its steppers a finger's size too, and nothing axe calls serious.
            let player = serde_json::from_str::<Value>(line).unwrap()["player"].as_str().unwrap().to_string();
            tap(&driver, &format!("button.kind[data-kind='trade'][data-player='{player}']"));
            tap(&driver, "#chooser button.form");
            let smallest = driver.eval(
                "return Math.min(...[...document.querySelectorAll('#chooser button')].map((b) => Math.min(b.getBoundingClientRect().width, b.getBoundingClientRect().height)))",
            );
            assert!(smallest.as_f64().unwrap() >= 44.0, "a button of {smallest} px");
            driver.screenshot(&root().join("target/browser/recorder-trade.png"));
            let problems = violations(&driver, &axe_script());
            assert!(problems.is_empty(), "the trade form: {problems:?}");
            tap(&driver, "#chooser button.cancel");
        }
        if k == like_for_like {
            // A trade the steppers allow and the rules do not (like for like): refused with the rule's
            // words, and nothing stored.
            let player = serde_json::from_str::<Value>(line).unwrap()["player"].as_str().unwrap().to_string();
            let stored = read(format!("/api/games/{id}/log")).body.lines().count();
            let mut refused = None;
            for partner in 1..=3 {
                tap(&driver, &format!("button.kind[data-kind='trade'][data-player='{player}']"));
                tap(&driver, &format!("#chooser button.form:nth-of-type({partner})"));
                let alike = driver.eval(
                    "const cards = (f) => [...document.querySelectorAll(`#chooser button.step[data-field=\"${f}\"][data-step=\"+1\"]`)].map((b) => b.dataset.card);
                     const give = cards('give'); return cards('get').find((c) => give.includes(c)) || null;",
                );
                let Some(card) = alike.as_str().map(str::to_string) else {
                    tap(&driver, "#chooser button.cancel");
                    continue;
                };
                for field in ["give", "get"] {
                    tap(
                        &driver,
                        &format!("#chooser button.step[data-field='{field}'][data-card='{card}'][data-step='+1']"),
                    );
                }
                tap(&driver, "#chooser button.enter-form");
                let said =
                    driver.eval("const p = document.getElementById('problem'); return p.hidden ? null : p.textContent");
                assert_eq!(
                    said.as_str(),
                    Some(format!("a trade cannot swap like for like ({card} on both sides)").as_str())
                );
                refused = Some(card);
                break;
            }
            assert!(refused.is_some(), "a partner who holds a card {player} holds too");
            assert_eq!(read(format!("/api/games/{id}/log")).body.lines().count(), stored, "nothing stored");
        }
        let spent = record_by_taps(&driver, line, (upto + 2 + k) as u64);
        if k > 0 {
            cost.add(line, spent);
        }
    }
    cost.check("the club game");
    let log = read(format!("/api/games/{id}/log")).body;
    assert!(all_timed(&log), "every entry made at the recorder says when");
    let stored = stored_events(&log);
    let withdrawal = format!(r#"{{"seq":{upto},"type":"withdraw"}}"#);
    let expected: Vec<String> = lines[1..=upto]
        .iter()
        .map(|l| as_entered(l))
        .chain([withdrawal])
        .chain(lines[upto..].iter().map(|l| as_entered(l)))
        .collect();
    assert_eq!(stored.len(), expected.len());
    for (k, (a, b)) in stored.iter().zip(&expected).enumerate() {
        assert_eq!(a, &serde_json::from_str::<Value>(b).unwrap(), "event {}", k + 1);
    }
    // The end, on the recorder's own page: the standings, each player's points by reason, and the link to
    // the replay, which a spectator opens once the game is published.
    driver.wait_for("the end of the game", "return !document.getElementById('finish').hidden");
    let summary = read(format!("/api/games/{id}")).json();
    let standings: Vec<String> = serde_json::from_value(
        driver.eval("return [...document.querySelectorAll('#standings li')].map((li) => li.textContent)"),
    )
    .unwrap();
    let winner = summary["winner"].as_str().unwrap();
    assert!(standings[0].starts_with(winner) && standings[0].contains("wins"), "{standings:?}");
    assert_eq!(standings.len(), summary["players"].as_array().unwrap().len());
    assert!(standings[0].contains("settlement"), "points by reason: {standings:?}");
    driver.screenshot(&root().join("target/browser/recorder-finish.png"));
    let problems = violations(&driver, &axe_script());
    assert!(problems.is_empty(), "the end of the game: {problems:?}");
    tap(&driver, "#publish button");
    driver.wait_for("published", "return document.getElementById('recorder').dataset.published === 'yes'");
    let link = driver.eval("return document.getElementById('share-link').href").as_str().unwrap().to_string();
    assert!(link.ends_with(&format!("/games/{id}")), "{link}");
    let spectator = Driver::start();
    spectator.screen(PHONE.0, PHONE.1);
    spectator.goto(&link);
    spectator.wait_ready("replay");
}

/// Nothing is stored that the table did not mean: a tap between two corners asks which was meant (both
/// marked) and stores nothing until one is chosen; an entry that ends the game asks first (Carcassonne's
/// "end game", offered beside every tile); and ten withdrawals in a row, each with the page's button, leave
/// the game as it was ten entries earlier.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_tap_between_places_and_the_end_of_a_game_ask_first_and_ten_withdrawals_go_ten_back() {
    let app = spawn_app(16 << 20);
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    let (id, driver) = table_with_a_phone(&app, lines[0]);
    open_recorder(&driver, &app, &id);
    record_by_taps(&driver, lines[1], 1);
    record_by_taps(&driver, lines[2], 2);
    // Mehmet's settlement: the two nearest free corners' discs overlap; a tap midway between them.
    let between = driver.eval(
        "const discs = [...document.querySelectorAll('#board circle.target')].map((d) => d.getBoundingClientRect());
         let best = null;
         for (let i = 0; i < discs.length; i += 1) for (let j = i + 1; j < discs.length; j += 1) {
           const [a, b] = [discs[i], discs[j]];
           const d = Math.hypot(a.x + a.width / 2 - b.x - b.width / 2, a.y + a.height / 2 - b.y - b.height / 2);
           if (!best || d < best.d) best = { d, a, b }; }
         const { a, b } = best;
         return [(a.x + a.width / 2 + b.x + b.width / 2) / 2, (a.y + a.height / 2 + b.y + b.height / 2) / 2, best.d < a.width / 2 + b.width / 2];",
    );
    assert_eq!(between[2], json!(true), "two discs overlap: {between}");
    driver.click_at(between[0].as_f64().unwrap(), between[1].as_f64().unwrap());
    driver.wait_for("the question", "return !document.getElementById('chooser').hidden");
    let asked = driver.eval(
        "return [document.getElementById('chooser-title').textContent, document.querySelectorAll('#chooser button.choice').length, document.querySelectorAll('#board circle.target.pointed').length]",
    );
    assert_eq!(asked, json!(["build settlement: which place did you mean?", 2, 2]));
    assert_eq!(app.get_as(&format!("/api/games/{id}/log"), &app.token).body.lines().count(), 3, "nothing stored");
    tap(&driver, "#chooser button.cancel");
    // Ten more entries, then ten withdrawals in a row: the game as it was after the first two.
    for (k, line) in lines[3..=12].iter().enumerate() {
        record_by_taps(&driver, line, k as u64 + 3);
    }
    let state = |at: &str| {
        let mut s = app.get_as(&format!("/api/games/{id}/state{at}"), &app.token).json();
        s.as_object_mut().unwrap().remove("seq");
        s
    };
    let before = state("?seq=2");
    for k in 0..10u64 {
        tap(&driver, "#withdraw");
        driver.wait_for(
            &format!("withdrawal {}", k + 1),
            &format!("return document.getElementById('recorder').dataset.synced === '{}'", 13 + k),
        );
    }
    assert_eq!(state(""), before, "ten entries back");
    let offered = driver.eval("return document.getElementById('withdraw').textContent");
    assert!(offered.as_str().unwrap().starts_with("Withdraw: Ayşe"), "the entry before is next: {offered}");
    // Made again from there, the game goes on.
    record_by_taps(&driver, lines[3], 23);

    // Carcassonne: "end game" beside the tile asks, and a cancel stores nothing.
    let carcassonne = sample("carcassonne-traders-builders.jsonl");
    let lines: Vec<&str> = carcassonne.lines().collect();
    let (status, body) = app.post("/api/games", lines[0].as_bytes());
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    open_recorder(&driver, &app, &id);
    tap(&driver, "button.kind[data-kind='end_game']");
    let asked = driver.eval("return document.getElementById('chooser-title').textContent");
    assert_eq!(asked, json!("This ends the game. Enter it?"));
    tap(&driver, "#chooser button.cancel");
    assert_eq!(app.get_as(&format!("/api/games/{id}/log"), &app.token).body.lines().count(), 1, "nothing stored");
    assert!(app.get_as(&format!("/api/games/{id}"), &app.token).json()["winner"].is_null());
}

/// A club records the Carcassonne sample at a phone by taps only, from the start tile to the final scoring: the tile drawn where it
/// went (a square on the board, then its tile and turn from the list), a figure on one of its features, the
/// end of each turn; the stored events are the sample's.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_club_records_carcassonne_at_the_table_by_taps_on_a_phone() {
    let app = spawn_app(16 << 20);
    let log = sample("carcassonne-traders-builders.jsonl");
    let lines: Vec<&str> = log.lines().collect();
    let (id, driver) = table_with_a_phone(&app, lines[0]);
    open_recorder(&driver, &app, &id);
    // The whole game, to its final scoring.
    let upto = lines.len() - 1;
    let mut cost = Cost::default();
    let mut looked = 0;
    let mut figure_seen = false;
    for (k, line) in lines[1..=upto].iter().enumerate() {
        if line.contains(r#""type":"place_tile""#) && k > 0 && k % 5 == 0 {
            looked += ways_a_tile_lies_are_pictures_told_apart(&driver, line);
        }
        if line.contains(r#""type":"place_figure""#) && !figure_seen {
            // A figure is placed by tapping its feature on a picture of the tile just placed.
            let player = serde_json::from_str::<Value>(line).unwrap()["player"].as_str().unwrap().to_string();
            tap(&driver, &format!("button.kind[data-kind='place_figure'][data-player='{player}']"));
            let spots = driver.eval("return document.querySelectorAll('#chooser svg.spots circle.target').length");
            assert!(spots.as_u64().unwrap() >= 2, "the features to tap: {spots}");
            let smallest = driver.eval(
                "return Math.min(...[...document.querySelectorAll('#chooser svg.spots circle.target')].map((c) => c.getBoundingClientRect().width))",
            );
            assert!(smallest.as_f64().unwrap() >= 44.0, "a spot of {smallest} px");
            let problems = violations(&driver, &axe_script());
            assert!(problems.is_empty(), "the tile's features to tap: {problems:?}");
            driver.screenshot(&root().join("target/browser/recorder-figure.png"));
            tap(&driver, "#chooser button.cancel");
            figure_seen = true;
        }
        cost.add(line, record_by_taps(&driver, line, k as u64 + 1));
    }
    assert!(looked > 5, "places with several ways to lie looked at: {looked}");
    assert!(figure_seen);
    driver.screenshot(&root().join("target/browser/recorder-carcassonne.png"));
    cost.check("the Carcassonne game");
    let stored = app.get_as(&format!("/api/games/{id}/log"), &app.token).body;
    let stored = stored_events(&stored);
    let expected: Vec<Value> = lines[1..=upto].iter().map(|l| serde_json::from_str(&as_entered(l)).unwrap()).collect();
    assert_eq!(stored, expected);
}

/// The tile of a placement (`line`) chosen by its picture among the tiles the pack holds, then at each place
/// where it may lie more than one way, every way a picture of its own with words of its own (no two
/// choices of one name); the sheet closed again. How many such places there were.
fn ways_a_tile_lies_are_pictures_told_apart(driver: &Driver, line: &str) -> usize {
    let event: Value = serde_json::from_str(line).unwrap();
    let player = event["player"].as_str().unwrap();
    tap(driver, &format!("button.kind[data-kind='place_tile'][data-player='{player}']"));
    let group = driver.eval(&format!(
        "const b = [...document.querySelectorAll('#chooser button.group')].find((b) => JSON.parse(b.dataset.lines).includes({line:?}));
         if (!b) return null; b.id = 'tap-me';
         const names = [...document.querySelectorAll('#chooser button.group')].map((b) => b.getAttribute('aria-label'));
         return [names.length, new Set(names).size, [...document.querySelectorAll('#chooser button.group')].every((b) => !!b.querySelector('svg'))];"
    ));
    assert!(group.is_array(), "the tile of {line} among the tiles drawn");
    let problems = violations(driver, &axe_script());
    assert!(problems.is_empty(), "the tiles to choose from: {problems:?}");
    driver.screenshot(&root().join("target/browser/recorder-tiles.png"));
    assert_eq!(group[0], group[1], "each tile in words of its own: {group}");
    assert_eq!(group[2], json!(true), "each tile a picture");
    tap(driver, "#tap-me");
    driver.eval("document.getElementById('tap-me')?.removeAttribute('id')");
    let places = driver.eval("return [...document.querySelectorAll('#board circle.target')].filter((d) => JSON.parse(d.dataset.lines).length > 1).length");
    let mut seen = 0;
    for i in 0..places.as_u64().unwrap() {
        driver.eval(&format!(
            "[...document.querySelectorAll('#board circle.target')].filter((d) => JSON.parse(d.dataset.lines).length > 1)[{i}].id = 'tap-me'"
        ));
        tap(driver, "#tap-me");
        driver.eval("document.getElementById('tap-me')?.removeAttribute('id')");
        let ways = driver.eval(
            "const names = [...document.querySelectorAll('#chooser:not([hidden]) button.choice')].map((b) => b.textContent);
             return [names.length, new Set(names).size, [...document.querySelectorAll('#chooser button.choice')].every((b) => !!b.querySelector('svg'))];",
        );
        if ways[0].as_u64().unwrap() > 1 {
            assert_eq!(ways[0], ways[1], "each way a tile lies in words of its own: {ways}");
            assert_eq!(ways[2], json!(true), "each way a picture");
            if seen == 0 {
                let problems = violations(driver, &axe_script());
                assert!(problems.is_empty(), "the ways a tile lies: {problems:?}");
                driver.screenshot(&root().join("target/browser/recorder-tile-ways.png"));
            }
            seen += 1;
        }
        tap(driver, "#chooser button.cancel");
        // The board's places again, for the next.
        if i + 1 < places.as_u64().unwrap() {
            tap(driver, &format!("button.kind[data-kind='place_tile'][data-player='{player}']"));
            driver.eval(&format!(
                "[...document.querySelectorAll('#chooser button.group')].find((b) => JSON.parse(b.dataset.lines).includes({line:?})).id = 'tap-me'"
            ));
            tap(driver, "#tap-me");
            driver.eval("document.getElementById('tap-me')?.removeAttribute('id')");
        }
    }
    driver.eval("document.querySelector('#chooser button.cancel')?.click()");
    seen
}

/// A club records the six-player sample at a phone by taps only: six seats, the Special Building Phase
/// between turns (the others build, and the next player's first entry ends it); the stored events are the
/// sample's.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_club_records_the_six_player_game_by_taps_on_a_phone() {
    let app = spawn_app(16 << 20);
    let log = sample("catan-six-players.jsonl");
    let lines: Vec<&str> = log.lines().collect();
    let (id, driver) = table_with_a_phone(&app, lines[0]);
    open_recorder(&driver, &app, &id);
    let mut cost = Cost::default();
    for (k, line) in lines[1..].iter().enumerate() {
        cost.add(line, record_by_taps(&driver, line, k as u64 + 1));
    }
    cost.check("the six-player game");
    let stored = app.get_as(&format!("/api/games/{id}/log"), &app.token).body;
    let stored = stored_events(&stored);
    let expected: Vec<Value> = lines[1..].iter().map(|l| serde_json::from_str(&as_entered(l)).unwrap()).collect();
    assert_eq!(stored, expected);
    // The game ended as the sample did: the same winner.
    let summary = app.get_as(&format!("/api/games/{id}"), &app.token).json();
    assert!(summary["winner"].is_string(), "{summary}");
}

/// The whole Helpers of Catan sample entered by taps: each of the ten helpers' uses a form of picks (the
/// resource, whom, where, what comes after) and, for a payment, steppers; the stored events are the
/// sample's, and a pick's options are a finger's size and pass axe.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_club_records_a_game_with_the_helpers_by_taps_on_a_phone() {
    let app = spawn_app(16 << 20);
    let log = sample("catan-helpers.jsonl");
    let lines: Vec<&str> = log.lines().collect();
    let (id, driver) = table_with_a_phone(&app, lines[0]);
    open_recorder(&driver, &app, &id);
    let mut checked = false;
    for (k, line) in lines[1..].iter().enumerate() {
        if !checked && line.contains(r#""type":"use_helper""#) {
            // The first use's form, looked at before it is entered.
            let player = serde_json::from_str::<Value>(line).unwrap()["player"].as_str().unwrap().to_string();
            tap(&driver, &format!("button.kind[data-kind='use_helper'][data-player='{player}']"));
            driver.wait_for("the helper's form", "return !!document.querySelector('#chooser fieldset.pick')");
            let smallest = driver.eval(
                "return Math.min(...[...document.querySelectorAll('#chooser button')].map((b) => Math.min(b.getBoundingClientRect().width, b.getBoundingClientRect().height)))",
            );
            assert!(smallest.as_f64().unwrap() >= 44.0, "a button of {smallest} px");
            let problems = violations(&driver, &axe_script());
            assert!(problems.is_empty(), "the helper's form: {problems:?}");
            driver.screenshot(&root().join("target/browser/recorder-helper.png"));
            tap(&driver, "#chooser button.cancel");
            checked = true;
        }
        record_by_taps(&driver, line, k as u64 + 1);
    }
    assert!(checked);
    let stored = app.get_as(&format!("/api/games/{id}/log"), &app.token).body;
    let stored = stored_events(&stored);
    let expected: Vec<Value> = lines[1..].iter().map(|l| serde_json::from_str(&as_entered(l)).unwrap()).collect();
    assert_eq!(stored, expected);
}

/// Several cards from the bank in one entry: at the first moment of the club sample a player could take
/// two cards from the bank at once, the trade is counted out with the bank form's steppers and stored as
/// entered.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_bank_trade_of_several_cards_is_counted_out_in_one_entry() {
    let app = spawn_app(16 << 20);
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    // The moment, and a trade the rules accept there (each rate, each resource, two cards of others).
    let names = ["lumber", "brick", "wool", "grain", "ore"];
    let mut game = almanac_engine::read_log(lines[0]).unwrap();
    let (at, trade) = (1..lines.len())
        .find_map(|i| {
            let open = game.next();
            let found = open.iter().find(|o| o.types.contains(&"maritime_trade")).and_then(|o| {
                (2..=4).flat_map(|rate| names.map(move |give| (rate, give))).find_map(|(rate, give)| {
                    let others = names.iter().filter(|&&n| n != give).collect::<Vec<_>>();
                    let line = json!({"type": "maritime_trade", "player": o.player, "give": {give: 2 * rate},
                        "get": {*others[0]: 1, *others[1]: 1}})
                    .to_string();
                    let ok = game.push_line(i + 1, &line).is_ok();
                    game.truncate(i - 1);
                    ok.then_some(line)
                })
            });
            game.push_line(i + 1, lines[i]).unwrap();
            found.map(|line| (i, line))
        })
        .expect("a moment for two cards from the bank");
    let (id, driver) = table_with_a_phone(&app, lines[0]);
    let (status, ok) = app.append(&id, 0, &lines[1..at]);
    assert_eq!(status, 200, "{ok}");
    open_recorder(&driver, &app, &id);
    record_by_taps(&driver, &trade, at as u64);
    let log = app.get_as(&format!("/api/games/{id}/log"), &app.token).body;
    let last = stored_events(&log).pop().unwrap();
    assert_eq!(last, serde_json::from_str::<Value>(&trade).unwrap());
}

/// A club begins a game at the table from the page: the game and its beginning chosen, the players typed
/// in seat order; the recorder opens on the new game, whose header is the sample's in all that the game
/// plays by (its players and options), and the sample's first turns are entered on it by taps.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_club_begins_a_game_at_the_table_from_the_start_page() {
    let app = spawn_app(16 << 20);
    let log = sample("carcassonne-traders-builders.jsonl");
    let lines: Vec<&str> = log.lines().collect();
    let sample_header: Value = serde_json::from_str(lines[0]).unwrap();
    // The club's own game, and another club's: a seat's name is completed from the club's own players only.
    let (status, body) = app.post("/api/games", sample("catan-club-game.jsonl").as_bytes());
    assert_eq!(status, 201, "{body}");
    let other = support::new_club(&app.db, "Moda");
    let strangers = sample("catan-club-game.jsonl").replace("Zeynep", "Stranger");
    let theirs = app.send(
        "POST",
        "/api/games",
        Some(strangers.as_bytes()),
        &[("authorization", &format!("Bearer {other}")), ("content-type", "application/x-ndjson")],
    );
    assert_eq!(theirs.status, 201, "{}", theirs.body);
    let driver = Driver::start();
    driver.screen(PHONE.0, PHONE.1);
    sign_in(&driver, &app);
    tap(&driver, "a.begin");
    driver.wait_ready("start");
    let suggested =
        driver.eval("return [...document.querySelectorAll('#known-players option')].map((o) => o.value).sort()");
    assert_eq!(suggested, json!(["Ayşe", "Can", "Mehmet", "Zeynep"]), "the club's own players");
    let problems = violations(&driver, &axe_script());
    assert!(problems.is_empty(), "the start page: {problems:?}");
    assert_eq!(layout_problems(&driver), Vec::<String>::new(), "the start page on a phone");
    driver.eval(
        "const r = document.getElementById('ruleset'); r.value = 'carcassonne'; r.dispatchEvent(new Event('change'));",
    );
    driver.wait_for(
        "its beginnings",
        "return !!document.querySelector('#beginning option[value=\"traders-and-builders\"]')",
    );
    driver.eval(
        "const b = document.getElementById('beginning'); b.value = 'traders-and-builders'; b.dispatchEvent(new Event('change'));",
    );
    let names: Vec<&str> =
        sample_header["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    for (k, name) in names.iter().enumerate() {
        if k >= 2 {
            tap(&driver, "#add-seat");
        }
        driver.type_into(&format!("#seats li:nth-child({}) input", k + 1), name);
    }
    driver.type_into("#title", "Table 1");
    tap(&driver, "#begin-game");
    driver.screenshot(&root().join("target/browser/begin.png"));
    driver.wait_for(
        "the game begun",
        "return !!document.getElementById('recorder') || !document.getElementById('problem')?.hidden",
    );
    let said =
        driver.eval("const p = document.getElementById('problem'); return p && !p.hidden ? p.textContent : null");
    assert!(said.is_null(), "the start was refused: {said}");
    driver.wait_ready("recorder");
    let id = driver.eval("return document.getElementById('recorder').dataset.game").as_str().unwrap().to_string();
    let stored = app.get_as(&format!("/api/games/{id}/log"), &app.token).body;
    let header: Value = serde_json::from_str(stored.lines().next().unwrap()).unwrap();
    assert_eq!(header["options"], sample_header["options"]);
    let seated: Vec<&str> = header["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(seated, names);
    assert_eq!(header["title"], "Table 1");
    for (k, line) in lines[1..=8].iter().enumerate() {
        record_by_taps(&driver, line, k as u64 + 1);
    }
    let stored = app.get_as(&format!("/api/games/{id}/log"), &app.token).body;
    let stored = stored_events(&stored);
    let expected: Vec<Value> = lines[1..=8].iter().map(|l| serde_json::from_str(&as_entered(l)).unwrap()).collect();
    assert_eq!(stored, expected);

    // The rulebook's beginner set-up: chosen, the game begins with every colour's starting pieces placed,
    // and the first thing to tap is the first player's roll.
    driver.goto(&format!("{}/record", app.address));
    driver.wait_ready("start");
    driver
        .eval("const r = document.getElementById('ruleset'); r.value = 'catan'; r.dispatchEvent(new Event('change'));");
    driver
        .wait_for("its beginnings", "return !!document.querySelector('#beginning option[value=\"beginner-pieces\"]')");
    driver.eval(
        "const b = document.getElementById('beginning'); b.value = 'beginner-pieces'; b.dispatchEvent(new Event('change'));",
    );
    let four = ["Ayşe", "Mehmet", "Zeynep", "Can"];
    for (k, name) in four.iter().enumerate() {
        if driver.eval(&format!("return !document.querySelector('#seats li:nth-child({})')", k + 1)) == json!(true) {
            tap(&driver, "#add-seat");
        }
        driver.eval(&format!("document.querySelector('#seats li:nth-child({}) input').value = ''", k + 1));
        driver.type_into(&format!("#seats li:nth-child({}) input", k + 1), name);
    }
    tap(&driver, "#begin-game");
    driver.wait_ready("recorder");
    driver.wait_for(
        "the first roll",
        "return !!document.querySelector('.pad button[data-kind=\"roll\"][data-player=\"Ayşe\"]')",
    );
    let id = driver.eval("return document.getElementById('recorder').dataset.game").as_str().unwrap().to_string();
    let stored = app.get_as(&format!("/api/games/{id}/log"), &app.token).body;
    let placed = stored_events(&stored);
    assert_eq!(placed.len(), 16, "{stored}");
    assert!(placed.iter().all(|e| e["type"] == "build_settlement" || e["type"] == "build_road"), "{stored}");
    driver.screenshot(&root().join("target/browser/begin-beginner-set-up.png"));
}

/// A club lays its own board at the start page, piece by piece with taps: here the rulebook's beginner
/// board, with one hex laid wrong first. The start is refused with each mistake in words and nothing is
/// stored; mended, the game begins on the board the table laid, and its first entries are the sample's.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_club_lays_its_own_board_by_taps_and_a_board_the_box_cannot_lay_is_refused() {
    let app = spawn_app(16 << 20);
    let log = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = log.lines().collect();
    let sample_header: Value = serde_json::from_str(lines[0]).unwrap();
    let board = &sample_header["board"];
    let club_games = || app.get_as("/api/games?limit=1000", &app.token).json()["games"].as_array().unwrap().len();
    let driver = Driver::start();
    driver.screen(PHONE.0, PHONE.1);
    sign_in(&driver, &app);
    tap(&driver, "a.begin");
    driver.wait_ready("start");
    driver
        .eval("const b = document.getElementById('beginning'); b.value = 'own'; b.dispatchEvent(new Event('change'));");
    driver.wait_for("the board to lay", "return !document.getElementById('laying').hidden");
    let names: Vec<&str> =
        sample_header["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    for (k, name) in names.iter().enumerate() {
        if k >= 3 {
            tap(&driver, "#add-seat");
        }
        driver.type_into(&format!("#seats li:nth-child({}) input", k + 1), name);
    }
    // What lies where on the sample's board; the first hex laid as a forest, a mistake.
    let mut pieces: Vec<(&str, String, String)> = Vec::new();
    for (i, h) in board["hexes"].as_array().unwrap().iter().enumerate() {
        let terrain = if i == 0 { "forest" } else { h["terrain"].as_str().unwrap() };
        pieces.push(("terrain", terrain.to_string(), format!("h{i}")));
        if let Some(n) = h["number"].as_u64() {
            pieces.push(("number", n.to_string(), format!("h{i}")));
        }
    }
    for hb in board["harbours"].as_array().unwrap() {
        let piece = hb["resource"].as_str().unwrap_or("3:1").to_string();
        pieces.push(("harbour", piece, hb["edge"].as_str().unwrap().to_string()));
    }
    pieces.sort();
    let mut chosen = (String::new(), String::new());
    for (kind, piece, place) in &pieces {
        if chosen.0 != *kind {
            tap(&driver, &format!("#piece-kinds button[data-kind='{kind}']"));
        }
        if chosen != (kind.to_string(), piece.clone()) {
            tap(&driver, &format!("#pieces button[data-piece='{piece}']"));
            chosen = (kind.to_string(), piece.clone());
        }
        tap(&driver, &format!("#laying-board .place[data-place='{place}']"));
    }
    // Every place and piece a fingertip's size; nothing axe calls serious; the page fits the phone.
    let smallest = driver.eval(
        "return Math.min(...[...document.querySelectorAll('#laying-board .place, #laying button')].map((e) => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); }))",
    );
    assert!(smallest.as_f64().unwrap() >= 44.0, "a target of {smallest} px");
    let problems = violations(&driver, &axe_script());
    assert!(problems.is_empty(), "the board to lay: {problems:?}");
    assert_eq!(layout_problems(&driver), Vec::<String>::new(), "the board to lay on a phone");
    driver.screenshot(&root().join("target/browser/begin-own-board.png"));
    let before = club_games();
    tap(&driver, "#begin-game");
    driver.wait_for("the refusal", "return !document.getElementById('problem').hidden");
    let said: Vec<String> = serde_json::from_value(
        driver.eval("return [...document.querySelectorAll('#problem li')].map((li) => li.textContent)"),
    )
    .unwrap();
    assert_eq!(
        said,
        ["the box holds 4 forest hexes; the board has 5", "the box holds 3 mountains hexes; the board has 2"]
    );
    assert_eq!(club_games(), before, "a refused start stores nothing");
    // Mended: the first hex is the sample's mountains.
    tap(&driver, "#piece-kinds button[data-kind='terrain']");
    tap(&driver, &format!("#pieces button[data-piece='{}']", board["hexes"][0]["terrain"].as_str().unwrap()));
    tap(&driver, "#laying-board .place[data-place='h0']");
    tap(&driver, "#begin-game");
    driver.wait_ready("recorder");
    let id = driver.eval("return document.getElementById('recorder').dataset.game").as_str().unwrap().to_string();
    let stored = app.get_as(&format!("/api/games/{id}/log"), &app.token).body;
    let header: Value = serde_json::from_str(stored.lines().next().unwrap()).unwrap();
    assert_eq!(&header["board"], board, "the board the table laid");
    for (k, line) in lines[1..=8].iter().enumerate() {
        record_by_taps(&driver, line, k as u64 + 1);
    }
    let stored = app.get_as(&format!("/api/games/{id}/log"), &app.token).body;
    let stored = stored_events(&stored);
    let expected: Vec<Value> = lines[1..=8].iter().map(|l| serde_json::from_str(&as_entered(l)).unwrap()).collect();
    assert_eq!(stored, expected);
}

/// The server stops in the middle of a game. Ten entries are made on the phone, the rules in the browser
/// saying what may happen next (the board moves on, the page says how many wait); the server starts again
/// and all ten land, in order, once.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn the_server_stops_and_ten_entries_made_offline_land_in_order_once() {
    let app = spawn_app(16 << 20);
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    let (id, driver) = table_with_a_phone(&app, lines[0]);
    open_recorder(&driver, &app, &id);
    assert_eq!(driver.eval("return document.getElementById('recorder').dataset.rules"), json!("yes"));
    // The setup and its first turns with the server.
    let online = 20;
    for (k, line) in lines[1..=online].iter().enumerate() {
        record_by_taps(&driver, line, k as u64 + 1);
    }
    // The page and its files are kept on the phone for a reload offline.
    driver.wait_for("the page kept", "return document.getElementById('recorder').dataset.kept === 'yes'");
    app.stop();
    // What the board shows (the robber among it, which the entries made offline move).
    let pieces = |d: &Driver| d.eval("return document.querySelector('#board .pieces').innerHTML");
    let before = pieces(&driver);
    for (k, line) in lines[online + 1..=online + 5].iter().enumerate() {
        record_offline_by_taps(&driver, line, k as u64 + 1);
    }
    // The page reloaded with the server still away: it opens from what the phone kept, the five entries
    // still waiting, and the table goes on.
    let offline_board = pieces(&driver);
    open_recorder(&driver, &app, &id);
    let r =
        driver.eval("const r = document.getElementById('recorder').dataset; return [r.offline, r.waiting, r.rules]");
    assert_eq!(r, json!(["yes", "5", "yes"]));
    assert_eq!(pieces(&driver), offline_board, "the board as it was before the reload");
    for (k, line) in lines[online + 6..=online + 10].iter().enumerate() {
        record_offline_by_taps(&driver, line, k as u64 + 6);
    }
    let said = driver.eval("return document.getElementById('waiting').textContent");
    assert_eq!(said, json!("10 entries wait for the server"));
    assert_eq!(driver.eval("return document.querySelectorAll('#entries li.waiting').length"), json!(6));
    assert_ne!(pieces(&driver), before, "the board moved on offline");
    driver.screenshot(&root().join("target/browser/recorder-offline.png"));
    // Back: the ten are sent, in order.
    app.start_again();
    let last = online + 10;
    driver.wait_for(
        "the ten entries stored",
        &format!("const r = document.getElementById('recorder'); return r.dataset.synced === '{last}' && r.dataset.waiting === '0'"),
    );
    let log = app.get_as(&format!("/api/games/{id}/log"), &app.token).body;
    let stored = stored_events(&log);
    let expected: Vec<Value> = lines[1..=last].iter().map(|l| serde_json::from_str(&as_entered(l)).unwrap()).collect();
    assert_eq!(stored, expected, "all ten, in order, once");
    // An entry the server stored whose answer never came back (here: the last of the ten, put back in the
    // phone's queue as if it were still waiting) is found in the log at its place and not sent again. The
    // queue is written from a page of the same origin that runs no recorder: the recorder's own page may
    // be catching up with the server just back, and would write its queue over this one.
    driver.goto(&format!("{}/static/favicon.svg", app.address));
    driver.eval(&format!(
        "localStorage.setItem('almanac-record:{id}', JSON.stringify([{{ event: {}, after: {} }}]))",
        lines[last],
        last - 1
    ));
    open_recorder(&driver, &app, &id);
    driver.wait_for("the queue read", "return document.getElementById('recorder').dataset.synced !== undefined");
    let r = driver.eval("const r = document.getElementById('recorder'); return [r.dataset.waiting, r.dataset.synced, document.getElementById('problem').textContent]");
    let describe = serde_json::from_str::<Value>(lines[last]).unwrap();
    let describe =
        format!("{} {}", describe["player"].as_str().unwrap(), describe["type"].as_str().unwrap().replace('_', " "));
    assert_eq!(r, json!(["0", last.to_string(), format!("Already in the game: {describe}.")]));
    let log = app.get_as(&format!("/api/games/{id}/log"), &app.token).body;
    assert_eq!(log.lines().count(), last + 1, "nothing sent twice");
    // And the game goes on online.
    record_by_taps(&driver, lines[last + 1], last as u64 + 1);
}

/// Two phones record one game: each follows the other's entries over the game's stream, without a tap.
/// An entry the other phone already made is recognised and not stored twice: the same settlement tapped
/// on both, and the same trade entered from its other side (each made while the phone had not yet heard of
/// the other's); an entry that no longer applies is dropped with the rule's words. The log has no gap and
/// no duplicate.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn two_phones_record_one_game_and_each_entry_is_stored_once() {
    let app = spawn_app(16 << 20);
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    let (id, a) = table_with_a_phone(&app, lines[0]);
    open_recorder(&a, &app, &id);
    let b = Driver::start();
    b.screen(PHONE.0, PHONE.1);
    sign_in(&b, &app);
    open_recorder(&b, &app, &id);
    let at = |n: usize| {
        format!("const r = document.getElementById('recorder'); return r.dataset.seq === '{n}' && document.getElementById('last').dataset.seq === '{n}'")
    };
    // Each phone's entries shown on the other without a tap.
    for k in 1..=4 {
        let (by, other) = if k % 2 == 1 { (&a, &b) } else { (&b, &a) };
        record_by_taps(by, lines[k], k as u64);
        let started = Instant::now();
        other.wait_for(&format!("the other phone shows entry {k}"), &at(k));
        println!("entry {k} shown on the other phone {} ms after it was stored", started.elapsed().as_millis());
    }
    // A settlement both phones tapped: the other phone's arrived first, and this phone's (made for the same
    // place in the log, before it heard) is recognised there.
    let wait =
        |d: &Driver| d.wait_for("nothing waits", "return document.getElementById('recorder').dataset.waiting === '0'");
    let (status, ok) = app.append(&id, 4, &[lines[5]]);
    assert_eq!(status, 200, "{ok}");
    b.wait_for("phone B follows", &at(5));
    b.eval(&format!(
        "localStorage.setItem('almanac-record:{id}', JSON.stringify([{{ event: {}, after: 4 }}]))",
        lines[5]
    ));
    open_recorder(&b, &app, &id);
    wait(&b);
    let said = b.eval("return document.getElementById('problem').textContent");
    let settler = serde_json::from_str::<Value>(lines[5]).unwrap()["player"].as_str().unwrap().to_string();
    assert_eq!(said, json!(format!("Already in the game: {settler} build settlement.")));
    // The first trade of the game: entered on phone A by its active player; phone B entered it from the
    // partner's side before it heard of A's.
    let trade = lines.iter().position(|l| l.contains(r#""type":"trade""#)).unwrap();
    let (status, ok) = app.append(&id, 5, &lines[6..trade]);
    assert_eq!(status, 200, "{ok}");
    a.wait_for("phone A up to the trade", &at(trade - 1));
    record_by_taps(&a, lines[trade], trade as u64);
    b.wait_for("phone B follows", &at(trade));
    let t: Value = serde_json::from_str(lines[trade]).unwrap();
    let mirrored = json!({"type": "trade", "player": t["with"], "with": t["player"], "give": t["get"], "get": t["give"],
        "time": "2026-12-03T19:00:00Z"});
    b.eval(&format!(
        "localStorage.setItem('almanac-record:{id}', JSON.stringify([{{ event: {mirrored}, after: {} }}]))",
        trade - 1
    ));
    open_recorder(&b, &app, &id);
    wait(&b);
    let said = b.eval("return document.getElementById('problem').textContent");
    assert_eq!(said, json!(format!("Already in the game: {} trade.", t["with"].as_str().unwrap())));
    // An entry made before this phone heard of the other's, which no longer applies after it (a settlement
    // on a corner already built on): dropped with the rule's words.
    let (status, ok) = app.append(&id, trade, &[lines[trade + 1]]);
    assert_eq!(status, 200, "{ok}");
    b.wait_for("phone B follows", &at(trade + 1));
    let first: Value = serde_json::from_str(lines[1]).unwrap();
    let stale = json!({"type": "build_settlement", "player": t["with"], "at": first["at"]});
    b.eval(&format!(
        "localStorage.setItem('almanac-record:{id}', JSON.stringify([{{ event: {stale}, after: {trade} }}]))"
    ));
    open_recorder(&b, &app, &id);
    wait(&b);
    let said = b.eval("return document.getElementById('problem').textContent");
    assert!(said.as_str().unwrap().starts_with("Not entered: "), "{said}");
    record_by_taps(&b, lines[trade + 2], trade as u64 + 2);
    a.wait_for("phone A follows", &at(trade + 2));
    let log = app.get_as(&format!("/api/games/{id}/log"), &app.token).body;
    let expected: Vec<Value> =
        lines[1..=trade + 2].iter().map(|l| serde_json::from_str(&as_entered(l)).unwrap()).collect();
    let stored: Vec<Value> = log
        .lines()
        .skip(1)
        .map(|l| {
            // Some entries were made at a phone (a roll by its total), some sent whole (by its dice).
            let mut e: Value = serde_json::from_str(&as_entered(l)).unwrap();
            e.as_object_mut().unwrap().remove("time");
            e
        })
        .collect();
    assert_eq!(stored, expected, "no gap, no duplicate");
}

/// A spectator's replay of a live game follows the table: an entry appended is listed and shown, for a
/// spectator at the end; one looking at an earlier event stays there.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_spectator_replay_follows_the_entries_as_they_land() {
    let app = spawn_app(16 << 20);
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    let (status, body) = app.post("/api/games?publish=true", lines[..11].join("\n").as_bytes());
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let driver = Driver::start();
    driver.goto(&format!("{}/games/{id}?seq=10", app.address));
    driver.wait_for("the replay", "return document.getElementById('replay').dataset.shown === '10'");
    let roads = |d: &Driver| d.eval("return document.querySelectorAll('#board .road').length").as_u64().unwrap();
    let before = roads(&driver);
    for (k, line) in lines[11..13].iter().enumerate() {
        let (status, ok) = app.append(&id, 10 + k, &[line]);
        assert_eq!(status, 200, "{ok}");
        let n = 11 + k;
        driver.wait_for(
            &format!("event {n} followed"),
            &format!("const r = document.getElementById('replay'); return r.dataset.followed === '{n}' && r.dataset.shown === '{n}'"),
        );
        assert!(driver
            .eval(&format!("return !!document.querySelector('#events li[data-seq=\"{n}\"]')"))
            .as_bool()
            .unwrap());
    }
    assert!(roads(&driver) > before, "the board moved along: {} roads", roads(&driver));
}

/// Two servers on one PostgreSQL: the table records on the first, a spectator watches the replay on the
/// second, which hears of each entry through the store (LISTEN/NOTIFY) and moves along. How long each
/// entry took to reach the spectator is printed (never asserted: these machines are noisy).
#[test]
#[ignore = "needs Chromium, chromedriver and PostgreSQL: `make test` installs and starts them"]
fn a_spectator_on_a_second_server_follows_the_table_through_postgresql() {
    let app = spawn_postgres_app(almanac_server::Limits::default());
    let other = support::another_server(&app);
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    let (status, body) = app.post("/api/games?publish=true", lines[0].as_bytes());
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let phone = Driver::start();
    phone.screen(PHONE.0, PHONE.1);
    sign_in(&phone, &app);
    open_recorder(&phone, &app, &id);
    let spectator = Driver::start();
    spectator.goto(&format!("{}/games/{id}", other.address));
    spectator.wait_ready("replay");
    let mut took = Vec::new();
    for (k, line) in lines[1..=6].iter().enumerate() {
        let n = k + 1;
        record_by_taps(&phone, line, n as u64);
        let entered = Instant::now();
        spectator.wait_for(
            &format!("event {n} on the second server"),
            &format!("const r = document.getElementById('replay'); return r.dataset.followed === '{n}' && r.dataset.shown === '{n}'"),
        );
        took.push(entered.elapsed().as_millis());
        assert!(spectator
            .eval(&format!("return !!document.querySelector('#events li[data-seq=\"{n}\"]')"))
            .as_bool()
            .unwrap());
    }
    let pieces = spectator.eval("return document.querySelectorAll('#board .settlement, #board .road').length");
    assert_eq!(pieces, json!(6), "the spectator's board moved along: three settlements and three roads");
    eprintln!("an entry reached the spectator on the second server in (ms): {took:?}");
}

fn discards(log: &str) -> u64 {
    log.matches("\"discard_tile\"").count() as u64
}

/// Every game's sample, published: its file's name, its log and the upload's answer.
fn published_samples(app: &TestApp) -> Vec<(String, String, Value)> {
    almanac_core::testing::every_sample()
        .into_iter()
        .map(|path| {
            let log = std::fs::read_to_string(&path).unwrap();
            // A game registered only in the tests keeps its sample in its crate, as `sample.jsonl`.
            let name = match path.file_name().unwrap().to_str().unwrap() {
                "sample.jsonl" => format!("{}.jsonl", path.parent().unwrap().file_name().unwrap().to_str().unwrap()),
                file => file.to_string(),
            };
            let (status, body) = app.post("/api/games?publish=true", log.as_bytes());
            assert!(status == 201 || status == 200, "{name}: {body}");
            (name, log, body)
        })
        .collect()
}

/// Every sample of every game, stepped from its start to its end: each drawing runs without error (a
/// throwing drawing never marks the step as shown), pieces appear, and each player is listed.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn every_sample_replays_from_start_to_end() {
    let app = spawn_app(16 << 20);
    let driver = Driver::start();
    for (name, log, body) in published_samples(&app) {
        let id = body["id"].as_str().unwrap();
        let events = log.lines().count() - 1;
        let players =
            serde_json::from_str::<Value>(log.lines().next().unwrap()).unwrap()["players"].as_array().unwrap().len();
        driver.goto(&format!("{}/games/{id}?seq=0", app.address));
        driver.wait_for(
            &format!("{name}: the replay"),
            "return document.getElementById('replay').dataset.ready === 'yes'",
        );
        driver
            .wait_for(&format!("{name}: the start"), "return document.getElementById('replay').dataset.shown === '0'");
        for step in 1..=3 {
            driver.press(ARROW_RIGHT);
            let shown = format!("return document.getElementById('replay').dataset.shown === '{step}'");
            driver.wait_for(&format!("{name}: step {step}"), &shown);
        }
        driver.press("\u{E010}"); // End
        let end = format!("return document.getElementById('replay').dataset.shown === '{events}'");
        driver.wait_for(&format!("{name}: the end"), &end);
        let pieces = driver.eval("return document.querySelectorAll('#board .pieces *').length").as_u64().unwrap();
        assert!(pieces > 0, "{name}: nothing drawn at the end");
        let listed = driver.eval("return document.querySelectorAll('#players .player').length").as_u64().unwrap();
        assert_eq!(listed as usize, players, "{name}: every player is listed");
        driver.screenshot(&root().join("target/browser/samples").join(name.replace(".jsonl", ".png")));
    }
}

#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_club_signs_in_uploads_a_private_game_publishes_it_and_signs_out() {
    let app = spawn_app(16 << 20);
    let driver = Driver::start();
    driver.goto(&format!("{}/", app.address));
    assert!(driver.eval("return !document.getElementById('upload')").as_bool().unwrap(), "no upload form signed out");
    driver.click("a.session");
    driver.wait_for("the sign-in form", "return !!document.getElementById('token')");
    driver.type_into("#token", &app.token);
    driver.click(".signin button[type=submit]");
    driver.wait_for(
        "the games page, signed in",
        "return document.querySelector('.session b')?.textContent === 'Test club'",
    );

    // The upload form is where a signed-in member looks first: above the list of games, on the first screen.
    let first = driver.eval(
        "const f = document.getElementById('upload'); return f.getBoundingClientRect().bottom <= innerHeight && !!(f.compareDocumentPosition(document.getElementById('games')) & Node.DOCUMENT_POSITION_FOLLOWING)",
    );
    assert_eq!(first, json!(true), "the upload form comes before the games, on the first screen");

    // Upload through the form: the game opens, private to the club.
    let file = root().join("data/samples/catan-cards-two-players.jsonl").canonicalize().unwrap();
    driver.type_into("#upload input[type=file]", file.to_str().unwrap());
    driver.click("#upload button[type=submit]");
    driver.wait_ready("replay");
    let id = driver.eval("return document.getElementById('replay').dataset.game");
    let id = id.as_str().unwrap().to_string();
    assert!(driver.eval("return document.querySelector('.owner').textContent").as_str().unwrap().contains("Private"));
    assert_eq!(app.send("GET", &format!("/games/{id}"), None, &[]).status, 404, "private to the public");

    // Publish, with the page's own form.
    driver.click(".owner form[action$='/publish'] button");
    driver.wait_for("published", "return !!document.querySelector('.owner') && document.querySelector('.owner').textContent.includes('Published')");
    assert_eq!(app.send("GET", &format!("/games/{id}"), None, &[]).status, 200, "published for everyone");
    driver.screenshot(&root().join("target/browser/signed-in.png"));

    // A note on the event shown, with the page's note form: it appears under that event.
    driver.wait_ready("replay");
    for _ in 0..5 {
        driver.press(ARROW_RIGHT);
    }
    driver.wait_for("five steps", "return document.getElementById('position').dataset.seq === '5'");
    driver.eval("document.querySelector('#note-form textarea').value = 'The opening left the ore short.'");
    driver.click("#note-form button");
    driver.wait_for("the note", "return !!document.querySelector('#events li[data-seq=\"5\"] .note')");
    let note = driver.eval("return document.querySelector('#events li[data-seq=\"5\"] .note').textContent");
    assert!(note.as_str().unwrap().contains("The opening left the ore short."), "{note}");

    // Signed out: the game is still there for anyone, without the club's controls; and what a recorder
    // kept on this device (a private game's log) is gone with the session.
    driver.eval(&format!("localStorage.setItem('almanac-record-log:{id}', 'a private log')"));
    driver.click("form.session button");
    driver.wait_for("signed out", "return !!document.querySelector('a.session')");
    assert_eq!(driver.eval("return localStorage.length"), json!(0), "the device keeps nothing of the club's");
    driver.goto(&format!("{}/games/{id}", app.address));
    driver.wait_ready("replay");
    assert!(driver.eval("return !document.querySelector('.owner')").as_bool().unwrap());
    // Anyone reads the note, and its link opens the replay at its event.
    let href = driver.eval("return document.querySelector('#events .note a').getAttribute('href')");
    assert!(href.as_str().unwrap().starts_with("?seq=5#note-"), "{href}");
    driver.goto(&format!("{}/games/{id}{}", app.address, href.as_str().unwrap()));
    driver.wait_for("the replay at the note", "return document.getElementById('position')?.dataset.seq === '5'");
}

/// axe-core, which `make test` fetches (`make browser`).
fn axe_script() -> String {
    let dir = root().join("target/axe");
    let file = std::fs::read_dir(&dir)
        .ok()
        .and_then(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).find(|p| p.to_string_lossy().ends_with(".min.js")))
        .unwrap_or_else(|| panic!("no axe-core in {}: run `make browser` (make test does)", dir.display()));
    std::fs::read_to_string(file).unwrap()
}

/// The critical and serious accessibility violations axe-core finds on the page shown, in words.
fn violations(driver: &Driver, axe: &str) -> Vec<String> {
    driver.eval(&format!("if (!window.axe) {{ {axe} }}"));
    driver.session("POST", "/timeouts", Some(json!({"script": 60000})));
    let found = driver.eval_async(
        "const done = arguments[arguments.length - 1];
         axe.run(document, { resultTypes: ['violations'] }).then((r) => done(r.violations.filter((v) => ['critical', 'serious'].includes(v.impact))
           .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')})`)));",
    );
    found.as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()
}

/// What a person at this width meets on the page shown: the page wider than the window, and chart text
/// smaller than 12 px as rendered.
fn layout_problems(driver: &Driver) -> Vec<String> {
    let found = driver.eval(
        "const problems = [];
         const wide = document.documentElement.scrollWidth;
         if (wide > window.innerWidth + 1) problems.push(`the page is ${wide} px wide in a ${window.innerWidth} px window`);
         for (const t of document.querySelectorAll('figure.chart svg text')) {
           if (!t.textContent.trim() || !t.getClientRects().length) continue;
           const m = t.getScreenCTM(); const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
           if (px < 11.5) { problems.push(`chart text '${t.textContent.trim()}' in ${t.closest('figure').dataset.chart} is ${px.toFixed(1)} px`); break; }
         }
         return problems;",
    );
    found.as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()
}

#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_cities_and_knights_replay_draws_the_knights_walls_metropolises_and_the_ship_of_the_state() {
    let app = spawn_app(16 << 20);
    let text = sample("cities-knights-club-game.jsonl");
    let (status, body) = app.post("/api/games?publish=true", text.as_bytes());
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap();
    let (_, state) = app.get_json(&format!("/api/games/{id}/state"));
    let knights = state["knights"].as_array().unwrap();
    let active = knights.iter().filter(|k| k["active"] == json!(true)).count();
    let buildings = state["buildings"].as_array().unwrap();
    let walls = buildings.iter().filter(|b| b["wall"] == json!(true)).count();
    let metropolises = buildings.iter().filter(|b| !b["metropolis"].is_null()).count();
    assert!(!knights.is_empty() && walls > 0 && metropolises > 0, "the sample ends with each on the board: {state}");
    let driver = Driver::start();
    driver.goto(&format!("{}/games/{id}", app.address));
    driver.wait_ready("replay");
    driver.press("\u{E010}"); // End
    let last = text.lines().count() - 1;
    driver.wait_for("the end", &format!("return document.getElementById('position').dataset.seq === '{last}'"));
    let count = |css: &str| {
        driver.eval(&format!("return document.querySelectorAll('#board {css}').length")).as_u64().unwrap() as usize
    };
    assert_eq!(count(".knight"), knights.len());
    assert_eq!(count(".knight.active"), active);
    assert_eq!(count(".wall"), walls);
    assert_eq!(count(".metropolis"), metropolises);
    assert_eq!(count(".ship"), 1, "the barbarian ship");
    let lines = driver.eval("return document.querySelector('#players').textContent").as_str().unwrap().to_string();
    let first = &state["players"][0];
    let levels = format!(
        "improvements: politics {} · science {} · trade {}",
        first["improvements"]["politics"], first["improvements"]["science"], first["improvements"]["trade"]
    );
    assert!(lines.contains(&levels), "{levels} not in {lines}");
    driver.screenshot(&root().join("target/browser/cities-knights-end.png"));
}

#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn an_elasund_replay_draws_the_city_of_the_state_at_each_step() {
    let app = spawn_app(16 << 20);
    let text = sample("elasund-four-players.jsonl");
    let (status, body) = app.post("/api/games?publish=true", text.as_bytes());
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap();
    let last = text.lines().count() - 1;
    let driver = Driver::start();
    driver.goto(&format!("{}/games/{id}?seq=0", app.address));
    driver.wait_ready("replay");
    let count = |d: &Driver, css: &str| {
        d.eval(&format!("return document.querySelectorAll('#board {css}').length")).as_u64().unwrap() as usize
    };
    assert_eq!(count(&driver, ".building"), 8, "two start huts for each of four players");
    assert_eq!(count(&driver, ".ship"), 0, "no ship before the first roll");
    for seq in [40, last] {
        driver.goto(&format!("{}/games/{id}?seq={seq}", app.address));
        driver.wait_ready("replay");
        driver.wait_for("the step", &format!("return document.getElementById('position').dataset.seq === '{seq}'"));
        let (_, state) = app.get_json(&format!("/api/games/{id}/state?seq={seq}"));
        let n = |k: &str| state[k].as_array().unwrap().len();
        assert_eq!(count(&driver, ".building"), n("buildings"), "at {seq}");
        assert_eq!(count(&driver, ".permit"), n("permits"), "at {seq}");
        assert_eq!(count(&driver, ".wall"), n("walls"), "at {seq}");
        assert_eq!(count(&driver, ".church"), n("church"), "at {seq}");
        assert_eq!(count(&driver, ".ship"), 1, "at {seq}");
        assert_eq!(count(&driver, ".pawn"), 4, "a trade-track pawn each");
    }
    driver.screenshot(&root().join("target/browser/elasund-end.png"));
}

/// The player of a game's first seat.
fn first_player(app: &TestApp, game: &str) -> i64 {
    let (_, g) = app.get_json(&format!("/api/games/{game}"));
    g["players"][0]["player"].as_i64().unwrap()
}

#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_coach_opens_a_player_from_a_game_then_a_head_to_head_then_a_game_they_shared() {
    let app = spawn_app(16 << 20);
    let (_, a) = app.post("/api/games?publish=true", sample("catan-club-game.jsonl").as_bytes());
    // Another game of the four (Can is Cem there), and a spectator's log of the first, which is that game.
    let other = sample("catan-club-game.jsonl").replace("\"Can\"", "\"Cem\"");
    app.post("/api/games?publish=true", other.as_bytes());
    app.post("/api/games?publish=true", sample("catan-club-game-observer.jsonl").as_bytes());
    let game = a["id"].as_str().unwrap();
    let downloads = tempfile::tempdir().unwrap();
    let driver = Driver::start_downloading_into(downloads.path());
    driver.goto(&format!("{}/games/{game}", app.address));
    driver.wait_ready("replay");
    let keys = driver.eval("return [...document.querySelectorAll('#events li.key')].map((li) => li.textContent)");
    assert!(keys.as_array().is_some_and(|k| k.iter().any(|t| t.as_str().unwrap().contains("★ a 7"))), "{keys}");
    driver.click("#players a.name");
    driver.wait_for("the player's page", "return !!document.querySelector('.player-page h1')");
    assert_eq!(driver.eval("return document.querySelector('.player-page h1').textContent"), json!("Ayşe"));
    let played = driver.eval("return document.querySelectorAll('table.played tbody tr').length");
    assert_eq!(played, json!(2), "both games, the spectator's copy counted once");
    driver.click("table.opponents a.versus");
    driver.wait_for("the head-to-head", "return !!document.querySelector('.versus-page')");
    let summary = driver.eval("return document.querySelector('.versus-page .summary').textContent");
    assert!(summary.as_str().unwrap().contains("2 games together: Ayşe never finished ahead"), "{summary}");
    driver.screenshot(&root().join("target/browser/head-to-head.png"));
    driver.click("table.shared a[href^='/games/']");
    driver.wait_for(
        "a shared game's replay",
        "return !!document.getElementById('replay') && document.getElementById('replay').dataset.ready === 'yes'",
    );
    // A preset question from the header, its answer as the API gives it, a counted game's replay.
    driver.click("header.top nav a[href='/questions']");
    driver.wait_for("the questions", "return !!document.querySelector('ul.presets')");
    driver.click("ul.presets a[href='/questions?preset=first-seat']");
    driver.wait_for("the answer", "return !!document.querySelector('table.answer-table tbody tr')");
    let (_, answer) = app.get_json("/api/questions?preset=first-seat");
    let rows = driver.eval(
        "return [...document.querySelectorAll('table.answer-table tbody tr')].map((tr) => [...tr.cells].map((td) => td.textContent))",
    );
    let expected: Vec<Value> = answer["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let percent = |k: &str| format!("{:.0}%", g[k].as_f64().unwrap() * 100.0);
            let rate = format!("{} {}–{}", percent("value"), percent("low"), percent("high"));
            json!([g["label"], rate, percent("expected"), g["seats"].to_string(), g["games"].to_string()])
        })
        .collect();
    assert_eq!(rows, json!(expected));
    assert_eq!(driver.eval("return document.querySelector('.answer h2').textContent"), answer["question"]);
    driver.screenshot(&root().join("target/browser/question.png"));
    // The answer as CSV, downloaded as a person would.
    driver.click(".exports a[href*='format=csv']");
    let csv_file = downloads.path().join("answer.csv");
    let started = Instant::now();
    while !csv_file.exists() {
        assert!(started.elapsed() < support::PATIENCE, "no CSV downloaded");
        std::thread::sleep(Duration::from_millis(50));
    }
    let (_, _, csv) = app.get_text("/api/questions?preset=first-seat&format=csv");
    assert_eq!(std::fs::read_to_string(&csv_file).unwrap(), csv);
    let counted = driver.property("ul.counted a", "href");
    driver.click("ul.counted a");
    driver.wait_for(
        "a counted game's replay",
        "return !!document.getElementById('replay') && document.getElementById('replay').dataset.ready === 'yes'",
    );
    assert_eq!(driver.eval("return location.href"), counted);
    // The builder: a player asked by name, typed in lower case; "Of" follows the metric chosen.
    driver.goto(&format!("{}/questions?ruleset=catan&metric=won&by=seat", app.address));
    driver.wait_for("the builder", "return !!document.querySelector('form.question')");
    driver.eval("document.querySelector('form.question select[name=metric]').value = 'lost'; document.querySelector('form.question select[name=metric]').dispatchEvent(new Event('change'))");
    driver.wait_for(
        "the causes",
        "return !!document.querySelector('form.question select[name=arg] option[value=steal]')",
    );
    driver.eval("document.querySelector('form.question select[name=metric]').value = 'won'; document.querySelector('form.question select[name=metric]').dispatchEvent(new Event('change'))");
    driver.wait_for(
        "nothing more",
        "return document.querySelector('form.question select[name=arg]').options.length === 1",
    );
    driver.type_into("form.question input[name=player]", "ayşe");
    driver.click("form.question button[type=submit]");
    driver.wait_for(
        "the answer by name",
        "return location.search.includes('player=') && !!document.querySelector('.answer h2')",
    );
    let question = driver.eval("return document.querySelector('.answer h2').textContent");
    assert!(question.as_str().unwrap().contains("Ayşe"), "{question}");
    assert_eq!(driver.eval("return document.querySelector('.problem')"), Value::Null, "answered");
}

#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn every_page_is_accessible_and_fits_a_phone_and_a_desktop() {
    let app = spawn_app(16 << 20);
    let (_, catan) = app.post("/api/games?publish=true", sample("catan-six-players.jsonl").as_bytes());
    let (_, carcassonne) = app.post("/api/games?publish=true", sample("carcassonne-traders-builders.jsonl").as_bytes());
    let (_, cards) = app.post("/api/games?publish=true", sample("catan-cards-four-players.jsonl").as_bytes());
    let (_, knights) = app.post("/api/games?publish=true", sample("cities-knights-club-game.jsonl").as_bytes());
    let (_, city) = app.post("/api/games?publish=true", sample("elasund-four-players.jsonl").as_bytes());
    let pages = [
        ("games", "/".to_string()),
        ("catan", format!("/games/{}", catan["id"].as_str().unwrap())),
        ("carcassonne", format!("/games/{}", carcassonne["id"].as_str().unwrap())),
        ("catan-cards", format!("/games/{}", cards["id"].as_str().unwrap())),
        ("cities-knights", format!("/games/{}", knights["id"].as_str().unwrap())),
        ("elasund", format!("/games/{}", city["id"].as_str().unwrap())),
        ("player", format!("/players/{}", first_player(&app, catan["id"].as_str().unwrap()))),
        ("leaderboard", "/leaderboard?ruleset=catan".to_string()),
        ("questions", "/questions?preset=best-players".to_string()),
        ("versus", {
            let (_, g) = app.get_json(&format!("/api/games/{}", catan["id"].as_str().unwrap()));
            format!("/players/{}/vs/{}", g["players"][0]["player"], g["players"][1]["player"])
        }),
    ];
    let axe = axe_script();
    let driver = Driver::start();
    let mut problems = Vec::new();
    for (width, height, size) in
        [(1920, 1080, "wide desktop"), (1400, 1000, "desktop"), (390, 844, "phone"), (360, 740, "narrow phone")]
    {
        driver.resize(width, height);
        for (name, path) in &pages {
            driver.goto(&format!("{}{path}", app.address));
            if path.starts_with("/games/") {
                driver.wait_ready("replay");
                driver.wait_for("the charts", "return document.getElementById('replay').dataset.charts === 'yes'");
            }
            driver.screenshot(&root().join(format!("target/browser/{name}-{width}.png")));
            if path.starts_with("/games/") {
                driver.eval("document.querySelector('.charts').scrollIntoView()");
                driver.screenshot(&root().join(format!("target/browser/{name}-{width}-charts.png")));
                if driver.eval("return !!document.querySelector('figure[data-chart=trades]')") == json!(true) {
                    driver.eval("document.querySelector('figure[data-chart=trades]').scrollIntoView()");
                    driver.screenshot(&root().join(format!("target/browser/{name}-{width}-trades.png")));
                }
            }
            for v in violations(&driver, &axe).into_iter().chain(layout_problems(&driver)) {
                problems.push(format!("{name} at {width} px ({size}): {v}"));
            }
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn without_scripts_the_pages_are_documents() {
    let app = spawn_app(16 << 20);
    let id = app.publish_sample("catan-club-game.jsonl");
    let driver = Driver::start_without_scripts();
    driver.goto(&format!("{}/", app.address));
    assert!(driver.text_of("#games").contains("Thursday league"), "the list is there");
    driver.goto(&format!("{}/games/{id}", app.address));
    let standings = driver.text_of("table.standings");
    assert!(standings.contains("Zeynep (winner)"), "the end of the game: {standings}");
    // The charts are images the server drew.
    std::thread::sleep(Duration::from_millis(500));
    let width = driver.property("figure[data-chart=vp] img", "naturalWidth");
    assert_eq!(width, json!(760), "the chart image loaded");
    assert_eq!(driver.property(".board-wrap", "offsetHeight"), json!(0), "no dead board or controls");
    driver.screenshot(&root().join("target/browser/without-scripts.png"));
    // Signed in as the owning club: its controls are there, but not the note form, which only the script
    // can send (shown without it, it would submit a GET that stores nothing).
    driver.session("POST", "/cookie", Some(json!({"cookie": {"name": "almanac_token", "value": app.token}})));
    driver.goto(&format!("{}/games/{id}", app.address));
    assert_ne!(driver.property(".owner form", "offsetHeight"), json!(0), "the owner's controls are shown");
    assert_eq!(driver.property("#note-form", "offsetHeight"), json!(0), "no note form that cannot post");
}

/// One sample of each kind of game the replay draws.
const KINDS: [&str; 7] = [
    "catan-club-game.jsonl",
    "catan-six-players.jsonl",
    "catan-helpers.jsonl",
    "cities-knights-club-game.jsonl",
    "elasund-four-players.jsonl",
    "catan-cards-four-players.jsonl",
    "carcassonne-traders-builders.jsonl",
];

const PHONE: (u32, u32) = (390, 844);
const DESKTOP: (u32, u32) = (1440, 900);

/// Where things are on the page as a person sees it: the current event's row against the list's box, the
/// page's scroll, and the board, the controls and the phone's strip against the screen.
const SEEN: &str = r#"
const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, height: r.height }; };
const list = document.getElementById('events');
return { row: box(list.querySelector('li.current')), list: box(list), scrollY: window.scrollY, screen: innerHeight,
  board: box(document.getElementById('board')), controls: box(document.querySelector('.controls')),
  now: box(document.querySelector('#now .current')), seq: +document.getElementById('replay').dataset.shown };"#;

fn seen(driver: &Driver) -> Value {
    driver.eval(SEEN)
}

fn f(v: &Value, path: &[&str]) -> f64 {
    let mut v = v;
    for p in path {
        v = &v[*p];
    }
    v.as_f64().unwrap_or_else(|| panic!("no {path:?} in {v}"))
}

/// The current event's row is inside the list's visible box.
fn row_in_list(v: &Value) -> bool {
    f(v, &["row", "top"]) >= f(v, &["list", "top"]) - 1.0 && f(v, &["row", "bottom"]) <= f(v, &["list", "bottom"]) + 1.0
}

/// Notes a failure where the current row has left the list's box, or the page moved when it should not.
fn check(failures: &mut Vec<String>, at: &str, what: &str, v: &Value, page_still: Option<f64>) {
    if !row_in_list(v) {
        failures.push(format!("{at}, {what}: the current row {} is outside the list {}", v["row"], v["list"]));
    }
    if let Some(y) = page_still {
        if (f(v, &["scrollY"]) - y).abs() > 0.5 {
            failures.push(format!("{at}, {what}: the page moved from {y} to {}", v["scrollY"]));
        }
    }
}

fn wait_shown(driver: &Driver, what: &str, seq: u64) {
    driver.wait_for(what, &format!("return document.getElementById('replay').dataset.shown === '{seq}'"));
}

/// After a deep link and after each of →, ←, End, a slider move and a chart click, on every kind of game
/// at a phone's and a desktop's size: the current event's row is inside the list's box, the page stays
/// where it was (a chart click may bring the board back), and a phone's first screen holds the board, the
/// step buttons and the event shown.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn the_event_list_follows_every_step_on_a_phone_and_a_desktop() {
    let app = spawn_app(16 << 20);
    let driver = Driver::start();
    let mut failures = Vec::new();
    for name in KINDS {
        let id = app.publish_sample(name);
        for (width, height) in [PHONE, DESKTOP] {
            driver.screen(width, height);
            let at = format!("{name} at {width} px");
            driver.goto(&format!("{}/games/{id}?turn=40", app.address));
            driver.wait_for(
                &format!("{at}: the replay"),
                "return document.getElementById('replay').dataset.ready === 'yes'",
            );
            let v = seen(&driver);
            check(&mut failures, &at, "the deep link", &v, Some(0.0));
            let last = driver.eval("return +document.getElementById('turn-slider').max").as_u64().unwrap();
            let events = driver.eval("return document.querySelectorAll('#events li').length - 1").as_u64().unwrap();
            if width == PHONE.0 {
                let screen = f(&v, &["screen"]);
                let (board, controls, now) = (&v["board"], &v["controls"], &v["now"]);
                let on_screen = |b: &Value| f(b, &["top"]) >= 0.0 && f(b, &["bottom"]) <= screen;
                if !on_screen(board) || !on_screen(controls) || !on_screen(now) {
                    failures
                        .push(format!("{at}: first screen {screen}: board {board}, controls {controls}, event {now}"));
                }
                if f(now, &["bottom"]) > f(controls, &["top"]) || f(board, &["bottom"]) > f(controls, &["top"]) {
                    failures.push(format!("{at}: the controls cover the board {board} or the event {now}"));
                }
            }
            let mut shown = f(&v, &["seq"]) as u64;
            // A game shorter than 40 turns: the deep link goes to its middle instead, to step both ways.
            if shown + 3 > events {
                driver.goto(&format!("{}/games/{id}?turn={}", app.address, last / 2));
                driver.wait_for(
                    &format!("{at}: the replay"),
                    "return document.getElementById('replay').dataset.ready === 'yes'",
                );
                let v = seen(&driver);
                check(&mut failures, &at, "the deep link", &v, Some(0.0));
                shown = f(&v, &["seq"]) as u64;
            }
            for (key, what) in [(ARROW_RIGHT, "→"), (ARROW_RIGHT, "→"), (ARROW_RIGHT, "→"), ("\u{E012}", "←")] {
                driver.press(key);
                shown = if what == "→" { shown + 1 } else { shown - 1 };
                wait_shown(&driver, &format!("{at}: {what}"), shown);
                check(&mut failures, &at, what, &seen(&driver), Some(0.0));
            }
            driver.press("\u{E010}"); // End
            wait_shown(&driver, &format!("{at}: End"), events);
            check(&mut failures, &at, "End", &seen(&driver), Some(0.0));
            let turn = last / 3;
            driver.eval(&format!(
                "const s = document.getElementById('turn-slider'); s.value = {turn}; s.dispatchEvent(new Event('input'));"
            ));
            driver.wait_for(
                &format!("{at}: the slider"),
                &format!("return document.getElementById('position').dataset.turn === '{turn}'"),
            );
            check(&mut failures, &at, "a slider move", &seen(&driver), Some(0.0));

            // A click on the last chart with turns, scrolled to as a reader would.
            driver.wait_for(
                &format!("{at}: the charts"),
                "return document.getElementById('replay').dataset.charts === 'yes'",
            );
            let turn = last / 4;
            let figure = driver.eval("const f = [...document.querySelectorAll('figure.chart')].filter((f) => f.querySelector('.turn-target')).pop(); return f ? f.dataset.chart : null");
            let Some(chart) = figure.as_str() else { continue };
            driver.eval(&format!(
                "document.querySelector('figure[data-chart=\"{chart}\"]').scrollIntoView({{block: 'end'}})"
            ));
            // Where a person points: a chart's turns are a pixel or two wide on a phone, so the turn clicked is
            // the one under the pointer, whichever it is.
            let point = driver.eval(&format!(
                "const r = document.querySelector('figure[data-chart=\"{chart}\"] .turn-target[data-turn=\"{turn}\"]').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]"
            ));
            driver.click_at(point[0].as_f64().unwrap(), point[1].as_f64().unwrap());
            driver.wait_for(
                &format!("{at}: the chart's turn"),
                &format!("return Math.abs(+document.getElementById('position').dataset.turn - {turn}) <= 1"),
            );
            // The board comes back into view (on a phone by a smooth scroll).
            driver.wait_for(
                &format!("{at}: the board after a chart click"),
                "const r = document.getElementById('board').getBoundingClientRect(); return r.top >= -1 && r.bottom <= innerHeight + 1",
            );
            check(&mut failures, &at, "a chart click", &seen(&driver), None);
            // The chart says what it is to a screen reader: its title, not its id.
            let label = driver.eval(&format!(
                "return document.querySelector('figure[data-chart=\"{chart}\"]').getAttribute('aria-label')"
            ));
            let title = driver.eval(&format!(
                "return document.querySelector('figure[data-chart=\"{chart}\"] svg title').textContent"
            ));
            let (label, title) = (label.as_str().unwrap(), title.as_str().unwrap());
            if label.contains(chart)
                || !title.starts_with(label.split(" (").next().unwrap_or(label))
                    && !label.starts_with(title.split(':').next().unwrap())
            {
                failures.push(format!("{at}: the chart {chart} is named {label:?} (its title: {title:?})"));
            }
            driver
                .screenshot(&root().join(format!("target/browser/follow/{}-{width}.png", name.replace(".jsonl", ""))));
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// Every label on a board, as rendered: its text, its size in CSS pixels, its box.
const LABELS: &str = r#"
const texts = [...document.querySelectorAll('#board text')].filter((t) => t.textContent.trim() && t.getBoundingClientRect().width > 0);
return texts.map((t) => { const r = t.getBoundingClientRect();
  return { text: t.textContent, size: parseFloat(getComputedStyle(t).fontSize) * Math.hypot(t.getScreenCTM().a, t.getScreenCTM().b), box: [r.left, r.top, r.right, r.bottom] }; });"#;

/// At a phone's width, every board's smallest label reads at 11 px or more, at once or within three steps
/// of its zoom, and no two labels overlap, at the start, in the middle and at the end of every kind of game.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn every_board_reads_on_a_phone_with_no_label_over_another() {
    let app = spawn_app(16 << 20);
    let driver = Driver::start();
    driver.screen(PHONE.0, PHONE.1);
    let mut failures = Vec::new();
    for name in KINDS {
        let id = app.publish_sample(name);
        let events = sample(name).lines().count() - 1;
        for at in [0, events / 2, events] {
            driver.goto(&format!("{}/games/{id}?seq={at}", app.address));
            driver.wait_for(
                &format!("{name}: the replay"),
                "return document.getElementById('replay').dataset.ready === 'yes'",
            );
            wait_shown(&driver, name, at as u64);
            let labels = driver.eval(LABELS);
            let labels = labels.as_array().unwrap();
            let smallest = |l: &[Value]| l.iter().map(|l| f(l, &["size"])).fold(f64::MAX, f64::min);
            let mut zooms = 0;
            let mut size = smallest(labels);
            while size < 11.0 && zooms < 3 {
                driver.click(".zoom button[aria-label='Zoom in']");
                zooms += 1;
                size = smallest(driver.eval(LABELS).as_array().unwrap());
            }
            if size < 11.0 {
                let small: Vec<String> = labels
                    .iter()
                    .filter(|l| f(l, &["size"]) < 11.0 / 3.375)
                    .map(|l| format!("{:?} {:.1} px", l["text"].as_str().unwrap(), f(l, &["size"])))
                    .collect();
                failures.push(format!("{name} at event {at}: {size:.1} px after 3 zooms: {}", small.join(", ")));
            }
            for (i, a) in labels.iter().enumerate() {
                for b in &labels[i + 1..] {
                    let (p, q) = (&a["box"], &b["box"]);
                    let x = |v: &Value, k: usize| v[k].as_f64().unwrap();
                    // A pixel's touch is not an overlap.
                    let overlap = x(p, 0) < x(q, 2) - 1.0
                        && x(q, 0) < x(p, 2) - 1.0
                        && x(p, 1) < x(q, 3) - 1.0
                        && x(q, 1) < x(p, 3) - 1.0;
                    if overlap {
                        failures
                            .push(format!("{name} at event {at}: {:?} over {:?} ({p} and {q})", a["text"], b["text"]));
                    }
                }
            }
        }
        driver.screenshot(&root().join(format!("target/browser/labels/{}.png", name.replace(".jsonl", ""))));
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// A coach's note is marked on each chart with turns, at its event's turn, saying what it says; a click on
/// the mark opens the replay at the note's event.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_coachs_note_is_marked_on_the_charts_and_opens_its_event() {
    let app = spawn_app(16 << 20);
    let id = app.publish_sample("catan-club-game.jsonl");
    let (status, note) =
        app.post_json(&format!("/api/games/{id}/notes"), &json!({"seq": 120, "text": "the 8 she needed"}));
    assert_eq!(status, 201, "{note}");
    let driver = Driver::start();
    driver.goto(&format!("{}/games/{id}?seq=0", app.address));
    driver.wait_for("the charts", "return document.getElementById('replay').dataset.charts === 'yes'");
    let turn = app.get_json(&format!("/api/games/{id}/events?from=120")).1["events"][0]["turn"].as_u64().unwrap();
    let marks = driver.eval(
        "return [...document.querySelectorAll('figure[data-chart=vp] .note-mark')].map((m) => [m.dataset.seq, m.querySelector('title').textContent])",
    );
    let marks = marks.as_array().unwrap();
    assert_eq!(marks.len(), 1, "{marks:?}");
    assert_eq!(marks[0][0], json!("120"));
    let said = marks[0][1].as_str().unwrap();
    assert!(said.contains(&format!("turn {turn}")) && said.contains("the 8 she needed"), "{said}");
    driver.eval("document.querySelector('figure[data-chart=vp]').scrollIntoView({block: 'center'})");
    let point = driver.eval(
        "const r = document.querySelector('figure[data-chart=vp] .note-mark').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]",
    );
    driver.click_at(point[0].as_f64().unwrap(), point[1].as_f64().unwrap());
    wait_shown(&driver, "the note's event", 120);
}

/// With a model trained, a replay shows each seat's chance beside its name at the event shown (the table's
/// chances summing to 100%), the chance chart, the turning points in the list and each player's turns to
/// study, a click on one opening its event.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_replay_shows_win_chances_turning_points_and_turns_to_study() {
    let app = spawn_app(16 << 20);
    let ids = support::publish_records_for_a_model(&app, &["catan-club-game.jsonl"]);
    support::train(&app, "catan");
    // A game of four programs with a marked decision (the club game is people's, whom a model of programs
    // shows no chance). Chances are shown from where the model knew more than equal chances on held-out games
    // of its population.
    let (id, chances) = support::chances_where(&app, &ids, |c| {
        c["players"].as_array().is_some_and(|p| p.len() == 4)
            && support::shows_a_mark(c, &["inaccuracy", "mistake", "blunder"])
    })
    .expect("a game of four with a marked decision");
    let until = chances["withheld"]["until"].as_u64().unwrap();
    let why = chances["withheld"]["why"].as_str().unwrap().to_string();

    let driver = Driver::start();
    driver.screen(DESKTOP.0, DESKTOP.1);
    driver.goto(&format!("{}/games/{id}?seq={}", app.address, until + 20));
    driver.wait_for("the chances", "return document.getElementById('replay').dataset.chancesShown === 'yes'");
    let shown = driver.eval("return [...document.querySelectorAll('#players .chance')].map((c) => c.textContent)");
    let shown: Vec<&str> = shown.as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(shown.len(), 4, "{shown:?}");
    let sum: i64 = shown.iter().map(|s| s.split('%').next().unwrap().parse::<i64>().unwrap()).sum();
    assert!((97..=103).contains(&sum), "the table's chances sum to {sum}%: {shown:?}");
    assert!(driver.eval("return document.querySelectorAll('#events li.turning').length > 0").as_bool().unwrap());
    driver.wait_for("the charts", "return document.getElementById('replay').dataset.charts === 'yes'");
    assert!(driver
        .eval("return document.querySelectorAll('figure[data-chart=chances] .turn-target').length > 10")
        .as_bool()
        .unwrap());
    // Under the curve, drawn in, what the model learnt from.
    let caption = driver.eval(
        "const c = document.querySelector('figure[data-chart=chances] svg + figcaption'); return c && c.textContent",
    );
    assert!(caption.as_str().is_some_and(|c| c.starts_with("Win chances by a model learnt from ")), "{caption}");
    // The coach table says each player's turns to study (their marked decisions), or that none was marked; a
    // click on one steps there.
    let studied = driver.eval("return document.querySelectorAll('.coach-table td.study a').length").as_u64().unwrap();
    let cells = driver.eval(
        "return [...document.querySelectorAll('.coach-table td.study')].map((td) => \
         td.querySelector('a') ? 'marked' : td.textContent.trim())",
    );
    assert!(studied >= 1, "{studied} turns to study: {cells}");
    let cells: Vec<&str> = cells.as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    assert_eq!(cells.len(), 4, "{cells:?}");
    assert!(cells.iter().all(|c| *c == "marked" || *c == "none marked"), "{cells:?}");
    // Compact, they keep the table in its box's width.
    let fits = driver.eval(
        "const t = document.querySelector('.coach-table'); const box = t.parentElement.getBoundingClientRect(); \
         return [t.getBoundingClientRect().right, box.right]",
    );
    assert!(fits[0].as_f64().unwrap() <= fits[1].as_f64().unwrap() + 1.0, "the coach table fits its box: {fits}");
    driver.eval("document.querySelector('.coach-table').scrollIntoView()");
    let seq =
        driver.eval("const a = document.querySelector('.coach-table td.study a'); a.click(); return a.dataset.seq");
    wait_shown(&driver, "a turn to study", seq.as_str().unwrap().parse().unwrap());
    driver.screenshot(&root().join("target/browser/chances.png"));
    // In the set-up, and up to where chances are shown, no chance is shown, and the panel says why.
    driver.goto(&format!("{}/games/{id}?seq=1", app.address));
    driver.wait_for("the chances", "return document.getElementById('replay').dataset.chancesShown === 'yes'");
    let shown =
        driver.eval("return [...document.querySelectorAll('#players .chance')].map((c) => [c.textContent, c.title])");
    let shown = shown.as_array().unwrap();
    assert_eq!(shown.len(), 4, "{shown:?}");
    assert!(shown.iter().all(|c| c[0] == "no chance yet" && c[1] == why.as_str()), "{shown:?}");
}

/// A blunder selected in the replay shows the better move: ringed on the board, and in words beside the
/// event with the chances it would have left, on a phone and on a desktop, in view without scrolling.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_blunder_selected_shows_the_better_move_on_the_board() {
    let app = spawn_app(16 << 20);
    let ids = support::publish_records_for_a_model(&app, &["catan-club-game.jsonl"]);
    support::train(&app, "catan");
    // A game of programs with a blunder whose better move has a place on the board.
    let placed = |c: &Value| {
        c["decisions"].as_array().is_some_and(|d| {
            d.iter().any(|d| d["mark"] == "blunder" && d["best_line"].as_str().unwrap_or("").contains("\"at\""))
        })
    };
    let (id, chances) = support::chances_where(&app, &ids, |c| support::shows_a_mark(c, &["blunder"]) && placed(c))
        .expect("a placed blunder");
    let blunder = chances["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["mark"] == "blunder")
        .find(|d| d["best_line"].as_str().unwrap().contains("\"at\""))
        .expect("the game has a blunder whose better move has a place")
        .clone();
    let seq = blunder["seq"].as_u64().unwrap();
    let driver = Driver::start();
    for (width, height) in [PHONE, DESKTOP] {
        driver.screen(width, height);
        driver.goto(&format!("{}/games/{id}?seq={}", app.address, seq - 1));
        driver.wait_for("the chances", "return document.getElementById('replay').dataset.chancesShown === 'yes'");
        let marked = driver.eval(&format!(
            "const li = document.querySelector('#events li[data-seq=\"{seq}\"]'); \
             return li && [li.dataset.mark, li.querySelector('.decision-mark').textContent]"
        ));
        assert_eq!(marked[0], "blunder", "{marked}");
        assert!(marked[1].as_str().unwrap().contains("??"), "{marked}");
        // The better move is drawn only once the blunder is the event shown.
        assert_eq!(driver.eval("return document.querySelectorAll('#board .better-move').length").as_u64(), Some(0));
        let step = "const r = document.getElementById('next').getBoundingClientRect(); return [r.left, r.top]";
        let before = driver.eval(step);
        driver.eval(&format!("document.querySelector('#events li[data-seq=\"{seq}\"]').click()"));
        wait_shown(&driver, "the blunder", seq);
        driver.wait_for("the better move", "return document.querySelectorAll('#board .better-move').length === 1");
        // The better move's words come without moving the step buttons from under the mouse.
        assert_eq!(driver.eval(step), before, "at {width} px ▶ stays where it was");
        let said = driver.eval(
            "const p = document.getElementById('better'); const r = p.getBoundingClientRect(); \
             return [p.hidden, p.textContent, r.top, r.bottom, innerHeight]",
        );
        assert_eq!(said[0], false, "{said}");
        let words = said[1].as_str().unwrap();
        assert!(words.contains(blunder["best_words"].as_str().unwrap()) && words.contains("instead"), "{words}");
        assert!(words.contains(&format!("{}%", (blunder["best"].as_f64().unwrap() * 100.0).round())), "{words}");
        let (top, bottom, screen) = (said[2].as_f64().unwrap(), said[3].as_f64().unwrap(), said[4].as_f64().unwrap());
        assert!(top >= 0.0 && bottom <= screen, "at {width} px the better move's words are in view: {said}");
        // The ring lies on the board as drawn.
        let inside = driver.eval(
            "const b = document.getElementById('board').getBoundingClientRect(); \
             const r = document.querySelector('#board .better-move').getBoundingClientRect(); \
             return r.width > 0 && r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1",
        );
        assert_eq!(inside.as_bool(), Some(true), "at {width} px");
        driver.screenshot(&root().join(format!("target/browser/better-move-{width}.png")));
        // Each player's accuracy and marks beside the board (on a desktop, in view with it), each count a
        // link to the player's first decision so marked.
        let summary = driver.eval(
            "const a = document.getElementById('accuracy'); const r = a.getBoundingClientRect(); \
             const b = document.getElementById('board').getBoundingClientRect(); \
             return [a.querySelectorAll('tbody th[scope=row]').length, r.top, r.left, b.right, innerHeight, a.textContent]",
        );
        assert_eq!(summary[0].as_u64(), chances["players"].as_array().map(|p| p.len() as u64), "{summary}");
        assert!(summary[5].as_str().unwrap().contains("?? a blunder"), "the marks said beside them: {summary}");
        if (width, height) == DESKTOP {
            let (top, left, board_right, screen) = (
                summary[1].as_f64().unwrap(),
                summary[2].as_f64().unwrap(),
                summary[3].as_f64().unwrap(),
                summary[4].as_f64().unwrap(),
            );
            assert!(top >= 0.0 && top < screen && left >= board_right - 1.0, "beside the board, in view: {summary}");
        }
        let player = blunder["player"].as_str().unwrap();
        let first = chances["decisions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["mark"] == "blunder" && d["player"] == player)
            .unwrap()["seq"]
            .as_u64()
            .unwrap();
        let row = chances["players"].as_array().unwrap().iter().position(|p| p == player).unwrap();
        driver.eval(&format!(
            "document.querySelectorAll('#accuracy tbody tr:not(.phases)')[{row}].querySelector('td.blunder a').click()"
        ));
        wait_shown(&driver, "the player's first blunder", first);
        // Another event shown: the ring and the words go.
        driver.eval(&format!("document.querySelector('#events li[data-seq=\"{}\"]').click()", seq - 1));
        wait_shown(&driver, "the event before", seq - 1);
        assert_eq!(driver.eval("return document.querySelectorAll('#board .better-move').length").as_u64(), Some(0));
        assert_eq!(driver.eval("return document.getElementById('better').hidden").as_bool(), Some(true));
    }
}

/// Stepping with ▶ onto every marked decision of a game, on a phone and a desktop: ▶ never moves from under the
/// mouse, and neither the event shown nor its better move's words are covered (the phone's step bar is fixed
/// at the bottom of the screen): what lies at the middle of each is itself.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn stepping_onto_every_marked_decision_never_moves_the_step_button_or_covers_what_it_says() {
    let app = spawn_app(16 << 20);
    let ids = support::publish_records_for_a_model(&app, &["catan-club-game.jsonl"]);
    support::train(&app, "catan");
    // The game of four with the most entries marked.
    let marked_entries = |c: &Value| -> Vec<u64> {
        let mut seqs: Vec<u64> = c["decisions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| ["inaccuracy", "mistake", "blunder"].contains(&d["mark"].as_str().unwrap_or("")))
            .map(|d| d["seq"].as_u64().unwrap())
            .collect();
        seqs.dedup();
        seqs
    };
    let mut best: Option<(String, Vec<u64>)> = None;
    for id in &ids {
        let (status, c) = app.get_json(&format!("/api/games/{id}/chances"));
        if status != 200 || c["players"].as_array().map(Vec::len) != Some(4) {
            continue;
        }
        let seqs = marked_entries(&c);
        if best.as_ref().is_none_or(|(_, b)| seqs.len() > b.len()) {
            best = Some((id.clone(), seqs));
        }
    }
    let (id, seqs) = best.expect("a game of four");
    assert!(seqs.len() >= 5, "{id}: {} marked entries", seqs.len());
    let driver = Driver::start();
    for (width, height) in [PHONE, DESKTOP] {
        driver.screen(width, height);
        driver.goto(&format!("{}/games/{id}?seq={}", app.address, seqs[0] - 1));
        driver.wait_for("the chances", "return document.getElementById('replay').dataset.chancesShown === 'yes'");
        for &seq in &seqs {
            driver.eval(&format!("document.querySelector('#events li[data-seq=\"{}\"]').click()", seq - 1));
            wait_shown(&driver, "the event before", seq - 1);
            let step = "const r = document.getElementById('next').getBoundingClientRect(); return [r.left, r.top]";
            let before = driver.eval(step);
            driver.eval("document.getElementById('next').click()");
            wait_shown(&driver, "the marked decision", seq);
            driver.wait_for("its words", "return !document.getElementById('better').hidden");
            assert_eq!(driver.eval(step), before, "at {width} px, stepping onto {seq}: ▶ stays where it was");
            // What lies at the middle of the event shown (on a phone, the lines over the board that say it) and of
            // the better move's words is each of them.
            let seen = driver.eval(&format!(
                "const mine = (e) => {{ const r = e.getBoundingClientRect(); \
                   const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2; \
                   if (y < 0 || y > innerHeight) return `out of view: ${{y}} of ${{innerHeight}}, page at ${{scrollY}}`; \
                   const at = document.elementFromPoint(x, y); return e.contains(at) ? 'seen' : 'covered'; }}; \
                 const now = document.querySelector('#now .current'); \
                 const shown = now && now.getClientRects().length ? now : document.querySelector('#events li[data-seq=\"{seq}\"]'); \
                 return [mine(shown), mine(document.getElementById('better'))]"
            ));
            // Never covered; the better move's words in view; on a phone the event shown in view too (on a desktop
            // it may lie below the fold, in the list beside the board).
            let (event, words) = (seen[0].as_str().unwrap(), seen[1].as_str().unwrap());
            assert_eq!(words, "seen", "at {width} px, on {seq}: the better move's words");
            let phone = (width, height) == PHONE;
            assert!(
                event == "seen" || (!phone && event.starts_with("out of view")),
                "at {width} px, on {seq}: the event {event}"
            );
        }
    }
}

/// A better move with no place on the board (a trade, a card played or given up) is drawn as cards beside its
/// words: each card of the better move's bundles, with its count, and the development card it plays.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn a_better_trade_or_card_is_drawn_as_cards_beside_its_words() {
    let app = spawn_app(16 << 20);
    let ids = support::publish_records_for_a_model(&app, &["catan-club-game.jsonl"]);
    support::train(&app, "catan");
    // The entry shows its costliest marked decision: one whose better move trades, discards or plays a card.
    let pictured = |c: &Value| -> Option<Value> {
        let decisions = c["decisions"].as_array()?;
        let marked = |d: &&Value| ["inaccuracy", "mistake", "blunder"].contains(&d["mark"].as_str().unwrap_or(""));
        let costliest = |seq: &Value| {
            decisions
                .iter()
                .filter(|d| d["seq"] == *seq)
                .filter(marked)
                .max_by(|a, b| a["points"].as_f64().unwrap().total_cmp(&b["points"].as_f64().unwrap()))
        };
        decisions.iter().filter(marked).find_map(|d| {
            let top = costliest(&d["seq"])?;
            let line: Value = serde_json::from_str(top["best_line"].as_str()?).ok()?;
            let kind = line["type"].as_str()?;
            ["maritime_trade", "trade", "discard", "play_year_of_plenty"].contains(&kind).then(|| top.clone())
        })
    };
    let (id, chances) = support::chances_where(&app, &ids, |c| pictured(c).is_some()).expect("a better trade or card");
    let d = pictured(&chances).unwrap();
    let seq = d["seq"].as_u64().unwrap();
    let line: Value = serde_json::from_str(d["best_line"].as_str().unwrap()).unwrap();
    // The cards the line names, in words: "4 wool", and the card a play plays.
    let mut expected: Vec<String> = Vec::new();
    if line["type"] == "play_year_of_plenty" {
        expected.push("year of plenty".to_string());
    }
    for bundle in ["give", "get", "cards", "take"] {
        for (item, n) in line[bundle].as_object().into_iter().flatten() {
            expected.push(format!("{n} {}", item.replace('_', " ")));
        }
    }
    let driver = Driver::start();
    for (width, height) in [PHONE, DESKTOP] {
        driver.screen(width, height);
        driver.goto(&format!("{}/games/{id}?seq={}", app.address, seq - 1));
        driver.wait_for("the chances", "return document.getElementById('replay').dataset.chancesShown === 'yes'");
        let step = "const r = document.getElementById('next').getBoundingClientRect(); return [r.left, r.top]";
        let before = driver.eval(step);
        driver.eval(&format!("document.querySelector('#events li[data-seq=\"{seq}\"]').click()"));
        wait_shown(&driver, "the decision", seq);
        driver.wait_for("the cards", "return document.querySelectorAll('#better .picture .card').length > 0");
        let drawn =
            driver.eval("return [...document.querySelectorAll('#better .picture .card')].map((c) => c.textContent)");
        let drawn: Vec<&str> = drawn.as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        assert_eq!(drawn, expected, "at {width} px, for {line}");
        // Nothing ringed on the board: the cards are the picture; the step buttons stay where they were.
        assert_eq!(driver.eval("return document.querySelectorAll('#board .better-move').length").as_u64(), Some(0));
        assert_eq!(driver.eval(step), before, "at {width} px ▶ stays where it was");
        let box_ = driver.eval(
            "const r = document.getElementById('better').getBoundingClientRect(); return [r.top, r.bottom, innerHeight]",
        );
        let (top, bottom, screen) = (box_[0].as_f64().unwrap(), box_[1].as_f64().unwrap(), box_[2].as_f64().unwrap());
        assert!(top >= 0.0 && bottom <= screen, "at {width} px the cards are in view: {box_}");
        driver.screenshot(&root().join(format!("target/browser/better-cards-{width}.png")));
    }
}

/// What a person at this width meets on a coach's page: words cut off in their box, text under 12 px, the
/// page wider than the window.
fn cramped(driver: &Driver, css: &str) -> Vec<String> {
    let script = format!(
        "const problems = [];
         const wide = document.documentElement.scrollWidth;
         if (wide > window.innerWidth + 1) problems.push(`the page is ${{wide}} px wide in a ${{window.innerWidth}} px window`);
         for (const e of document.querySelectorAll({css:?})) {{
           if (!e.getClientRects().length) continue;
           if (e.scrollWidth > e.clientWidth + 1) problems.push(`'${{e.textContent.trim().slice(0, 40)}}' is cut off`);
           const px = parseFloat(getComputedStyle(e).fontSize);
           if (px < 12) problems.push(`'${{e.textContent.trim().slice(0, 40)}}' is ${{px}} px`);
           const r = e.getBoundingClientRect();
           if (r.right > window.innerWidth + 1) problems.push(`'${{e.textContent.trim().slice(0, 40)}}' runs off the screen`);
         }}
         return problems;"
    );
    driver.eval(&script).as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()
}

#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn the_leaderboard_a_players_summary_and_a_head_to_head_read_on_a_phone_and_a_desktop() {
    let app = spawn_app(16 << 20);
    let club = sample("catan-club-game.jsonl");
    let (_, a) = app.post("/api/games?publish=true", club.as_bytes());
    app.post("/api/games?publish=true", club.replace("\"Can\"", "\"Cem\"").as_bytes());
    for name in ["catanatron-1.json", "catanatron-2.json", "catanatron-3.json"] {
        let record = std::fs::read_to_string(root().join("tests/data/catanatron").join(name)).unwrap();
        app.post("/api/games?format=catanatron&publish=true", record.as_bytes());
    }
    app.post("/api/games?publish=true", sample("carcassonne-traders-builders.jsonl").as_bytes());
    let (_, g) = app.get_json(&format!("/api/games/{}", a["id"].as_str().unwrap()));
    let (ayse, zeynep) = (g["players"][0]["player"].clone(), g["players"][2]["player"].clone());
    let driver = Driver::start();
    let mut problems = Vec::new();
    for (width, height) in [(390, 844), (1440, 900)] {
        driver.screen(width, height);
        // The leaderboard from the header: the most played game, people only; another game chosen on the page.
        driver.goto(&format!("{}/", app.address));
        driver.click("header.top nav a[href='/leaderboard']");
        driver.wait_for("the leaderboard", "return !!document.querySelector('table.leaders')");
        assert_eq!(driver.eval("return document.querySelector('select[name=ruleset]').value"), json!("catan"));
        let names = driver.eval(
            "return [...document.querySelectorAll('table.leaders tbody td:nth-child(2)')].map((td) => td.textContent)",
        );
        assert_eq!(names.as_array().unwrap().len(), 5, "five people, no bot: {names}");
        assert_eq!(
            driver.eval("return document.querySelectorAll('table.leaders tr.provisional').length"),
            json!(5),
            "two games each: provisional"
        );
        driver.screenshot(&root().join(format!("target/browser/leaderboard-{width}.png")));
        problems.extend(
            cramped(&driver, "table.leaders td, form.board-choice label")
                .into_iter()
                .map(|p| format!("leaderboard at {width}: {p}")),
        );
        driver.eval("document.querySelector('select[name=ruleset]').value = 'carcassonne'");
        driver.click("form.board-choice button");
        driver.wait_for(
            "Carcassonne's board",
            "return location.search.includes('ruleset=carcassonne') && !!document.querySelector('table.leaders')",
        );
        assert!(driver
            .eval("return document.querySelector('h1').textContent")
            .as_str()
            .unwrap()
            .starts_with("Carcassonne"));
        driver.eval("document.querySelector('input[name=bots]').checked = true; document.querySelector('select[name=ruleset]').value = 'catan'");
        driver.click("form.board-choice button");
        driver.wait_for(
            "the board with bots",
            "return location.search.includes('bots=yes') && !!document.querySelector('table.leaders')",
        );
        let bots = driver.eval("return document.querySelectorAll('table.leaders .bot').length");
        assert_eq!(bots, json!(4), "catanatron's four programs' seats (RandomPlayer twice), marked");

        // A player's page opens with the summary, in the first screen, the details folding below it.
        driver.goto(&format!("{}/players/{ayse}", app.address));
        driver.wait_for("the player", "return !!document.querySelector('section.summary')");
        let top = driver.eval("return document.querySelector('section.summary').getBoundingClientRect().top");
        assert!(top.as_f64().unwrap() < height as f64 / 2.0, "the summary opens the page: {top}");
        let record = driver.eval("return document.querySelector('section.summary .record').textContent");
        assert!(record.as_str().unwrap().starts_with("0 wins of 2 games: 0%"), "{record}");
        // The field named: people's games, with its seats and games (the programs' games left out).
        let field = driver.eval("return document.querySelector('p.field').textContent");
        assert_eq!(
            field,
            json!("The field: people's published games like Ayşe's — Catan at 4 players (8 seats in 2 games). Programs left out.")
        );
        driver.screenshot(&root().join(format!("target/browser/player-summary-{width}.png")));
        problems.extend(
            cramped(&driver, "section.summary p, section.summary li, p.field")
                .into_iter()
                .map(|p| format!("summary at {width}: {p}")),
        );

        // The head-to-head: each number's words whole, its bars within the screen, the better one said.
        driver.goto(&format!("{}/players/{ayse}/vs/{zeynep}", app.address));
        driver.wait_for("the head-to-head", "return !!document.querySelector('.side-bars')");
        let summary = driver.eval("return document.querySelector('.versus-page .summary').textContent");
        assert_eq!(summary, json!("2 games together: Ayşe never finished ahead, Zeynep finished ahead twice."));
        let place = driver.eval(
            "const p = [...document.querySelectorAll('.side-pair')].find((e) => e.querySelector('.what').textContent.startsWith('finishing place'));
             return [p.querySelector('.what').textContent, p.querySelector('.bar-row.b .better') ? 'b' : (p.querySelector('.bar-row.a .better') ? 'a' : ''), p.querySelector('.verdict')?.textContent ?? '']",
        );
        // Two games each: Zeynep's lower places and Ayşe's do not tell them apart yet.
        assert_eq!(
            place,
            json!(["finishing place (lower is better)", "", "about the same"]),
            "two games say no more than that"
        );
        driver.screenshot(&root().join(format!("target/browser/head-to-head-{width}.png")));
        problems.extend(
            cramped(&driver, ".side-pair .what, .bar-row .value, .bar-row .who")
                .into_iter()
                .map(|p| format!("head-to-head at {width}: {p}")),
        );
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

/// Signing out clears what the device kept of the club's games on any origin, not only where the browser
/// heeds the server's `Clear-Site-Data` (HTTPS and localhost): here the server is reached over plain HTTP
/// under a name of the LAN's. Entries still waiting keep the session until they are sent.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn signing_out_over_plain_http_clears_what_the_device_kept() {
    let app = spawn_app(16 << 20);
    let (status, body) = app.post("/api/games", sample("catan-club-game.jsonl").as_bytes());
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let driver = Driver::start_reaching_as("club-laptop.lan");
    let port = app.address.rsplit(':').next().unwrap();
    let lan = format!("http://club-laptop.lan:{port}");
    sign_in_at(&driver, &app, &lan);
    assert_eq!(driver.eval("return window.isSecureContext"), json!(false), "an origin the browser does not trust");
    // An entry waiting: the sign-out waits for it, and says so.
    driver.eval(&format!(
        "localStorage.setItem('almanac-record:{id}', JSON.stringify([{{event: {{}}, after: 0}}])); \
         localStorage.setItem('almanac-record-log:{id}', 'a private log'); \
         localStorage.setItem('almanac-record-summary:{id}', 'its players')"
    ));
    driver.goto(&format!("{lan}/"));
    driver.wait_for("signed in", "return !!document.querySelector('form.session')");
    let (waiting_said, _) = (driver.eval("window.alert = (t) => { window.said = t; }; return true"), ());
    assert_eq!(waiting_said, json!(true));
    driver.click("form.session button");
    driver.wait_for("told why not", "return (window.said || '').includes('1 entry still waits')");
    assert!(driver.eval("return !!document.querySelector('form.session')").as_bool().unwrap(), "still signed in");
    // Sent: the sign-out clears the private log and the rest.
    driver
        .eval(&format!("localStorage.setItem('almanac-record:{id}', '[]'); localStorage.setItem('unrelated', 'kept')"));
    driver.click("form.session button");
    driver.wait_for("signed out", "return !!document.querySelector('a.session')");
    let kept = driver.eval("return Object.keys(localStorage).filter((k) => k.startsWith('almanac-record'))");
    assert_eq!(kept, json!([]), "the device keeps nothing of the club's");
    assert_eq!(driver.eval("return localStorage.getItem('unrelated')"), json!("kept"));
}

/// A club laptop serving phones over its LAN by plain HTTP (a name of the LAN's, an origin the browser does
/// not trust: no service worker). Entries made while the laptop is away wait on the phone; a reload then
/// finds no page, but nothing is lost: when the laptop is back and the page is opened again, the entries
/// land, once and in order.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn over_plain_http_on_a_lan_entries_made_while_the_laptop_is_away_survive_a_reload() {
    let app = spawn_app(16 << 20);
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    let (status, body) = app.post("/api/games", lines[0].as_bytes());
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let driver = Driver::start_reaching_as("club-laptop.lan");
    driver.screen(PHONE.0, PHONE.1);
    let port = app.address.rsplit(':').next().unwrap();
    let lan = format!("http://club-laptop.lan:{port}");
    sign_in_at(&driver, &app, &lan);
    let recorder = format!("{lan}/games/{id}/record");
    driver.goto(&recorder);
    driver.wait_ready("recorder");
    assert_eq!(
        driver.eval("return [window.isSecureContext, 'serviceWorker' in navigator]"),
        json!([false, false]),
        "plain HTTP on the LAN: no service worker"
    );
    for (k, line) in lines[1..=3].iter().enumerate() {
        record_by_taps(&driver, line, k as u64 + 1);
    }
    app.stop();
    for (k, line) in lines[4..=6].iter().enumerate() {
        record_offline_by_taps(&driver, line, k as u64 + 1);
    }
    // A reload with the laptop away: no page to show (the browser's own error page).
    driver.eval("setTimeout(() => location.reload(), 0); return true");
    driver.wait_for(
        "no page without the laptop",
        "return document.readyState === 'complete' && !document.getElementById('recorder') && !document.querySelector('.session')",
    );
    app.start_again();
    driver.goto(&recorder);
    driver.wait_for(
        "the three entries landed",
        "const r = document.getElementById('recorder'); return r?.dataset.synced === '6' && r.dataset.waiting === '0'",
    );
    let log = app.get_as(&format!("/api/games/{id}/log"), &app.token).body;
    let expected: Vec<Value> = lines[1..=6].iter().map(|l| serde_json::from_str(&as_entered(l)).unwrap()).collect();
    assert_eq!(stored_events(&log), expected, "all six, in order, once");
}

/// The current event, with its marks, is in view without scrolling the page, on a phone and on a desktop,
/// for every sample: the list's current row at a desktop's width, the line saying the event on a phone.
#[test]
#[ignore = "needs Chromium and chromedriver: `make test` installs them"]
fn the_current_event_is_in_view_without_scrolling_on_a_phone_and_a_desktop() {
    let app = spawn_app(16 << 20);
    let driver = Driver::start();
    for (name, log, body) in published_samples(&app) {
        let id = body["id"].as_str().unwrap().to_string();
        let middle = (log.lines().count() - 1) / 2;
        for (width, height) in [DESKTOP, PHONE] {
            driver.screen(width, height);
            driver.goto(&format!("{}/games/{id}?seq={middle}", app.address));
            driver.wait_for(
                &format!("{name}: the replay"),
                "return document.getElementById('replay').dataset.ready === 'yes'",
            );
            driver.wait_for(
                &format!("{name}: event {middle}"),
                &format!("return document.getElementById('replay').dataset.shown === '{middle}'"),
            );
            // A desktop's list of events shows the current row (in the list's own scrolled box); a phone's line
            // under the controls says the event.
            let seen = driver.eval(
                "const desk = window.innerWidth > 760;
                 const e = desk ? document.querySelector('#events li.current') : document.getElementById('now');
                 const r = e.getBoundingClientRect();
                 const box = desk ? document.getElementById('events').getBoundingClientRect() : r;
                 return [window.scrollY === 0, r.top >= 0 && r.bottom <= window.innerHeight,
                   r.top >= box.top - 1 && r.bottom <= box.bottom + 1, e.textContent.length > 0, Math.round(r.bottom)]",
            );
            let seen = seen.as_array().unwrap();
            assert!(
                seen[..4].iter().all(|v| v == &json!(true)),
                "{name} at {width} × {height}: the current event's bottom at {} (not scrolled, in the window, in the list, said: {seen:?})",
                seen[4]
            );
        }
    }
}
