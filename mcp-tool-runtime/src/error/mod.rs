//! Errors: the one error type a tool returns, its stable codes, the problems found in the
//! arguments, and the envelope clients read.
//!
#![doc = include_str!("../../docs/errors.md")]

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
