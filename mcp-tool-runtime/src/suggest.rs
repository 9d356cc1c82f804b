//! "Did you mean" for misspelled names and values.

/// The candidate closest to `input`, if it is close enough to be a likely typo.
pub fn closest<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    ranked(input, candidates).into_iter().next()
}

/// The likely-typo candidates for `input`, closest first.
pub fn ranked<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let wanted = input.to_lowercase();
    let mut scored: Vec<(usize, &'a str)> = candidates
        .into_iter()
        .filter_map(|candidate| {
            // Optimal string alignment: a swap of two neighbours ("emial") is one edit.
            let distance = strsim::osa_distance(&wanted, &candidate.to_lowercase());
            let limit = (candidate.chars().count().max(wanted.chars().count()) / 3).max(1);
            let contains = candidate.len() >= 3
                && wanted.len() >= 3
                && (candidate.contains(wanted.as_str()) || wanted.contains(candidate));
            (distance <= limit || contains).then_some((distance, candidate))
        })
        .collect();
    scored.sort_by_key(|(distance, candidate)| (*distance, *candidate));
    scored.into_iter().map(|(_, candidate)| candidate).collect()
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
}
