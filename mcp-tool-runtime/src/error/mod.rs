//! Errors: the one error type a tool returns ([`ToolError`]), its stable codes
//! ([`ErrorCode`]), the problems found in the arguments ([`Violation`]) and the envelope
//! clients read ([`ErrorEnvelope`], under [`META_KEY`] in an error result's `_meta`).
//!
//! A tool returns `Result<T, ToolError>`, or `Result<T, E>` for an error type of your own
//! that derives [`ToolError`](macro@crate::ToolError) (see the crate docs). A type that
//! implements [`IntoToolError`] by hand registers it with [`register_error_mapping!`].

// Facts, no words: `render` turns these into what the model reads.

mod code;
mod envelope;
mod found;
pub(crate) mod mapping;
mod tool_error;
mod violation;

#[doc(inline)]
pub use crate::register_error_mapping;
pub use code::{ErrorClass, ErrorCode};
pub use envelope::{ErrorEnvelope, META_KEY, ViolationEntry};
pub(crate) use found::{Found, Tally};
pub use mapping::IntoToolError;
pub(crate) use tool_error::Message;
pub use tool_error::ToolError;
pub use violation::{
    ArgPath, Expected, JsonType, LengthUnit, NumberRange, PathSegment, StringFormat, Violation,
    ViolationKind,
};
pub(crate) use violation::{KEPT_RECEIVED_CHARS, kept_received};
