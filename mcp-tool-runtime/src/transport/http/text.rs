//! The sentences of HTTP rejections. Each rejection also carries a JSON-RPC error body.

use crate::render::{byte_size, echoed_name};

/// HTTP 404: a path other than the MCP endpoint.
pub(super) fn http_not_found(path: &str, endpoint: &str) -> String {
    let path = echoed_name(path);
    format!("Not found: there is no MCP endpoint at '{path}'. Send MCP requests to '{endpoint}'.")
}

/// HTTP 405 in stateless mode.
pub(super) fn http_method_not_allowed(method: &str) -> String {
    format!(
        "Method not allowed: {method} is not supported because this server is stateless (no sessions, no server-sent event stream). Use POST with a JSON-RPC message."
    )
}

/// HTTP 405 for methods that no mode accepts.
pub(super) fn http_method_never_allowed(method: &str) -> String {
    format!(
        "Method not allowed: {method}. Use POST with a JSON-RPC message (GET and DELETE manage sessions)."
    )
}

/// HTTP 413.
pub(super) fn http_body_too_large(limit: usize, length: Option<u64>) -> String {
    match length {
        Some(length) => format!(
            "Payload too large: the request body has {length} bytes, more than the limit of {}. Send smaller messages.",
            byte_size(limit)
        ),
        None => format!(
            "Payload too large: the request body exceeds the limit of {}. Send smaller messages.",
            byte_size(limit)
        ),
    }
}

/// HTTP 400 for an `MCP-Protocol-Version` header the server does not speak.
pub(super) fn http_unsupported_version(version: &str, supported: &[&str]) -> String {
    let version = echoed_name(version);
    format!(
        "Bad request: unsupported MCP-Protocol-Version '{version}'. Supported versions: {}.",
        supported.join(", ")
    )
}

/// HTTP 403 for a `Host` outside the allowlist.
pub(super) fn http_host_forbidden(host: &str, allowed: &[String]) -> String {
    let host = echoed_name(host);
    format!(
        "Forbidden: Host '{host}' is not allowed (DNS rebinding protection). Allowed hosts: {}. Configure more with MCP_ALLOWED_HOSTS.",
        allowed.join(", ")
    )
}

/// HTTP 403 for a request without a `Host`.
pub(super) const HTTP_HOST_MISSING: &str = "Forbidden: the request has no Host header (DNS rebinding protection). Send the Host of this server.";

/// HTTP 403 for an `Origin` outside the allowlist.
pub(super) fn http_origin_forbidden(origin: &str, allowed: &[String]) -> String {
    let origin = echoed_name(origin);
    format!(
        "Forbidden: Origin '{origin}' is not allowed (DNS rebinding protection). Allowed origins: {}. Configure more with MCP_ALLOWED_ORIGINS.",
        allowed.join(", ")
    )
}

/// HTTP 401 without a bearer token.
pub(super) const HTTP_TOKEN_MISSING: &str = "Unauthorized: this server requires a bearer token. Send the header 'Authorization: Bearer <token>'.";

/// HTTP 401 with a token the verifier refused.
pub(super) const HTTP_TOKEN_INVALID: &str = "Unauthorized: the bearer token is not valid (unknown, expired or revoked). Send the header 'Authorization: Bearer <token>' with a valid token.";

/// HTTP 403 with a valid token that lacks a scope the server requires.
pub(super) fn http_insufficient_scope(scope: &str) -> String {
    format!(
        "Forbidden: the bearer token does not grant the scope '{scope}' this server requires. Send a token with that scope."
    )
}

/// HTTP 403 for a `Host` or `Origin` header sent more than once.
pub(super) fn http_duplicate_header(name: &str, count: usize) -> String {
    format!(
        "Forbidden: the request has {count} {name} headers (DNS rebinding protection). Send exactly one."
    )
}

/// HTTP 403 for an absolute-form request target whose authority is not the `Host`.
pub(super) fn http_host_mismatch(target: &str, host: &str) -> String {
    let (target, host) = (echoed_name(target), echoed_name(host));
    format!(
        "Forbidden: the request target names '{target}' but the Host header is '{host}' (DNS rebinding protection). Send the same host in both, or a target of the form '/mcp'."
    )
}

