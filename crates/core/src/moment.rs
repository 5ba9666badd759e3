//! When an entry was made: an optional `time` on any event line, the same in every ruleset.
//!
//! `{"type":"roll","player":"Ayşe","dice":[2,3],"time":"2026-12-03T19:04:11.250Z"}`: the moment the table
//! made the entry, as RFC 3339 with a zone (`Z` or an offset such as `+03:00`), to the millisecond at most.
//! A table recorder writes it on every entry; records of other programs usually have none. It is read
//! here, before the game reads the line, so no game knows it: the rules never depend on the clock, and the
//! game's fingerprint is the same with or without times. Times are not checked against each other (two
//! phones at a table keep clocks a little apart); a replay shows the time between entries as it is.

use std::borrow::Cow;

/// The field's name on an event line.
pub const FIELD: &str = "time";

/// An event line without its `time`, and the time it carried (milliseconds since 1970-01-01 UTC); the line
/// as it is when it has none. Cheap for the lines without one: only a line naming the field is read as
/// JSON.
pub fn split(line: &str) -> Result<(Cow<'_, str>, Option<i64>), String> {
    if !line.contains("\"time\"") {
        return Ok((Cow::Borrowed(line), None));
    }
    let Ok(serde_json::Value::Object(mut fields)) = serde_json::from_str::<serde_json::Value>(line) else {
        // Not an object: the game says what is wrong with it.
        return Ok((Cow::Borrowed(line), None));
    };
    let Some(time) = fields.remove(FIELD) else {
        return Ok((Cow::Borrowed(line), None));
    };
    let millis = time.as_str().ok_or_else(|| format!("`time` is text, not {time}")).and_then(parse)?;
    Ok((Cow::Owned(serde_json::Value::Object(fields).to_string()), Some(millis)))
}

/// Milliseconds since 1970-01-01 UTC of an RFC 3339 date and time with a zone
/// (`2026-12-03T19:04:11Z`, `2026-12-03T22:04:11.250+03:00`).
pub fn parse(text: &str) -> Result<i64, String> {
    let wrong = || {
        format!(
            "`time` is when the entry was made, written as RFC 3339 with a zone (2026-12-03T19:04:11Z), not `{text}`"
        )
    };
    let b = text.as_bytes();
    let digits = |from: usize, len: usize| -> Option<i64> {
        let part = b.get(from..from + len)?;
        part.iter().all(u8::is_ascii_digit).then(|| part.iter().fold(0i64, |n, d| n * 10 + i64::from(d - b'0')))
    };
    let at = |i: usize, c: u8| b.get(i) == Some(&c);
    if !(at(4, b'-') && at(7, b'-') && (at(10, b'T') || at(10, b't')) && at(13, b':') && at(16, b':')) {
        return Err(wrong());
    }
    let (Some(year), Some(month), Some(day), Some(hour), Some(minute), Some(second)) =
        (digits(0, 4), digits(5, 2), digits(8, 2), digits(11, 2), digits(14, 2), digits(17, 2))
    else {
        return Err(wrong());
    };
    let mut i = 19;
    let mut millis = 0;
    if at(i, b'.') {
        let start = i + 1;
        i = start;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return Err(wrong());
        }
        // Milliseconds: the first three digits of the fraction (more are allowed and dropped).
        let kept = &text[start..(start + 3).min(i)];
        millis = kept.parse::<i64>().map_err(|_| wrong())? * 10i64.pow(3 - kept.len() as u32);
    }
    let offset_minutes = match b.get(i) {
        Some(b'Z' | b'z') if i + 1 == b.len() => 0,
        Some(&sign @ (b'+' | b'-')) if i + 6 == b.len() && at(i + 3, b':') => {
            let (Some(h), Some(m)) = (digits(i + 1, 2), digits(i + 4, 2)) else { return Err(wrong()) };
            if h > 23 || m > 59 {
                return Err(wrong());
            }
            if sign == b'+' {
                h * 60 + m
            } else {
                -(h * 60 + m)
            }
        }
        _ => return Err(wrong()),
    };
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => return Err(wrong()),
    };
    // A leap second (60) is read as the second after.
    if day < 1 || day > days_in_month || hour > 23 || minute > 59 || second > 60 {
        return Err(wrong());
    }
    let seconds = days_since_epoch(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
    Ok((seconds - offset_minutes * 60) * 1000 + millis)
}

