//! The state of a game at one moment, as people and programs see it: what every game shares (turn, whose
//! turn, phase, winner, each player's name and score) typed, and the game's own part beside it.

use serde::Serialize;

/// A state view. `G` and `P` are the game's own parts, written beside the shared fields in JSON.
#[derive(Debug, Clone, Serialize)]
pub struct View<G, P> {
    pub ruleset: &'static str,
    pub turn: u32,
    /// The name of the player whose turn it is.
    pub active: String,
    /// Where in the turn the game is, in the game's words (`roll`, `tile`, `over` ...).
    pub phase: &'static str,
    pub winner: Option<String>,
    pub players: Vec<PlayerView<P>>,
    #[serde(flatten)]
    pub game: G,
}

/// A game's own view of a state: where in the turn play is, each player, and the game's part. Core adds what
/// every game shares (the ruleset, the turn, whose it is, the winner: `Played::standing`) to make a [`View`].
#[derive(Debug, Clone)]
pub struct OwnView<G, P> {
    /// Where in the turn the game is, in the game's words (`roll`, `tile`, `over` ...).
    pub phase: &'static str,
    pub players: Vec<PlayerView<P>>,
    pub game: G,
}

/// One player in a state view.
#[derive(Debug, Clone, Serialize)]
pub struct PlayerView<P> {
    pub name: String,
    pub color: Option<String>,
    /// The score, hidden points included.
    pub vp: i32,
    /// The score everyone can see.
    pub vp_public: i32,
    /// A few words on what the player holds, for a terminal ("7 cards, largest army").
    #[serde(skip)]
    pub summary: String,
    #[serde(flatten)]
    pub game: P,
}

/// A game's own part of a view once its type is forgotten (what crosses the object-safe `Game`).
pub type Detail = Box<dyn erased_serde::Serialize + Send>;

/// A view of any game.
pub type AnyView = View<Detail, Detail>;

impl<G: Serialize + Send + 'static, P: Serialize + Send + 'static> View<G, P> {
    /// The same view with the game's parts boxed.
    pub fn erase(self) -> AnyView {
        View {
            ruleset: self.ruleset,
            turn: self.turn,
            active: self.active,
            phase: self.phase,
            winner: self.winner,
            players: self
                .players
                .into_iter()
                .map(|p| PlayerView {
                    name: p.name,
                    color: p.color,
                    vp: p.vp,
                    vp_public: p.vp_public,
                    summary: p.summary,
                    game: Box::new(p.game) as Detail,
                })
                .collect(),
            game: Box::new(self.game) as Detail,
        }
    }
}
