//! A POST body's one read before rmcp (`screen`): what the endpoint needs to know of its
//! message, or the answer that stops it; and rmcp's own plain-text refusals given a
//! JSON-RPC body like every other refusal.

use std::ops::Range;

use bytes::Bytes;
use http::{StatusCode, header};
use http_body_util::{BodyExt, Limited};
use rmcp::model::{ClientRequest, ErrorCode, GetMeta, JsonRpcMessage, RequestId};
use serde_json::{Map, Value, json};

use super::super::jsonrpc::{self, Inbound, QuickRequest};
use super::super::oversized::{self, Screen};
use super::reply::{HttpResponse, full, json_reply, reject, reject_request};
use super::text;
use crate::error::ToolError;
use crate::input::InputLimits;
use crate::large::LARGE_BODY_BYTES;
use crate::server::{Handed, Handoff};

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
    /// The body as sent, when only its envelope (and a call's arguments) was read (see
    /// `jsonrpc::quick_request`): should rmcp fail to read it, the full check answers in
    /// rmcp's place.
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
    // quick read, which also bounds its sizes: within the limits by those, at most a call's
    // long arguments are read here, and rmcp reads the rest (`quickly_screened`); past them,
    // the limit pass says what is over.
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
            if let Some(screened) =
                quick.and_then(|(quick, _)| quickly_screened(&bytes, quick, stateless_header))
            {
                return Ok(screened);
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

/// Arguments from this many bytes up are read here rather than by rmcp (`quickly_screened`).
/// Below it, rmcp's reading costs less time than this path's code, though more
/// instructions. Server CPU per call of one binary with the size switched
/// (`HTTP_LOAD_TAGS=N bench/scripts/cpu_per_call.sh stateless 4`, medians of 12 samples,
/// rmcp reading / read here): `get_user`'s 13 bytes 25.75 / 27.00 µs; `search_items` with
/// 10 tags (114 bytes) 63.25 / 63.00, 30 tags (294 bytes) 72.50 / 70.25, 100 tags (924
/// bytes) 88.75 / 83.75 (callgrind: 418,380 / 378,740 instructions a call).
const HANDED_OVER_BYTES: usize = 256;

/// A plain request as the quick read found it, and the body rmcp is to read. A call's
/// object arguments of [`HANDED_OVER_BYTES`] or more are read here and handed to the server
/// beside that body, which has `"arguments": null` in their place (unless rmcp checks
/// `Mcp-Param-*` headers against them, under 2026-07-28's headers): rmcp reads a body
/// through its untagged message enum, which buffers it twice and copies what it buffered
/// once more for each request type it tries before `tools/call`, the 14th: about 1,000
/// instructions a value, against 700 here. `None` when the arguments are not JSON after
/// all: the full check answers.
fn quickly_screened(
    bytes: &Bytes,
    quick: QuickRequest<'_>,
    stateless_header: bool,
) -> Option<(Bytes, Screened)> {
    let handed_over = |span: &Range<usize>| !stateless_header && span.len() >= HANDED_OVER_BYTES;
    let (body, handoff) = match quick.arguments.filter(handed_over) {
        Some(span) => {
            let object: Map<String, Value> =
                serde_json::from_slice(bytes.get(span.clone())?).ok()?;
            let handoff = Handoff::new(Handed::Object(object));
            (without_arguments(bytes, span)?, Some(handoff))
        }
        None => (bytes.clone(), None),
    };
    let screened = Screened {
        id: Some(quick.id),
        initialize: quick.initialize,
        stateless: stateless_header || quick.names_revision,
        quick: Some(bytes.clone()),
        handoff,
        // The quick read borrows `bytes`: its name is a slice of them.
        tool: quick.tool.map(|tool| bytes.slice_ref(tool)),
    };
    Some((body, screened))
}

/// `bytes` with `null` for the value at `span`.
fn without_arguments(bytes: &[u8], span: Range<usize>) -> Option<Bytes> {
    let (before, after) = (bytes.get(..span.start)?, bytes.get(span.end..)?);
    let mut body = Vec::with_capacity(before.len() + NULL.len() + after.len());
    body.extend_from_slice(before);
    body.extend_from_slice(NULL);
    body.extend_from_slice(after);
    Some(Bytes::from(body))
}

/// What stands for arguments handed over beside the body.
const NULL: &[u8] = b"null";

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

#[cfg(test)]
mod tests {
    use http_body_util::BodyExt;
    use rmcp::model::ClientJsonRpcMessage;

    use super::*;

    /// A `tools/call` whose `arguments` are `arguments` as written, among other members.
    fn call(arguments: &str) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{{"name":"get_user","arguments":{arguments},"_meta":{{}}}}}}"#
        )
    }

    /// Arguments of `HANDED_OVER_BYTES` or more, with a nested `null`.
    fn long_arguments() -> (String, Value) {
        let note = "x".repeat(HANDED_OVER_BYTES);
        let text =
            format!(r#"{{ "user_id": 42, "tags": ["a", {{"b": null}}], "note": "{note}" }}"#);
        (
            text,
            json!({"user_id": 42, "tags": ["a", {"b": null}], "note": note}),
        )
    }

    fn screened(body: &str, stateless_header: bool) -> Result<(Bytes, Screened), HttpResponse> {
        let bytes = Bytes::copy_from_slice(body.as_bytes());
        screen(bytes, &InputLimits::default(), stateless_header)
    }

    fn handed_object(screened: &Screened) -> Option<Map<String, Value>> {
        match screened.handoff.as_ref()?.take()? {
            Handed::Object(object) => Some(object),
            _ => None,
        }
    }

    #[test]
    fn long_object_arguments_are_handed_over_and_rmcp_reads_null_in_their_place() {
        let (arguments, expected_arguments) = long_arguments();
        let sent = call(&arguments);
        let Ok((body, screened)) = screened(&sent, false) else {
            panic!("refused a plain call");
        };
        let expected = call("null");
        assert_eq!(body, expected.as_bytes());
        assert_eq!(
            handed_object(&screened).map(Value::Object),
            Some(expected_arguments)
        );
        assert_eq!(
            screened.quick.as_deref(),
            Some(sent.as_bytes()),
            "kept as sent"
        );
        assert_eq!(screened.tool(), Some("get_user"));
        assert_eq!(screened.id, Some(RequestId::Number(4)));
        let read: Result<ClientJsonRpcMessage, _> = serde_json::from_slice(&body);
        let Ok(JsonRpcMessage::Request(request)) = read else {
            panic!("rmcp cannot read {expected}");
        };
        let ClientRequest::CallToolRequest(call) = request.request else {
            panic!("not a call: {expected}");
        };
        assert_eq!(call.params.arguments, None);
    }

    #[test]
    fn short_arguments_are_left_for_rmcp_to_read() {
        let sent = call(r#"{ "user_id": 42, "tags": ["a", {"b": null}] }"#);
        let Ok((body, screened)) = screened(&sent, false) else {
            panic!("refused a plain call");
        };
        assert_eq!(body, sent.as_bytes());
        assert!(screened.handoff.is_none());
        assert_eq!(screened.tool(), Some("get_user"));
    }

    #[test]
    fn under_the_headers_of_2026_07_28_the_arguments_stay_for_rmcp_to_check() {
        let sent = call(&long_arguments().0);
        let Ok((body, screened)) = screened(&sent, true) else {
            panic!("refused a plain call");
        };
        assert_eq!(body, sent.as_bytes());
        assert!(screened.handoff.is_none());
    }

    #[test]
    fn a_call_without_arguments_is_passed_as_sent() {
        let call = r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"now"}}"#;
        let Ok((body, screened)) = screened(call, false) else {
            panic!("refused a plain call");
        };
        assert_eq!(body, call.as_bytes());
        assert!(screened.handoff.is_none());
    }

    #[tokio::test]
    async fn long_arguments_that_are_not_json_are_answered_by_the_full_check() {
        let note = "x".repeat(HANDED_OVER_BYTES);
        let sent = call(&format!(r#"{{"note":"{note}","user_id":tru}}"#));
        let Err(answer) = screened(&sent, false) else {
            panic!("passed malformed arguments on");
        };
        assert_eq!(answer.status(), StatusCode::BAD_REQUEST);
        let body = answer
            .into_body()
            .collect()
            .await
            .map(|body| body.to_bytes());
        let error: Option<Value> = body
            .ok()
            .and_then(|body| serde_json::from_slice(&body).ok());
        let code = error
            .as_ref()
            .and_then(|error| error["error"]["code"].as_i64());
        assert_eq!(code, Some(i64::from(ErrorCode::PARSE_ERROR.0)), "{error:?}");
        assert_eq!(error.as_ref().map(|error| &error["id"]), Some(&json!(4)));
    }
}
