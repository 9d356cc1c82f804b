//! The protocol surface this server implements: its request methods and revisions, the
//! `_meta` keys through which the transports hand over a non-object `arguments` or the
//! refusal of an oversized one, and the arguments HTTP carries beside a large message.

use crate::render::{self, echoed_datum};

/// The protocol revisions this server speaks, newest first: 2026-07-28 (no handshake: every
/// request carries its revision and the client's capabilities in `_meta`, and
/// `server/discover` describes the server) and the four with the `initialize` handshake.
pub(crate) const SUPPORTED_PROTOCOL_VERSIONS: &[&str] = &[
    "2026-07-28",
    "2025-11-25",
    "2025-06-18",
    "2025-03-26",
    "2024-11-05",
];

/// The newest of [`SUPPORTED_PROTOCOL_VERSIONS`].
pub(crate) const NEWEST_PROTOCOL_VERSION: rmcp::model::ProtocolVersion =
    rmcp::model::ProtocolVersion::V_2026_07_28;

/// The request methods every server answers, and that the -32601 sentence lists: the
/// resource, prompt and completion methods answer empty lists or -32601 unless a
/// `with_handler` handler serves them. Anything else (and outside [`HANDLER_ONLY_METHODS`])
/// is -32601 from the transport.
pub(crate) const SUPPORTED_METHODS: &[&str] = &[
    "initialize",
    "server/discover",
    "ping",
    "tools/list",
    "tools/call",
    "subscriptions/listen",
    "logging/setLevel",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "prompts/list",
    "prompts/get",
    "completion/complete",
];

/// The methods only a `with_handler` handler can serve: the transports let them through,
/// and a server without a handler answers them with the same -32601 as any unknown method.
pub(crate) const HANDLER_ONLY_METHODS: &[&str] = &["resources/subscribe", "resources/unsubscribe"];

/// Whether the transports hand a request with this method to the server.
pub(crate) fn is_routed(method: &str) -> bool {
    SUPPORTED_METHODS.contains(&method) || HANDLER_ONLY_METHODS.contains(&method)
}

/// Where a `tools/call` whose `arguments` is not an object carries its raw value.
///
/// rmcp types `arguments` as a JSON object, so a call with `"arguments": 5` would be rejected
/// as a malformed request before the tool sees it. The transports move such a value to
/// `params._meta["rs.mcp-tool/arguments"]` instead; the server hands it to the tool's
/// validation, which answers with an `isError` result saying that the arguments must be an
/// object. A client may also send this key itself: it only ever stands in for `arguments`.
pub(crate) const RAW_ARGUMENTS_META_KEY: &str = "rs.mcp-tool/arguments";

/// Where a transport that refused a `tools/call` for an array or object over the
/// [`InputLimits`](crate::InputLimits) says so, in place of the `arguments` it did not parse:
/// the server answers the call with that violation, through the same path as any other.
pub(crate) const OVERSIZED_META_KEY: &str = "rs.mcp-tool/oversized";

/// The JSON-RPC error message (-32601) for a method the server does not implement.
pub(crate) fn method_not_found(method: &str) -> String {
    render::method_not_found(method, SUPPORTED_METHODS)
}

/// The data of that error: the method as sent (within a bound) and the supported ones.
pub(crate) fn method_not_found_data(method: &str) -> serde_json::Value {
    serde_json::json!({"method": echoed_datum(method), "supported": SUPPORTED_METHODS})
}

/// The object `arguments` of a `tools/call` that the HTTP transport read itself and hands
/// to the server beside the message, in the HTTP request's extensions: rmcp then reads a
/// message without them, so a large call is not copied three more times (see
/// `transport::jsonrpc::take_object_arguments`). Taken once, by the call it came with.
#[cfg(feature = "http")]
#[derive(Clone, Debug)]
pub(crate) struct CarriedArguments(
    std::sync::Arc<std::sync::Mutex<Option<serde_json::Map<String, serde_json::Value>>>>,
);

#[cfg(feature = "http")]
impl CarriedArguments {
    /// Carries `arguments`.
    pub(crate) fn new(arguments: serde_json::Map<String, serde_json::Value>) -> Self {
        Self(std::sync::Arc::new(std::sync::Mutex::new(Some(arguments))))
    }
}

/// The arguments the HTTP transport carried for this call, if it did (taken: a second look
/// finds none).
pub(crate) fn carried_arguments(
    extensions: &rmcp::model::Extensions,
) -> Option<serde_json::Map<String, serde_json::Value>> {
    #[cfg(feature = "http")]
    if let Some(parts) = extensions.get::<http::request::Parts>() {
        let carried = parts.extensions.get::<CarriedArguments>()?;
        let mut slot = carried
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        return slot.take();
    }
    #[cfg(not(feature = "http"))]
    let _ = extensions;
    None
}
