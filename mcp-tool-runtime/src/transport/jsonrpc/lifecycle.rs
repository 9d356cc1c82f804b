//! What a line transport lets through before `initialize`.
//!
//! rmcp's handshake reads messages until the first `initialize` and ends the session on any
//! other notification ("expect initialized request"), so a client that sends
//! `notifications/cancelled` or `notifications/roots/list_changed` first loses its server.
//! Other requests get rmcp's "request _meta is missing …", which tells the client nothing
//! about what it did wrong. The gate in front of rmcp drops notifications and responses (the
//! spec lets the server ignore them before initialization), answers requests other than
//! `initialize` and `ping` itself, and lets those two through to rmcp's handshake.

use rmcp::model::{ClientJsonRpcMessage, ClientRequest, ErrorCode, JsonRpcMessage};
use serde_json::json;

use super::{Inbound, error_response, text};

/// The gate in front of rmcp's handshake: `Deliver` for `initialize` and `ping`, `Ignore`
/// for notifications and responses, `Reply` with the error for any other request.
pub(crate) fn before_initialize(message: ClientJsonRpcMessage) -> Inbound {
    let JsonRpcMessage::Request(request) = &message else {
        return Inbound::Ignore(text::IGNORED_BEFORE_INITIALIZE.to_string());
    };
    match &request.request {
        ClientRequest::InitializeRequest(_) | ClientRequest::PingRequest(_) => {
            Inbound::Deliver(Box::new(message))
        }
        other => {
            let method = other.method();
            Inbound::Reply(error_response(
                Some(&request.id.clone().into_json_value()),
                ErrorCode::INVALID_REQUEST,
                text::not_initialized(method),
                Some(json!({"method": method})),
            ))
        }
    }
}

/// Whether `message` starts the session: once it is delivered, the gate opens.
pub(crate) fn is_initialize(message: &ClientJsonRpcMessage) -> bool {
    matches!(message, JsonRpcMessage::Request(request)
        if matches!(request.request, ClientRequest::InitializeRequest(_)))
}
