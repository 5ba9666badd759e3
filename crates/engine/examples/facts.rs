//! Prints the facts of a record, one per line with its event index: `cargo run --example facts FILE [KIND]`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("read");
    let log = almanac_engine::validate(None, &text).unwrap_or_else(|e| panic!("{e}"));
    for i in 0..log.game.event_count() {
        for f in log.game.event_facts(i) {
            if args.len() < 3 || Some(f.kind()) == almanac_core::FactKind::named(&args[2]) {
                println!("{i}\t{}\t{f:?}", log.game.event_turn(i));
            }
        }
    }
}
