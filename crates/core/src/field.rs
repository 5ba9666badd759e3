//! Reading an event line's fields, in the words every game's errors share.

use crate::facts::Seat;

/// A field the event type cannot do without: "trade needs `with`".
pub fn required<T>(value: Option<T>, kind: &str, field: &str) -> Result<T, String> {
    value.ok_or_else(|| format!("{kind} needs `{field}`"))
}

/// The seat of the player a field names, given the players' names in seat order.
pub fn player<'a>(names: impl Iterator<Item = &'a str> + Clone, name: &str, field: &str) -> Result<Seat, String> {
    match names.clone().position(|n| n == name) {
        Some(seat) => Ok(seat as Seat),
        None => {
            let names: Vec<&str> = names.collect();
            Err(format!("`{field}`: there is no player named `{name}` (players: {})", names.join(", ")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_field_and_the_players() {
        assert_eq!(required(None::<u8>, "trade", "with"), Err("trade needs `with`".to_string()));
        assert_eq!(required(Some(3), "trade", "with"), Ok(3));
        let names = || ["Ayşe", "Bora"].into_iter();
        assert_eq!(player(names(), "Bora", "with"), Ok(1));
        assert_eq!(
            player(names(), "Cem", "with"),
            Err("`with`: there is no player named `Cem` (players: Ayşe, Bora)".to_string())
        );
    }
}
