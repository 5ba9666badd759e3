//! Players' colours: the one table the charts and the replay draw from (the replay reads them from a game's
//! summary), so a seat looks the same in every picture of a game.

/// The colours a header may name, as CSS hex: the pieces' own colours.
const NAMED: [(&str, &str); 7] = [
    ("red", "#d62728"),
    ("blue", "#1f5fbf"),
    ("white", "#f4f4f4"),
    ("orange", "#ff8c00"),
    ("green", "#2ca02c"),
    ("brown", "#8c564b"),
    ("yellow", "#d4ac0d"),
];

/// A seat's colour when the header names none (or one not above), by seat.
const PALETTE: [&str; 6] = ["#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377"];

/// A player's colour (CSS hex) by the colour the header gives them, in any case; a palette colour by seat
/// otherwise.
pub fn player_colour(named: Option<&str>, seat: usize) -> &'static str {
    let named = named.map(str::to_ascii_lowercase);
    NAMED.iter().find(|(name, _)| Some(*name) == named.as_deref()).map_or(PALETTE[seat % PALETTE.len()], |(_, c)| c)
}

/// A CSS hex colour (`#2e7d32`) as red, green and blue.
pub fn rgb(css: &str) -> Option<[u8; 3]> {
    let h = css.strip_prefix('#').filter(|h| h.len() == 6 && h.is_ascii())?;
    let byte = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// WCAG's contrast ratio of two colours (1 to 21).
pub fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let luminance = |c: [u8; 3]| {
        let lin = |v: u8| {
            let v = v as f64 / 255.0;
            if v <= 0.03928 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
    };
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// `colour` darkened until it stands out from `background` by at least `ratio` (a white player's line on
/// a white chart): the colour itself when it already does.
pub fn darkened_against(colour: [u8; 3], background: [u8; 3], ratio: f64) -> [u8; 3] {
    let mut c = colour.map(f64::from);
    let as_rgb = |c: [f64; 3]| c.map(|v| v.round() as u8);
    while contrast(as_rgb(c), background) < ratio && c.iter().sum::<f64>() > 0.0 {
        c = c.map(|v| v * 0.9);
    }
    as_rgb(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_named_colour_is_its_own_in_any_case_and_any_other_is_the_seats() {
        assert_eq!(player_colour(Some("RED"), 3), "#d62728");
        assert_eq!(player_colour(Some("teal"), 1), PALETTE[1]);
        assert_eq!(player_colour(None, 7), PALETTE[1]);
        assert_eq!(rgb("#1f5fbf"), Some([0x1f, 0x5f, 0xbf]));
        assert_eq!(rgb("1f5fbf"), None);
    }

    #[test]
    fn white_is_darkened_until_it_reads_on_white_and_red_is_left_alone() {
        let white = [255, 255, 255];
        assert!((contrast(white, [0, 0, 0]) - 21.0).abs() < 1e-9);
        let line = darkened_against(rgb("#f4f4f4").unwrap(), white, 3.0);
        assert!(contrast(line, white) >= 3.0 && line[0] < 0xf4, "{line:?}");
        let red = rgb("#d62728").unwrap();
        assert_eq!(darkened_against(red, white, 3.0), red);
    }
}
