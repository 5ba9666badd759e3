//! Every game's seats held in memory — what a question groups and filters by —, so that a question reads
//! one metric's numbers alone (seat key and value, by the metric's index) and tallies them here on integers,
//! instead of joining each number to its seat's row in the database.
//!
//! A process keeps one copy for all its connections ([`SharedSeats`]) and brings it up to date before each
//! question from the seats revised since it last looked (`seats.revision`, taken from `seat_revision` by
//! every seat made or changed, in the order the changes commit).
//!
//! Long because its one job has many parts that share the same held seats (filters, groups, the players' and
//! the fields' sums, keeping up with revisions), and its tests (a quarter of it) sit beside them.

use crate::questions::Quick;
use crate::rows::{AnswerRow, Dimension, PlayerId, Question};
use crate::Viewer;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// The second key of a group of a question by one dimension.
const NO_KEY: i64 = i64::MIN;

/// One copy of the seats for every connection of a process.
pub type SharedSeats = Arc<RwLock<Seats>>;

/// A seat as a backend hands it over: a row of `seats`.
pub(crate) struct SeatRow {
    pub key: i64,
    pub game: String,
    pub seat: i64,
    pub ruleset: String,
    pub player: PlayerId,
    pub players: i64,
    pub played_on: Option<String>,
    pub owner: Option<i64>,
    pub published: bool,
    pub deleted: bool,
    pub opening: Option<String>,
    pub revision: i64,
    pub fingerprint: Option<String>,
    pub finished: bool,
    pub counted: bool,
    pub bot: bool,
    /// Its game's unseen cards and events: of the records of one game, the one that saw the most counts.
    pub unseen: i64,
    pub events: i64,
    /// Its game's edition in words (`Game::edition`): with the ruleset and table size, which games are alike.
    pub edition: String,
}

/// Every seat, as of revision `revision`.
#[derive(Default)]
pub struct Seats {
    revision: i64,
    seats: Vec<Seat>,
    /// Seats by key (keys are the database's, with gaps on PostgreSQL).
    by_key: HashMap<i64, u32, Quick>,
    games: Vec<GameSeats>,
    numbers: HashMap<Box<str>, u32>,
    /// Words numbered once: rulesets, months ("undated" among them), days played, openings ("" for none).
    rulesets: Words,
    months: Words,
    days: Words,
    openings: Words,
    fingerprints: Words,
    editions: Words,
    /// Per ruleset (by number), the latest revision of any of its seats.
    ruleset_revisions: Vec<i64>,
}

#[derive(Clone, Copy)]
struct Seat {
    key: i64,
    game: u32,
    seat: u16,
    players: u16,
    ruleset: u32,
    month: u32,
    opening: u32,
    player: PlayerId,
    /// The owning club, 0 for none.
    owner: i64,
    published: bool,
    deleted: bool,
    /// Its game has a winner.
    finished: bool,
    /// It counts for the public: see `recount`.
    counted: bool,
    /// A program played it.
    bot: bool,
    /// Its game's edition (a number of `editions`).
    edition: u32,
}

struct GameSeats {
    id: Box<str>,
    /// The day it was played (a number of `days`).
    day: Option<u32>,
    /// Its seats (numbers of `seats`).
    seats: Vec<u32>,
    /// What was played (a number of `fingerprints`; none: a game of its own).
    fingerprint: Option<u32>,
    /// How much the record saw, as `recount` orders the records of one game: its unseen cards, then its
    /// events longest first.
    fullness: (i64, i64),
}

#[derive(Default)]
struct Words {
    words: Vec<Box<str>>,
    numbers: HashMap<Box<str>, u32>,
}

impl Words {
    fn number(&mut self, word: &str) -> u32 {
        if let Some(&n) = self.numbers.get(word) {
            return n;
        }
        let n = self.words.len() as u32;
        self.words.push(word.into());
        self.numbers.insert(word.into(), n);
        n
    }

    fn find(&self, word: &str) -> Option<u32> {
        self.numbers.get(word).copied()
    }
}

impl Seats {
    /// The revision the copy is as new as.
    pub(crate) fn revision(&self) -> i64 {
        self.revision
    }

