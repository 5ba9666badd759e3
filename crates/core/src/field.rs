//! Reading an event line's fields, in the words every game's errors share.

use crate::facts::Seat;
use crate::ruleset::{json_reason, EventError};
use serde::de::{DeserializeOwned, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// A field the event type cannot do without: "trade needs `with`".
pub fn required<T>(value: Option<T>, kind: &str, field: &str) -> Result<T, String> {
    value.ok_or_else(|| format!("{kind} needs `{field}`"))
}

/// The seat of the player a field names, given the players' names in seat order.
pub fn player<'a>(names: impl Iterator<Item = &'a str> + Clone, name: &str, field: &str) -> Result<Seat, String> {
    match names.clone().position(|n| n == name) {
        Some(seat) => Ok(seat as Seat),
        None => {
            let names: Vec<&str> = names.collect();
            Err(format!("`{field}`: there is no player named `{name}` (players: {})", names.join(", ")))
        }
    }
}

/// Reads an event line into a game's form of its lines: an enum tagged by `type` (`#[serde(tag = "type",
/// rename_all = "snake_case")]`), players by name, fields an event does not use ignored. Errors in the words
/// every game shares: "the event has no `type`", "unknown event type `fly` (known: roll, ...)", "roll needs
/// `dice`"; `refused` may say why a type that is not one of `types` does not exist (the game's own words).
pub fn read_line<T: DeserializeOwned>(
    line: &str,
    types: &[&str],
    refused: impl Fn(&str) -> Option<String>,
) -> Result<T, EventError> {
    let error = match serde_json::from_str(line) {
        Ok(event) => return Ok(event),
        Err(e) if e.is_syntax() || e.is_eof() => return Err(EventError::from_json(e)),
        Err(e) => e,
    };
    // Only a line that was refused is read again, for its type.
    #[derive(Deserialize)]
    struct Tag {
        #[serde(rename = "type")]
        kind: Option<Value>,
    }
    let kind = match serde_json::from_str::<Tag>(line) {
        Ok(Tag { kind: None }) => return Err("the event has no `type`".into()),
        Ok(Tag { kind: Some(Value::String(kind)) }) => kind,
        Ok(Tag { kind: Some(other) }) => return Err(format!("the event's `type` must be a word, not {other}").into()),
        Err(_) => return Err(EventError::from_json(error)),
    };
    if !types.contains(&kind.as_str()) {
        let why =
            refused(&kind).unwrap_or_else(|| format!("unknown event type `{kind}` (known: {})", types.join(", ")));
        return Err(why.into());
    }
    let reason = json_reason(&error);
    Err(match reason.strip_prefix("missing field ") {
        Some(field) => format!("{kind} needs {field}"),
        None => format!("{kind}: {reason}"),
    }
    .into())
}

/// Values by player name, in the order given: how a line says what each player got (`"draws": {"Ayşe":
/// {...}, "Bora": {...}}`). Read in the line's order, written in the order built (seat order).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ByName<T>(pub Vec<(String, T)>);

impl<T> ByName<T> {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<T: Serialize> Serialize for ByName<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ByName<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = ByName<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of players' names")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ByName<T>, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    out.push(entry);
                }
                Ok(ByName(out))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// The one of `all` that `name_of` calls `name`, or the refusal that names them all: "`x` is not a building
/// card (road, settlement, city, knight, metropolis)".
pub fn one_of<T: Copy>(all: &[T], name: &str, name_of: fn(T) -> &'static str, what: &str) -> Result<T, String> {
    all.iter().copied().find(|&t| name_of(t) == name).ok_or_else(|| {
        let names: Vec<&str> = all.iter().map(|&t| name_of(t)).collect();
        format!("`{name}` is not {what} ({})", names.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize, Serialize, PartialEq)]
    #[serde(tag = "type", rename_all = "snake_case")]
    enum Line {
        Roll { player: String, dice: [u8; 2] },
        Give { player: String, to: ByName<u8> },
        Stop,
    }

    const TYPES: [&str; 3] = ["roll", "give", "stop"];

    fn read(line: &str) -> Result<Line, EventError> {
        read_line(line, &TYPES, |kind| (kind == "bank").then(|| "there is no bank here".to_string()))
    }

    #[test]
    fn a_line_reads_into_its_type_and_writes_back_in_its_order() {
        let line = r#"{"type":"give","player":"Ayşe","to":{"Cem":1,"Bora":2}}"#;
        let read = read(line).unwrap();
        assert_eq!(read, Line::Give { player: "Ayşe".into(), to: ByName(vec![("Cem".into(), 1), ("Bora".into(), 2)]) });
        assert_eq!(serde_json::to_string(&read).unwrap(), line);
        // A field the event does not use is ignored.
        assert!(matches!(self::read(r#"{"type":"roll","player":"A","dice":[1,2],"note":"x"}"#), Ok(Line::Roll { .. })));
        assert_eq!(self::read(r#"{"type":"stop","player":"A"}"#), Ok(Line::Stop));
        assert_eq!(serde_json::to_string(&Line::Stop).unwrap(), r#"{"type":"stop"}"#);
    }

    #[test]
    fn a_line_that_is_no_event_says_why_in_the_shared_words() {
        let invalid = |line: &str| match read(line) {
            Err(EventError::Invalid(why)) => why,
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(invalid(r#"{"player":"A"}"#), "the event has no `type`");
        assert_eq!(invalid(r#"{"type":"fly","player":"A"}"#), "unknown event type `fly` (known: roll, give, stop)");
        assert_eq!(invalid(r#"{"type":"bank","player":"A"}"#), "there is no bank here");
        assert_eq!(invalid(r#"{"type":"roll","player":"A"}"#), "roll needs `dice`");
        assert!(invalid(r#"{"type":"roll","player":"A","dice":[1,"x"]}"#).starts_with("roll: invalid type"));
        assert!(matches!(read(r#"{"type":"roll""#), Err(EventError::Json(_))));
    }

    #[test]
    fn errors_name_the_field_and_the_players() {
        assert_eq!(required(None::<u8>, "trade", "with"), Err("trade needs `with`".to_string()));
        assert_eq!(required(Some(3), "trade", "with"), Ok(3));
        let names = || ["Ayşe", "Bora"].into_iter();
        assert_eq!(player(names(), "Bora", "with"), Ok(1));
        assert_eq!(
            player(names(), "Cem", "with"),
            Err("`with`: there is no player named `Cem` (players: Ayşe, Bora)".to_string())
        );
    }

    #[test]
    fn a_word_is_one_of_its_kinds_or_the_refusal_names_them_all() {
        let colour = |c: u8| ["red", "blue"][c as usize];
        assert_eq!(one_of(&[0, 1], "blue", colour, "a colour"), Ok(1));
        assert_eq!(one_of(&[0, 1], "green", colour, "a colour"), Err("`green` is not a colour (red, blue)".into()));
    }
}
