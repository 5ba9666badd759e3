//! The walk through a `.soclog`: server messages, as one person saw them, become almanac/1 events.
//!
//! The walk keeps the game's state by our own rules as it goes: an event is applied as soon as the
//! messages that complete it have been read (a robbery completes the robber's move, `SOCPickResources` a
//! Year of Plenty). So a message our rules refuse is reported on its own line of the `.soclog`, and the
//! few things the log leaves to its reader (how many cards a monopoly took from each hand) are read off
//! that state.
//!
//! Long because the walk is one state machine over the forty-odd kinds of server message a game's log holds;
//! the layout (`layout.rs`) and the message reader (`soclog.rs`) are apart.

use super::layout::{coord, resource, Layout};
use super::soclog::{self, Audience, Entry};
use crate::development::DevCard;
use crate::resources::{Bundle, Resources};
use crate::state::State;
use crate::Catan;
use almanac_core::Line;
use almanac_core::{FormatError, Ruleset, Viewpoint};
use serde_json::{json, Map, Value};

/// The oldest log version read (v2.5.00, when the server started writing these logs).
const OLDEST: u32 = 2500;

const COLOURS: [&str; 6] = ["blue", "red", "white", "orange", "green", "brown"];

pub fn convert(text: &str, view: Viewpoint) -> Result<String, FormatError> {
    let first = text.lines().next().unwrap_or("");
    let header = soclog::header(first)?;
    if header.version < OLDEST {
        let which = if header.version < 2000 { "a JSettlers 1.x log" } else { "a log older than JSettlers 2.5.00" };
        return Err(FormatError::whole(format!(
            "version {} is {which}; only logs of version {OLDEST} (2.5.00) and later are read",
            header.version
        )));
    }
    let entries = soclog::entries(text)?;
    let setup = Setup::read(&entries)?;
    if let Viewpoint::Seat(s) = view {
        if !setup.seats.iter().any(|&(pn, _)| pn == s) {
            let seated: Vec<String> = setup.seats.iter().map(|(pn, _)| pn.to_string()).collect();
            return Err(FormatError::whole(format!(
                "--view seat:{s}: nobody sat in seat {s} (seated: {})",
                seated.join(", ")
            )));
        }
    }
    let header_json = setup.header(&header, view)?;
    // Where the rules end the game is read from the full game: a view may not see the hidden cards that
    // end it (a victory point card bought unseen), and every view of one record ends at the same place.
    let cut = match view {
        Viewpoint::Full => None,
        _ => walk(text, &entries, &setup, setup.header(&header, Viewpoint::Full)?, Viewpoint::Full, None)?.cut,
    };
    let walk = walk(text, &entries, &setup, header_json, view, cut)?;
    Ok(walk.lines.join("\n") + "\n")
}

/// Reads the messages of `view` into events; `cut`, when the rules end the game before the server does,
/// the line from which the server's messages are play after the end (known in advance for a view, found
/// on the way for the full game).
fn walk<'s>(
    text: &str,
    entries: &'s [Entry<'s>],
    setup: &'s Setup,
    header_json: Value,
    view: Viewpoint,
    cut: Option<usize>,
) -> Result<Walk<'s>, FormatError> {
    let state = Catan::initial(&header_json.to_string()).map_err(|e| FormatError::whole(format!("the board: {e}")))?;
    let mut walk = Walk {
        cut,
        setup,
        state,
        lines: vec![header_json.to_string()],
        pending: None,
        turn_player: None,
        turn_ended: false,
        turn_rolled: false,
        last_private: None,
        winner: None,
        over_at: None,
        reveals: Vec::new(),
        winner_shown: false,
        taken_back: Vec::new(),
    };
    for e in &entries[setup.start..] {
        if !visible(&e.audience, view) {
            continue;
        }
        // The full view reads every seat's copy; a message sent alike to two seats (a robbery, to the thief
        // and the victim) is one message.
        if let (Viewpoint::Full, Audience::Seat(_)) = (view, &e.audience) {
            let key = (e.class, e.body.raw);
            if walk.last_private == Some(key) {
                continue;
            }
            walk.last_private = Some(key);
        } else {
            walk.last_private = None;
        }
        walk.message(e)?;
    }
    let last_line = text.lines().count();
    if walk.over_at.is_none() {
        return Err(FormatError {
            line: last_line,
            reason: "the log ends before the game does (no game over, `SOCGameState` 1000): is it cut short?".into(),
        });
    }
    walk.flush_reveals()?;
    walk.finish(last_line)?;
    Ok(walk)
}