    /// Takes in a seat made or changed.
    pub(crate) fn take(&mut self, row: SeatRow) {
        let game = match self.numbers.get(row.game.as_str()) {
            Some(&g) => g,
            None => {
                let g = self.games.len() as u32;
                self.numbers.insert(row.game.as_str().into(), g);
                let day = row.played_on.as_deref().map(|d| self.days.number(d));
                self.games.push(GameSeats {
                    id: row.game.as_str().into(),
                    day,
                    seats: Vec::new(),
                    fingerprint: None,
                    fullness: (0, 0),
                });
                g
            }
        };
        self.games[game as usize].fingerprint = row.fingerprint.as_deref().map(|f| self.fingerprints.number(f));
        self.games[game as usize].fullness = (row.unseen, -row.events);
        let month = match &row.played_on {
            Some(d) => self.months.number(d.get(..7).unwrap_or(d)),
            None => self.months.number("undated"),
        };
        let seat = Seat {
            key: row.key,
            game,
            seat: row.seat as u16,
            players: row.players as u16,
            ruleset: self.rulesets.number(&row.ruleset),
            month,
            opening: self.openings.number(row.opening.as_deref().unwrap_or("")),
            player: row.player,
            owner: row.owner.unwrap_or(0),
            published: row.published,
            deleted: row.deleted,
            finished: row.finished,
            counted: row.counted,
            bot: row.bot,
            edition: self.editions.number(&row.edition),
        };
        match self.by_key.get(&row.key) {
            Some(&n) => self.seats[n as usize] = seat,
            None => {
                let n = self.seats.len() as u32;
                self.seats.push(seat);
                self.by_key.insert(row.key, n);
                self.games[game as usize].seats.push(n);
            }
        }
        self.revision = self.revision.max(row.revision);
        let r = seat.ruleset as usize;
        if self.ruleset_revisions.len() <= r {
            self.ruleset_revisions.resize(r + 1, 0);
        }
        self.ruleset_revisions[r] = self.ruleset_revisions[r].max(row.revision);
    }

    /// The ruleset with the most games that count for the public (the first seen on a tie); none without any.
    pub(crate) fn most_played(&self) -> Option<&str> {
        let mut games = vec![0u32; self.rulesets.words.len()];
        for g in &self.games {
            if let Some(s) = g.seats.first().map(|&n| &self.seats[n as usize]).filter(|s| s.counted) {
                games[s.ruleset as usize] += 1;
            }
        }
        let best = (0..games.len()).max_by_key(|&r| (games[r], std::cmp::Reverse(r)))?;
        (games[best] > 0).then(|| &*self.rulesets.words[best])
    }

    /// The players (after merges) every one of whose seats a program played.
    /// Whether every seat of `player` is a program's (a person's seats, some of them played by a program, are
    /// a person's).
    pub(crate) fn a_program(&self, player: PlayerId) -> bool {
        let mut theirs = self.seats.iter().filter(|s| s.player == player).peekable();
        theirs.peek().is_some() && theirs.all(|s| s.bot)
    }

    /// The seats that count of games like `like` (the same ruleset, table size and edition) that programs
    /// played (`programs`) or people did, by key, and how many games they are of: a field of peers.
    pub(crate) fn peers(&self, like: &LikeGames, programs: bool) -> (Vec<i64>, u64) {
        let (Some(r), Some(e)) = (self.rulesets.find(&like.ruleset), self.editions.find(&like.edition)) else {
            return (Vec::new(), 0);
        };
        let mut games = std::collections::HashSet::new();
        let mut keys: Vec<i64> = self
            .seats
            .iter()
            .filter(|s| s.counted && s.ruleset == r && s.players == like.players && s.edition == e && s.bot == programs)
            .map(|s| {
                games.insert(s.game);
                s.key
            })
            .collect();
        keys.sort_unstable();
        (keys, games.len() as u64)
    }

    pub(crate) fn bots(&self) -> std::collections::HashSet<PlayerId> {
        let mut people = std::collections::HashSet::new();
        let mut bots = std::collections::HashSet::new();
        for s in &self.seats {
            if s.bot {
                bots.insert(s.player);
            } else {
                people.insert(s.player);
            }
        }
        bots.retain(|p| !people.contains(p));
        bots
    }

    /// The keys of a player's seats (after merges), whoever may see them.
    pub(crate) fn keys_of(&self, player: PlayerId) -> Vec<i64> {
        let mut keys: Vec<i64> = self.seats.iter().filter(|s| s.player == player).map(|s| s.key).collect();
        keys.sort_unstable();
        keys
    }

