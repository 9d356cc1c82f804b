//! Reading a request's headers as the rules want them.

use http::header;
use http::request::Parts;

/// The one value of header `name` (`None` when absent), or how many there are when there
/// are several: a check that reads the first of two lets the second through to whoever
/// reads the last.
pub(super) fn single_header(
    parts: &Parts,
    name: header::HeaderName,
) -> Result<Option<&str>, usize> {
    let mut values = parts.headers.get_all(name).iter();
    let first = values.next();
    match values.count() {
        0 => Ok(first.map(|value| value.to_str().unwrap_or("<not text>"))),
        more => Err(more + 1),
    }
}