/// Does a message reach this view? Observers get everything but the messages to one seat; a seat gets
/// those to it and every redacted copy not meant to spare it.
fn visible(audience: &Audience, view: Viewpoint) -> bool {
    match (audience, view) {
        (Audience::All, _) => true,
        (Audience::Seat(_), Viewpoint::Full) => true,
        (Audience::Seat(n), Viewpoint::Seat(s)) => *n == s,
        (Audience::Seat(_), Viewpoint::Observer) => false,
        (Audience::AllBut(_), Viewpoint::Full) => false,
        (Audience::AllBut(but), Viewpoint::Seat(s)) => !but.contains(&s),
        (Audience::AllBut(_), Viewpoint::Observer) => true,
        (Audience::Other, _) => false,
    }
}

fn at(e: &Entry, reason: impl Into<String>) -> FormatError {
    FormatError { line: e.line, reason: format!("{}: {}", e.class, reason.into()) }
}

fn number<T: std::str::FromStr>(e: &Entry, key: &str) -> Result<T, FormatError> {
    let v = e.body.get(key).ok_or_else(|| at(e, format!("no `{key}`")))?;
    v.trim().parse().map_err(|_| at(e, format!("`{key}={v}` is not a number")))
}

/// A coordinate written in hex digits (`coord=a6`).
fn hex_coord(e: &Entry, key: &str) -> Result<(i32, i32), FormatError> {
    let v = e.body.get(key).ok_or_else(|| at(e, format!("no `{key}`")))?;
    let n = u32::from_str_radix(v.trim_start_matches("0x"), 16)
        .map_err(|_| at(e, format!("`{key}={v}` is not a coordinate")))?;
    Ok(coord(n))
}

/// `{ 1 2 3 }` as numbers.
fn list(e: &Entry, key: &str) -> Result<Vec<i32>, FormatError> {
    let v = e.body.get(key).ok_or_else(|| at(e, format!("no `{key}`")))?;
    v.trim_matches(|c: char| c == '{' || c == '}' || c.is_whitespace())
        .split_whitespace()
        .map(|n| n.parse().map_err(|_| at(e, format!("`{n}` in `{key}` is not a number"))))
        .collect()
}

/// A resource set (clay, ore, sheep, wheat, wood, unknown) as a bundle.
fn bundle(set: [u32; 6]) -> Bundle {
    let mut known = Resources::default();
    for (code, &n) in set[..5].iter().enumerate() {
        known[resource(code as u32 + 1).expect("codes 1-5")] = n as u8;
    }
    Bundle { known, unknown: set[5] as u8 }
}

/// What the log says before play begins: options, seats, the board, and where play starts.
struct Setup {
    /// Seated players (JSettlers seat number, name), in Almanac's seat order: the first player first.
    seats: Vec<(u8, String)>,
    /// The JSettlers seat numbers the log says a robot sat in (`robotFlag=true`).
    robots: Vec<u8>,
    options: Vec<(String, String)>,
    layout: Layout,
    /// The index of `SOCStartGame` in the entries.
    start: usize,
}

