//! Every sentence a model reads about a tool call, and the mapping of a call's outcome to
//! the protocol result.
//!
//! Keeping the wording in one place keeps the voice consistent: each message says what
//! happened, why, and what a valid call looks like. Tests pin the exact sentences the
//! contract fixes, such as `Argument 'quantity' expected an integer, but received 'five'.`
//! Transport sentences (JSON-RPC, HTTP) live with their transports and borrow the phrases
//! here.

mod elicit;
mod error;
mod limits;
mod phrases;
mod result;
mod task;
mod tool;
mod violation;

pub(crate) use elicit::{
    NO_CLIENT_TO_ASK, ROOTS_NOT_DECLARED, SAMPLING_NOT_DECLARED, WAITING_FOR_INPUT,
    elicitation_not_declared, tampered_state, unusable_answer,
};
pub(crate) use limits::{at_capacity, rate_limited};
pub(crate) use phrases::{byte_size, echoed_datum, echoed_name, received, type_phrase, unit_words};
pub use result::ToolOutput;
pub(crate) use result::{WRAPPED_RESULT_KEY, error_result, success_result};
pub(crate) use task::{STORE_UNAVAILABLE, TASK_CANCELLED, task_too_large, unknown_task};
pub(crate) use tool::{
    CANCELLED_BY_CLIENT, SignatureEntry, method_not_found, timed_out, unknown_tool, valid_call,
};
