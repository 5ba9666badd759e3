//! A kind of game as the rest of Almanac sees it: one object per game crate, listed once in the engine's
//! registry. Pages, the API, the CLI and charts iterate over the registry; none of them names a game.

use crate::facts::{Fact, FactRow, Seat};
use crate::log::{Envelope, LogError};
use crate::position::{Feature, Position};
use crate::ruleset::{
    json_reason, Described, EventError, Header, Line, Played, RuleViolation, Rules, SetupError, Viewed,
};
use crate::view::{AnyView, View};
use crate::vocabulary::Vocabulary;

/// A reader of another program's records of a game (a bot framework's dumps, another app's saves). It
/// translates; the engine then validates the almanac/1 text like any uploaded log.
pub struct Importer {
    /// The name `--format` and `?format=` take.
    pub name: &'static str,
    /// What it reads, for people.
    pub label: &'static str,
    /// Does a file starting with this head (its first few kilobytes) look like one of these records?
    pub recognises: fn(&str) -> bool,
    /// The record as almanac/1 text.
    pub to_almanac: fn(&str) -> Result<String, FormatError>,
    /// The record as one person at the table saw it, for records that know more than any player did (a
    /// server's log of every seat's messages); none: the record has the one view it was recorded with.
    pub seen: Option<Translation>,
    /// The record read straight into its game beside its almanac/1 text, for an importer that makes its
    /// events typed: what reading `to_almanac`'s text would give, without reading the text back. None: the
    /// text is read.
    pub read: Option<StraightRead>,
}

/// A record read straight into its game (`Importer::read`).
pub type StraightRead = fn(&str) -> Result<Imported, ReadError>;

/// A record read by [`Importer::read`]: its almanac/1 text and the game it holds.
pub struct Imported {
    pub text: String,
    pub game: Box<dyn Game>,
}

/// Why [`Importer::read`] refused a record: the record is not one it reads (a line of the record), or its
/// translation breaks the log's rules (a line of the almanac/1 text).
#[derive(Debug)]
pub enum ReadError {
    Format(FormatError),
    Log(LogError),
}

impl From<FormatError> for ReadError {
    fn from(e: FormatError) -> ReadError {
        ReadError::Format(e)
    }
}

impl From<LogError> for ReadError {
    fn from(e: LogError) -> ReadError {
        ReadError::Log(e)
    }
}

/// A record's text as almanac/1 text, as a viewpoint saw it.
pub type Translation = fn(&str, Viewpoint) -> Result<String, FormatError>;

impl Importer {
    /// The record as almanac/1 text, as `view` saw it.
    pub fn to_almanac_seen(&self, text: &str, view: Viewpoint) -> Result<String, FormatError> {
        match (view, self.seen) {
            (Viewpoint::Full, _) => (self.to_almanac)(text),
            (other, Some(seen)) => seen(text, other),
            (other, None) => Err(FormatError::whole(format!(
                "a {} has one view only, the one it was recorded with; `{other}` needs a record of what each seat saw",
                self.label
            ))),
        }
    }
}

/// Whose knowledge a translated record keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Viewpoint {
    /// Everything the record knows, hidden cards included.
    #[default]
    Full,
    /// What a spectator saw: only what was shown to the whole table.
    Observer,
    /// What the player in this seat (of the source program's numbering) saw.
    Seat(u8),
}

impl std::fmt::Display for Viewpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Viewpoint::Full => f.write_str("full"),
            Viewpoint::Observer => f.write_str("observer"),
            Viewpoint::Seat(n) => write!(f, "seat:{n}"),
        }
    }
}

impl std::str::FromStr for Viewpoint {
    type Err = String;
    fn from_str(s: &str) -> Result<Viewpoint, String> {
        match s {
            "full" => Ok(Viewpoint::Full),
            "observer" => Ok(Viewpoint::Observer),
            _ => s
                .strip_prefix("seat:")
                .and_then(|n| n.parse().ok())
                .map(Viewpoint::Seat)
                .ok_or_else(|| format!("`{s}` is not a view: full, observer or seat:N")),
        }
    }
}

/// A record that could not be translated.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct FormatError {
    /// The line of the source file the problem is on (1 for a whole-file problem).
    pub line: usize,
    pub reason: String,
}

impl FormatError {
    /// A problem with the record as a whole (reported on line 1).
    pub fn whole(reason: impl Into<String>) -> FormatError {
        FormatError { line: 1, reason: reason.into() }
    }
}