    /// A player's seats that count (`recount`): the ruleset, the opening (`None`: none) and, for a seat of the
    /// same game named by its number, that seat's player — by seat key.
    pub(crate) fn published_seats_of(&self, player: PlayerId) -> HashMap<i64, PlayerSeat<'_>, Quick> {
        self.seats
            .iter()
            .filter(|s| s.player == player && s.counted)
            .map(|s| {
                let opening = &*self.openings.words[s.opening as usize];
                let seat = PlayerSeat {
                    ruleset: &self.rulesets.words[s.ruleset as usize],
                    opening: (!opening.is_empty()).then_some(opening),
                    table: &self.games[s.game as usize].seats,
                    players: s.players,
                    edition: &self.editions.words[s.edition as usize],
                    seats: &self.seats,
                };
                (s.key, seat)
            })
            .collect()
    }

    /// A number that changes whenever a seat of a game of `ruleset` is made or changed: a game stored, appended
    /// to, derived again, published, made private or deleted; a spelling of one of its players merged.
    pub(crate) fn ruleset_revision(&self, ruleset: &str) -> i64 {
        self.rulesets.find(ruleset).map_or(0, |r| self.ruleset_revisions[r as usize])
    }

    /// What decides which of the numbers handed to [`Tally::add`] count, and in which group.
    pub(crate) fn sieve(&self, q: &Question, club: Option<i64>) -> Sieve {
        let nothing = || Sieve { nothing: true, ..Sieve::everyone(q.by) };
        let ruleset = match &q.ruleset {
            Some(r) => match self.rulesets.find(r) {
                Some(n) => Some(n),
                None => return nothing(),
            },
            None => None,
        };
        let owner = match (&q.club, club) {
            (Some(_), Some(id)) => Some(id),
            (Some(_), None) => return nothing(),
            (None, _) => None,
        };
        // A group's key is its two keys, "4|2", when the question is asked by two dimensions.
        let group = match &q.group {
            Some(text) => {
                let (first, second) = match (q.then, text.split_once('|')) {
                    (Some(then), Some((a, b))) => (self.group_key_of(q.by, a), self.group_key_of(then, b)),
                    (None, None) => (self.group_key_of(q.by, text), Some(NO_KEY)),
                    _ => (None, None),
                };
                match (first, second) {
                    (Some(a), Some(b)) => Some((a, b)),
                    _ => return nothing(),
                }
            }
            None => None,
        };
        let (viewer_club, everything) = match q.viewer {
            Viewer::Public => (None, false),
            Viewer::Club(c) => (Some(c), false),
            Viewer::Operator => (None, true),
        };
        // A club's view (`club=`): the games the club recorded or uploaded, each counted once, whichever of a
        // game's records counts for the viewer.
        let private = match owner {
            Some(o) => Some(self.club_records(o, viewer_club, everything)),
            None => (viewer_club.is_some() || everything).then(|| self.counted_for(viewer_club, everything)),
        };
        Sieve {
            q_by: q.by,
            nothing: false,
            ruleset,
            owner,
            player: q.player,
            players: q.players.map(|n| n as u16),
            group,
            then: q.then,
            private,
            people_only: !q.bots && q.player.is_none() && matches!(q.by, Dimension::Player | Dimension::Opponent),
        }
    }

    /// A club's records of the games that count for a viewer (`counted_for`, or the public's `counted`): for
    /// each such game, the club's own record that saw the most of those the viewer may see, whether or not it
    /// is the record counted — so that a club's view holds every game it recorded or uploaded, once.
    fn club_records(&self, owner: i64, club: Option<i64>, everything: bool) -> Bits {
        let counted = if club.is_some() || everything {
            self.counted_for(club, everything)
        } else {
            let mut public = Bits::default();
            for (g, game) in self.games.iter().enumerate() {
                if game.seats.first().is_some_and(|&s| self.seats[s as usize].counted) {
                    public.insert(g as u32);
                }
            }
            public
        };
        let mut prints = Bits::default();
        for (g, game) in self.games.iter().enumerate() {
            if let (true, Some(f)) = (counted.contains(g as u32), game.fingerprint) {
                prints.insert(f);
            }
        }
        self.fullest_of_each(|g, game, s| {
            let seen = !s.deleted && (s.published || everything || club == Some(s.owner));
            let of_a_counted_game = counted.contains(g) || game.fingerprint.is_some_and(|f| prints.contains(f));
            s.owner == owner && seen && s.finished && of_a_counted_game
        })
    }

    /// The ids of a club's records of `ruleset`'s games that count for the public (`club_records`): each
    /// published game it recorded or uploaded, once, by its own record, whether or not that is the one counted.
    pub(crate) fn club_record_ids(&self, ruleset: &str, club: i64) -> std::collections::HashSet<Box<str>> {
        let Some(r) = self.rulesets.find(ruleset) else { return Default::default() };
        self.club_records(club, None, false)
            .iter()
            .filter_map(|g| {
                let game = &self.games[g as usize];
                let first = &self.seats[*game.seats.first()? as usize];
                (first.ruleset == r).then(|| game.id.clone())
            })
            .collect()
    }

    /// Of the games `take` takes (given the game, its record and its first seat), the one of each fingerprint
    /// that saw the most: the fewest unseen cards, then the longest, then the first stored (`recount`'s order).
    fn fullest_of_each(&self, take: impl Fn(u32, &GameSeats, &Seat) -> bool) -> Bits {
        let mut order: Vec<((i64, i64, i64), u32)> = (0..self.games.len() as u32)
            .filter_map(|g| {
                let game = &self.games[g as usize];
                let s = &self.seats[*game.seats.first()? as usize];
                take(g, game, s).then_some(((game.fullness.0, game.fullness.1, s.key), g))
            })
            .collect();
        order.sort_unstable();
        let (mut taken, mut chosen) = (Bits::default(), Bits::default());
        for (_, g) in order {
            match self.games[g as usize].fingerprint {
                Some(f) if taken.contains(f) => {}
                Some(f) => {
                    taken.insert(f);
                    chosen.insert(g);
                }
                None => chosen.insert(g),
            }
        }
        chosen
    }

    /// The games that count for a viewer who may see more than the published ones (a club's own, or all): of
    /// the games it may see that have a winner, the one of each fingerprint that saw the most (the fewest
    /// unseen cards, then the longest, then the first stored) — the public's rule (`recount`) over what this
    /// viewer sees.
    fn counted_for(&self, club: Option<i64>, everything: bool) -> Bits {
        self.fullest_of_each(|_, _, s| !s.deleted && (s.published || everything || club == Some(s.owner)) && s.finished)
    }

    /// The key of the group spelled `text` (as an answer's row spells its key), if any seat can be in it.
    fn group_key_of(&self, by: Dimension, text: &str) -> Option<i64> {
        let number = || text.parse::<i64>().ok().filter(|n| n.to_string() == text);
        match by {
            Dimension::Player | Dimension::Opponent | Dimension::Seat | Dimension::Players | Dimension::Club => {
                number()
            }
            Dimension::Ruleset => self.rulesets.find(text).map(i64::from),
            Dimension::Month => self.months.find(text).map(i64::from),
            Dimension::Opening => self.openings.find(text).map(i64::from),
        }
    }

    /// How a group's key is spelled in an answer.
    fn group_text(&self, by: Dimension, key: i64) -> String {
        match by {
            Dimension::Ruleset => self.rulesets.words[key as usize].to_string(),
            Dimension::Month => self.months.words[key as usize].to_string(),
            Dimension::Opening => self.openings.words[key as usize].to_string(),
            _ => key.to_string(),
        }
    }
}