impl Setup {
    fn read(entries: &[Entry]) -> Result<Setup, FormatError> {
        let mut options = Vec::new();
        let mut sat: Vec<(u8, String)> = Vec::new();
        let mut robots: Vec<u8> = Vec::new();
        let mut layout = None;
        let mut start = None;
        for (i, e) in entries.iter().enumerate() {
            match (e.class, &e.audience) {
                ("SOCNewGameWithOptions", Audience::All) => {
                    for opt in e.body.get("param2").unwrap_or("").split(',').filter(|o| !o.is_empty()) {
                        let (k, v) = opt.split_once('=').unwrap_or((opt, ""));
                        options.push((k.to_string(), v.to_string()));
                    }
                }
                ("SOCBoardLayout3", _) => return Err(sea(e)),
                ("SOCSitDown", Audience::All) => {
                    let pn: u8 = number(e, "playerNumber")?;
                    let name = e.body.get("nickname").unwrap_or("").trim().to_string();
                    if name.is_empty() {
                        return Err(at(e, format!("seat {pn} has no nickname")));
                    }
                    sat.retain(|(p, _)| *p != pn);
                    sat.push((pn, name));
                    robots.retain(|&p| p != pn);
                    if e.body.get("robotFlag") == Some("true") {
                        robots.push(pn);
                    }
                }
                ("SOCBoardLayout", Audience::All) => {
                    layout = Some(
                        Layout::v1(&list(e, "hexLayout")?, &list(e, "numberLayout")?, hex_coord(e, "robberHex")?)
                            .map_err(|m| at(e, m))?,
                    );
                }
                ("SOCBoardLayout2", Audience::All) => {
                    let robber: u32 = number(e, "RH")?;
                    let ports = if e.body.get("PL").is_some() { list(e, "PL")? } else { Vec::new() };
                    layout = Some(
                        Layout::v2(&list(e, "HL")?, &list(e, "NL")?, &ports, coord(robber)).map_err(|m| at(e, m))?,
                    );
                }
                ("SOCStartGame", Audience::All) => {
                    start = Some(i);
                    break;
                }
                _ => {}
            }
        }
        if options.iter().any(|(k, v)| k == "SBL" && v.starts_with('t')) {
            return Err(FormatError::whole(
                "a sea board game (option SBL): only the classic 4- and 6-player boards are read",
            ));
        }
        if let Some((k, _)) = options.iter().find(|(k, v)| k == "SC" && !v.is_empty()) {
            return Err(FormatError::whole(format!("a scenario game (option {k}): only the classic rules are read")));
        }
        let start = start.ok_or_else(|| FormatError::whole("the game never starts (no `all:SOCStartGame`)"))?;
        let layout = layout.ok_or_else(|| FormatError::whole("no board layout before the game starts"))?;
        // Play begins with the first setup turn; its player sits first in Almanac's order.
        let first = entries[start..]
            .iter()
            .find(|e| e.class == "SOCTurn" && e.audience == Audience::All)
            .map(|e| number::<u8>(e, "playerNumber"))
            .transpose()?
            .ok_or_else(|| FormatError::whole("no turn is ever played"))?;
        if sat.len() < 2 {
            return Err(FormatError::whole(format!("{} seated player(s); a game needs 2 or more", sat.len())));
        }
        sat.sort();
        let k = sat
            .iter()
            .position(|(pn, _)| *pn == first)
            .ok_or_else(|| FormatError::whole(format!("the first turn is seat {first}'s, but nobody sat there")))?;
        sat.rotate_left(k);
        Ok(Setup { seats: sat, robots, options, layout, start })
    }

    fn option(&self, key: &str) -> Option<&str> {
        self.options.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// A `t`/`f` option with a number (`VP=t12`): the number when on.
    fn numeric_on(&self, key: &str) -> Option<u8> {
        self.option(key).and_then(|v| v.strip_prefix('t')).and_then(|n| n.parse().ok())
    }

    fn six_player_board(&self) -> bool {
        self.option("PLB").is_some_and(|v| v.starts_with('t'))
            || self.option("PL").and_then(|v| v.parse::<u8>().ok()).is_some_and(|n| n > 4)
    }

    fn header(&self, h: &soclog::Header, view: Viewpoint) -> Result<Value, FormatError> {
        let board = self.layout.spec().map_err(FormatError::whole)?;
        let mut options = Map::new();
        options.insert("vp_target".into(), json!(self.numeric_on("VP").unwrap_or(10)));
        options.insert("discards_face_down".into(), json!(true));
        options.insert("unlimited_bank".into(), json!(true));
        options.insert("win_waits_for_robber".into(), json!(true));
        if self.six_player_board() {
            // The 6-player rules (the Special Building Phase), whoever sat down.
            options.insert("extension_5_6".into(), json!(true));
            options.insert("special_building".into(), json!("jsettlers"));
        }
        let players: Vec<Value> = self
            .seats
            .iter()
            .map(|(pn, name)| {
                let mut p = json!({"name": name, "color": COLOURS[*pn as usize % 6]});
                if self.robots.contains(pn) {
                    p["bot"] = json!(true);
                }
                p
            })
            .collect();
        // A server's own game names (`~botsOnly~7`, made for robots' games) name no table: such a game is
        // titled by its players and its date; a name a person chose is kept.
        let names: Vec<&str> = self.seats.iter().map(|(_, n)| n.as_str()).collect();
        let title = if h.game_name.starts_with('~') || h.game_name.trim().is_empty() {
            almanac_core::table_title(&names, h.created_at.map(almanac_core::moment::write_day).as_deref())
        } else {
            h.game_name.to_string()
        };
        let mut header = json!({
            "format": "almanac/1",
            "ruleset": "catan",
            "title": title,
            "source": {"program": "JSettlers2", "version": h.version, "game": h.game_name, "view": view.to_string()},
            "options": options,
            "players": players,
            "board": board,
        });
        // The time of day too: games of one day are then rated in the order they were played.
        if let Some(t) = h.created_at {
            header["date"] = json!(almanac_core::moment::write_seconds(t));
        }
        Ok(header)
    }

    fn name(&self, e: &Entry, pn: i64) -> Result<&str, FormatError> {
        self.seats
            .iter()
            .find(|(p, _)| *p as i64 == pn)
            .map(|(_, n)| n.as_str())
            .ok_or_else(|| at(e, format!("seat {pn} is empty")))
    }
}

fn sea(e: &Entry) -> FormatError {
    at(e, "a sea board (layout v3): only the classic 4- and 6-player boards are read")
}

/// An event waiting for the messages that complete it.
struct Pending {
    line: usize,
    event: Map<String, Value>,
    stated: Map<String, Value>,
}

struct Walk<'s> {
    setup: &'s Setup,
    /// The line from which the server's messages are play after the rules' end of the game (a win the
    /// server declared later): only its own end (winner, cards shown) is read from there on.
    cut: Option<usize>,
    /// The game so far, by our rules (every event before `pending`).
    state: State,
    lines: Vec<String>,
    pending: Option<Pending>,
    /// Whose turn it is (JSettlers seat), whether its end is written, and whether its dice were rolled (a
    /// special build before them is no end of the turn).
    turn_player: Option<u8>,
    turn_ended: bool,
    turn_rolled: bool,
    last_private: Option<(&'s str, &'s str)>,
    winner: Option<i64>,
    /// The line of the game's end.
    over_at: Option<usize>,
    /// Victory point cards shown at the end: (seat, count).
    reveals: Vec<(i64, u32)>,
    /// Whether the winner has shown their cards (or claimed the win).
    winner_shown: bool,
    /// Settlements the server took back in setup: (line, player, place).
    taken_back: Vec<(usize, String, String)>,
}

