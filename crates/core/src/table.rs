//! The players at a game's table: who sits where, fixed for the game. Every game's state holds one `Table`
//! (a copy of a state shares it) and names its players through it, so that no game writes its own seating,
//! name lookups or "no player named" errors.

use crate::facts::Seat;
use crate::log::PlayerEntry;
use std::ops::Range;
use std::sync::Arc;

/// One seat's player: the name events call them by, and the colour the header gives (if any).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sitter {
    pub name: String,
    pub color: Option<String>,
}

/// The players in seat order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table(Arc<[Sitter]>);

/// No players: what a state read from a checkpoint holds until it takes its game's table.
impl Default for Table {
    fn default() -> Table {
        Table::new(Vec::new())
    }
}

impl Table {
    pub fn new(sitters: Vec<Sitter>) -> Table {
        Table(sitters.into())
    }

    /// The header's players, in seat order.
    pub fn of(players: &[PlayerEntry]) -> Table {
        Table::new(players.iter().map(|p| Sitter { name: p.name.clone(), color: p.color.clone() }).collect())
    }

    /// Players named so, without colours (tests and importers).
    pub fn named(names: &[&str]) -> Table {
        Table::new(names.iter().map(|n| Sitter { name: n.to_string(), color: None }).collect())
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn seats(&self) -> Range<Seat> {
        0..self.0.len() as Seat
    }

    pub fn name(&self, seat: Seat) -> &str {
        &self.0[seat as usize].name
    }

    pub fn color(&self, seat: Seat) -> Option<&str> {
        self.0[seat as usize].color.as_deref()
    }

    pub fn names(&self) -> impl Iterator<Item = &str> + Clone {
        self.0.iter().map(|s| s.name.as_str())
    }

    pub fn seat_of(&self, name: &str) -> Option<Seat> {
        self.names().position(|n| n == name).map(|i| i as Seat)
    }

    /// The seat of the player an event's `field` names, or the words every game says when there is none:
    /// "`with`: there is no player named `Cem` (players: Ayşe, Bora)".
    pub fn seat(&self, name: &str, field: &str) -> Result<Seat, String> {
        crate::field::player(self.names(), name, field)
    }
}

/// A game state with players at a table: what every game's state provides through its table.
pub trait Seated {
    fn table(&self) -> &Table;

    fn name(&self, seat: Seat) -> &str {
        self.table().name(seat)
    }

    /// The name of a seat that may be nobody's (the holder of an award, the winner).
    fn name_of(&self, seat: Option<Seat>) -> Option<String> {
        seat.map(|s| self.name(s).to_string())
    }

    fn seat_of(&self, name: &str) -> Option<Seat> {
        self.table().seat_of(name)
    }

    fn seats(&self) -> Range<Seat> {
        self.table().seats()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_names_its_seats_and_finds_them_by_name() {
        let table = Table::named(&["Ayşe", "Bora"]);
        assert_eq!((table.len(), table.seats()), (2, 0..2));
        assert_eq!((table.name(1), table.seat_of("Ayşe"), table.seat_of("ayşe")), ("Bora", Some(0), None));
        assert_eq!(table.seat("Bora", "with"), Ok(1));
        assert_eq!(
            table.seat("Cem", "with"),
            Err("`with`: there is no player named `Cem` (players: Ayşe, Bora)".into())
        );
        // A state's copy shares its table.
        let copy = table.clone();
        assert!(Arc::ptr_eq(&copy.0, &table.0));
    }
}