/// One of a player's seats, as a player page reads it.
pub(crate) struct PlayerSeat<'a> {
    pub ruleset: &'a str,
    pub opening: Option<&'a str>,
    /// The players at its table.
    pub players: u16,
    pub edition: &'a str,
    table: &'a [u32],
    seats: &'a [Seat],
}

impl PlayerSeat<'_> {
    /// Which games this seat's is like.
    pub(crate) fn like(&self) -> LikeGames {
        LikeGames { ruleset: self.ruleset.to_string(), players: self.players, edition: self.edition.to_string() }
    }

    /// The player in seat `seat` (counted from 0) of the same game.
    pub(crate) fn player_at(&self, seat: u16) -> Option<PlayerId> {
        self.table.iter().map(|&n| &self.seats[n as usize]).find(|s| s.seat == seat).map(|s| s.player)
    }
}

/// Games alike in what their numbers stand on: the same ruleset, table size and edition (the expansions, map,
/// target and variants: `Game::edition`). A player's numbers are set beside their peers' at games like theirs.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct LikeGames {
    pub ruleset: String,
    pub players: u16,
    pub edition: String,
}

/// A question's conditions, made once: which seats count (the viewer's, under the filters) and by what key
/// they are grouped. `nothing`: a filter names what no seat has.
pub(crate) struct Sieve {
    q_by: Dimension,
    nothing: bool,
    ruleset: Option<u32>,
    owner: Option<i64>,
    player: Option<PlayerId>,
    players: Option<u16>,
    group: Option<(i64, i64)>,
    /// The second dimension, when the question is asked by two.
    then: Option<Dimension>,
    /// For a viewer who may see more than the public: the games that count for it (numbers of games).
    private: Option<Bits>,
    /// A "who" question ranks people only: programs' seats are no group.
    people_only: bool,
}

impl Sieve {
    /// Every published seat, grouped `by`.
    fn everyone(by: Dimension) -> Sieve {
        Sieve {
            q_by: by,
            nothing: false,
            ruleset: None,
            owner: None,
            player: None,
            players: None,
            group: None,
            then: None,
            private: None,
            people_only: false,
        }
    }

    /// Whether seat `s` counts for the question: its game counts for the viewer (one game once, with a winner),
    /// and it is of the ruleset, club, player and table size asked.
    fn admits(&self, s: &Seat) -> bool {
        let counts = match &self.private {
            Some(games) => games.contains(s.game),
            None => s.counted,
        };
        counts
            // People only: a program's seat is no one's, neither as the player asked of nor against its opponents.
            && !(self.people_only && matches!(self.q_by, Dimension::Player | Dimension::Opponent) && s.bot)
            && self.ruleset.is_none_or(|r| s.ruleset == r)
            && self.owner.is_none_or(|o| s.owner == o)
            && self.player.is_none_or(|p| s.player == p)
            && self.players.is_none_or(|n| s.players == n)
    }

    /// The group key of seat `s`, for every dimension but opponents.
    fn key_of(&self, s: &Seat) -> i64 {
        Self::key_by(self.q_by, s)
    }

    /// The second key of seat `s`, when the question has a second dimension ([`NO_KEY`] otherwise).
    fn then_key_of(&self, s: &Seat) -> i64 {
        self.then.map_or(NO_KEY, |d| Self::key_by(d, s))
    }

