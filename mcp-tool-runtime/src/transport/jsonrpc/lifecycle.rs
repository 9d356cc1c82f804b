//! What a line transport lets through before the session's revision is settled.
//!
//! rmcp reads messages until the first `initialize` (2025-11-25 and older) or the first
//! request that carries its revision and the client's capabilities in `_meta` (2026-07-28),
//! and ends the session on any notification ("expect initialized request"), so a client that
//! sends `notifications/cancelled` or `notifications/roots/list_changed` first loses its
//! server. A request with neither would get rmcp's "request _meta is missing …", which tells
//! an older client nothing about what it did wrong. The gate in front of rmcp drops
//! notifications and responses (the spec lets the server ignore them before
//! initialization), answers requests that belong to no revision itself, and lets the rest
//! through to rmcp, which answers `ping`, `server/discover` and a 2026 request whose `_meta`
//! is incomplete or names a revision this server does not speak, and keeps waiting.

use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, ErrorCode, GetMeta, JsonRpcMessage, ProtocolVersion,
};
use serde_json::json;

use super::revision::PROTOCOL_VERSION_KEY;
use super::{Inbound, error_response, text};
use crate::render::echoed_datum;
use crate::server::SUPPORTED_PROTOCOL_VERSIONS;

/// The gate in front of rmcp's start: `Deliver` for `initialize`, `ping`, `server/discover`
/// and requests that name their revision in `_meta`; `Ignore` for notifications and
/// responses; `Reply` with the error for any other request.
pub(crate) fn before_initialize(message: ClientJsonRpcMessage) -> Inbound {
    let JsonRpcMessage::Request(request) = &message else {
        return Inbound::Ignore(text::IGNORED_BEFORE_INITIALIZE.to_string());
    };
    match &request.request {
        ClientRequest::InitializeRequest(_)
        | ClientRequest::PingRequest(_)
        | ClientRequest::DiscoverRequest(_) => Inbound::Deliver(Box::new(message)),
        other if names_its_revision(other) => Inbound::Deliver(Box::new(message)),
        other => {
            let method = other.method();
            Inbound::Reply(error_response(
                Some(&request.id.clone().into_json_value()),
                ErrorCode::INVALID_REQUEST,
                text::not_initialized(method),
                Some(json!({"method": echoed_datum(method)})),
            ))
        }
    }
}

/// Whether rmcp settles the session's revision on `message`, after which the gate opens: an
/// `initialize`, or a 2026-07-28 request (not `server/discover`, a probe that leaves both
/// lifecycles open) whose `_meta` is complete and names a revision this server speaks.
pub(crate) fn starts_session(message: &ClientJsonRpcMessage) -> bool {
    let JsonRpcMessage::Request(request) = message else {
        return false;
    };
    match &request.request {
        ClientRequest::InitializeRequest(_) => true,
        ClientRequest::PingRequest(_) | ClientRequest::DiscoverRequest(_) => false,
        other => {
            let meta = other.get_meta();
            meta.missing_required_keys(&ProtocolVersion::V_2026_07_28)
                .is_empty()
                && meta
                    .protocol_version()
                    .is_some_and(|version| SUPPORTED_PROTOCOL_VERSIONS.contains(&version.as_str()))
        }
    }
}

/// Whether a request carries a protocol revision in its `_meta`: a 2026-07-28 client's.
fn names_its_revision(request: &ClientRequest) -> bool {
    request.get_meta().contains_key(PROTOCOL_VERSION_KEY)
}

/// Whether `message` is an `initialize` request.
#[cfg(feature = "http")]
pub(crate) fn is_initialize(message: &ClientJsonRpcMessage) -> bool {
    matches!(message, JsonRpcMessage::Request(request)
        if matches!(request.request, ClientRequest::InitializeRequest(_)))
}
