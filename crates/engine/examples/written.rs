//! Prints every event of every record as this build writes it (a port's before-and-after check).
fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        let log = almanac_engine::validate(None, &text).unwrap();
        for i in 0..log.game.event_count() {
            println!("{path}\t{}", log.game.event_text(i));
        }
    }
}
