//! Positions and win chances on every sample and foreign record: what the model reads is whole, and
//! chances are a distribution that ends on the winner.

use almanac_analysis::training;
use almanac_core::testing::every_record;
use almanac_engine::validate;
use std::collections::BTreeSet;

/// A game that declares what a position is made of gives one position at the start and one after every
/// event, each with a value of every feature for every seat, its progress between 0 and 1; the positions a
/// model learns from are the ends of turns of finished games, each with the winner.
#[test]
fn every_position_has_a_value_of_every_feature_for_every_seat() {
    let mut with_features = BTreeSet::new();
    for path in every_record() {
        let text = std::fs::read_to_string(&path).unwrap();
        let log = validate(None, &text).unwrap();
        let game = log.game.as_ref();
        let positions = game.positions();
        if game.features().is_empty() {
            assert!(positions.is_empty(), "{}: positions without features", path.display());
            continue;
        }
        with_features.insert(game.ruleset());
        assert_eq!(positions.len(), game.event_count() + 1, "{}", path.display());
        let seats = game.envelope().players.len();
        for (i, p) in positions.iter().enumerate() {
            assert_eq!(p.seats.len(), seats, "{}: position {i}", path.display());
            assert_eq!(p.scores.len(), seats, "{}: position {i}", path.display());
            assert!((0.0..=1.0).contains(&p.progress), "{}: position {i}: progress {}", path.display(), p.progress);
            for seat in &p.seats {
                assert_eq!(seat.len(), game.features().len(), "{}: position {i}", path.display());
                assert!(seat.iter().all(|v| v.is_finite()), "{}: position {i}: {seat:?}", path.display());
            }
        }
        // The final position is the end: the winner's score is the highest.
        if let Some(w) = game.winner() {
            let last = positions.last().unwrap();
            let top = last.scores.iter().copied().fold(f64::MIN, f64::max);
            assert_eq!(last.scores[w as usize], top, "{}", path.display());
        }
        let samples = training::samples(game);
        assert_eq!(samples.is_empty(), game.winner().is_none(), "{}", path.display());
        assert!(samples.iter().all(|s| Some(s.winner as u8) == game.winner() && s.stage > 0.0 && s.stage < 1.0));
    }
    // Every game declares what its positions are made of.
    for kind in almanac_engine::GAMES {
        assert!(with_features.contains(kind.id()), "{} declares no features: {with_features:?}", kind.id());
    }
}

/// A model trained on the catanatron records we keep (and the samples, 20 finished games at least) gives
/// every position of every game a distribution, and the finished game's last position its winner's 1.
#[test]
fn chances_are_a_distribution_at_every_event_and_end_on_the_winner() {
    let games: Vec<_> = every_record()
        .iter()
        .map(|p| validate(None, &std::fs::read_to_string(p).unwrap()).unwrap())
        .filter(|l| l.game.ruleset() == "catan")
        .collect();
    let samples: Vec<training::Sample> = games.iter().flat_map(|l| training::samples(l.game.as_ref())).collect();
    let finished = games.iter().filter(|l| l.game.winner().is_some()).count();
    let kind = almanac_engine::game_kind("catan").unwrap();
    let features: Vec<&str> = kind.features().iter().map(|f| f.id).collect();
    let model =
        match training::train("catan", kind.version(), &features, finished.max(training::FEWEST_GAMES), &samples) {
            Ok(m) => m,
            Err(e) => panic!("{e}"),
        };
    for log in &games {
        let all = model.chances_of(log.game.as_ref());
        assert_eq!(all.len(), log.game.event_count() + 1);
        // The same chances read with their spreads, none negative, none left at a finished game's end.
        let (with_spread, spread) = model.chances_and_spread_of(log.game.as_ref());
        assert_eq!(with_spread, all);
        assert!(spread.iter().flatten().all(|&s| s >= 0.0));
        if log.game.winner().is_some() {
            assert!(spread.last().unwrap().iter().all(|&s| s == 0.0));
        }
        for c in &all {
            assert!((c.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{c:?}");
            assert!(c.iter().all(|&p| (0.0..=1.0).contains(&p)));
        }
        if let Some(w) = log.game.winner() {
            assert_eq!(all.last().unwrap()[w as usize], 1.0);
        }
    }
    // The model read something: on the games it saw, it beats equal chances late in the game.
    let read: Vec<_> = games
        .iter()
        .map(|l| almanac_analysis::evaluation::read(&model, 0.0, &training::samples(l.game.as_ref())))
        .collect();
    let e = almanac_analysis::evaluation::evaluate(&read);
    let late = &e.stages[2];
    assert!(late.model.log_loss < late.equal.log_loss, "{late:?}");
}