impl<'s> Walk<'s> {
    /// Applies the pending event and starts a new one.
    fn emit(&mut self, e: &Entry, kind: &str, player: &str, fields: Value) -> Result<(), FormatError> {
        self.flush()?;
        if self.cut.is_none() && self.over_at.is_none() && self.state.winner.is_some() {
            // The rules ended the game with the event just applied; the server let play go on.
            self.cut = Some(e.line);
        }
        if self.cut.is_some_and(|c| e.line >= c) {
            return Ok(());
        }
        let mut event = Map::new();
        event.insert("type".into(), json!(kind));
        event.insert("player".into(), json!(player));
        if let Value::Object(f) = fields {
            event.extend(f);
        }
        self.pending = Some(Pending { line: e.line, event, stated: Map::new() });
        Ok(())
    }

    /// Writes the pending event and plays it by our rules.
    fn flush(&mut self) -> Result<(), FormatError> {
        let Some(mut p) = self.pending.take() else { return Ok(()) };
        if !p.stated.is_empty() {
            p.event.insert("stated".into(), Value::Object(p.stated));
        }
        let line = Value::Object(p.event).to_string();
        let refused = |reason: String| FormatError { line: p.line, reason: format!("our rules refuse this: {reason}") };
        let logged = crate::LoggedEvent::parse(&self.state, &line).map_err(|e| refused(e.to_string()))?;
        Catan::apply(&mut self.state, &logged, &mut Vec::new()).map_err(|v| refused(v.0))?;
        self.lines.push(line);
        Ok(())
    }

    fn pending_kind(&self) -> Option<&str> {
        self.pending.as_ref().and_then(|p| p.event.get("type")).and_then(Value::as_str)
    }

    fn pending_is(&mut self, kind: &str) -> Option<&mut Pending> {
        self.pending.as_mut().filter(|p| p.event.get("type").and_then(Value::as_str) == Some(kind))
    }

    fn name(&self, e: &Entry, pn: i64) -> Result<String, FormatError> {
        self.setup.name(e, pn).map(str::to_string)
    }

    fn seat_of(&self, name: &str) -> u8 {
        self.state.table.seat_of(name).expect("a seated name")
    }

