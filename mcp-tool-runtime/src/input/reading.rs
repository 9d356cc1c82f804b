//! What one typed reading of the arguments found: the contract between the paths, which
//! each take a [`Reader`] (the only part of parsing instantiated per tool).

use serde_json::Value;

use crate::error::Found;

/// What one typed reading of the arguments found.
pub(crate) enum Attempt {
    /// They deserialized and hold every `validator` rule.
    Valid,
    /// They deserialized, and these rules failed.
    Invalid(::validator::ValidationErrors),
    /// They deserialized, but a large input broke rules its schema states, or its long
    /// lists' items broke theirs ([`before_validator`](super::large::before_validator)), so `validator` did not check it whole.
    Refused(Found),
    /// serde refused them.
    Unreadable(serde_json::Error),
}

/// Reads the arguments type from a value: the only part of parsing instantiated per tool,
/// so that a crate with many tools compiles the rest once, in this crate.
pub(crate) type Reader<'r> = dyn FnMut(&Value) -> Attempt + 'r;

/// A successful parse that kept no value: a bug of this crate, masked like any other.
#[derive(Debug)]
pub(crate) struct NothingParsed;

impl std::fmt::Display for NothingParsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the arguments parsed, but no value was kept")
    }
}

impl std::error::Error for NothingParsed {}