    fn key_by(by: Dimension, s: &Seat) -> i64 {
        match by {
            Dimension::Player | Dimension::Opponent => s.player,
            Dimension::Seat => s.seat as i64 + 1,
            Dimension::Ruleset => s.ruleset as i64,
            Dimension::Month => s.month as i64,
            Dimension::Players => s.players as i64,
            Dimension::Club => s.owner,
            Dimension::Opening => s.opening as i64,
        }
    }
}

/// A question's numbers tallied: per group the seats, the distinct games and the sum; the games counted.
/// Games are the copy's numbers; each group marks its games in a bit set.
#[derive(Default)]
pub(crate) struct Tally {
    /// By the group's key and its second key ([`NO_KEY`] for a question by one dimension).
    groups: HashMap<(i64, i64), GroupTally, Quick>,
    counted: Bits,
}

#[derive(Default)]
struct GroupTally {
    seats: u64,
    sum: f64,
    /// The sum of the values' squares, for their spread.
    sum_sq: f64,
    /// The sum over the seats of 1 / players at the table: a fair share of wins, summed.
    fair: f64,
    /// The sum over the seats of the players at the table (how far a mean of places can reach).
    players: f64,
    games: Bits,
}

/// A set of game numbers, with its size.
#[derive(Default)]
struct Bits {
    words: Vec<u64>,
    len: u64,
}

impl Bits {
    fn insert(&mut self, n: u32) {
        let (word, bit) = (n as usize / 64, 1u64 << (n % 64));
        if self.words.len() <= word {
            self.words.resize(word + 1, 0);
        }
        if self.words[word] & bit == 0 {
            self.words[word] |= bit;
            self.len += 1;
        }
    }

    fn contains(&self, n: u32) -> bool {
        self.words.get(n as usize / 64).is_some_and(|w| w & (1u64 << (n % 64)) != 0)
    }

    fn union(&mut self, other: &Bits) {
        if self.words.len() < other.words.len() {
            self.words.resize(other.words.len(), 0);
        }
        for (mine, theirs) in self.words.iter_mut().zip(&other.words) {
            *mine |= theirs;
        }
        self.len = self.words.iter().map(|w| w.count_ones() as u64).sum();
    }

    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let n = w as u32 * 64 + bits.trailing_zeros();
                    bits &= bits - 1;
                    n
                })
            })
        })
    }
}

impl Tally {
    /// Counts the number `value` of the seat keyed `key`, if the sieve lets it through; a seat the copy does
    /// not know yet (made after it was brought up to date) is not counted.
    pub(crate) fn add(&mut self, seats: &Seats, sieve: &Sieve, key: i64, value: f64) {
        if sieve.nothing {
            return;
        }
        let Some(&n) = seats.by_key.get(&key) else { return };
        let s = &seats.seats[n as usize];
        if !sieve.admits(s) {
            return;
        }
        if sieve.q_by == Dimension::Opponent {
            for &o in &seats.games[s.game as usize].seats {
                let other = &seats.seats[o as usize];
                if o != n && !(sieve.people_only && other.bot) {
                    self.count(sieve, (other.player, sieve.then_key_of(s)), s, value);
                }
            }
        } else {
            self.count(sieve, (sieve.key_of(s), sieve.then_key_of(s)), s, value);
        }
    }

    fn count(&mut self, sieve: &Sieve, key: (i64, i64), s: &Seat, value: f64) {
        if sieve.group.is_some_and(|g| g != key) {
            return;
        }
        let group = self.groups.entry(key).or_default();
        group.seats += 1;
        group.sum += value;
        group.sum_sq += value * value;
        group.fair += 1.0 / f64::from(s.players.max(1));
        group.players += f64::from(s.players);
        group.games.insert(s.game);
        self.counted.insert(s.game);
    }

    /// Leaves out the groups of fewer than `min_seats` seats, and the games counted only in them: what an
    /// answer counts is what stands behind the groups it shows.
    pub(crate) fn keep_groups_of(&mut self, min_seats: u64) {
        if min_seats <= 1 {
            return;
        }
        self.groups.retain(|_, g| g.seats >= min_seats);
        let mut counted = Bits::default();
        for g in self.groups.values() {
            counted.union(&g.games);
        }
        self.counted = counted;
    }

    /// Adds what `other` tallied over other seats (a question read in parts at once).
    pub(crate) fn merge(&mut self, other: Tally) {
        for (key, theirs) in other.groups {
            let group = self.groups.entry(key).or_default();
            group.seats += theirs.seats;
            group.sum += theirs.sum;
            group.sum_sq += theirs.sum_sq;
            group.fair += theirs.fair;
            group.players += theirs.players;
            group.games.union(&theirs.games);
        }
        self.counted.union(&other.counted);
    }