    fn message(&mut self, e: &'s Entry) -> Result<(), FormatError> {
        let b = &e.body;
        if self.cut.is_some_and(|c| e.line >= c) {
            // Play after the rules' end: only the server's end of the game is read (its winner, checked in
            // `finish`, and the cards shown).
            match e.class {
                "SOCGameElements" => {
                    if let Some((_, v)) = elements(b.raw).find(|&(k, _)| k == 4) {
                        self.winner = Some(v);
                    }
                    return Ok(());
                }
                "SOCTurn" if b.get("gameState") == Some("1000") => {
                    self.over_at = Some(e.line);
                    self.winner = self.winner.or(Some(number(e, "playerNumber")?));
                    return Ok(());
                }
                "SOCGameState" | "SOCGameStats" | "SOCDevCardAction" => {}
                _ => return Ok(()),
            }
        }
        match e.class {
            "SOCTurn" => self.turn(e)?,
            "SOCPutPiece" => {
                let player = self.name(e, number(e, "playerNumber")?)?;
                let c = hex_coord(e, "coord")?;
                let l = &self.setup.layout;
                let (kind, place) = match number::<i32>(e, "pieceType")? {
                    0 => ("build_road", l.edge_name(c)),
                    1 => ("build_settlement", l.node_name(c)),
                    2 => ("build_city", l.node_name(c)),
                    3 => return Err(sea(e)),
                    t => return Err(at(e, format!("piece type {t}"))),
                };
                let place = place.map_err(|m| at(e, m))?;
                let on_taken_back = |(_, p, at): &&(usize, String, String)| *p == player && *at == place;
                if let Some((line, _, _)) = self.taken_back.iter().find(on_taken_back).filter(|_| kind == "build_city")
                {
                    // JSettlers 2.7 takes back the cards of a settlement it takes back in setup, and no longer
                    // pays it, but keeps it on its board: its player may build a city on it. No rule gives that.
                    return Err(at(
                        e,
                        format!(
                            "{player} builds a city at {place}, where the server took back {player}'s settlement on line \
                             {line} (`SOCCancelBuildRequest` after its road was declined): the server kept that \
                             settlement on its board though it took back its cards and pays nothing for it, a game \
                             no rule plays; the record is not read"
                        ),
                    ));
                }
                self.emit(e, kind, &player, json!({"at": place}))?;
            }
            // The server took back a settlement placed in setup: the player's road could not be placed and the
            // server ended the placement (it places again after the others).
            "SOCCancelBuildRequest" if e.audience == Audience::All && b.get("pieceType") == Some("1") => {
                let p = self
                    .pending_is("build_settlement")
                    .ok_or_else(|| at(e, "a settlement taken back that was not the last placed"))?;
                let (player, place) = (p.event["player"].as_str().unwrap_or("").to_string(), p.event["at"].clone());
                self.taken_back.push((e.line, player.clone(), place.as_str().unwrap_or("").to_string()));
                self.emit(e, "take_back", &player, json!({"at": place}))?;
            }
            "SOCUndoPutPiece" => {
                return Err(at(e, "an undone placement (option UB): undo is not read yet"));
            }
            "SOCDiceResult" => {
                let sum: i64 = number(e, "param")?;
                if (2..=12).contains(&sum) {
                    let pn = self.turn_player.ok_or_else(|| at(e, "dice rolled before any turn"))?;
                    let player = self.name(e, pn as i64)?;
                    self.emit(e, "roll", &player, json!({"sum": sum}))?;
                    self.turn_rolled = true;
                }
            }
            "SOCDiceResultResources" => self.production(e)?,
            // A private snapshot of a hand, after a roll.
            "SOCPlayerElements"
                if e.audience != Audience::All
                    && b.get("actionType") == Some("SET")
                    && self.pending_is("roll").is_some() =>
            {
                let name = self.name(e, number(e, "playerNum")?)?;
                let hand = hand_snapshot(e)?;
                let p = self.pending.as_mut().expect("a roll");
                object_at(&mut p.stated, "hands").insert(name, json!(hand));
            }
            "SOCDiscard" => {
                let player = self.name(e, number(e, "playerNum")?)?;
                let cards = b.resource_set("resources").ok_or_else(|| at(e, "no `resources`"))?;
                self.emit(e, "discard", &player, json!({"cards": bundle(cards)}))?;
            }
            "SOCMoveRobber" => {
                let player = self.name(e, number(e, "playerNumber")?)?;
                let hex = self.setup.layout.hex_index(hex_coord(e, "coord")?).map_err(|m| at(e, m))?;
                self.emit(e, "move_robber", &player, json!({"hex": hex}))?;
            }
            "SOCRobberyResult" => {
                let victim = self.name(e, number(e, "victim")?)?;
                let card = match number::<u32>(e, "resType")? {
                    6 => "unknown",
                    code => resource(code).ok_or_else(|| at(e, format!("resource type {code}")))?.name(),
                };
                let p = self.pending_is("move_robber").ok_or_else(|| at(e, "a robbery without a robber move"))?;
                p.event.insert("victim".into(), json!(victim));
                p.event.insert("stolen".into(), json!(card));
            }
            "SOCBankTrade" => {
                let player = self.name(e, number(e, "pn")?)?;
                let give = bundle(b.resource_set("give").ok_or_else(|| at(e, "no `give`"))?);
                let get = bundle(b.resource_set("get").ok_or_else(|| at(e, "no `get`"))?);
                // The same trade reversed undoes the one just made.
                let undoes = self.pending_is("maritime_trade").is_some_and(|p| {
                    p.event["player"] == json!(player) && p.event["give"] == json!(get) && p.event["get"] == json!(give)
                });
                if undoes {
                    self.pending = None;
                } else {
                    self.emit(e, "maritime_trade", &player, json!({"give": give, "get": get}))?;
                }
            }
            "SOCAcceptOffer" => {
                let offering = self.name(e, number(e, "offering")?)?;
                let accepting = self.name(e, number(e, "accepting")?)?;
                let give = bundle(b.resource_set("toAccepting").ok_or_else(|| at(e, "no `toAccepting`"))?);
                let get = bundle(b.resource_set("toOffering").ok_or_else(|| at(e, "no `toOffering`"))?);
                self.emit(e, "trade", &offering, json!({"with": accepting, "give": give, "get": get}))?;
            }
            "SOCDevCardAction" => self.dev_card(e)?,
            "SOCPickResources" => {
                let take = bundle(b.resource_set("resources").ok_or_else(|| at(e, "no `resources`"))?);
                if let Some(p) = self.pending_is("play_year_of_plenty") {
                    p.event.insert("take".into(), json!(take));
                } else if b.get("reason") == Some("2") {
                    return Err(at(e, "resources picked for a Year of Plenty nobody played"));
                }
            }
            "SOCResourceCount" if self.pending_kind() == Some("play_monopoly") => {
                // A victim's hand after the monopoly: what it held before, less this, went to the player.
                let name = self.name(e, number(e, "playerNum")?)?;
                if self.pending.as_ref().is_some_and(|p| p.event["player"] == json!(name)) {
                    return Ok(());
                }
                let count: u32 = number(e, "count")?;
                let seat = self.seat_of(&name);
                let before = self.state.players[seat as usize].hand.total();
                let taken = before.checked_sub(count).ok_or_else(|| {
                    at(e, format!("{name} holds {count} cards after the monopoly, more than the {before} before"))
                })?;
                let p = self.pending.as_mut().expect("a monopoly");
                object_at(&mut p.event, "taken").insert(name, json!(taken));
            }
            "SOCSimpleAction" if b.get("actType") == Some("3") => {
                let code: u32 = number(e, "v2")?;
                let r = resource(code).ok_or_else(|| at(e, format!("resource type {code}")))?;
                let p =
                    self.pending_is("play_monopoly").ok_or_else(|| at(e, "a monopoly result without a monopoly"))?;
                p.event.insert("resource".into(), json!(r.name()));
            }
            "SOCGameElements" => {
                for (k, v) in elements(b.raw) {
                    match k {
                        4 => self.winner = Some(v),
                        5 | 6 if self.pending.is_some() => {
                            let holder = if v < 0 { Value::Null } else { json!(self.name(e, v)?) };
                            let award = if k == 5 { "largest_army" } else { "longest_road" };
                            self.pending.as_mut().expect("checked").stated.insert(award.into(), holder);
                        }
                        _ => {}
                    }
                }
            }
            "SOCGameState" if b.get("state") == Some("1000") => self.over_at = Some(e.line),
            "SOCGameStats" if self.over_at.is_some() => {
                self.flush_reveals()?;
                if self.cut.is_some() {
                    // The server's scores count play after the rules' end: not ours to check against.
                    return Ok(());
                }
                let scores: Vec<i64> = b.positional().filter_map(|v| v.parse().ok()).collect();
                let mut vp = Map::new();
                for (pn, name) in &self.setup.seats {
                    let score = scores.get(*pn as usize).ok_or_else(|| at(e, format!("no score for seat {pn}")))?;
                    vp.insert(name.clone(), json!(score));
                }
                let p = self.pending.as_mut().ok_or_else(|| at(e, "final scores of a game without events"))?;
                p.stated.insert("vp".into(), Value::Object(vp));
            }
            _ => {}
        }
        Ok(())
    }

