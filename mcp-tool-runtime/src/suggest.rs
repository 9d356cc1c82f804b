//! "Did you mean" for misspelled names and values.

use std::borrow::Cow;

/// The candidate closest to `input`, if it is close enough to be a likely typo.
pub fn closest<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let wanted = lowercase(input);
    likely_typos(&wanted, candidates)
        .min()
        .map(|(_, candidate)| candidate)
}

/// The likely-typo candidates for `input`, closest first. Case is ignored.
pub fn ranked<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let wanted = lowercase(input);
    let mut scored: Vec<(usize, &'a str)> = likely_typos(&wanted, candidates).collect();
    scored.sort();
    scored.into_iter().map(|(_, candidate)| candidate).collect()
}

/// `text` in lowercase, copied only when it needs to change: argument names are mostly
/// lowercase ASCII already.
fn lowercase(text: &str) -> Cow<'_, str> {
    if text
        .bytes()
        .all(|b| b.is_ascii() && !b.is_ascii_uppercase())
    {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.to_lowercase())
    }
}

/// The candidates close enough to `wanted` (lowercase) to be a typo of it, with their
/// distances.
fn likely_typos<'a>(
    wanted: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> impl Iterator<Item = (usize, &'a str)> {
    let wanted_chars = wanted.chars().count();
    candidates.into_iter().filter_map(move |candidate| {
        let candidate_chars = candidate.chars().count();
        let limit = (candidate_chars.max(wanted_chars) / 3).max(1);
        let contains = candidate.len() >= 3
            && wanted.len() >= 3
            && ((candidate.len() > wanted.len() && contains_name(candidate, wanted))
                || (wanted.len() > candidate.len() && contains_name(wanted, candidate)));
        // The distance is at least the difference in length: most candidates are ruled
        // out without computing it.
        if !contains && candidate_chars.abs_diff(wanted_chars) > limit {
            return None;
        }
        let distance = distance(wanted, candidate);
        (distance <= limit || contains).then_some((distance, candidate))
    })
}

/// Whether `part` occurs in `name`. Names are a few bytes long, so looking for the first
/// byte and comparing the rest only there costs less than setting up `str::contains`'s
/// two-way searcher.
fn contains_name(name: &str, part: &str) -> bool {
    let (name, part) = (name.as_bytes(), part.as_bytes());
    let Some((&first, rest)) = part.split_first() else {
        return true;
    };
    name.len() >= part.len()
        && (0..=name.len() - part.len())
            .any(|start| name[start] == first && &name[start + 1..start + part.len()] == rest)
}

/// The longest ASCII names compared without allocating.
const SHORT: usize = 48;

/// Optimal string alignment distance between `wanted` (already lowercase) and `candidate`,
/// ignoring case: a swap of two neighbours ("emial") is one edit.
fn distance(wanted: &str, candidate: &str) -> usize {
    let (a, b) = (wanted.as_bytes(), candidate.as_bytes());
    if !(wanted.is_ascii() && candidate.is_ascii() && a.len() < SHORT && b.len() < SHORT) {
        return strsim::osa_distance(wanted, &candidate.to_lowercase());
    }
    let mut lowered = [0u8; SHORT];
    for (slot, byte) in lowered.iter_mut().zip(b) {
        *slot = byte.to_ascii_lowercase();
    }
    let b = &lowered[..b.len()];
    // What both share at the start and at the end costs no edit, and typos differ in a
    // letter or two: the matrix shrinks to the part that differs.
    let start = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[start..], &b[start..]);
    let end = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a, b) = (&a[..a.len() - end], &b[..b.len() - end]);
    // Three rows of the edit matrix, reused in turn: two back (for swaps), one back, current.
    let mut rows = [[0u8; SHORT]; 3];
    for (j, cell) in rows[1].iter_mut().enumerate().take(b.len() + 1) {
        *cell = j as u8;
    }
    let (mut before, mut previous, mut current) = (0, 1, 2);
    for (i, &wanted_byte) in a.iter().enumerate() {
        rows[current][0] = i as u8 + 1;
        for (j, &candidate_byte) in b.iter().enumerate() {
            let cost = u8::from(wanted_byte != candidate_byte);
            let mut best = (rows[previous][j] + cost)
                .min(rows[previous][j + 1] + 1)
                .min(rows[current][j] + 1);
            if i > 0 && j > 0 && wanted_byte == b[j - 1] && a[i - 1] == candidate_byte {
                best = best.min(rows[before][j - 1] + 1);
            }
            rows[current][j + 1] = best;
        }
        (before, previous, current) = (previous, current, before);
    }
    usize::from(rows[previous][b.len()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_typos() {
        assert_eq!(
            closest("quantiy", ["sku", "quantity", "note"]),
            Some("quantity")
        );
        assert_eq!(closest("ascending", ["asc", "desc"]), Some("asc"));
        assert_eq!(
            closest("Add_Iten", ["add_item", "get_user"]),
            Some("add_item")
        );
        assert_eq!(closest("zzz", ["add_item", "get_user"]), None);
    }

    #[test]
    fn contains_name_agrees_with_str_contains() {
        let words = [
            "", "a", "ab", "ba", "sku", "quantiy", "quantity", "note", "tone", "aab",
        ];
        for name in words {
            for part in words {
                assert_eq!(
                    contains_name(name, part),
                    name.contains(part),
                    "{part} in {name}"
                );
            }
        }
    }

    #[test]
    fn ascii_distance_agrees_with_strsim() {
        let words = [
            "", "a", "ab", "ba", "emial", "email", "quantiy", "quantity", "Add_Iten", "add_item",
            "sku", "skus", "note", "tone", "abcdef", "badcfe", "kitten", "sitting", "caNe", "acne",
        ];
        for wanted in words {
            let lowered = wanted.to_lowercase();
            for candidate in words {
                assert_eq!(
                    distance(&lowered, candidate),
                    strsim::osa_distance(&lowered, &candidate.to_lowercase()),
                    "{wanted} vs {candidate}"
                );
            }
        }
        assert_eq!(distance("näme", "name"), 1);
    }

    #[test]
    fn ascii_distance_agrees_with_strsim_on_every_short_word() {
        // Every word of up to four letters over a three-letter alphabet, against every other:
        // shared starts and ends are cut off before the matrix, and swaps must still count
        // as one edit across the cut.
        let mut words = vec![String::new()];
        for length in 1..=4 {
            let shorter: Vec<String> = words
                .iter()
                .filter(|w| w.len() == length - 1)
                .cloned()
                .collect();
            for word in shorter {
                for letter in ['a', 'b', 'C'] {
                    words.push(format!("{word}{letter}"));
                }
            }
        }
        for wanted in &words {
            let lowered = wanted.to_lowercase();
            for candidate in &words {
                assert_eq!(
                    distance(&lowered, candidate),
                    strsim::osa_distance(&lowered, &candidate.to_lowercase()),
                    "{wanted} vs {candidate}"
                );
            }
        }
    }
}
