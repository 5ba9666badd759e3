//! Where a long name may wrap on a page: a program's name written as one word ("WeightedRandomPlayer") may
//! break between its words, so that a narrow column wraps it rather than pushing its table past its box.

use maud::{html, Markup};

/// `name` with a break allowed (`<wbr>`) wherever a lower-case letter is followed by an upper-case one.
pub fn breakable(name: &str) -> Markup {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut previous: Option<char> = None;
    for (i, c) in name.char_indices() {
        if previous.is_some_and(char::is_lowercase) && c.is_uppercase() {
            parts.push(&name[start..i]);
            start = i;
        }
        previous = Some(c);
    }
    parts.push(&name[start..]);
    html! {
        @for (k, part) in parts.iter().enumerate() {
            @if k > 0 { wbr; }
            (part)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::breakable;

    #[test]
    fn a_name_breaks_between_its_words_and_is_escaped() {
        assert_eq!(breakable("WeightedRandomPlayer").into_string(), "Weighted<wbr>Random<wbr>Player");
        assert_eq!(breakable("RandomPlayer #2").into_string(), "Random<wbr>Player #2");
        assert_eq!(breakable("Ayşe").into_string(), "Ayşe");
        assert_eq!(breakable("robot 14").into_string(), "robot 14");
        assert_eq!(breakable("aB<i>").into_string(), "a<wbr>B&lt;i&gt;");
    }
}