    /// `SOCTurn`: setup turns, a player's turn (15), a special build (100), the end (1000).
    fn turn(&mut self, e: &Entry) -> Result<(), FormatError> {
        self.flush()?;
        let pn: u8 = number(e, "playerNumber")?;
        let state: u32 = number(e, "gameState")?;
        let new_player = self.turn_player.is_some_and(|t| t != pn);
        match state {
            // Setup: the placements say it all.
            5 | 6 | 10 | 11 => self.turn_player = Some(pn),
            15 => {
                // A turn ends when the next begins: by the player's own end, or by the server after a
                // timeout (no `SOCEndTurn`; the cost of a half-placed piece comes back, and no piece is
                // written, so there is nothing to undo). The same player again: back from a special
                // build before their roll.
                if new_player {
                    self.end_turn(e)?;
                    self.turn_ended = false;
                    self.turn_rolled = false;
                }
                self.turn_player = Some(pn);
            }
            // The game ends as this player's turn begins: they have won.
            1000 => {
                if new_player {
                    self.end_turn(e)?;
                }
                self.over_at = Some(e.line);
                self.winner = self.winner.or(Some(pn as i64));
            }
            // Another player's special build after the turn player rolled: they have ended their turn. Before
            // the roll, players who asked at the roll prompt build one after another, the turn's own player
            // first (each `SOCEndTurn` ends a special build, not the turn); the turn goes on at the next
            // `SOCTurn` of state 15.
            100 if new_player && self.turn_rolled => self.end_turn(e)?,
            _ => {}
        }
        Ok(())
    }