    /// The groups (no labels yet), how many games were counted, and the ids of the latest `limit` of them
    /// (played latest first, undated last, then by id).
    #[cfg(test)]
    pub(crate) fn finish(self, seats: &Seats, by: Dimension, limit: usize) -> Tallied {
        self.finish_by(seats, by, None, limit)
    }

    /// `finish` for a question by `by` and then by `then`: a group's key is its two keys, "4|2".
    pub(crate) fn finish_by(self, seats: &Seats, by: Dimension, then: Option<Dimension>, limit: usize) -> Tallied {
        let groups = self
            .groups
            .into_iter()
            .map(|((key, second), g)| AnswerRow {
                key: match then {
                    Some(d) => format!("{}|{}", seats.group_text(by, key), seats.group_text(d, second)),
                    None => seats.group_text(by, key),
                },
                player: matches!(by, Dimension::Player | Dimension::Opponent).then_some(key),
                id: key,
                then_id: then.map(|_| second),
                label: String::new(),
                seats: g.seats,
                games: g.games.len,
                mean: g.sum / g.seats as f64,
                variance: (g.sum_sq / g.seats as f64 - (g.sum / g.seats as f64).powi(2)).max(0.0),
                fair_share: g.fair / g.seats as f64,
                players: g.players / g.seats as f64,
            })
            .collect();
        // Days ranked in their text's order (a few hundred of them), so that games compare by number.
        let mut by_text: Vec<(&str, u32)> =
            seats.days.words.iter().enumerate().map(|(n, d)| (&**d, n as u32)).collect();
        by_text.sort_unstable();
        let mut rank = vec![0u32; by_text.len()];
        for (r, (_, n)) in by_text.iter().enumerate() {
            rank[*n as usize] = r as u32;
        }
        let games = &seats.games;
        let newest_first = |a: &u32, b: &u32| {
            let (ga, gb) = (&games[*a as usize], &games[*b as usize]);
            let (pa, pb) = (ga.day.map(|d| rank[d as usize]), gb.day.map(|d| rank[d as usize]));
            let by_date = match (pa, pb) {
                (Some(x), Some(y)) => y.cmp(&x),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            };
            by_date.then_with(|| ga.id.cmp(&gb.id))
        };
        let mut order: Vec<u32> = self.counted.iter().collect();
        if limit < order.len() {
            if limit > 0 {
                order.select_nth_unstable_by(limit - 1, newest_first);
            }
            order.truncate(limit);
        }
        order.sort_unstable_by(newest_first);
        let latest = order.into_iter().map(|g| games[g as usize].id.to_string()).collect();
        Tallied { groups, counted: self.counted.len, latest }
    }
}

pub(crate) struct Tallied {
    pub groups: Vec<AnswerRow>,
    pub counted: u64,
    pub latest: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(key: i64, game: &str, seat: i64, player: i64, played_on: Option<&str>) -> SeatRow {
        SeatRow {
            key,
            game: game.to_string(),
            seat,
            ruleset: "r".to_string(),
            player,
            players: 2,
            played_on: played_on.map(str::to_string),
            owner: None,
            published: true,
            deleted: false,
            opening: None,
            revision: key,
            fingerprint: None,
            finished: true,
            counted: true,
            bot: false,
            unseen: 0,
            events: 0,
            edition: String::new(),
        }
    }

    fn question(by: Dimension) -> Question {
        Question::over(Viewer::Public, "m", by)
    }

    /// Games b (March), c (undated), a (March), d (May), e (undated); players 1 and 2 in each.
    fn five_games() -> Seats {
        let mut seats = Seats::default();
        let games =
            [("b", Some("2026-03-01")), ("c", None), ("a", Some("2026-03-01")), ("d", Some("2026-05-01")), ("e", None)];
        for (g, (id, day)) in games.iter().enumerate() {
            let key = 1 + 2 * g as i64;
            seats.take(seat(key, id, 0, 1, *day));
            seats.take(seat(key + 1, id, 1, 2, *day));
        }
        seats
    }

    /// Each group's key, seats, games and mean (by key); the games counted; the latest.
    type Plain = (Vec<(String, u64, u64, f64)>, u64, Vec<String>);

    fn sorted(t: Tallied) -> Plain {
        let mut groups: Vec<(String, u64, u64, f64)> =
            t.groups.into_iter().map(|g| (g.key, g.seats, g.games, g.mean)).collect();
        groups.sort_by(|a, b| a.0.cmp(&b.0));
        (groups, t.counted, t.latest)
    }

