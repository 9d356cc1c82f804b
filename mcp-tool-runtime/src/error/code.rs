//! Stable error codes: snake_case names with a class and a default retryability.

use std::borrow::Cow;
use std::fmt;

use serde::Serialize;

/// Who has to act for a failed call to succeed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorClass {
    /// The caller: the arguments or the request must change.
    Input,
    /// Something the tool depends on failed; the same call may work later.
    Dependency,
    /// The server itself failed or is overloaded.
    System,
}

impl ErrorClass {
    /// The class as the envelope writes it: `input`, `dependency` or `system`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Input => "input",
            Self::Dependency => "dependency",
            Self::System => "system",
        }
    }
}

/// A stable snake_case error code with its class and default retryability.
///
/// The built-in codes form the shared table in [`ErrorCode::TABLE`]. Tool authors define
/// their own with [`ErrorCode::custom`], preferably as constants:
///
/// ```
/// use mcp_tool_runtime::{ErrorCode, error::ErrorClass};
/// const OUT_OF_STOCK: ErrorCode = ErrorCode::custom("out_of_stock", ErrorClass::Input, false);
/// assert_eq!(OUT_OF_STOCK.as_str(), "out_of_stock");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ErrorCode {
    name: Cow<'static, str>,
    class: ErrorClass,
    retryable: bool,
}

impl ErrorCode {
    /// The arguments do not fit the tool's input schema or its constraints.
    pub const INVALID_ARGUMENTS: Self = Self::custom("invalid_arguments", ErrorClass::Input, false);
    /// The thing the call refers to does not exist.
    pub const NOT_FOUND: Self = Self::custom("not_found", ErrorClass::Input, false);
    /// The call conflicts with the current state.
    pub const CONFLICT: Self = Self::custom("conflict", ErrorClass::Input, false);
    /// The caller is not allowed to do this.
    pub const FORBIDDEN: Self = Self::custom("forbidden", ErrorClass::Input, false);
    /// The caller must authenticate first.
    pub const UNAUTHENTICATED: Self = Self::custom("unauthenticated", ErrorClass::Input, false);
    /// Too many calls; retry after a while.
    pub const RATE_LIMITED: Self = Self::custom("rate_limited", ErrorClass::System, true);
    /// The server has no room for more work right now.
    pub const AT_CAPACITY: Self = Self::custom("at_capacity", ErrorClass::System, true);
    /// The call ran past its time limit.
    pub const TIMEOUT: Self = Self::custom("timeout", ErrorClass::Dependency, true);
    /// A service the tool needs is down.
    pub const UNAVAILABLE: Self = Self::custom("unavailable", ErrorClass::Dependency, true);
    /// A service the tool called answered with an error.
    pub const UPSTREAM_ERROR: Self = Self::custom("upstream_error", ErrorClass::Dependency, true);
    /// The call was cancelled before it finished.
    pub const CANCELLED: Self = Self::custom("cancelled", ErrorClass::System, false);
    /// The server failed; the details are in its log.
    pub const INTERNAL_ERROR: Self = Self::custom("internal_error", ErrorClass::System, false);

    /// Every built-in code.
    pub const TABLE: &'static [ErrorCode] = &[
        Self::INVALID_ARGUMENTS,
        Self::NOT_FOUND,
        Self::CONFLICT,
        Self::FORBIDDEN,
        Self::UNAUTHENTICATED,
        Self::RATE_LIMITED,
        Self::AT_CAPACITY,
        Self::TIMEOUT,
        Self::UNAVAILABLE,
        Self::UPSTREAM_ERROR,
        Self::CANCELLED,
        Self::INTERNAL_ERROR,
    ];

    /// A code of the tool author's own. `name` is what clients match on, so keep it stable;
    /// it must be snake_case ([`ErrorCode::is_valid_name`]). Define codes as constants, so
    /// that a name that is not snake_case is a compile error:
    ///
    /// ```compile_fail
    /// use mcp_tool_runtime::{ErrorCode, error::ErrorClass};
    /// const OUT_OF_STOCK: ErrorCode = ErrorCode::custom("Out Of Stock!", ErrorClass::Input, false);
    /// ```
    ///
    /// # Panics
    /// When `name` is not snake_case: at compile time in a `const`, otherwise when called.
    pub const fn custom(name: &'static str, class: ErrorClass, retryable: bool) -> Self {
        assert!(
            Self::is_valid_name(name),
            "an error code must be snake_case: a lowercase letter, then lowercase letters, digits and `_`"
        );
        Self {
            name: Cow::Borrowed(name),
            class,
            retryable,
        }
    }

    /// The built-in code named `name`, if there is one.
    pub fn lookup(name: &str) -> Option<Self> {
        Self::TABLE
            .iter()
            .find(|code| code.as_str() == name)
            .cloned()
    }

    /// True when `name` is lowercase snake_case: `[a-z][a-z0-9_]*`.
    pub const fn is_valid_name(name: &str) -> bool {
        let bytes = name.as_bytes();
        if bytes.is_empty() || !bytes[0].is_ascii_lowercase() {
            return false;
        }
        // A `while` loop: iterators are not available in a `const fn`.
        let mut at = 1;
        while at < bytes.len() {
            let byte = bytes[at];
            if !(byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'_') {
                return false;
            }
            at += 1;
        }
        true
    }

    /// The code as it appears in the envelope.
    pub fn as_str(&self) -> &str {
        &self.name
    }

    /// Who has to act.
    pub fn class(&self) -> ErrorClass {
        self.class
    }

    /// Whether the same call may succeed later, unless the error says otherwise.
    pub fn default_retryable(&self) -> bool {
        self.retryable
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_are_snake_case_and_unique() {
        let mut names: Vec<&str> = ErrorCode::TABLE.iter().map(ErrorCode::as_str).collect();
        assert!(names.iter().all(|name| ErrorCode::is_valid_name(name)));
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ErrorCode::TABLE.len());
        for required in [
            "invalid_arguments",
            "not_found",
            "rate_limited",
            "timeout",
            "internal_error",
        ] {
            assert!(ErrorCode::lookup(required).is_some(), "{required}");
        }
    }

    #[test]
    fn custom_names_must_be_snake_case() {
        for good in ["out_of_stock", "e2", "a"] {
            assert!(ErrorCode::is_valid_name(good), "{good}");
        }
        for bad in [
            "",
            "Out Of Stock!",
            "out-of-stock",
            "2fast",
            "_x",
            "outOfStock",
            "é",
        ] {
            assert!(!ErrorCode::is_valid_name(bad), "{bad}");
        }
        let built =
            std::panic::catch_unwind(|| ErrorCode::custom("Bad Code", ErrorClass::Input, false));
        assert!(
            built.is_err(),
            "a code that is not snake_case is refused when built"
        );
    }
}
