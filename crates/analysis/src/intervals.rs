//! How much stands behind a number: a 95 % interval for a rate (Wilson's, which stays within 0 and 1 and
//! says something of a handful of games) and for a mean (its standard error, from the values' spread).

/// The normal quantile of a two-sided 95 % interval: an interval's half-width in standard errors.
pub const Z: f64 = 1.959_963_985;

/// Wilson's 95 % interval for a rate `p` observed over `n` trials; none without trials.
pub fn wilson(p: f64, n: u64) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    Some(((centre - half).max(0.0), (centre + half).min(1.0)))
}

/// A 95 % interval for a mean of `n` values whose variance (over those values) is `variance`: the mean
/// give or take 1.96 standard errors; none below two values, whose spread says nothing.
pub fn mean_interval(mean: f64, variance: f64, n: u64) -> Option<(f64, f64)> {
    if n < 2 {
        return None;
    }
    // The sample's variance, from the values' own (n rather than n − 1 below).
    let se = (variance * n as f64 / (n as f64 - 1.0) / n as f64).sqrt();
    Some((mean - Z * se, mean + Z * se))
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
}