    #[test]
    fn a_tally_counts_each_game_once_per_group_and_keeps_the_latest_games() {
        let seats = five_games();
        let q = question(Dimension::Player);
        let sieve = seats.sieve(&q, None);
        let mut t = Tally::default();
        // Player 1 in every game, player 2 in b, c and d; seat 1 of game b counted twice (a number met again).
        for (key, value) in [(1, 1.0), (2, 0.0), (3, 1.0), (4, 1.0), (1, 1.0), (5, 0.0), (7, 1.0), (8, 1.0), (9, 0.0)] {
            t.add(&seats, &sieve, key, value);
        }
        let (groups, counted, latest) = sorted(t.finish(&seats, q.by, 4));
        assert_eq!(groups, [("1".into(), 6, 5, 4.0 / 6.0), ("2".into(), 3, 3, 2.0 / 3.0)]);
        assert_eq!(counted, 5);
        // Newest first, a tie by id, the undated last: d, then a and b of March, then c (e is past the limit).
        assert_eq!(latest, ["d", "a", "b", "c"]);
    }

    #[test]
    fn one_game_counts_once_for_every_viewer_and_a_game_without_a_winner_not_at_all() {
        // (game, its fingerprint, owning club, published, finished, counted as the store decides it for the
        // public): x and its published copy y; z, club 7's own; w, club 7's private copy of x; u, unfinished.
        let games = [
            ("x", "F", 0, true, true, true),
            ("y", "F", 3, true, true, false),
            ("z", "G", 7, false, true, false),
            ("w", "F", 7, false, true, false),
            ("u", "H", 0, true, false, false),
        ];
        let mut seats = Seats::default();
        for (g, (id, print, club, published, finished, counted)) in games.into_iter().enumerate() {
            let mut row = seat(1 + g as i64, id, 0, 1, None);
            row.fingerprint = Some(print.to_string());
            row.owner = Some(club).filter(|&c| c != 0);
            (row.published, row.finished, row.counted) = (published, finished, counted);
            seats.take(row);
        }
        let counted = |viewer: Viewer| {
            let q = Question::over(viewer, "m", Dimension::Player);
            let sieve = seats.sieve(&q, None);
            let mut t = Tally::default();
            for key in 1..=5 {
                t.add(&seats, &sieve, key, 1.0);
            }
            let mut latest = t.finish(&seats, q.by, 10).latest;
            latest.sort();
            latest
        };
        assert_eq!(counted(Viewer::Public), ["x"]);
        assert_eq!(counted(Viewer::Club(7)), ["x", "z"], "club 7's copy of x is x, counted once");
        assert_eq!(counted(Viewer::Club(3)), ["x"], "club 3's copy y is x, stored first");
        assert_eq!(counted(Viewer::Operator), ["x", "z"]);
    }

    #[test]
    fn who_questions_rank_people_and_leave_programs_seats_out_unless_asked() {
        // One game: player 1 a person, players 2 and 3 bots.
        let mut seats = Seats::default();
        for (key, player, bot) in [(1, 1, false), (2, 2, true), (3, 3, true)] {
            seats.take(SeatRow { bot, ..seat(key, "g", key - 1, player, None) });
        }
        let groups = |q: &Question| {
            let sieve = seats.sieve(q, None);
            let mut t = Tally::default();
            for key in 1..=3 {
                t.add(&seats, &sieve, key, 1.0);
            }
            let mut keys: Vec<String> = t.finish(&seats, q.by, 10).groups.into_iter().map(|g| g.key).collect();
            keys.sort();
            keys
        };
        assert_eq!(groups(&question(Dimension::Player)), ["1"]);
        // People only: a bot's seat is no one's, and no person sat against the person here.
        assert_eq!(groups(&question(Dimension::Opponent)), Vec::<String>::new(), "no bot's seat against the person");
        assert_eq!(groups(&Question { bots: true, ..question(Dimension::Player) }), ["1", "2", "3"]);
        assert_eq!(groups(&Question { bots: true, ..question(Dimension::Opponent) }), ["1", "2", "3"]);
        assert_eq!(groups(&question(Dimension::Seat)), ["1", "2", "3"], "a seat is a seat, whoever sat in it");
        let one_bot = Question { player: Some(2), ..question(Dimension::Player) };
        assert_eq!(groups(&one_bot), ["2"], "a bot asked for by name is answered");
    }

    #[test]
    fn a_group_says_its_spread_and_fair_share_and_a_group_left_out_takes_its_games_with_it() {
        let seats = five_games();
        let q = question(Dimension::Player);
        let sieve = seats.sieve(&q, None);
        let mut t = Tally::default();
        // Player 1: 1, 0, 1, 1 over games b, c, a, d; player 2 once, in game e.
        for (key, value) in [(1, 1.0), (3, 0.0), (5, 1.0), (7, 1.0), (10, 4.0)] {
            t.add(&seats, &sieve, key, value);
        }
        t.keep_groups_of(2);
        let done = t.finish(&seats, q.by, 10);
        assert_eq!(done.groups.len(), 1, "player 2's one seat is left out");
        let g = &done.groups[0];
        assert_eq!((g.key.as_str(), g.seats, g.mean), ("1", 4, 0.75));
        assert!((g.variance - 0.1875).abs() < 1e-12, "{}", g.variance);
        assert_eq!(g.fair_share, 0.5, "two players at every table");
        assert_eq!(done.counted, 4, "game e stood only behind the group left out");
        assert!(!done.latest.contains(&"e".to_string()));
    }