    /// Writes the end of the turn player's turn, once: a time-out when the server ended a turn whose dice
    /// were never rolled (a player stalled at the roll).
    fn end_turn(&mut self, e: &Entry) -> Result<(), FormatError> {
        if !self.turn_ended {
            let pn = self.turn_player.expect("a turn is under way when another player's begins");
            let player = self.name(e, pn as i64)?;
            let kind = if self.turn_rolled { "end_turn" } else { "time_out" };
            self.emit(e, kind, &player, json!({}))?;
            self.turn_ended = true;
        }
        Ok(())
    }

    /// `SOCDiceResultResources`: `p=` count, then per player: seat, new hand size, (amount, type)..., 0.
    fn production(&mut self, e: &Entry) -> Result<(), FormatError> {
        let values: Vec<i64> =
            e.body.all("p").map(|v| v.parse().map_err(|_| at(e, format!("`p={v}`")))).collect::<Result<_, _>>()?;
        let mut production = Map::new();
        let mut sizes = Map::new();
        let mut i = 1;
        let players = *values.first().ok_or_else(|| at(e, "empty"))?;
        for _ in 0..players {
            let (pn, total) = (values.get(i).copied(), values.get(i + 1).copied());
            let (Some(pn), Some(total)) = (pn, total) else { return Err(at(e, "cut short")) };
            i += 2;
            let mut known = Resources::default();
            while let Some(&amount) = values.get(i) {
                if amount == 0 {
                    i += 1;
                    break;
                }
                let code = *values.get(i + 1).ok_or_else(|| at(e, "cut short"))?;
                let r = resource(code as u32).ok_or_else(|| at(e, format!("resource type {code}")))?;
                known[r] = u8::try_from(amount)
                    .ok()
                    .and_then(|n| known[r].checked_add(n))
                    .ok_or_else(|| at(e, format!("{amount} {r} is more than any hand holds")))?;
                i += 2;
            }
            let name = self.name(e, pn)?;
            production.insert(name.clone(), json!(Bundle::known(known)));
            sizes.insert(name, json!(total));
        }
        let p = self.pending_is("roll").ok_or_else(|| at(e, "production without a roll"))?;
        p.event.insert("production".into(), Value::Object(production));
        p.stated.insert("hand_sizes".into(), Value::Object(sizes));
        Ok(())
    }

