//! What may happen next in a game: the decisions open now, whose they are, and for a placement the legal
//! places. A table recorder offers only these; analysis may read them too.
//!
//! A game declares two things (see [`crate::Ruleset::open`] and [`crate::Ruleset::candidates`]):
//! the decisions its phase leaves open (a seat and the event types it may play), and per event type the
//! events to try: one per place or outcome. What is legal is then decided by the rules themselves
//! (`Game::next`, in the timeline): a candidate is legal when `apply` accepts it on a copy of the state. There is no second "is it legal"
//! function beside `apply` to drift from it.

use crate::facts::Seat;
use serde::Serialize;

/// A decision the rules leave open to one seat: the event types it may be made with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub seat: Seat,
    pub types: Vec<&'static str>,
}

impl Decision {
    pub fn new(seat: Seat, types: &[&'static str]) -> Decision {
        Decision { seat, types: types.to_vec() }
    }
}

/// The events to try for one event type (see [`crate::Ruleset::candidates`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Candidates<E> {
    /// Nothing to try: the type is open whenever the phase says so (its events carry a free choice no list
    /// could hold, a trade's cards, a discard's).
    Untried,
    /// Every event of the type the moment could take, one per place or outcome (a road on every edge, a
    /// tile on every square and rotation, each throw of the dice): the type is open when one is accepted,
    /// and those accepted are its choices.
    Each(Vec<E>),
    /// Events the table completes by counting out cards (a trade's, a discard's): too many for a list, so
    /// each form fixes the rest of the event and bounds what may be counted; the rules judge the whole
    /// when it is entered. The type is open when there is a form.
    Fill(Vec<Form<E>>),
    /// Both: the events a tap enters whole (one card for the bank's rate) and forms for the rest (several
    /// at once).
    EachOrFill(Vec<E>, Vec<Form<E>>),
}

/// An event with its counted fields left empty, and what may be counted into each; and what the table
/// picks, one option per [`Pick`] (whom, which card, what comes after), when the event has such choices
/// too many to list whole.
#[derive(Debug, Clone, PartialEq)]
pub struct Form<E> {
    pub event: E,
    /// What the event does, in words, before its cards are counted ("trades with Ayşe").
    pub words: String,
    pub counts: Vec<Count>,
    pub picks: Vec<Pick>,
}

/// One choice the table makes to complete a form: each option is a piece of the event's line (a JSON
/// object) laid over it — a field set, `null` taking a field away, a list joined to the list there, an
/// object laid over the object there. Every pick is chosen before the form is entered; the rules judge the
/// whole event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pick {
    pub words: String,
    pub options: Vec<PickOption>,
}

/// A pick's option laid over a line, the one statement of the rule (the recorder page asks the browser's
/// rules for it): a field set, `null` taking a field away, a list joined to the list there, an object laid
/// over the object there.
pub fn lay(into: &mut serde_json::Map<String, serde_json::Value>, set: &serde_json::Map<String, serde_json::Value>) {
    use serde_json::Value;
    for (k, v) in set {
        match (into.get_mut(k), v) {
            (_, Value::Null) => {
                into.remove(k);
            }
            (Some(Value::Array(a)), Value::Array(b)) => a.extend(b.iter().cloned()),
            (Some(Value::Object(a)), Value::Object(b)) => lay(a, b),
            _ => {
                into.insert(k.clone(), v.clone());
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PickOption {
    /// The JSON object laid over the line.
    pub set: String,
    pub words: String,
}

/// A field of cards the table counts out (steppers on a page): each card within the bounds the state sets
/// (what a hand holds), and between `least` and `most` cards in all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Count {
    /// The event line's field the cards are written to, as a bundle (a card's name and its count).
    pub field: &'static str,
    pub words: &'static str,
    pub cards: Vec<Bound>,
    pub least: u32,
    pub most: u32,
}

/// One card of a [`Count`] (or one player, for what each hands over) and how many of it may be counted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Bound {
    pub card: String,
    pub least: u32,
    pub most: u32,
}

/// An open decision as a recorder reads it: whose, the event types open to it, and for each type whose
/// events the game lists, the legal ones.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Open {
    pub seat: Seat,
    pub player: String,
    pub types: Vec<&'static str>,
    /// Per type among `types` whose events the game lists: the legal ones, or the forms to fill.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<Choices>,
}

/// The legal events of one type.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Choices {
    #[serde(rename = "type")]
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<Choice>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub forms: Vec<Blank>,
}

/// A form to fill as a recorder reads it: the event's log line with its counted fields empty, its words,
/// and what may be counted into each field.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Blank {
    pub line: String,
    pub words: String,
    pub counts: Vec<Count>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub picks: Vec<Pick>,
}