    #[test]
    fn a_question_by_two_dimensions_groups_by_both_and_finds_a_pair_by_its_key() {
        // Game g of two players, game h of three: seat 1 wins both.
        let mut seats = Seats::default();
        for (key, game, seat_no, players) in
            [(1, "g", 0, 2), (2, "g", 1, 2), (3, "h", 0, 3), (4, "h", 1, 3), (5, "h", 2, 3)]
        {
            seats.take(SeatRow { players, ..seat(key, game, seat_no, key, None) });
        }
        let q = Question { then: Some(Dimension::Players), ..question(Dimension::Seat) };
        let tally = |q: &Question| {
            let sieve = seats.sieve(q, None);
            let mut t = Tally::default();
            for (key, value) in [(1, 1.0), (2, 0.0), (3, 1.0), (4, 0.0), (5, 0.0)] {
                t.add(&seats, &sieve, key, value);
            }
            let mut rows: Vec<(String, u64, f64)> =
                t.finish_by(&seats, q.by, q.then, 10).groups.into_iter().map(|g| (g.key, g.seats, g.mean)).collect();
            rows.sort_by(|a, b| a.0.cmp(&b.0));
            rows
        };
        assert_eq!(
            tally(&q),
            [
                ("1|2".into(), 1, 1.0),
                ("1|3".into(), 1, 1.0),
                ("2|2".into(), 1, 0.0),
                ("2|3".into(), 1, 0.0),
                ("3|3".into(), 1, 0.0)
            ]
        );
        assert_eq!(tally(&Question { group: Some("1|3".into()), ..q.clone() }), [("1|3".into(), 1, 1.0)]);
        assert!(tally(&Question { group: Some("1".into()), ..q }).is_empty(), "a pair's key is two keys");
    }

    #[test]
    fn a_tally_read_in_two_parts_and_merged_is_the_tally_read_at_once() {
        let mut seats = Seats::default();
        for key in 1..=300i64 {
            let game = format!("g{}", (key - 1) / 3);
            let day = (key % 7 != 0).then(|| format!("2026-0{}-01", 1 + ((key - 1) / 3) % 9));
            seats.take(seat(key, &game, (key - 1) % 3, key % 4, day.as_deref()));
        }
        for by in [Dimension::Player, Dimension::Opponent, Dimension::Month, Dimension::Seat] {
            let q = question(by);
            let sieve = seats.sieve(&q, None);
            let tally = |keys: std::ops::Range<i64>| {
                let mut t = Tally::default();
                for key in keys {
                    t.add(&seats, &sieve, key, (key % 5) as f64);
                }
                t
            };
            let whole = sorted(tally(1..301).finish(&seats, by, 20));
            for split in [2, 100, 151, 300] {
                let mut first = tally(1..split);
                first.merge(tally(split..301));
                assert_eq!(sorted(first.finish(&seats, by, 20)), whole, "{by:?} split at {split}");
            }
        }
    }

    #[test]
    fn a_changed_seat_replaces_its_old_self_and_a_group_is_found_by_its_spelling() {
        let mut seats = five_games();
        // Game d unpublished, and player 2's seat of game b merged into player 7.
        seats.take(SeatRow { published: false, counted: false, ..seat(7, "d", 0, 1, Some("2026-05-01")) });
        seats.take(SeatRow { published: false, counted: false, ..seat(8, "d", 1, 2, Some("2026-05-01")) });
        seats.take(seat(2, "b", 1, 7, Some("2026-03-01")));
        assert_eq!(seats.revision(), 10);
        let q = Question { group: Some("2026-05".into()), ..question(Dimension::Month) };
        let mut t = Tally::default();
        let sieve = seats.sieve(&q, None);
        for key in 1..=10 {
            t.add(&seats, &sieve, key, 1.0);
        }
        assert_eq!(t.finish(&seats, q.by, 10).counted, 0, "the public no longer sees May's only game");
        let q = Question { viewer: Viewer::Operator, ..q };
        let mut t = Tally::default();
        let sieve = seats.sieve(&q, None);
        for key in 1..=10 {
            t.add(&seats, &sieve, key, 1.0);
        }
        assert_eq!(sorted(t.finish(&seats, q.by, 10)), (vec![("2026-05".into(), 2, 1, 1.0)], 1, vec!["d".into()]));
        assert_eq!(seats.keys_of(7), [2]);
        assert_eq!(seats.keys_of(2), [4, 6, 8, 10]);
        // A month no seat has, or a number spelled otherwise than an answer spells it, is nobody's group.
        assert!(seats.sieve(&Question { group: Some("1999-01".into()), ..question(Dimension::Month) }, None).nothing);
        assert!(seats.sieve(&Question { group: Some("01".into()), ..question(Dimension::Player) }, None).nothing);
    }
}
