//! What a transport hands the server beside a `tools/call` it checked, and the one place
//! the server reads a call's arguments ([`take_arguments`]).
//!
//! rmcp types `arguments` as a JSON object and reads every message into its own types. Three
//! facts about a call's arguments cannot travel in those types, so the transports hand them
//! over as one typed [`Handoff`] in the request's extensions (over HTTP, in those of the HTTP
//! request, which rmcp puts in the request's):
//! - a value that is not an object (`"arguments": 5`), which rmcp would refuse as a malformed
//!   request before the tool sees it: the tool's validation answers it with an `isError`
//!   result saying that the arguments must be an object;
//! - the refusal of a value over the [`InputLimits`](crate::InputLimits), found in the raw
//!   bytes before anything was parsed: the call is answered with that violation, through the
//!   same path as any other;
//! - over HTTP, object arguments of a few hundred bytes or more, which the transport read
//!   itself and left out of the body rmcp reads: serde reads a message into rmcp's types
//!   through three buffers, each a copy of the whole, and copies what it buffered once more
//!   for each request type it tries before `tools/call`; in a long call the arguments are
//!   nearly all of it. A request under the headers of 2026-07-28 keeps them, as rmcp checks
//!   its `Mcp-Param-*` headers against them.
//!
//! Nothing a client sends can stand for a hand-off: no `_meta` key is read here, and a type
//! private to this crate is the only way in.

use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{CallToolRequestParams, Extensions};
use serde_json::{Map, Value};

use crate::error::Violation;
use crate::input::InputLimits;
use crate::tool::Arguments;

/// What a transport learnt of a call's `arguments` that rmcp's types cannot carry.
#[derive(Debug)]
pub(crate) enum Handed {
    /// An object, read by the transport and left out of what rmcp reads.
    Object(Map<String, Value>),
    /// A value that is not an object (and not `null`, which means "no arguments").
    NotAnObject(Value),
    /// A value refused, unread, for the input limits: the violation to answer with.
    Refused(Violation),
}

/// The hand-off of one call. The extensions it rides in require `Clone`, and rmcp may clone
/// an HTTP request's parts: a clone shares the value, which the call takes once.
#[derive(Clone, Debug)]
pub(crate) struct Handoff(Arc<Mutex<Option<Handed>>>);

impl Handoff {
    /// Hands `handed` over.
    pub(crate) fn new(handed: Handed) -> Self {
        Self(Arc::new(Mutex::new(Some(handed))))
    }

    /// What was handed over, taken: a second look finds nothing.
    pub(crate) fn take(&self) -> Option<Handed> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

/// The arguments of a call as the tool gets them: what was sent, and the violation of the
/// input limits that refuses the call, if any (without arguments when the transport refused
/// them unread).
#[derive(Default)]
pub(super) struct CallArguments {
    pub(super) sent: Option<Arguments>,
    pub(super) refused: Option<Violation>,
}

/// The arguments of `request`: its own (an in-process transport's, or stdio's objects), or
/// what the transport handed over in their place, which is then taken out of `extensions`,
/// so that the tool's context never holds it. A transport hands over only what it took out
/// of the request, so a request with its arguments has nothing to look up.
pub(super) fn take_arguments(
    request: &mut CallToolRequestParams,
    extensions: &mut Extensions,
    limits: &InputLimits,
) -> CallArguments {
    let sent = match request.arguments.take() {
        Some(object) => Value::Object(object),
        None => match take_handoff(extensions) {
            None => return CallArguments::default(),
            Some(Handed::Object(object)) => Value::Object(object),
            Some(Handed::NotAnObject(value)) => value,
            Some(Handed::Refused(violation)) => {
                return CallArguments {
                    sent: None,
                    refused: Some(violation),
                };
            }
        },
    };
    // This crate's transports checked the raw message already; the walk is repeated,
    // cheaply, for calls that came otherwise (in-process, or through rmcp's own transports),
    // and it says whether the arguments are large.
    let (sent, refused) = Arguments::checked(sent, limits);
    CallArguments {
        sent: Some(sent),
        refused: refused.map(|violation| *violation),
    }
}

/// The transport's hand-off for this call, if it made one.
fn take_handoff(extensions: &mut Extensions) -> Option<Handed> {
    if let Some(handoff) = extensions.remove::<Handoff>() {
        return handoff.take();
    }
    #[cfg(feature = "http")]
    if let Some(parts) = extensions.get_mut::<http::request::Parts>() {
        return parts.extensions.remove::<Handoff>()?.take();
    }
    None
}
