//! The OpenTelemetry semantic conventions for MCP, as the call's span and its metric record
//! them: a leaf, read by `trace.rs` and `metrics.rs`.
//!
//! The names follow the MCP page of the OpenTelemetry semantic conventions (status
//! Development), registry version 1.42.0: the page now lives in the
//! `semantic-conventions-genai` repository, with the same names. Only `tools/call` reaches
//! middleware, so the method is always that one.

use crate::dispatch::CallOutcome;
use crate::tool::{CallScope, Connected};

/// The schema of the semantic conventions these names come from.
#[cfg_attr(not(feature = "otel"), allow(dead_code))]
pub(super) const SCHEMA_URL: &str = "https://opentelemetry.io/schemas/1.42.0";

/// `mcp.method.name` of every call middleware sees.
pub(super) const TOOLS_CALL: &str = "tools/call";

/// `gen_ai.operation.name` of a tool call.
pub(super) const EXECUTE_TOOL: &str = "execute_tool";

/// `error.type` of a call answered with `isError: true`, as the conventions prescribe for a
/// `CallToolResult` that reports an error.
pub(super) const TOOL_ERROR: &str = "tool_error";

/// `error.type` of a call the client cancelled: it has no result and no JSON-RPC error.
pub(super) const CANCELLED: &str = "cancelled";

/// What one call carries besides the tool's name: each `None` when the transport does not
/// say (an in-process call says nothing).
#[derive(Debug, Default)]
pub(super) struct CallAttributes {
    /// `jsonrpc.request.id`.
    pub(super) request_id: Option<String>,
    /// `mcp.session.id`: the `Mcp-Session-Id` header of a Streamable HTTP session.
    pub(super) session_id: Option<String>,
    /// `mcp.protocol.version`: the request's own (2026-07-28), else the session's.
    pub(super) protocol_version: Option<String>,
    /// `network.transport`: `tcp` over HTTP, `pipe` over stdio (and rmcp's in-memory pipe).
    pub(super) transport: Option<&'static str>,
    /// `network.protocol.name` and `network.protocol.version`, over HTTP.
    pub(super) protocol: Option<(&'static str, &'static str)>,
}

impl CallAttributes {
    /// Reads them from the call, without assembling its context.
    pub(super) fn of(scope: &CallScope) -> Self {
        scope.peek_connected(|connected| connected.map(Self::connected).unwrap_or_default())
    }

    fn connected(connected: &Connected) -> Self {
        let protocol_version = connected
            .meta
            .protocol_version()
            .or_else(|| {
                connected
                    .peer
                    .peer_info()
                    .map(|info| info.protocol_version.clone())
            })
            .map(|version| version.as_str().to_string());
        let attributes = Self {
            request_id: Some(connected.request_id.to_string()),
            protocol_version,
            transport: Some("pipe"),
            ..Self::default()
        };
        #[cfg(feature = "http")]
        if let Some(parts) = connected.extensions.get::<http::request::Parts>() {
            return attributes.over_http(parts);
        }
        attributes
    }

    #[cfg(feature = "http")]
    fn over_http(self, parts: &http::request::Parts) -> Self {
        let session_id = parts
            .headers
            .get("mcp-session-id")
            .and_then(|value| value.to_str().ok())
            .map(str::to_string);
        Self {
            session_id,
            transport: Some("tcp"),
            protocol: Some(("http", http_version(parts.version))),
            ..self
        }
    }
}

/// `network.protocol.version` of an HTTP request.
#[cfg(feature = "http")]
fn http_version(version: http::Version) -> &'static str {
    match version {
        http::Version::HTTP_09 => "0.9",
        http::Version::HTTP_10 => "1.0",
        http::Version::HTTP_2 => "2",
        http::Version::HTTP_3 => "3",
        _ => "1.1",
    }
}

/// `error.type` of a finished call: `None` when it succeeded.
pub(super) fn error_type(outcome: &CallOutcome) -> Option<&'static str> {
    outcome.is_error().then_some(TOOL_ERROR)
}

/// The outcome as the span's `outcome` field has it: `ok`, the error's code, or `error` for
/// an `isError` result the tool built itself.
pub(super) fn outcome_code(outcome: &CallOutcome) -> &str {
    match outcome.code() {
        Some(code) => code.as_str(),
        None if outcome.is_error() => "error",
        None => "ok",
    }
}

/// `f` of the span's name, `{mcp.method.name} {target}` with the tool as the target. The
/// name is put together on the stack: `format!` and its allocation took 560 of the 3,680
/// instructions the tracing middleware adds to a call (P1t, `callgrind_profile.sh
/// ours_valid_traced`). A tool name longer than the spec's 128 characters still gets its
/// name, in a `String`.
pub(super) fn with_span_name<R>(tool: &str, f: impl FnOnce(&str) -> R) -> R {
    let prefix = TOOLS_CALL.as_bytes();
    let mut buffer = [0u8; 160];
    match buffer.get_mut(..prefix.len() + 1 + tool.len()) {
        Some(name) => {
            let (head, rest) = name.split_at_mut(prefix.len());
            head.copy_from_slice(prefix);
            rest[0] = b' ';
            rest[1..].copy_from_slice(tool.as_bytes());
            // Two pieces of text make text: the fallback is never taken.
            f(std::str::from_utf8(name).unwrap_or(tool))
        }
        None => f(&format!("{TOOLS_CALL} {tool}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_span_name_is_the_method_and_the_tool_at_any_length() {
        assert_eq!(with_span_name("add", str::to_string), "tools/call add");
        for length in [148, 149, 150, 400] {
            let tool = "é".repeat(length / 2) + &"x".repeat(length % 2);
            let name = with_span_name(&tool, str::to_string);
            assert_eq!(name, format!("tools/call {tool}"), "{length} bytes");
        }
    }
}
