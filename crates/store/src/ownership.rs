//! Who owns a game and who may see it: the types every read and write of games takes. No store here, so
//! that the store's files all build on it.

use serde::Serialize;

/// A club's row id.
pub type ClubId = i64;

/// Who is asking. Every read of games takes one, so that a club's private game is found by nobody else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Viewer {
    /// Anyone: published games only.
    #[default]
    Public,
    /// A club (signed in with one of its tokens): published games and its own.
    Club(ClubId),
    /// The machine's operator at the command line: every game that is not deleted.
    Operator,
}

impl Viewer {
    pub fn club(&self) -> Option<ClubId> {
        match self {
            Viewer::Club(c) => Some(*c),
            _ => None,
        }
    }
}

/// Who owns a game being stored, and whether anyone may read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ownership {
    /// `None`: the operator's own game (`almanac import` without a club); always published.
    pub club: Option<ClubId>,
    pub published: bool,
}

impl Ownership {
    /// The operator's game, readable by anyone.
    pub const OPERATOR: Ownership = Ownership { club: None, published: true };

    /// A club's game, private until published.
    pub fn private_to(club: ClubId) -> Ownership {
        Ownership { club: Some(club), published: false }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Club {
    pub id: ClubId,
    pub name: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ClubRow {
    pub id: ClubId,
    pub name: String,
    pub created_at: String,
    pub games: u64,
    pub tokens: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct TokenRow {
    pub id: i64,
    pub club: String,
    pub label: String,
    pub created_at: String,
    pub revoked_at: Option<String>,
}

/// What an upload of a log already stored as another game gets, by the rule both backends keep: its owner
/// shows a deleted game again, anyone who may see it is told its id, anyone else hears it is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Repeat {
    /// The owner's upload: the game is shown again if it was deleted.
    Unhide,
    /// The uploader may see the game: it is that game.
    Same,
    /// Another club holds it unseen (private or deleted).
    TakenElsewhere,
}

impl Repeat {
    pub(crate) fn of(owner: Option<ClubId>, published: bool, deleted: bool, uploader: Ownership) -> Repeat {
        if owner.is_some() && owner == uploader.club {
            Repeat::Unhide
        } else if deleted || !published {
            Repeat::TakenElsewhere
        } else {
            Repeat::Same
        }
    }
}

/// Who owns a stored game and who may see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Access {
    pub id: String,
    pub owner: Option<ClubId>,
    pub published: bool,
    pub deleted: bool,
    /// How many events are stored: a copy of the game in memory is current while it has as many.
    pub events: u64,
}

impl Access {
    pub fn visible_to(&self, viewer: Viewer) -> bool {
        !self.deleted
            && match viewer {
                Viewer::Operator => true,
                Viewer::Club(c) if self.owner == Some(c) => true,
                _ => self.published,
            }
    }
}
