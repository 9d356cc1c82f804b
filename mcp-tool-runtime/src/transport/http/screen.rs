//! A POST body's one read before rmcp (`screen`): what the endpoint needs to know of its
//! message, or the answer that stops it; and rmcp's own plain-text refusals given a
//! JSON-RPC body like every other refusal.

use bytes::Bytes;
use http::{StatusCode, header};
use http_body_util::{BodyExt, Limited};
use rmcp::model::{ClientRequest, ErrorCode, GetMeta, JsonRpcMessage, RequestId};
use serde_json::json;

use super::super::jsonrpc::{self, Inbound};
use super::super::oversized::{self, Screen};
use super::reply::{HttpResponse, full, json_reply, reject, reject_request};
use super::text;
use crate::error::ToolError;
use crate::input::InputLimits;
use crate::large::LARGE_BODY_BYTES;
use crate::server::Handoff;

/// The most of a plain-text rejection from rmcp that is kept as its detail.
const REJECTION_DETAIL_BYTES: usize = 4096;
/// How rmcp's service starts the text of its answer to a body it could not read.
const RMCP_UNREADABLE_BODY: &str = "fail to deserialize request body";

/// The answer when a large body could not be screened (no thread could be started for it).
#[cold]
pub(super) fn internal_failure(error: &ToolError) -> HttpResponse {
    tracing::error!(error = ?error.internal_detail(), "could not screen a request body");
    reject(
        StatusCode::INTERNAL_SERVER_ERROR,
        ErrorCode::INTERNAL_ERROR,
        text::BODY_NOT_SCREENED.to_string(),
        json!({}),
        &[],
    )
}

/// What the endpoint needs to know of the message a POST carries.
#[derive(Default)]
pub(super) struct Screened {
    /// The id of a request.
    pub(super) id: Option<RequestId>,
    /// Whether it is `initialize`.
    pub(super) initialize: bool,
    /// Whether it follows the HTTP rules of revision 2026-07-28, as rmcp decides it: its
    /// `_meta` names a revision, or its header names 2026-07-28 or later. Its errors then
    /// carry its id, and their HTTP status follows the code (-32601 is a 404).
    pub(super) stateless: bool,
    /// The body, when only its envelope was read (see `jsonrpc::quick_request`): should
    /// rmcp fail to read it, the full check answers in rmcp's place.
    pub(super) quick: Option<Bytes>,
    /// What the server is to get beside a `tools/call`: its arguments, read here and left
    /// out of the body rmcp reads, or their refusal.
    pub(super) handoff: Option<Handoff>,
    /// The tool a `tools/call` names, whose scopes the caller's token must grant: UTF-8,
    /// a slice of the body when the quick read found it (copying it out cost an allocation
    /// on every call, read only when a token names the caller).
    tool: Option<Bytes>,
}

impl Screened {
    /// The tool a `tools/call` names.
    pub(super) fn tool(&self) -> Option<&str> {
        std::str::from_utf8(self.tool.as_deref()?).ok()
    }
}

