//! "Did you mean" for misspelled attribute keys.

/// The known key closest to `input`, if it looks like a typo of one.
pub(crate) fn closest<'a>(input: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|candidate| (strsim::levenshtein(input, candidate), *candidate))
        .filter(|(distance, candidate)| *distance <= (candidate.len().max(input.len()) / 3).max(1))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// "unknown KIND `input`; did you mean `x`? Expected one of: …".
pub(crate) fn unknown(kind: &str, input: &str, known: &[&str]) -> String {
    let list = known
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    match closest(input, known) {
        Some(best) => {
            format!("unknown {kind} `{input}`; did you mean `{best}`? (expected one of {list})")
        }
        None => format!("unknown {kind} `{input}` (expected one of {list})"),
    }
}
