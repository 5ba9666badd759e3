//! Replays every log of a directory several times (for profiling): `cargo run --release --example replay DIR [ROUNDS]`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let mut texts = Vec::new();
    for e in std::fs::read_dir(&args[1]).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        texts.push(almanac_engine::validate(None, &text).unwrap().text);
    }
    let t = std::time::Instant::now();
    let mut n = 0;
    for _ in 0..rounds {
        for text in &texts {
            n += almanac_engine::read_log(text).unwrap().event_count();
        }
    }
    eprintln!("{:.0} events/s", n as f64 / t.elapsed().as_secs_f64());
}