/// A POST body checked like a stdio line (the `jsonrpc` module): the body for rmcp, or the
/// answer. Malformed messages are 400; a well-formed request for an unknown method or with
/// wrong params is answered like any other request (200), except that a method the
/// request's revision lacks is a 404 under the rules of 2026-07-28 (`stateless_header`: the
/// header names that revision or a later one).
pub(super) fn screen(
    bytes: Bytes,
    limits: &InputLimits,
    stateless_header: bool,
) -> Result<(Bytes, Screened), HttpResponse> {
    // A large body is read whole here, once, so that rmcp reads it without its arguments
    // (`Screened::handoff`): rmcp would copy them three times over. A smaller one gets the
    // quick read, which also bounds its sizes: within the limits by those, it is read once
    // before rmcp reads it; past them, the limit pass says what is over.
    let quick = if bytes.len() <= LARGE_BODY_BYTES {
        jsonrpc::quick_request(&bytes, limits)
    } else {
        None
    };
    let screen = match &quick {
        Some((_, true)) => Screen::Pass,
        _ => oversized::screen(&bytes, limits),
    };
    let (bytes, inbound) = match screen {
        Screen::Pass => {
            if let Some((quick, _)) = quick {
                let screened = Screened {
                    id: Some(quick.id),
                    initialize: quick.initialize,
                    stateless: stateless_header || quick.names_revision,
                    quick: Some(bytes.clone()),
                    handoff: None,
                    // The quick read borrows `bytes`: its name is a slice of them.
                    tool: quick.tool.map(|tool| bytes.slice_ref(tool)),
                };
                return Ok((bytes, screened));
            }
            let inbound = jsonrpc::classify(&bytes);
            (bytes, inbound)
        }
        Screen::Replace(stand_in) => {
            let (stand_in, inbound) = stand_in.classify();
            (Bytes::from(stand_in), inbound)
        }
        Screen::Answer(inbound) => (bytes, inbound),
    };
    match inbound {
        Inbound::Deliver(mut message) => {
            let initialize = jsonrpc::is_initialize(&message);
            // Under 2026-07-28's headers rmcp checks `Mcp-Param-*` headers against the
            // arguments it reads (`validate_standard_headers`): those stay in the body.
            let handoff = jsonrpc::take_handoff(&mut message, stateless_header);
            // What rmcp reads is the message as checked: lone surrogates replaced, and its
            // `arguments` handed over beside it (see `server::Handoff`).
            let bytes = serde_json::to_vec(&*message).map_or(bytes, Bytes::from);
            let (id, names_revision, tool) = match *message {
                JsonRpcMessage::Request(request) => (
                    Some(request.id),
                    request.request.get_meta().protocol_version().is_some(),
                    match request.request {
                        ClientRequest::CallToolRequest(call) => {
                            Some(Bytes::from(String::from(call.params.name)))
                        }
                        _ => None,
                    },
                ),
                _ => (None, false, None),
            };
            let screened = Screened {
                id,
                initialize,
                stateless: stateless_header || names_revision,
                quick: None,
                handoff,
                tool,
            };
            Ok((bytes, screened))
        }
        Inbound::Reply(answer) => {
            let stateless = stateless_header || jsonrpc::named_revision(&bytes).is_some();
            Err(reply_to_message(&answer, stateless))
        }
        Inbound::Ignore(why) => {
            tracing::debug!(%why, "ignored a malformed notification");
            let mut response = HttpResponse::new(full(Bytes::new()));
            *response.status_mut() = StatusCode::ACCEPTED;
            Err(response)
        }
    }
}

/// The JSON-RPC error `answer` to a message: 400 for a malformed one; for a request under
/// the rules of 2026-07-28 (`stateless`), 404 for a method not found, as rmcp answers such
/// a request's errors; 200 otherwise, as the revisions before have it.
#[cold]
fn reply_to_message(answer: &serde_json::Value, stateless: bool) -> HttpResponse {
    let code = answer["error"]["code"].as_i64().unwrap_or_default();
    let is = |expected: ErrorCode| code == i64::from(expected.0);
    let status = if is(ErrorCode::PARSE_ERROR) || is(ErrorCode::INVALID_REQUEST) {
        StatusCode::BAD_REQUEST
    } else if stateless && is(ErrorCode::METHOD_NOT_FOUND) {
        StatusCode::NOT_FOUND
    } else {
        StatusCode::OK
    };
    json_reply(status, answer)
}

/// Whether `response` is one of rmcp's plain-text rejections.
pub(super) fn is_plain_rejection(response: &HttpResponse) -> bool {
    // Most answers are not client errors: their headers need no look.
    if !response.status().is_client_error() {
        return false;
    }
    let content_type = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    let structured = content_type.starts_with("application/json")
        || content_type.starts_with("text/event-stream");
    !structured
}

/// rmcp's own rejections (an unknown session, a wrong `Content-Type` or `Accept`) have
/// plain-text bodies; they get a JSON-RPC error body like every other rejection, keeping
/// rmcp's status and headers, and the request's id under the rules of 2026-07-28. A body
/// that only had its envelope read and that rmcp could not read (`quick`) is answered by
/// the full check instead, as if it had had it.
pub(super) async fn with_json_rpc_body(
    response: HttpResponse,
    screened: &Screened,
) -> HttpResponse {
    let (parts, body) = response.into_parts();
    // rmcp's rejection texts are one short sentence; a longer body is not one of them.
    let detail = match Limited::new(body, REJECTION_DETAIL_BYTES).collect().await {
        Ok(collected) => String::from_utf8_lossy(&collected.to_bytes()).into_owned(),
        Err(_) => String::new(),
    };
    let quick = screened.quick.as_ref();
    if let Some(bytes) = quick.filter(|_| detail.starts_with(RMCP_UNREADABLE_BODY))
        && let Inbound::Reply(answer) = jsonrpc::classify(bytes)
    {
        return reply_to_message(&answer, screened.stateless);
    }
    let message = text::http_transport_rejection(parts.status, &detail);
    let data = json!({"detail": detail});
    let id = screened
        .id
        .as_ref()
        .filter(|_| screened.stateless)
        .map(|id| json!(id));
    let code = ErrorCode::INVALID_REQUEST;
    let mut rejection = reject_request(id.as_ref(), parts.status, code, message, data, &[]);
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            rejection.headers_mut().insert(name.clone(), value.clone());
        }
    }
    rejection
}
