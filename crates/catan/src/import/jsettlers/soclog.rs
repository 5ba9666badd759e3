//! The `.soclog` file and line grammar: the header, and entries of the form
//! `[m:ss.mmm:]AUDIENCE:ClassName:BODY`, with a body of `key=value` fields separated by `|`.

use almanac_core::FormatError;

/// The first line: `SOC game event log: type=F, version=2700, created_at=..., now=..., game_name=...`.
#[derive(Debug)]
pub struct Header<'a> {
    pub version: u32,
    /// Unix seconds.
    pub created_at: Option<i64>,
    pub game_name: &'a str,
}

const MAGIC: &str = "SOC game event log:";

/// Does a file start like a `.soclog`?
pub fn looks_like(head: &str) -> bool {
    head.trim_start_matches('\u{feff}').starts_with(MAGIC)
}

pub fn header(line: &str) -> Result<Header<'_>, FormatError> {
    let rest = line.trim_start_matches('\u{feff}').strip_prefix(MAGIC).ok_or_else(|| {
        FormatError::whole(format!("not a JSettlers event log: the first line must start with `{MAGIC}`"))
    })?;
    // `game_name` is last and may itself hold ", ".
    let (fields, game_name) = match rest.split_once("game_name=") {
        Some((f, name)) => (f, name.trim()),
        None => (rest, ""),
    };
    let field = |key: &str| {
        fields.split(',').map(str::trim).find_map(|f| f.strip_prefix(key).and_then(|v| v.strip_prefix('=')))
    };
    let version = field("version")
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| FormatError::whole("the JSettlers log header has no `version=`"))?;
    Ok(Header { version, created_at: field("created_at").and_then(|v| v.parse().ok()), game_name })
}

/// Who a server message went to, or who sent a client message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Audience {
    /// Every member of the game.
    All,
    /// One seat only.
    Seat(u8),
    /// Everyone except these seats (the redacted copies).
    AllBut(Vec<u8>),
    /// Anything else: observers joining, undetermined members, client messages.
    Other,
}

/// One message of the log, with its line number in the file.
#[derive(Debug)]
pub struct Entry<'a> {
    pub line: usize,
    pub audience: Audience,
    pub class: &'a str,
    pub body: Body<'a>,
}

/// Reads every entry after the header; comments and blank lines are skipped.
pub fn entries(text: &str) -> Result<Vec<Entry<'_>>, FormatError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate().skip(1) {
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(entry(i + 1, line)?);
    }
    Ok(out)
}

fn entry(line_no: usize, line: &str) -> Result<Entry<'_>, FormatError> {
    let bad = || FormatError { line: line_no, reason: format!("not a JSettlers log entry: `{}`", clip(line)) };
    let rest = strip_time(line);
    let (audience, rest) = rest.split_once(':').ok_or_else(bad)?;
    let (class, body) = rest.split_once(':').ok_or_else(bad)?;
    if !class.starts_with("SOC") {
        return Err(bad());
    }
    Ok(Entry { line: line_no, audience: parse_audience(audience), class, body: Body::parse(body) })
}

/// Drops an optional `m:ss.mmm:` time prefix.
fn strip_time(line: &str) -> &str {
    let Some((minutes, rest)) = line.split_once(':') else { return line };
    if minutes.is_empty() || !minutes.bytes().all(|b| b.is_ascii_digit()) {
        return line;
    }
    match rest.split_once(':') {
        Some((secs, rest)) if secs.len() == 6 && secs.as_bytes()[2] == b'.' => rest,
        _ => line,
    }
}

fn parse_audience(a: &str) -> Audience {
    if a == "all" {
        return Audience::All;
    }
    if let Some(n) = a.strip_prefix('p').and_then(|n| n.parse().ok()) {
        return Audience::Seat(n);
    }
    if let Some(list) = a.strip_prefix("!p") {
        let seats = list.trim_start_matches('[').trim_end_matches(']').split(',').map(|n| n.trim().parse());
        if let Ok(seats) = seats.collect::<Result<Vec<u8>, _>>() {
            return Audience::AllBut(seats);
        }
    }
    Audience::Other
}

