//! "Did you mean" for misspelled names and values.

/// The candidate closest to `input`, if it is close enough to be a likely typo.
pub(crate) fn closest<'a>(
    input: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    ranked(input, candidates).into_iter().next()
}

/// The likely-typo candidates for `input`, closest first. Case is ignored.
pub(crate) fn ranked<'a>(
    input: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Vec<&'a str> {
    let wanted = input.to_lowercase();
    let mut scored: Vec<(usize, &'a str)> = candidates
        .into_iter()
        .filter_map(|candidate| Some((typo_distance(&wanted, candidate)?, candidate)))
        .collect();
    scored.sort();
    scored.into_iter().map(|(_, candidate)| candidate).collect()
}

/// The edit distance between `wanted` (lowercase) and `candidate` when `candidate` is a
/// likely typo of it: within a third of the longer name's length (at least one edit), or
/// one name containing the other (`qty` in `quantity`). A swap of two neighbours ("emial")
/// is one edit.
fn typo_distance(wanted: &str, candidate: &str) -> Option<usize> {
    let (wanted_chars, candidate_chars) = (wanted.chars().count(), candidate.chars().count());
    let limit = (wanted_chars.max(candidate_chars) / 3).max(1);
    let contains = candidate.len() >= 3
        && wanted.len() >= 3
        && ((candidate.len() > wanted.len() && candidate.contains(wanted))
            || (wanted.len() > candidate.len() && wanted.contains(candidate)));
    // The distance is at least the difference in length, so most names of a long list are
    // ruled out before it is computed.
    if !contains && wanted_chars.abs_diff(candidate_chars) > limit {
        return None;
    }
    let distance = strsim::osa_distance(wanted, &candidate.to_lowercase());
    (distance <= limit || contains).then_some(distance)
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
    fn ranks_closest_first() {
        assert_eq!(
            ranked("add_iten", ["get_user", "add_items", "add_item"]),
            ["add_item", "add_items"]
        );
    }
}