    fn dev_card(&mut self, e: &Entry) -> Result<(), FormatError> {
        let b = &e.body;
        let pn: i64 = number(e, "playerNum")?;
        let player = self.name(e, pn)?;
        let codes: Vec<u32> = match b.get("cardTypes") {
            Some(list) => list
                .trim_matches(|c| c == '[' || c == ']')
                .split(',')
                .map(|n| n.trim().parse().map_err(|_| at(e, format!("card type `{n}`"))))
                .collect::<Result<_, _>>()?,
            None => vec![number(e, "cardType")?],
        };
        let action = b.get("actionType").unwrap_or("");
        match action {
            "DRAW" => {
                let card = card_name(e, codes[0])?;
                self.emit(e, "buy_development", &player, json!({"card": card}))?;
            }
            "PLAY" => {
                let kind = match codes[0] {
                    9 => "play_knight",
                    1 => "play_road_building",
                    2 => "play_year_of_plenty",
                    3 => "play_monopoly",
                    c => return Err(at(e, format!("card type {c} is not played"))),
                };
                self.emit(e, kind, &player, json!({}))?;
            }
            // Cards shown at the end of the game.
            "ADD_OLD" | "ADD_NEW" if self.over_at.is_some() => {
                let vp = codes.iter().filter(|c| (4..=8).contains(*c)).count() as u32;
                if vp > 0 {
                    self.reveals.push((pn, vp));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The victory point cards shown at the end, the winner's first: the game is over only when they are
    /// seen, for a view that did not see them bought.
    fn flush_reveals(&mut self) -> Result<(), FormatError> {
        let mut reveals = std::mem::take(&mut self.reveals);
        // The winner shows first; with no card to show, they claim the win with the points on the board
        // (the game may have ended as their turn began).
        if !self.winner_shown {
            if let Some(w) = self.winner.filter(|w| !reveals.iter().any(|(pn, _)| pn == w)) {
                reveals.push((w, 0));
            }
            self.winner_shown = self.winner.is_some();
        }
        reveals.sort_by_key(|&(pn, _)| Some(pn) != self.winner);
        let line = self.over_at.unwrap_or(1);
        for (pn, count) in reveals {
            let name = self.setup.seats.iter().find(|(p, _)| *p as i64 == pn).map(|(_, n)| n.clone());
            let name = name.ok_or_else(|| FormatError { line, reason: format!("cards shown for empty seat {pn}") })?;
            self.flush()?;
            let event = json!({"type": "reveal_victory_points", "player": name, "count": count});
            let Value::Object(event) = event else { unreachable!() };
            self.pending = Some(Pending { line, event, stated: Map::new() });
        }
        Ok(())
    }

    fn finish(&mut self, last_line: usize) -> Result<(), FormatError> {
        self.flush()?;
        let Some(ours) = self.state.winner else {
            return Err(FormatError {
                line: last_line,
                reason: "the log says the game is over, but by the rules nobody has won".into(),
            });
        };
        // A win the server declared later than the rules: the same player, or the record is refused.
        if let (Some(cut), Some(theirs)) = (self.cut, self.winner) {
            let ours = self.state.table.name(ours).to_string();
            let theirs = self.setup.seats.iter().find(|(pn, _)| i64::from(*pn) == theirs);
            let theirs = theirs.map_or_else(|| "an empty seat".to_string(), |(_, name)| name.clone());
            if ours != theirs {
                return Err(FormatError {
                    line: self.over_at.unwrap_or(last_line),
                    reason: format!(
                        "the server declared {theirs} the winner, but by the rules {ours} had won before line {cut}"
                    ),
                });
            }
        }
        Ok(())
    }
}

/// `eN=v` pairs of an element list (`e4=1,e5=-1` or `e4=1|e5=-1`).
fn elements(raw: &str) -> impl Iterator<Item = (u32, i64)> + '_ {
    raw.split(['|', ',']).filter_map(|f| {
        let (k, v) = f.split_once('=')?;
        Some((k.strip_prefix('e')?.parse().ok()?, v.parse().ok()?))
    })
}

/// A private `SOCPlayerElements SET e1..e5`: a whole hand.
fn hand_snapshot(e: &Entry) -> Result<Bundle, FormatError> {
    let mut known = Resources::default();
    for (k, v) in elements(e.body.raw) {
        if let Some(r) = resource(k) {
            known[r] = u8::try_from(v).map_err(|_| at(e, format!("e{k}={v}")))?;
        }
    }
    Ok(Bundle::known(known))
}

fn card_name(e: &Entry, code: u32) -> Result<&'static str, FormatError> {
    Ok(match code {
        0 => "unknown",
        1 => DevCard::RoadBuilding.name(),
        2 => DevCard::YearOfPlenty.name(),
        3 => DevCard::Monopoly.name(),
        4..=8 => DevCard::VictoryPoint.name(),
        9 => DevCard::Knight.name(),
        c => return Err(at(e, format!("development card type {c}"))),
    })
}

/// The object under `key`, made empty when absent.
fn object_at<'m>(m: &'m mut Map<String, Value>, key: &str) -> &'m mut Map<String, Value> {
    m.entry(key.to_string()).or_insert_with(|| Value::Object(Map::new())).as_object_mut().expect("an object")
}
