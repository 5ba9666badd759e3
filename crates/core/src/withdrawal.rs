//! Withdrawals: how a log takes back an entry without rewriting itself.
//!
//! A table makes mistakes (the wrong corner tapped, a roll entered twice). The log stays append-only, so
//! an entry is taken back by a line of its own, the same in every ruleset:
//! `{"type":"withdraw","seq":17}`. From that line on the game is as if event 17 had not been made: the
//! state is the state before it, and its facts count nowhere. Both lines stay in the log, so a replay can
//! show the entry struck through and the withdrawal after it.
//!
//! The rule (checked by [`crate::Timeline`]): a withdrawal names the last entry still in effect. A table
//! that finds a mistake some entries back withdraws the entries since, newest first, each by a line of its
//! own, as far back as it needs. A withdrawal is not itself an entry: it cannot be withdrawn, only the entry
//! made again.

use serde::Deserialize;

/// The `type` of a withdrawal line.
pub const TYPE: &str = "withdraw";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    // Read only to be allowed: `read` has already seen it is a withdrawal.
    #[serde(rename = "type")]
    _type: serde::de::IgnoredAny,
    seq: u64,
    // When the withdrawal was made (see `crate::moment`, which reads it).
    #[serde(rename = "time", default)]
    _time: Option<serde::de::IgnoredAny>,
}

#[derive(Deserialize)]
struct Typed<'a> {
    #[serde(rename = "type", borrow)]
    kind: std::borrow::Cow<'a, str>,
}

/// The event (its `seq`, 1-based) a withdrawal line withdraws, or why the line is not a withdrawal that
/// reads; none for any other line. Cheap for the lines that are not withdrawals: only a line naming the type
/// is read as JSON.
pub fn read(line: &str) -> Option<Result<u64, String>> {
    static NAMED: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(TYPE));
    // A line that does not name the type is no withdrawal.
    NAMED.find(line.as_bytes())?;
    let typed: Typed = serde_json::from_str(line).ok()?;
    if typed.kind != TYPE {
        return None;
    }
    Some(serde_json::from_str::<Line>(line).map(|l| l.seq).map_err(|e| {
        format!(
            "a withdrawal is {{\"type\":\"withdraw\",\"seq\":N}} (N the event withdrawn): {}",
            crate::ruleset::json_reason(&e)
        )
    }))
}

/// The event a well-formed withdrawal line withdraws; none for any other line.
pub fn target(line: &str) -> Option<u64> {
    read(line)?.ok()
}

/// The withdrawal of event `seq` as a log line.
pub fn line(seq: u64) -> String {
    format!(r#"{{"seq":{seq},"type":"{TYPE}"}}"#)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_withdrawal_line_reads_back_and_other_lines_are_not_one() {
        assert_eq!(target(&line(17)), Some(17));
        assert_eq!(target(r#"{"type": "withdraw", "seq": 3}"#), Some(3));
        assert_eq!(target(r#"{"type":"roll","dice":[3,4]}"#), None);
        assert_eq!(target(r#"{"type":"trade","player":"withdraw","seq":3}"#), None, "only the type counts");
        let err =
            read(r#"{"type":"withdraw","seq":3,"why":"typo"}"#).expect("a withdrawal").expect_err("no other field");
        assert!(err.contains("unknown field `why`"), "{err}");
        let err = read(r#"{"type":"withdraw"}"#).expect("a withdrawal").expect_err("a seq is needed");
        assert!(err.contains("missing field `seq`"), "{err}");
    }
}
