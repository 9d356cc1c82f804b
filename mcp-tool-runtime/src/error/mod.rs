//! What went wrong, as typed facts: the error of a tool call and its stable codes, the
//! problems found in the arguments, and the envelope's wire shape. Nothing here writes a
//! sentence; `render` turns these facts into what the model reads.

mod code;
mod envelope;
mod found;
mod mapping;
mod tool_error;
mod violation;

pub use code::{ErrorClass, ErrorCode};
pub use envelope::{ERROR_META_KEY, ErrorEnvelope, ViolationEntry};
pub(crate) use found::{Found, Tally};
pub use mapping::{ErrorMapping, IntoToolError};
pub(crate) use tool_error::Message;
pub use tool_error::ToolError;
pub use violation::{
    ArgPath, Expected, JsonType, LengthUnit, NumberRange, PathSegment, StringFormat, Violation,
    ViolationKind,
};
pub(crate) use violation::{KEPT_RECEIVED_CHARS, kept_received};