/// HTTP 401 for more than one `Authorization` header.
pub(super) const HTTP_TOKEN_DUPLICATE: &str = "Unauthorized: the request has more than one Authorization header. Send exactly one: 'Authorization: Bearer <token>'.";

/// HTTP 401 for a bearer credential that is not exactly `Bearer <token>`.
pub(super) const HTTP_TOKEN_MALFORMED: &str = "Unauthorized: the Authorization header is malformed. Send exactly 'Authorization: Bearer <token>': one space after 'Bearer' and no whitespace in or after the token.";

/// HTTP 404 for an `Mcp-Session-Id` that names no session.
pub(super) const HTTP_SESSION_NOT_FOUND: &str = "Not found: there is no session with this Mcp-Session-Id; it was closed or has expired. Start a new session: send 'initialize' without an Mcp-Session-Id header.";

/// A rejection from rmcp's HTTP service, whose own text is `detail`.
pub(super) fn http_transport_rejection(status: http::StatusCode, detail: &str) -> String {
    let detail = detail.trim().trim_end_matches('.');
    match status.as_u16() {
        404 if detail.contains("Session not found") => HTTP_SESSION_NOT_FOUND.to_string(),
        415 => "Unsupported media type: send the body with 'Content-Type: application/json'."
            .to_string(),
        _ if detail.is_empty() => format!(
            "{}: the request was rejected.",
            status.canonical_reason().unwrap_or("Rejected")
        ),
        _ => format!("{detail}."),
    }
}

/// HTTP 503 for a connection past the cap.
pub(super) fn http_too_many_connections(cap: usize) -> String {
    format!(
        "Service unavailable: the server is serving its limit of {cap} connections. Retry in a moment, or reuse an open connection."
    )
}

/// HTTP 503 for an `initialize` past the session cap.
pub(super) fn http_too_many_sessions(cap: usize) -> String {
    format!(
        "Service unavailable: the server holds its limit of {cap} sessions. Retry later, or reuse an open session; a session frees its place when closed (DELETE with its Mcp-Session-Id) or left idle until it expires."
    )
}

/// HTTP 408 for a body that did not arrive in time.
pub(super) fn http_body_timeout(limit: std::time::Duration) -> String {
    format!(
        "Request timeout: the request body did not arrive within {} ms. Send the whole body at once.",
        limit.as_millis()
    )
}

/// A request whose id is still in flight on its session (`id` as JSON: `77` or `"a"`).
pub(super) fn http_duplicate_request_id(id: &str) -> String {
    format!(
        "Invalid request: a request with id {id} is still being answered on this session. Give each request a new id; an id may be used again once its request is answered."
    )
}

/// A large body the server had no thread to read with (500).
pub(super) const BODY_NOT_SCREENED: &str =
    "Internal error: the server could not read the request for lack of resources. Try again.";

/// HTTP 405 at the protected-resource metadata.
pub(super) fn http_method_not_metadata(method: &str) -> String {
    format!("Method not allowed: {method}. The protected-resource metadata is read with GET.")
}

/// HTTP 400 for a bearer token in the query string (MCP authorization: never accepted).
pub(super) const HTTP_TOKEN_IN_QUERY: &str = "Bad request: this server never accepts a token in the query string (it would end up in logs and browser history). Send it in the header 'Authorization: Bearer <token>', and drop 'access_token' from the URL.";

/// HTTP 403 for a call of a tool whose scopes the token does not grant.
pub(super) fn http_tool_scope_missing(tool: &str, missing: &str) -> String {
    let tool = echoed_name(tool);
    format!(
        "Forbidden: calling tool '{tool}' needs the scope '{missing}', which the bearer token does not grant. Ask the authorization server for a token with that scope, then call again."
    )
}

/// HTTP 403 for a session used with another principal's token than the one that opened it.
pub(super) const HTTP_SESSION_OF_ANOTHER: &str = "Forbidden: this session was opened with another caller's token; a session belongs to the caller that opened it. Use your own session: send 'initialize' without an Mcp-Session-Id header.";