/// One legal event: its log line and what it does, in words (after the player's name, as the replay says
/// it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Choice {
    pub line: String,
    pub words: String,
    /// How a recorder shows it, beyond its words (see [`crate::Ruleset::shown`]).
    #[serde(flatten)]
    pub shown: Shown,
    /// Whether it ends the game: a winner after it, or nothing left to do (a recorder asks before entering
    /// it).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ends: bool,
}

/// How a recorder shows an event it offers, beyond its words; each part where the game has one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Shown {
    /// The few characters the table says aloud for it (a roll's total, "8"): a recorder lays the events
    /// with keys out as a pad, in view at once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// What the table says first when the events are many (the tile drawn, before where it went): a
    /// recorder asks it, in these words, before it shows the places. Each group's words are its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// What the game's drawing draws for it (its renderer's `drawChoice`), as JSON of the game's own (a
    /// tile as it would lie): a recorder shows it beside the words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub picture: Option<String>,
}

/// A way a table may begin a game of a kind at the recorder: a board laid out as the rulebook shows it,
/// one drawn from a seed (the same seed, the same board: the table copies it from the screen), or the
/// table's own, entered piece by piece on one of its `layouts`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Beginning {
    pub id: &'static str,
    pub words: &'static str,
    /// The fewest and the most players it is for.
    pub seats: [u8; 2],
    /// Whether it is drawn from a seed.
    pub seeded: bool,
    /// Where the table lays its own board (empty: the game lays it): one layout per range of players.
    pub layouts: Vec<Layout>,
}

/// What a beginning places before play, so that the table need not tap it: the colour of each seat's
/// pieces (empty: the table's own) and the entries, as event lines in the order the rules take them (the
/// rulebook's starting pieces). A recorder stores them after the header like any entry; the table may
/// withdraw them like any entry.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Opening {
    pub colors: Vec<&'static str>,
    pub lines: Vec<String>,
}

/// A board a table lays out itself: the places pieces lie on, drawn as outlines, and the kinds of pieces
/// the box holds for them. The page knows nothing of the game: it draws the outlines, offers the pieces
/// and sends back what lies where ([`Laid`]); the game then says whether the box could lay that board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Layout {
    /// The fewest and the most players it is for.
    pub seats: [u8; 2],
    pub places: Vec<Place>,
    pub kinds: Vec<PieceKind>,
}

/// One place of a [`Layout`]; its outline's corners are in board units (the page scales them).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Place {
    pub id: String,
    pub words: String,
    /// Which kinds of pieces lie on it ([`PieceKind::on`]).
    pub kind: &'static str,
    pub outline: Vec<[f32; 2]>,
}

/// One kind of piece, lying on the places of one kind: at most one piece of each kind on a place.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PieceKind {
    pub id: &'static str,
    pub words: &'static str,
    pub on: &'static str,
    /// Whether the piece colours its place (else it is written on it).
    pub fills: bool,
    pub pieces: Vec<Piece>,
}

/// A piece and how many of it the box holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Piece {
    pub id: String,
    /// Its name, and the short text written on a place it lies on.
    pub words: String,
    pub short: String,
    pub count: u8,
    /// The colour it fills its place with (CSS), for a kind that fills; else the colour it is written in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<&'static str>,
}

/// What a table laid on its own board: per place, per kind of piece, the piece.
pub type Laid = std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>>;

/// How a table asks to begin a game at the recorder: which beginning, for how many players, the seed a
/// seeded one is drawn from (the same seed always alike) and the board the table laid itself, if it did.
#[derive(Debug, Clone, Copy)]
pub struct Begin<'a> {
    pub beginning: &'a str,
    pub seats: usize,
    pub seed: u64,
    pub laid: &'a Laid,
}

/// The header fields a beginning lays out (a board, options), beside those every log shares.
pub type HeaderFields = serde_json::Map<String, serde_json::Value>;

impl Beginning {
    /// The beginning `id` among `known`, for `seats` players: why not, in words, when there is none.
    pub fn chosen<'a>(
        known: &'a [Beginning],
        id: &str,
        seats: usize,
        game: &str,
    ) -> Result<&'a Beginning, crate::SetupError> {
        let Some(b) = known.iter().find(|b| b.id == id) else {
            let ids: Vec<&str> = known.iter().map(|b| b.id).collect();
            return Err(crate::SetupError(format!("no beginning `{id}` for {game} (one of {})", ids.join(", "))));
        };
        if !(b.seats[0] as usize..=b.seats[1] as usize).contains(&seats) {
            return Err(crate::SetupError(format!(
                "{} is for {} to {} players, not {seats}",
                b.words, b.seats[0], b.seats[1]
            )));
        }
        Ok(b)
    }
}
