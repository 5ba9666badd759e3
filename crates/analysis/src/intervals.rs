//! How much stands behind a number: a 95 % interval that stays within the range the quantity can take, and
//! when two numbers may be called different.
//!
//! - A rate (wins of games, a chance): Wilson's interval, which stays within 0 and 1 and says something of a
//!   handful of games.
//! - A mean of values that are never negative (cards, points, turns, seconds): the score interval of a mean
//!   whose variance grows with it (quasi-Poisson). It never goes below 0, is wider above the mean than below
//!   as such means are, and is the usual mean ± 1.96 standard errors once the mean is large against its
//!   error. When every value is 0 it runs from 0 to 1.96² / n, as a count of none in n games does; when
//!   every value is alike, the spread is taken to be a count's (Poisson), not none.
//! - A mean of values with a floor above 0 (a finishing place, at least 1): the same, measured from the floor.
//! - A mean of values between two ends (decision accuracy, 0 to 100; a finishing place, 1 to the number of
//!   players at the table; a change of a chance, −1 to 1): Wilson's interval over the range, with as many
//!   trials as the values' spread is worth (quasi-binomial: a mean whose variance is `k · μ(1 − μ)`). It
//!   stays between the ends, and is Wilson's own for values that are each one end or the other.
//! - Any other mean (luck, which may be negative): the mean ± 1.96 standard errors.
//!
//! Two numbers are called different (one better) only when their 95 % intervals do not overlap; a number
//! and the field's, when the field's lies outside the number's interval. That is stricter than a two-sample
//! test at 95 %, and it is what a reader sees on the page: two bars whose intervals overlap are "about the
//! same".

use serde::Serialize;

/// The normal quantile of a two-sided 95 % interval: an interval's half-width in standard errors.
pub const Z: f64 = 1.959_963_985;

/// The values a number is a mean of: what range its interval keeps to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Bounds {
    /// 0 or 1 each (a win), or a chance between 0 and 1: Wilson's interval.
    Rate,
    /// Never below `floor` (0 for a count or a score).
    AtLeast(u8),
    /// Between the two ends (0 and 100 for a decision accuracy, −1 and 1 for a change of a chance).
    Between(i16, i16),
    /// A finishing place: between 1 and the number of players at the table (the mean table size of the
    /// values' games is the end a mean of places can reach).
    Place,
    /// Any value, negative ones too.
    Unbounded,
}

/// Wilson's 95 % interval for a rate `p` observed over `n` trials; none without trials.
pub fn wilson(p: f64, n: u64) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    Some(wilson_over(p, n as f64))
}

/// Wilson's interval over `n` trials, a number of them that may be fractional (as many as a spread is worth).
fn wilson_over(p: f64, n: f64) -> (f64, f64) {
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The standard error of a mean of `n` values whose variance (over those values) is `variance`; none below
/// two values, whose spread says nothing.
pub fn standard_error(variance: f64, n: u64) -> Option<f64> {
    if n < 2 {
        return None;
    }
    // The sample's variance from the values' own (n rather than n − 1 below), over n.
    Some((variance.max(0.0) / (n as f64 - 1.0)).sqrt())
}

/// A 95 % interval for a mean of `n` values whose variance (over those values) is `variance`: the mean
/// give or take 1.96 standard errors; none below two values.
pub fn mean_interval(mean: f64, variance: f64, n: u64) -> Option<(f64, f64)> {
    let se = standard_error(variance, n)?;
    Some((mean - Z * se, mean + Z * se))
}

/// A 95 % interval for a mean of `n` values none of which is below 0 (see the module): the means μ whose
/// distance from the mean is within 1.96 standard errors when the variance is taken to grow with μ.
pub fn nonnegative_mean_interval(mean: f64, variance: f64, n: u64) -> Option<(f64, f64)> {
    let mut se = standard_error(variance, n)?;
    if mean <= 0.0 {
        // Every value 0: up to what a count of none in n allows.
        return Some((0.0, Z * Z / n as f64));
    }
    if se == 0.0 {
        // Every value alike: a handful of equal values says little of the spread; a count's (Poisson) is
        // taken, rather than an interval of no width.
        se = (mean / n as f64).sqrt();
    }
    // (mean − μ)² = Z² · se² · μ / mean, solved for μ.
    let c = Z * Z * se * se / mean;
    let half = (c * mean + c * c / 4.0).sqrt();
    Some(((mean + c / 2.0 - half).max(0.0), mean + c / 2.0 + half))
}

/// A 95 % interval for a mean of `n` values each between `low` and `high` whose variance (over those values)
/// is `variance` (see the module): Wilson's over the range, with the trials the values' spread is worth;
/// none below two values.
pub fn bounded_mean_interval(mean: f64, variance: f64, n: u64, low: f64, high: f64) -> Option<(f64, f64)> {
    let width = high - low;
    if width.is_nan() || width <= 0.0 || mean < low || mean > high {
        // Values outside the range declared were not what the metric says: the plain interval.
        return mean_interval(mean, variance, n);
    }
    if n < 2 {
        return None;
    }
    // On the range as 0 to 1: values there spread at most as 0s and 1s do (m(1 − m)), so the trials they
    // are worth are at least n, and exactly n for values each at one end, a rate's.
    let (m, spread) = ((mean - low) / width, variance.max(0.0) / (width * width));
    // At an end, or every value alike: a rate's spread over n trials, which is what such values show.
    let trials = if m <= 0.0 || m >= 1.0 || spread == 0.0 { n as f64 } else { n as f64 * m * (1.0 - m) / spread };
    let (l, h) = wilson_over(m, trials);
    Some((low + l * width, low + h * width))
}

/// The 95 % interval of a mean of values within `bounds`; `players` is the mean number of players at the
/// tables the values come from (the end of a mean of places).
pub fn interval(bounds: Bounds, mean: f64, variance: f64, n: u64, players: f64) -> Option<(f64, f64)> {
    match bounds {
        Bounds::Rate => wilson(mean, n),
        Bounds::Between(low, high) => bounded_mean_interval(mean, variance, n, low.into(), high.into()),
        Bounds::Place if players > 1.0 => bounded_mean_interval(mean, variance, n, 1.0, players),
        Bounds::Place => interval(Bounds::AtLeast(1), mean, variance, n, players),
        // A mean below its floor says the values were not what the metric declares: the plain interval.
        Bounds::AtLeast(floor) if mean < floor as f64 => mean_interval(mean, variance, n),
        Bounds::AtLeast(floor) => {
            let floor = floor as f64;
            nonnegative_mean_interval(mean - floor, variance, n).map(|(l, h)| (l + floor, h + floor))
        }
        Bounds::Unbounded => mean_interval(mean, variance, n),
    }
}

/// How two numbers compare, by their intervals (see the module).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Comparison {
    /// The first's interval lies wholly above the second's.
    Higher,
    Lower,
    /// The intervals overlap: the data do not tell them apart.
    AboutTheSame,
    /// One of them has no interval (a single game).
    Unknown,
}