/// A game as the registry knows it: all a game crate declares besides its rules. Three things are required:
/// the state that holds the rules, the words of its facts (with the game's id and name) and its replay
/// drawing. Everything else is provided: derived from [`Rules`], [`Line`], [`Described`] and
/// [`crate::Header`], or a default a game overrides where it has more to say (importers, a recorder's offers,
/// a decision's outcomes). It makes the game's [`GameKind`].
pub trait Ruleset: 'static + Sized + Sync {
    /// The state that holds the game's rules.
    type State: Rules;
    /// The words of its facts, with the game's id and name.
    const VOCABULARY: &'static Vocabulary;
    /// The replay renderer: a script that calls `Almanac.register(id, {...})` (see web/static/replay.js).
    const REPLAY_SCRIPT: &'static str;
    /// Readers of other programs' records of the game (none by default).
    const IMPORTERS: &'static [Importer] = &[];

    /// The ruleset id in headers: the vocabulary's (derived, not set).
    const ID: &'static str = Self::VOCABULARY.id;
    /// The game's name for people: the vocabulary's (derived, not set).
    const NAME: &'static str = Self::VOCABULARY.name;
    /// The rules' version, [`Rules::VERSION`] (derived, not set).
    const VERSION: u32 = <Self::State as Rules>::VERSION;
    /// What a position is made of, [`crate::Positioned::FEATURES`] (derived, not set).
    const FEATURES: &'static [Feature] = <Self::State as crate::Positioned>::FEATURES;

    /// The header line's text read into the game's header type, once.
    fn header(text: &str) -> Result<HeaderOf<Self>, SetupError> {
        serde_json::from_str(text).map_err(|e| SetupError(format!("header: {}", json_reason(&e))))
    }

    /// The state before the first event, from the header line's text.
    fn initial(header_line: &str) -> Result<Self::State, SetupError> {
        Self::header(header_line)?.state()
    }

    fn parse_event(state: &Self::State, line: &str) -> Result<EventOf<Self>, EventError> {
        <EventOf<Self> as Line>::parse(state, line)
    }

    fn write_event(state: &Self::State, event: &EventOf<Self>) -> String {
        event.write(state)
    }

    fn apply(state: &mut Self::State, event: &EventOf<Self>, facts: &mut Vec<Fact>) -> Result<(), RuleViolation> {
        state.apply(event, facts)
    }

    fn turn(state: &Self::State) -> u32 {
        state.turn()
    }

    fn active(state: &Self::State) -> Seat {
        state.active()
    }

    fn event_turn(state: &Self::State, event: &EventOf<Self>) -> u32 {
        state.event_turn(event)
    }

    fn opening_facts(initial: &Self::State, facts: &mut Vec<Fact>) {
        initial.opening_facts(facts)
    }

    fn edition(initial: &Self::State) -> String {
        initial.edition()
    }

    fn winner(state: &Self::State) -> Option<Seat> {
        state.winner()
    }

    fn view(state: &Self::State) -> View<GameViewOf<Self>, PlayerViewOf<Self>> {
        let own = state.view();
        let standing = state.standing();
        View {
            ruleset: Self::ID,
            turn: standing.turn,
            active: crate::Seated::name(state, standing.active).to_string(),
            phase: own.phase,
            winner: crate::Seated::name_of(state, standing.winner),
            players: own.players,
            game: own.game,
        }
    }

    /// The state written for a checkpoint (`checkpoint::write`): what play changed, not what the header
    /// gives.
    fn write_state(state: &Self::State) -> Vec<u8> {
        crate::checkpoint::write(state)
    }

    /// A checkpoint `write_state` wrote, read back onto `initial`, the state the game's header gives.
    fn read_state(initial: &Self::State, bytes: &[u8]) -> Result<Self::State, crate::CheckpointError> {
        let mut state: Self::State = crate::checkpoint::read(bytes)?;
        state.fixed_from(initial)?;
        Ok(state)
    }

    /// How an event reads in words after the acting player's name ([`Described`]).
    fn describe(state: &Self::State, event: &EventOf<Self>) -> String {
        event.describe(state)
    }

    /// Whether a table can record the game move by move: it declares what may happen next
    /// ([`Ruleset::open`] and [`Ruleset::candidates`]).
    const RECORDER: bool = false;

    /// The decisions the state leaves open: each seat that may act now and the event types it may act with
    /// (none when the game is over, or when the game declares no recorder). See [`crate::next`].
    fn open(_state: &Self::State) -> Vec<crate::next::Decision> {
        Vec::new()
    }

    /// The events of type `kind` by `seat` to try in `state` (see [`crate::next::Candidates`]): one per place
    /// or outcome the moment could take, or nothing to try.
    fn candidates(_state: &Self::State, _seat: Seat, _kind: &str) -> crate::next::Candidates<EventOf<Self>> {
        crate::next::Candidates::Untried
    }

    /// The events of type `kind` by `seat` that `candidates` lists whole (`Each`, or the list of
    /// `EachOrFill`): the moves a search of the turn tries. A game whose forms of a kind are costly to make
    /// and never listed whole answers sooner for that kind.
    fn listed(state: &Self::State, seat: Seat, kind: &str) -> Vec<EventOf<Self>> {
        match Self::candidates(state, seat, kind) {
            crate::next::Candidates::Each(events) | crate::next::Candidates::EachOrFill(events, _) => events,
            _ => Vec::new(),
        }
    }

    /// Whether an event is its player's own decision, which a coach may study: not a chance outcome (a
    /// roll), not what the rules force on the player (a discard after a 7), not bookkeeping. Every event
    /// by default; an event whose facts say it was rolled is never one (`Game::event_is_decision`).
    fn decision(_event: &EventOf<Self>) -> bool {
        true
    }

    /// The decision an event took, without what a record states of its result (a game whose events carry
    /// such statements strips them), to find it among the events the rules offered.
    fn choice(event: &EventOf<Self>) -> EventOf<Self> {
        event.clone()
    }

    /// The outcomes an event could have had where part of it is drawn (a card bought or stolen), each with
    /// its probability given the state, as events: the event alone by default (nothing drawn). Every event
    /// of one decision answers the same list, so a decision is valued at the expectation over its draws.
    fn outcomes(_state: &Self::State, event: &EventOf<Self>) -> Vec<(EventOf<Self>, f64)> {
        vec![(event.clone(), 1.0)]
    }

    /// How a move whose outcome is drawn (`outcomes`) reads before the draw, after the player's name ("rolls
    /// the dice"), given its first outcome: that outcome's own words by default (a card bought face down
    /// says so itself).
    fn undrawn_words(state: &Self::State, first: &EventOf<Self>) -> String {
        Self::describe(state, first)
    }

    /// Whether the player who would make `event` could judge what it leads to from what they saw (a card
    /// that takes what others hold, where cards were stolen out of their sight, could not): the analysis offers no
    /// alternative they could not judge, and judges the event as made where it is one. True by default.
    fn could_judge(_state: &Self::State, _event: &EventOf<Self>) -> bool {
        true
    }

    /// The seat, other than the one whose move `event` is, whose consent it took (a trade's partner, who
    /// could have declined): that seat's decision is judged too, accepting against declining. None by default.
    fn consented_by(_state: &Self::State, _event: &EventOf<Self>) -> Option<Seat> {
        None
    }

    /// Whether `other`, an event the rules offer, was open to the player who made `chosen` given what chance
    /// had dealt them with it (a tile drawn, named in the event that places it): only such events
    /// are its alternatives. Every offered event by default.
    fn dealt_alike(_chosen: &EventOf<Self>, _other: &EventOf<Self>) -> bool {
        true
    }

    /// How a recorder shows an event it offers, beyond its words (see [`crate::next::Shown`]): a key for a
    /// pad, the group the table names first, a picture. Nothing by default.
    fn shown(_state: &Self::State, _event: &EventOf<Self>) -> crate::next::Shown {
        crate::next::Shown::default()
    }

    /// The ways a table may begin a game at the recorder (none: the game is begun by its header alone).
    fn beginnings() -> Vec<crate::next::Beginning> {
        Vec::new()
    }

    /// The header fields a beginning lays out for its players (see [`crate::next::Begin`]). Pure: the seed
    /// is the only chance.
    fn begin(asked: &crate::next::Begin) -> Result<crate::next::HeaderFields, SetupError> {
        Err(SetupError(format!("this game has no beginning `{}`", asked.beginning)))
    }

    /// What `beginning` places before play for `players` (see [`crate::next::Opening`]); nothing by
    /// default. Called once `begin` accepted the beginning.
    fn opening(_beginning: &str, _players: &[&str]) -> crate::next::Opening {
        crate::next::Opening::default()
    }
}

