//! Facts as table rows: one generic table, one row per fact.

use crate::Result;
use almanac_core::{Fact, Partner};
use rusqlite::{params, CachedStatement, Connection, Transaction};
use serde::Serialize;
use serde_json::json;

/// A stored fact. Which columns mean what depends on `kind`:
/// - `turn_started`: player; `rolled`: player, count = the sum, detail = the dice;
/// - `gained` / `spent` / `lost`: player, item, count, cause, other = the player it came from or went to;
/// - `traded`: player, item = partner (`player`, `bank`, `harbour:3:1`), other = partner seat, detail = {gave, got};
/// - `built`: player, item = piece; `card_played`: player, item = card;
/// - `score`: player, item = reason, count = delta, total, public, detail = {delta_public};
/// - `award`: item = award, player = new holder, other = old holder; `game_over`: player = winner.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FactRow {
    pub seq: u64,
    pub turn: u32,
    pub kind: String,
    pub player: Option<u32>,
    pub item: Option<String>,
    pub count: Option<i64>,
    pub cause: Option<String>,
    pub other: Option<u32>,
    pub total: Option<i64>,
    pub public: Option<i64>,
    pub detail: Option<String>,
}

pub struct Inserter<'t> {
    stmt: CachedStatement<'t>,
}

impl<'t> Inserter<'t> {
    pub fn new(tx: &'t Transaction) -> Result<Self> {
        Ok(Inserter {
            stmt: tx.prepare_cached(
                "INSERT INTO facts (game_id, seq, turn, kind, player, item, count, cause, other, total, public, detail)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            )?,
        })
    }

    pub fn insert(&mut self, id: &str, seq: u64, turn: u32, fact: &Fact) -> Result<()> {
        let player: Option<u32>;
        let mut item: Option<String> = None;
        let mut count: Option<i64> = None;
        let mut cause: Option<&str> = None;
        let mut other: Option<u32> = None;
        let mut total: Option<i64> = None;
        let mut public: Option<i64> = None;
        let mut detail: Option<String> = None;
        match fact {
            Fact::TurnStarted { player: p, .. } => player = Some(*p as u32),
            Fact::Rolled { player: p, dice } => {
                player = Some(*p as u32);
                count = Some(dice.iter().map(|&d| d as i64).sum());
                detail = Some(json!(dice).to_string());
            }
            Fact::Gained { player: p, item: i, count: c, cause: k, from } => {
                player = Some(*p as u32);
                item = Some(i.to_string());
                count = Some(*c as i64);
                cause = Some(k.as_str());
                other = from.map(|s| s as u32);
            }
            Fact::Spent { player: p, item: i, count: c, cause: k } => {
                player = Some(*p as u32);
                item = Some(i.to_string());
                count = Some(*c as i64);
                cause = Some(k.as_str());
            }
            Fact::Lost { player: p, item: i, count: c, cause: k, to } => {
                player = Some(*p as u32);
                item = Some(i.to_string());
                count = Some(*c as i64);
                cause = Some(k.as_str());
                other = to.map(|s| s as u32);
            }
            Fact::Traded { player: p, partner, gave, got } => {
                player = Some(*p as u32);
                item = Some(match partner {
                    Partner::Player(_) => "player".to_string(),
                    other => other.label(),
                });
                if let Partner::Player(s) = partner {
                    other = Some(*s as u32);
                }
                let as_map = |v: &Vec<(&str, u32)>| v.iter().map(|(k, n)| (k.to_string(), json!(n))).collect::<serde_json::Map<_, _>>();
                detail = Some(json!({"gave": as_map(gave), "got": as_map(got)}).to_string());
            }
            Fact::Built { player: p, piece } => {
                player = Some(*p as u32);
                item = Some(piece.to_string());
            }
            Fact::CardPlayed { player: p, card } => {
                player = Some(*p as u32);
                item = Some(card.to_string());
            }
            Fact::Score { player: p, reason, delta, delta_public, total: t, public: pb } => {
                player = Some(*p as u32);
                item = Some(reason.to_string());
                count = Some(*delta as i64);
                total = Some(*t as i64);
                public = Some(*pb as i64);
                detail = Some(json!({"delta_public": delta_public}).to_string());
            }
            Fact::Award { award, from, to } => {
                item = Some(award.to_string());
                player = to.map(|s| s as u32);
                other = from.map(|s| s as u32);
            }
            Fact::GameOver { winner } => player = winner.map(|s| s as u32),
        }
        self.stmt.execute(params![id, seq, turn, fact.kind(), player, item, count, cause, other, total, public, detail])?;
        Ok(())
    }
}

pub fn read(conn: &Connection, id: &str) -> Result<Vec<FactRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT seq, turn, kind, player, item, count, cause, other, total, public, detail
         FROM facts WHERE game_id = ?1 ORDER BY seq, rowid",
    )?;
    let rows = stmt.query_map([id], |r| {
        Ok(FactRow {
            seq: r.get(0)?,
            turn: r.get(1)?,
            kind: r.get(2)?,
            player: r.get(3)?,
            item: r.get(4)?,
            count: r.get(5)?,
            cause: r.get(6)?,
            other: r.get(7)?,
            total: r.get(8)?,
            public: r.get(9)?,
            detail: r.get(10)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
