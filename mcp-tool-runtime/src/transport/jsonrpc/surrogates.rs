//! Lone UTF-16 surrogate escapes (`"\ud800"`). RFC 8259's grammar allows them and JavaScript
//! and Python parsers read them, but a Rust string cannot hold one, so serde_json refuses the
//! whole message. A message whose only trouble is such an escape is read with each lone
//! surrogate replaced by U+FFFD, as a UTF-16 decoder does, instead of being refused as
//! "not JSON".

/// `bytes` with every lone surrogate escape inside a string replaced by `\ufffd`, or `None`
/// when there is none.
pub(super) fn replace_lone_surrogates(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut out: Option<Vec<u8>> = None;
    let mut in_string = false;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'"' => in_string = !in_string,
            b'\\' if in_string => {
                if let Some(length) = lone_surrogate_at(bytes, at) {
                    let out = out.get_or_insert_with(|| bytes[..at].to_vec());
                    out.extend_from_slice(br"\ufffd");
                    at += length;
                    continue;
                }
                // Any other escape: copy it whole, so that `\\` or `\"` is not misread.
                let end = (at + escape_length(bytes, at)).min(bytes.len());
                if let Some(out) = out.as_mut() {
                    out.extend_from_slice(&bytes[at..end]);
                }
                at = end;
                continue;
            }
            _ => {}
        }
        if let Some(out) = out.as_mut() {
            out.push(bytes[at]);
        }
        at += 1;
    }
    out
}

/// The length of the escape at `at` (a backslash): 6 for `\uXXXX` (12 for a surrogate pair),
/// 2 for the others.
fn escape_length(bytes: &[u8], at: usize) -> usize {
    match (code_unit(bytes, at), code_unit(bytes, at + 6)) {
        (Some(high), Some(low)) if is_high(high) && is_low(low) => 12,
        (Some(_), _) => 6,
        (None, _) => 2,
    }
}

/// The length of the escape at `at` when it is a lone surrogate: a high one not followed by a
/// low one, or a low one on its own (a low one after a high one is consumed with it).
fn lone_surrogate_at(bytes: &[u8], at: usize) -> Option<usize> {
    let unit = code_unit(bytes, at)?;
    let paired = is_high(unit) && code_unit(bytes, at + 6).is_some_and(is_low);
    ((is_high(unit) || is_low(unit)) && !paired).then_some(6)
}

/// The code unit of a `\uXXXX` escape starting at `at`.
fn code_unit(bytes: &[u8], at: usize) -> Option<u16> {
    let escape = bytes.get(at..at + 6)?;
    if escape[0] != b'\\' || escape[1] != b'u' {
        return None;
    }
    let hex = std::str::from_utf8(&escape[2..]).ok()?;
    u16::from_str_radix(hex, 16).ok()
}

fn is_high(unit: u16) -> bool {
    (0xD800..0xDC00).contains(&unit)
}

fn is_low(unit: u16) -> bool {
    (0xDC00..0xE000).contains(&unit)
}

#[cfg(test)]
mod tests {
    use super::replace_lone_surrogates;

    fn replaced(text: &str) -> Option<String> {
        replace_lone_surrogates(text.as_bytes()).map(|bytes| String::from_utf8_lossy(&bytes).into())
    }

    #[test]
    fn lone_surrogates_become_the_replacement_character() {
        assert_eq!(
            replaced(r#"{"q":"\ud800"}"#).as_deref(),
            Some(r#"{"q":"\ufffd"}"#)
        );
        assert_eq!(
            replaced(r#"{"q":"a\udc00b"}"#).as_deref(),
            Some(r#"{"q":"a\ufffdb"}"#)
        );
        assert_eq!(
            replaced(r#"{"q":"\ud800\ud800\ude00"}"#).as_deref(),
            Some(r#"{"q":"\ufffd\ud800\ude00"}"#)
        );
    }

    #[test]
    fn pairs_other_escapes_and_text_outside_strings_are_left_alone() {
        assert_eq!(replaced(r#"{"q":"\ud83d\ude00"}"#), None);
        assert_eq!(replaced(r#"{"q":"\\ud800"}"#), None);
        assert_eq!(replaced(r#"{"q":"\"\u00e9\n"}"#), None);
        assert_eq!(replaced(r#"{"q":"plain"}"#), None);
    }
}