/// A ruleset's header type.
pub type HeaderOf<R> = <<R as Ruleset>::State as Rules>::Header;
/// A ruleset's own part of a state view.
pub type GameViewOf<R> = <<R as Ruleset>::State as crate::Viewed>::GameView;
/// A ruleset's own part of a player's view.
pub type PlayerViewOf<R> = <<R as Ruleset>::State as crate::Viewed>::PlayerView;
/// A ruleset's event.
pub type EventOf<R> = <<R as Ruleset>::State as Rules>::Event;

/// One kind of game, object-safe: what the registry lists.
pub trait GameKind: Sync {
    /// The ruleset id in headers.
    fn id(&self) -> &'static str;
    fn version(&self) -> u32;
    fn name(&self) -> &'static str;
    fn vocabulary(&self) -> &'static Vocabulary;
    fn importers(&self) -> &'static [Importer];
    /// The `type`s of its event lines.
    fn event_types(&self) -> &'static [&'static str];
    fn replay_script(&self) -> &'static str;
    /// What a position is made of for the win-chance model (empty: no model).
    fn features(&self) -> &'static [Feature];
    /// Whether a table can record the game move by move (it says what may happen next).
    fn recorder(&self) -> bool;
    /// The ways a table may begin a game at the recorder (see [`Ruleset::beginnings`]).
    fn beginnings(&self) -> Vec<crate::next::Beginning>;
    /// The header fields of a beginning (see [`Ruleset::begin`]).
    fn begin(&self, asked: &crate::next::Begin) -> Result<crate::next::HeaderFields, SetupError>;
    /// What a beginning places before play (see [`Ruleset::opening`]).
    fn opening(&self, beginning: &str, players: &[&str]) -> crate::next::Opening;
    /// Reads and validates the events of a log whose header was read into `envelope` and `header`.
    fn read(&self, envelope: Envelope, header_line: &str, text: &str) -> Result<Box<dyn Game>, LogError>;
    /// The state after a stored game's checkpoint (after `checkpoint.0` events; none: from the header line's
    /// text) and the event lines that follow it, as the API shows it: a cold read that replays no more than
    /// the events since the checkpoint.
    fn view_from(
        &self,
        header: &str,
        checkpoint: Option<(usize, &[u8])>,
        lines: &[String],
    ) -> Result<crate::AnyView, ResumeError>;
    /// The same state written out (`Debug`), to compare with [`Game::state_dump_after`].
    fn state_dump_from(
        &self,
        header: &str,
        checkpoint: Option<(usize, &[u8])>,
        lines: &[String],
    ) -> Result<String, ResumeError>;
}