/// Compares two numbers by their 95 % intervals.
pub fn compare(a: Option<(f64, f64)>, b: Option<(f64, f64)>) -> Comparison {
    match (a, b) {
        (Some(a), Some(b)) if a.0 > b.1 => Comparison::Higher,
        (Some(a), Some(b)) if a.1 < b.0 => Comparison::Lower,
        (Some(_), Some(_)) => Comparison::AboutTheSame,
        _ => Comparison::Unknown,
    }
}

/// Compares a number, by its 95 % interval, with the field's (a population's mean, known far better).
pub fn against(interval: Option<(f64, f64)>, field: f64) -> Comparison {
    compare(interval, Some((field, field)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 5e-4 && (a.1 - b.1).abs() < 5e-4
    }

    #[test]
    fn wilson_intervals_match_the_published_worked_values() {
        // Newcombe (1998), table I: 81 of 263 gives 0.2553 to 0.3662; 15 of 148, 0.0624 to 0.1605; 0 of 10,
        // 0 to 0.2775; 10 of 10, 0.7225 to 1.
        assert!(close(wilson(81.0 / 263.0, 263).unwrap(), (0.2553, 0.3662)));
        assert!(close(wilson(15.0 / 148.0, 148).unwrap(), (0.0624, 0.1605)));
        assert!(close(wilson(0.0, 10).unwrap(), (0.0, 0.2775)));
        assert!(close(wilson(1.0, 10).unwrap(), (0.7225, 1.0)));
        assert_eq!(wilson(0.5, 0), None);
    }

    #[test]
    fn a_means_interval_is_its_standard_error_either_side() {
        // Values 2, 4, 4, 4, 5, 5, 7, 9: mean 5, variance over them 4, sample variance 32/7; SE = sqrt(32/56).
        let (low, high) = mean_interval(5.0, 4.0, 8).unwrap();
        let se = (32.0f64 / 56.0).sqrt();
        assert!((low - (5.0 - Z * se)).abs() < 1e-12 && (high - (5.0 + Z * se)).abs() < 1e-12);
        assert_eq!(mean_interval(3.0, 0.0, 1), None);
    }

    #[test]
    fn a_mean_of_counts_keeps_above_zero_and_its_ends_are_the_tests_bounds() {
        // Values 0, 0, 0, 11: mean 2.75, variance over them 22.6875; the usual interval goes below 0.
        let (mean, variance, n) = (2.75, 22.6875, 4);
        assert!(mean_interval(mean, variance, n).unwrap().0 < 0.0);
        let (low, high) = nonnegative_mean_interval(mean, variance, n).unwrap();
        assert!(0.0 <= low && low < mean && mean < high);
        // Each end is a μ at exactly 1.96 of its own standard errors from the mean: se(μ)² = se² · μ / mean.
        let se2 = standard_error(variance, n).unwrap().powi(2);
        for mu in [low, high] {
            assert!(((mean - mu).powi(2) - Z * Z * se2 * mu / mean).abs() < 1e-9, "{mu}");
        }
        // A large mean against its error: the usual interval, nearly.
        let (l, h) = nonnegative_mean_interval(100.0, 25.0, 100).unwrap();
        let (ul, uh) = mean_interval(100.0, 25.0, 100).unwrap();
        assert!((l - ul).abs() < 0.01 && (h - uh).abs() < 0.01, "{l} {h} against {ul} {uh}");
        // None in 10 games: 0 to 1.96² / 10.
        assert_eq!(nonnegative_mean_interval(0.0, 0.0, 10), Some((0.0, Z * Z / 10.0)));
        // Two games alike (3 and 3): not an interval of no width.
        let (low, high) = nonnegative_mean_interval(3.0, 0.0, 2).unwrap();
        assert!(low < 3.0 - 1.0 && high > 3.0 + 1.0, "{low} {high}");
        // At least 1: measured from 1, never below it.
        let (low, _) = interval(Bounds::AtLeast(1), 1.5, 2.25, 4, 0.0).unwrap();
        assert!(low >= 1.0, "{low}");
    }

    #[test]
    fn a_mean_between_two_ends_stays_between_them() {
        // The head-to-head: places 1, 4, 4 at tables of 4 and 5 players (a mean table of 4.67 seats);
        // the plain interval ran to 6.14, past the 4.67 a mean of places there can reach.
        let places = [1.0, 4.0, 4.0];
        let mean = places.iter().sum::<f64>() / 3.0;
        let variance = places.iter().map(|p| (p - mean) * (p - mean)).sum::<f64>() / 3.0;
        assert!(mean_interval(mean, variance, 3).unwrap().1 > 4.67);
        let (low, high) = interval(Bounds::Place, mean, variance, 3, 14.0 / 3.0).unwrap();
        assert!(1.0 <= low && low < mean && mean < high && high <= 14.0 / 3.0, "{low} {high}");
        // Decision accuracies near the top: never past 100.
        let (low, high) = interval(Bounds::Between(0, 100), 97.0, 9.0, 5, 0.0).unwrap();
        assert!(low < 97.0 && 97.0 < high && high <= 100.0, "{low} {high}");
        // Values that are each one end or the other: Wilson's own interval (3 of 10 at 100, the rest at 0).
        let (low, high) = bounded_mean_interval(30.0, 2100.0, 10, 0.0, 100.0).unwrap();
        let (wl, wh) = wilson(0.3, 10).unwrap();
        assert!((low - 100.0 * wl).abs() < 1e-9 && (high - 100.0 * wh).abs() < 1e-9, "{low} {high}");
        // Each end is a μ at exactly 1.96 of its own standard errors from the mean, when the variance is
        // taken to be k · μ(1 − μ) (the quasi-binomial spread): values 0.2, 0.5, 0.9, 0.6 on 0 to 1.
        let values = [0.2, 0.5, 0.9, 0.6];
        let mean = values.iter().sum::<f64>() / 4.0;
        let variance = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / 4.0;
        let (low, high) = bounded_mean_interval(mean, variance, 4, 0.0, 1.0).unwrap();
        for mu in [low, high] {
            let k = variance / 4.0 / (mean * (1.0 - mean));
            assert!(((mean - mu).powi(2) - Z * Z * k * mu * (1.0 - mu)).abs() < 1e-9, "{mu}");
        }
        // A change of a chance, −1 to 1, all alike: still an interval, inside the range.
        let (low, high) = interval(Bounds::Between(-1, 1), -0.02, 0.0, 30, 0.0).unwrap();
        assert!((-1.0..-0.02).contains(&low) && (-0.02..=1.0).contains(&high) && high > -0.02, "{low} {high}");
        assert_eq!(bounded_mean_interval(0.5, 0.1, 1, 0.0, 1.0), None, "one value says nothing of the spread");
    }

    #[test]
    fn numbers_are_told_apart_only_when_their_intervals_do_not_overlap() {
        // 0.47 against 0.46 over 30 games each: about the same.
        let (a, b) = (wilson(0.47, 30), wilson(0.46, 30));
        assert_eq!(compare(a, b), Comparison::AboutTheSame);
        // 2.67 [1.36–3.97] against 3 [1.04–4.96]: about the same.
        assert_eq!(compare(Some((1.36, 3.97)), Some((1.04, 4.96))), Comparison::AboutTheSame);
        // 80 of 100 against 20 of 100: higher.
        assert_eq!(compare(wilson(0.8, 100), wilson(0.2, 100)), Comparison::Higher);
        assert_eq!(compare(wilson(0.2, 100), wilson(0.8, 100)), Comparison::Lower);
        assert_eq!(compare(None, wilson(0.8, 100)), Comparison::Unknown);
        assert_eq!(against(Some((0.2, 0.37)), 0.10), Comparison::Higher);
        assert_eq!(against(Some((0.2, 0.37)), 0.30), Comparison::AboutTheSame);
    }
}
