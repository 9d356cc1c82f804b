//! The sentences of JSON-RPC errors: what was wrong with a message, and what a valid one is.

use serde_json::Value;

use crate::render::{byte_size, echoed_name, received};

/// A line or body that is not JSON (-32700).
pub(crate) fn parse_error(detail: &str) -> String {
    format!(
        "Parse error: the message is not valid JSON ({detail}). Send one JSON-RPC 2.0 object per message."
    )
}

/// Valid JSON holding a number past the range of a 64-bit float (-32600).
pub(super) fn number_out_of_range(detail: &str) -> String {
    format!(
        "Invalid request: the message holds a number too large for JSON-RPC peers to represent \
         ({detail}). Use an integer id up to {} or a string id, and numbers within the range of \
         a 64-bit float.",
        i64::MAX
    )
}

/// A JSON array: JSON-RPC batches are not part of MCP since 2025-06-18.
pub(super) const BATCH_NOT_SUPPORTED: &str = "Invalid request: batches (JSON arrays) are not supported. Send one JSON-RPC 2.0 object per message.";

/// A JSON value that is not an object.
pub(super) fn not_an_object_message(value: &Value) -> String {
    format!(
        "Invalid request: a JSON-RPC message must be a JSON object, but received {}.",
        received(value)
    )
}

/// `jsonrpc` missing or not "2.0".
pub(super) fn not_json_rpc_2(version: Option<&Value>) -> String {
    match version {
        None => {
            "Invalid request: the message has no \"jsonrpc\" member; it must be \"2.0\".".into()
        }
        Some(version) => format!(
            "Invalid request: \"jsonrpc\" must be \"2.0\", but received {}.",
            received(version)
        ),
    }
}

/// An `id` that is neither a string nor an integer.
pub(super) fn invalid_id(id: &Value) -> String {
    format!(
        "Invalid request: \"id\" must be a string or an integer, but received {}.",
        received(id)
    )
}

/// A numeric `id` past the signed 64-bit range this server keeps ids in.
pub(super) fn id_out_of_range(id: &Value) -> String {
    format!(
        "Invalid request: the id {id} is larger than this server accepts. Use an integer id up to {} or a string id.",
        i64::MAX
    )
}

/// A message that is both a request (`method`) and a response (`result` or `error`).
pub(super) const METHOD_AND_RESULT: &str = "Invalid request: the message has both \"method\" and \"result\" or \"error\". A request has a \"method\"; a response has a \"result\" or an \"error\", never both.";

/// `method` present but not a string.
pub(super) fn method_not_a_string(method: &Value) -> String {
    format!(
        "Invalid request: \"method\" must be a string, but received {}.",
        received(method)
    )
}

/// A request without `method`.
pub(super) const MISSING_METHOD: &str = "Invalid request: the message has no \"method\". A request needs \"jsonrpc\": \"2.0\", an \"id\" and a \"method\".";

/// A response from the client that does not parse.
pub(super) fn malformed_response(detail: &str) -> String {
    format!("Invalid request: the response is malformed ({detail}).")
}

/// A message over the size limit.
pub(super) fn message_too_large(limit: usize) -> String {
    format!(
        "Message too large: it exceeds the limit of {} and was discarded. Send smaller messages.",
        byte_size(limit)
    )
}

/// Why a notification or a response before `initialize` was dropped (a log line).
pub(super) const IGNORED_BEFORE_INITIALIZE: &str = "a notification or response before initialize";

/// A request that belongs to no protocol revision: sent before `initialize`, without the
/// `_meta` of a 2026-07-28 request.
pub(super) fn not_initialized(method: &str) -> String {
    let method = echoed_name(method);
    format!(
        "Invalid request: '{method}' was sent before the session is initialized. Send 'initialize' first, then 'notifications/initialized' (revisions up to 2025-11-25), or carry 'io.modelcontextprotocol/protocolVersion' and 'io.modelcontextprotocol/clientCapabilities' in the request's _meta (revision 2026-07-28); only 'ping' and 'server/discover' are answered without either."
    )
}

/// -32601 for a method that a request's revision (named in its `_meta`) removed.
pub(super) fn method_removed(method: &str, revision: &str, methods: &[&str]) -> String {
    let method = echoed_name(method);
    format!(
        "Method not found: '{method}' is not part of protocol revision {revision}, which the request names in its _meta; it belongs to the revisions with the 'initialize' handshake (2025-11-25 and earlier). In revision {revision} this server implements: {}.",
        methods.join(", ")
    )
}

/// -32601 for a method unknown to the revision a request names in its `_meta`.
pub(super) fn method_not_found_in(method: &str, revision: &str, methods: &[&str]) -> String {
    let method = echoed_name(method);
    format!(
        "Method not found: '{method}'. In protocol revision {revision} this server implements: {}.",
        methods.join(", ")
    )
}