fn clip(s: &str) -> String {
    s.chars().take(80).collect()
}

/// A message body: `key=value` fields in order. A resource set nested in a field
/// (`give=clay=1|ore=0|sheep=0|wheat=0|wood=0|unknown=0`) is read as fields `give.clay` ... `give.unknown`;
/// fields without `=` (positional) keep an empty key.
#[derive(Debug)]
pub struct Body<'a> {
    pub raw: &'a str,
    fields: Vec<(String, &'a str)>,
}

const SET_KEYS: [&str; 6] = ["clay", "ore", "sheep", "wheat", "wood", "unknown"];

impl<'a> Body<'a> {
    fn parse(raw: &'a str) -> Body<'a> {
        let mut fields = Vec::new();
        let mut set: Option<&str> = None;
        for token in raw.split('|') {
            let (key, value) = token.split_once('=').unwrap_or(("", token));
            if let Some(name) = set {
                if SET_KEYS[1..].contains(&key) {
                    fields.push((format!("{name}.{key}"), value));
                    if key == "unknown" {
                        set = None;
                    }
                    continue;
                }
                set = None;
            }
            if let Some(v) = value.strip_prefix("clay=") {
                fields.push((format!("{key}.clay"), v));
                set = Some(key);
                continue;
            }
            fields.push((key.to_string(), value));
        }
        Body { raw, fields }
    }

    /// The first field called `key`.
    pub fn get(&self, key: &str) -> Option<&'a str> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
    }

    /// Every field called `key`, in order.
    pub fn all(&self, key: &str) -> impl Iterator<Item = &'a str> + '_ {
        let key = key.to_string();
        self.fields.iter().filter(move |(k, _)| *k == key).map(|(_, v)| *v)
    }

    /// The fields without a key, in order (positional bodies like `SOCGameStats`).
    pub fn positional(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.fields.iter().filter(|(k, _)| k.is_empty()).map(|(_, v)| *v)
    }

    /// A resource set nested under `key`: clay, ore, sheep, wheat, wood, unknown.
    pub fn resource_set(&self, key: &str) -> Option<[u32; 6]> {
        let mut out = [0; 6];
        for (i, r) in SET_KEYS.iter().enumerate() {
            out[i] = self.get(&format!("{key}.{r}"))?.parse().ok()?;
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_times_audiences_and_nested_sets() {
        let text = "SOC game event log: type=F, version=2700, created_at=1, now=2, game_name=g, with comma\n\
                    # a comment\n\
                    \n\
                    0:00.499:all:SOCDiceResult:game=g|param=7\n\
                    !p[2, 1]:SOCRobberyResult:game=g|perp=2|victim=1|resType=6\n\
                    12:03.001:all:SOCBankTrade:game=g|give=clay=4|ore=0|sheep=0|wheat=0|wood=0|unknown=0|get=clay=0|ore=1|sheep=0|wheat=0|wood=0|unknown=0|pn=2\n\
                    all:SOCGameStats:game=g|9|10|true|false\n";
        let h = header(text.lines().next().unwrap()).unwrap();
        assert_eq!((h.version, h.created_at, h.game_name), (2700, Some(1), "g, with comma"));
        let e = entries(text).unwrap();
        assert_eq!(e.len(), 4);
        assert_eq!(
            (e[0].line, &e[0].audience, e[0].class, e[0].body.get("param")),
            (4, &Audience::All, "SOCDiceResult", Some("7"))
        );
        assert_eq!(e[1].audience, Audience::AllBut(vec![2, 1]));
        assert_eq!(e[2].body.resource_set("give"), Some([4, 0, 0, 0, 0, 0]));
        assert_eq!(e[2].body.resource_set("get"), Some([0, 1, 0, 0, 0, 0]));
        assert_eq!(e[2].body.get("pn"), Some("2"));
        assert_eq!(e[3].body.positional().collect::<Vec<_>>(), ["9", "10", "true", "false"]);
    }
}