/// Why a stored checkpoint and the events after it gave no state.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    #[error(transparent)]
    Checkpoint(#[from] crate::CheckpointError),
    #[error(transparent)]
    Log(#[from] LogError),
    /// A withdrawal among the lines takes back an event the lines do not hold (at or before the checkpoint).
    #[error("line {line} withdraws event {seq}, which the checkpoint's lines do not hold")]
    Withdrawal { line: usize, seq: usize },
}

/// A validated game of any ruleset: what the engine, the store and the server work with.
pub trait Game: Send + Sync {
    fn ruleset(&self) -> &'static str;
    fn ruleset_version(&self) -> u32;
    /// The words its facts use.
    fn vocabulary(&self) -> &'static Vocabulary;
    fn envelope(&self) -> &Envelope;
    fn header_line(&self) -> &str;
    fn event_count(&self) -> usize;
    /// The turn of event `i` (0-based index).
    fn event_turn(&self, i: usize) -> u32;
    /// The source line of event `i`.
    fn event_line_no(&self, i: usize) -> usize;
    /// Event `i` written as an almanac/1 line.
    fn event_text(&self, i: usize) -> String;
    /// How events `from..to` read in words (see [`Ruleset::describe`]).
    fn event_words(&self, from: usize, to: usize) -> Vec<String>;
    /// The facts of event `i` (none when it was withdrawn: its facts count nowhere).
    fn event_facts(&self, i: usize) -> &[Fact];
    /// Whether event `i` was its player's own decision (see [`Ruleset::decision`]): never a withdrawal,
    /// nor an event that rolled dice.
    fn event_is_decision(&self, i: usize) -> bool;
    /// The event (0-based) that event `i` withdraws, when it is a withdrawal (see [`crate::withdrawal`]).
    /// When entry `i` was made (milliseconds since 1970, UTC), where its line says (see [`crate::moment`]).
    fn event_time(&self, i: usize) -> Option<i64>;
    fn withdrawal_of(&self, i: usize) -> Option<usize>;
    /// The withdrawal (0-based) that took event `i` back, if one did.
    fn withdrawn_by(&self, i: usize) -> Option<usize>;
    /// The facts of events `first..` as rows (what is stored and what the read model is derived from).
    fn fact_rows(&self, first: usize) -> Vec<FactRow> {
        let mut rows = Vec::new();
        for i in first..self.event_count() {
            let (seq, turn) = (i as u64 + 1, self.event_turn(i));
            rows.extend(self.event_facts(i).iter().map(|f| f.row(seq, turn)));
        }
        rows
    }
    /// The current turn (after the last event).
    fn current_turn(&self) -> u32;
    fn winner(&self) -> Option<Seat>;
    /// The state after the first `n` events (clamped).
    fn view_after(&self, n: usize) -> AnyView;
    /// How many events have been applied when turn `turn` is over (its last event included).
    fn events_through_turn(&self, turn: u32) -> usize;
    /// Validates and appends one more event line.
    fn push_line(&mut self, line_no: usize, text: &str) -> Result<(), LogError>;
    /// Forgets every event after the first `events`, as if they had never been pushed (the lines of an
    /// append that was refused, by the rules or by the store).
    fn truncate(&mut self, events: usize);
    /// The whole current state, written out (`Debug`): what tests compare to prove a rejected event changed
    /// nothing.
    fn state_dump(&self) -> String;
    /// The state after the first `n` events, written out (`Debug`).
    fn state_dump_after(&self, n: usize) -> String;
    /// The game with its expansions and variants, in words (see [`Ruleset::edition`]; empty: its name).
    fn edition(&self) -> String;
    /// Which seats a program played (bots), in seat order (see [`Ruleset::bots`]).
    fn bots(&self) -> Vec<bool>;
    /// The program whose record this is, where the record names it (see [`Ruleset::program`]).
    fn program(&self) -> Option<String>;
    /// About how many bytes the game holds in memory, to weigh it in a cache.
    fn memory_estimate(&self) -> usize;
    /// What was played, as a fingerprint (see [`crate::fingerprint`]): the same for every view and copy of
    /// one game, whatever its title.
    fn fingerprint(&self) -> String {
        let mut print = crate::fingerprint::Print::new(self.ruleset(), self.envelope());
        for i in 0..self.event_count() {
            print.add(self.event_facts(i));
        }
        print.finish()
    }
    /// How many cards its facts name that the record did not see (`Vocabulary::unseen`): 0 for a full
    /// record; of two records of one game, the one with fewer saw more.
    fn unseen(&self) -> u64;
    /// What a position is made of for the win-chance model (empty: no model).
    fn features(&self) -> &'static [Feature];
    /// The checkpoints the store keeps (see [`crate::checkpoint`]) after more than `after` events: after how
    /// many events, and the state then, written by its ruleset.
    fn checkpoints(&self, after: usize) -> Vec<(usize, Vec<u8>)>;
    /// The position at the start and after every event (`event_count() + 1` of them), or none where the
    /// game declares no features.
    fn positions(&self) -> Vec<Position>;
    /// What may happen next, after the last event: the open decisions and their legal places.
    fn next(&self) -> Vec<crate::next::Open>;
    /// Event `i` (0-based) against the alternatives the rules allowed its player then (see
    /// [`crate::decisions`]); none when it is no decision, or the game lists no alternatives (it declares
    /// no recorder or no features), or the event is not among those the rules offer (a trade's cards).
    fn decision(&self, i: usize) -> Option<crate::decisions::Decided>;
    /// `decision` of every event `wanted` picks, in one pass over the game.
    fn decisions(&self, wanted: &dyn Fn(usize) -> bool) -> Vec<crate::decisions::Decided>;
    /// Every decision `wanted` picks (a player's own: `event_is_decision`), it and each alternative valued
    /// with `worth` as the best turn it begins (see [`crate::plans`]), in one pass over the game; none where
    /// the game lists no alternatives (it declares no recorder or no features).
    fn weigh(&self, wanted: &dyn Fn(usize) -> bool, worth: crate::decisions::Worth) -> Vec<crate::decisions::Weighed>;
    /// The loop a search runs, over this game once, for `almanac bench` to time: every line applied again
    /// from the start, with nothing parsed; the number of lines the rules accepted again (all of them).
    fn apply_again(&self) -> usize;
    /// The rest of that loop, at the start and after every line: the moves each open decision lists whole
    /// (`Ruleset::listed`), each also applied to a copy of the state when `tried` (what a search does with
    /// them); the positions and the moves.
    fn list_moves_again(&self, tried: bool) -> (usize, usize);
}
