//! The protocol surface this server implements: its request methods and revisions.

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

/// The method of a tool call, the one the transports read ahead of rmcp.
pub(crate) const TOOLS_CALL: &str = "tools/call";

/// The request methods every server answers, and that the -32601 sentence lists: the
/// resource, prompt and completion methods answer empty lists or -32601 unless a
/// `with_handler` handler serves them. Anything else (and outside [`HANDLER_ONLY_METHODS`])
/// is -32601 from the transport.
pub(crate) const SUPPORTED_METHODS: &[&str] = &[
    "initialize",
    "server/discover",
    "ping",
    "tools/list",
    TOOLS_CALL,
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

/// The methods of the tasks extension (SEP-2663): rmcp answers them -32601 for a server
/// without a task-supporting tool, and -32021 for a client that did not declare it.
pub(crate) const TASK_METHODS: &[&str] = &["tasks/get", "tasks/update", "tasks/cancel"];

/// Whether the transports hand a request with this method to the server.
pub(crate) fn is_routed(method: &str) -> bool {
    SUPPORTED_METHODS.contains(&method)
        || HANDLER_ONLY_METHODS.contains(&method)
        || TASK_METHODS.contains(&method)
}

/// The JSON-RPC error message (-32601) for a method the server does not implement.
pub(crate) fn method_not_found(method: &str) -> String {
    render::method_not_found(method, SUPPORTED_METHODS)
}

/// The data of that error: the method as sent (within a bound) and the supported ones.
pub(crate) fn method_not_found_data(method: &str) -> serde_json::Value {
    serde_json::json!({"method": echoed_datum(method), "supported": SUPPORTED_METHODS})
}
