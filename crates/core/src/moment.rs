//! When an entry was made: an optional `time` on any event line, the same in every ruleset.
//!
//! `{"type":"roll","player":"Ayşe","dice":[2,3],"time":"2026-12-03T19:04:11.250Z"}`: the moment the table
//! made the entry, as RFC 3339 with a zone (`Z` or an offset such as `+03:00`), to the millisecond at most.
//! A table recorder writes it on every entry; records of other programs usually have none. It is read
//! here, before the game reads the line, so no game knows it: the rules never depend on the clock, and the
//! game's fingerprint is the same with or without times. Times are not checked against each other (two
//! phones at a table keep clocks a little apart); a replay shows the time between entries as it is.

use std::borrow::Cow;
use time::format_description::well_known::Rfc3339;
use time::{OffsetDateTime, PrimitiveDateTime};

/// The field's name on an event line.
pub const FIELD: &str = "time";

/// An event line without its `time`, and the time it carried (milliseconds since 1970-01-01 UTC); the line
/// as it is when it has none. Cheap for the lines without one: only a line naming the field is read as
/// JSON.
pub fn split(line: &str) -> Result<(Cow<'_, str>, Option<i64>), String> {
    static NAMED: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\"time\""));
    if NAMED.find(line.as_bytes()).is_none() {
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
/// (`2026-12-03T19:04:11Z`, `2026-12-03T22:04:11.250+03:00`); a fraction past the millisecond is dropped.
pub fn parse(text: &str) -> Result<i64, String> {
    let wrong = || {
        format!(
            "`time` is when the entry was made, written as RFC 3339 with a zone (2026-12-03T19:04:11Z), not `{text}`"
        )
    };
    // The date and the time joined by `T`, as the format's documents write it (RFC 3339 lets an application
    // choose a space too; ours does not).
    if !matches!(text.as_bytes().get(10), Some(b'T' | b't')) {
        return Err(wrong());
    }
    let at = OffsetDateTime::parse(text, &Rfc3339).map_err(|_| wrong())?;
    // Whole milliseconds, counted down (a moment before 1970 with a fraction is in the millisecond before).
    Ok(at.unix_timestamp_nanos().div_euclid(1_000_000) as i64)
}

/// A moment (milliseconds since 1970-01-01 UTC) as a line's `time`: RFC 3339 in UTC, to the millisecond
/// (`2026-12-03T19:04:11.250Z`); what [`parse`] reads back.
pub fn write(millis: i64) -> String {
    let at = utc(millis.div_euclid(1000));
    format!("{}T{:02}:{:02}:{:02}.{:03}Z", day_of(at), at.hour(), at.minute(), at.second(), millis.rem_euclid(1000))
}

/// A Unix time in whole seconds as RFC 3339 in UTC, without fractions (`2026-11-30T12:23:14Z`): how an
/// importer dates a record whose source counts seconds.
pub fn write_seconds(unix_seconds: i64) -> String {
    let at = utc(unix_seconds);
    format!("{}T{:02}:{:02}:{:02}Z", day_of(at), at.hour(), at.minute(), at.second())
}

/// The UTC day of a Unix time in whole seconds, as `YYYY-MM-DD`.
pub fn write_day(unix_seconds: i64) -> String {
    day_of(utc(unix_seconds))
}

/// A day as a page says it to a reader (`2026-11-30` as "30 Nov 2026"), from a header's date or a moment
/// (`2026-11-30T19:04:11Z`: its day); text that begins with no day is given back as it is.
pub fn day_in_words(text: &str) -> String {
    let (Ok(iso), Ok(words)) = (
        time::format_description::parse_borrowed::<2>("[year]-[month]-[day]"),
        time::format_description::parse_borrowed::<2>("[day padding:none] [month repr:short] [year]"),
    ) else {
        return text.to_string();
    };
    text.get(..10)
        .and_then(|day| time::Date::parse(day, &iso).ok())
        .and_then(|day| day.format(&words).ok())
        .unwrap_or_else(|| text.to_string())
}

/// The moment of a Unix time in whole seconds, in UTC; the calendar's last moment past it (years up to
/// 9999 are what RFC 3339 writes, and what `parse` reads).
fn utc(unix_seconds: i64) -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(unix_seconds).unwrap_or(if unix_seconds < 0 {
        PrimitiveDateTime::MIN.assume_utc()
    } else {
        PrimitiveDateTime::MAX.assume_utc()
    })
}

fn day_of(at: OffsetDateTime) -> String {
    format!("{:04}-{:02}-{:02}", at.year(), u8::from(at.month()), at.day())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_reads_in_words_and_anything_else_as_it_is() {
        assert_eq!(day_in_words("2026-11-30"), "30 Nov 2026");
        assert_eq!(day_in_words("2026-03-05T19:04:11Z"), "5 Mar 2026");
        assert_eq!(day_in_words("2026-02-30"), "2026-02-30", "no such day");
        assert_eq!(day_in_words("last Thursday"), "last Thursday");
        assert_eq!(day_in_words(""), "");
    }

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
            "2025-12-03 19:04:11Z",
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