/// A moment (milliseconds since 1970-01-01 UTC) as a line's `time`: RFC 3339 in UTC, to the millisecond
/// (`2026-12-03T19:04:11.250Z`); what [`parse`] reads back.
pub fn write(millis: i64) -> String {
    let (days, ms) = (millis.div_euclid(86_400_000), millis.rem_euclid(86_400_000));
    let (year, month, day) = civil_from_days(days);
    let s = ms / 1000;
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z", s / 3600, (s / 60) % 60, s % 60, ms % 1000)
}

/// A Unix time in whole seconds as RFC 3339 in UTC, without fractions (`2026-11-30T12:23:14Z`): how an
/// importer dates a record whose source counts seconds.
pub fn write_seconds(unix_seconds: i64) -> String {
    let s = unix_seconds.rem_euclid(86_400);
    format!("{}T{:02}:{:02}:{:02}Z", write_day(unix_seconds), s / 3600, s % 3600 / 60, s % 60)
}

/// The UTC day of a Unix time in whole seconds, as `YYYY-MM-DD`.
pub fn write_day(unix_seconds: i64) -> String {
    let (year, month, day) = civil_from_days(unix_seconds.div_euclid(86_400));
    format!("{year:04}-{month:02}-{day:02}")
}

/// The date of a count of days from 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (year_of_era + era * 400 + i64::from(month <= 2), month, day)
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
fn days_since_epoch(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_reads_to_the_millisecond_in_any_zone() {
        assert_eq!(parse("1970-01-01T00:00:00Z"), Ok(0));
        assert_eq!(parse("2000-03-01T00:00:00Z"), Ok(951_868_800_000));
        // 1,764,788,651 s: the same moment written in UTC and at +03:00, with a fraction.
        assert_eq!(parse("2025-12-03T19:04:11Z"), Ok(1_764_788_651_000));
        assert_eq!(parse("2025-12-03T22:04:11.250+03:00"), Ok(1_764_788_651_250));
        assert_eq!(parse("2025-12-03T19:04:11.2Z"), Ok(1_764_788_651_200));
        assert_eq!(parse("2025-12-03T19:04:11.123456Z"), Ok(1_764_788_651_123));
        assert_eq!(parse("2024-02-29T12:00:00-01:30"), Ok(1_709_213_400_000));
        for wrong in [
            "2025-12-03",
            "2025-12-03T19:04:11",
            "2025-13-03T19:04:11Z",
            "2025-02-29T19:04:11Z",
            "2025-12-03T24:04:11Z",
            "2025-12-03T19:04:11.Z",
            "2025-12-03T19:04:11+3:00",
            "yesterday",
        ] {
            let err = parse(wrong).expect_err(wrong);
            assert!(err.contains("RFC 3339") && err.contains(wrong), "{err}");
        }
    }

    #[test]
    fn a_unix_time_in_seconds_is_written_without_a_fraction() {
        assert_eq!(write_seconds(0), "1970-01-01T00:00:00Z");
        // A record's `created_at` that its source wrote as "2026-11-30 12:23:14 +0000".
        assert_eq!(write_seconds(1_796_041_394), "2026-11-30T12:23:14Z");
        assert_eq!(write_seconds(951_782_400 + 86_399), "2000-02-29T23:59:59Z");
        assert_eq!(parse(&write_seconds(-1)), Ok(-1000));
        assert_eq!(
            (write_day(0), write_day(951_782_400), write_day(-1)),
            ("1970-01-01".into(), "2000-02-29".into(), "1969-12-31".into())
        );
    }

    #[test]
    fn a_moment_written_reads_back_the_same() {
        assert_eq!(write(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(write(1_764_788_651_250), "2025-12-03T19:04:11.250Z");
        // Every day of four centuries' leap years and month ends, at an odd millisecond.
        for day in (-800..146_097 * 2).step_by(37) {
            let millis = day * 86_400_000 + 45_296_789;
            assert_eq!(parse(&write(millis)), Ok(millis), "{}", write(millis));
        }
    }

    #[test]
    fn a_line_gives_its_time_and_the_rest_unchanged() {
        let (rest, time) =
            split(r#"{"type":"roll","player":"Ayşe","dice":[2,3],"time":"1970-01-01T00:00:01Z"}"#).unwrap();
        assert_eq!((rest.as_ref(), time), (r#"{"type":"roll","player":"Ayşe","dice":[2,3]}"#, Some(1000)));
        let line = r#"{"type":"end_turn","player":"Can"}"#;
        assert!(matches!(split(line), Ok((Cow::Borrowed(l), None)) if l == line));
        let err = split(r#"{"type":"end_turn","player":"Can","time":12}"#).unwrap_err();
        assert!(err.contains("`time` is text, not 12"), "{err}");
    }
}
