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

/// Who owns a stored game and who may see it. Only the store makes one (`sealed`), so that a [`Visible`]
/// made from it stands for the store's own answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Access {
    pub id: String,
    pub owner: Option<ClubId>,
    pub published: bool,
    pub deleted: bool,
    /// How many events are stored: a copy of the game in memory is current while it has as many.
    pub events: u64,
    pub(crate) sealed: Sealed,
}

/// Keeps [`Access`] and [`Visible`] from being made outside the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Sealed;

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

/// A game that a viewer may see, made only by the store's access check ([`crate::Store::visible`], or
/// [`Visible::of`] on the store's own [`Access`]). Every read of one game's rows, log, events, facts and
/// notes takes one, so that a read that skipped the check does not compile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Visible {
    access: Access,
    viewer: Viewer,
}

impl Visible {
    /// The game as `viewer` may see it, or `None` when it may not (a private game of another club, a deleted
    /// one).
    pub fn of(access: &Access, viewer: Viewer) -> Option<Visible> {
        access.visible_to(viewer).then(|| Visible { access: access.clone(), viewer })
    }

    /// Any stored game, deleted ones too: the operator copying or deriving the whole database.
    pub(crate) fn stored(access: Access) -> Visible {
        Visible { access, viewer: Viewer::Operator }
    }

    /// The game's full id.
    pub fn id(&self) -> &str {
        &self.access.id
    }

    pub fn access(&self) -> &Access {
        &self.access
    }

    /// Who was allowed to see it.
    pub fn viewer(&self) -> Viewer {
        self.viewer
    }
}

/// A player that a viewer may see: an identity (after merges) with a seat in a game the viewer may see,
/// made only by [`crate::Store::visible_player`]. Every read of a player takes one, so that a player of
/// private or deleted games only is "no player" to everyone else, and a read that skipped the check does
/// not compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VisiblePlayer {
    /// The identity its spellings are merged into.
    root: i64,
    /// The identity's club (0: the games no club owns).
    club: ClubId,
    viewer: Viewer,
}

impl VisiblePlayer {
    pub(crate) fn new(root: i64, club: ClubId, viewer: Viewer) -> VisiblePlayer {
        VisiblePlayer { root, club, viewer }
    }

    /// The identity after merges.
    pub fn id(&self) -> i64 {
        self.root
    }

    /// The club whose games name the player (`None`: the games no club owns).
    pub fn club(&self) -> Option<ClubId> {
        (self.club != 0).then_some(self.club)
    }

    pub fn viewer(&self) -> Viewer {
        self.viewer
    }
}
