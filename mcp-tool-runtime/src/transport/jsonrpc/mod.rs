//! The JSON-RPC boundary: one raw message in, either a message for rmcp or the error answer.
//!
//! rmcp answers nothing to a line that is not JSON and folds every other malformed message
//! into one "Invalid request" without an id. The transports here check each message first,
//! so that a client gets the standard code (-32700, -32600, -32601, -32602) with the request's
//! id and a sentence that says what was wrong. Both the stdio adapter and the HTTP layer use
//! this module, so the two transports answer alike.

use rmcp::model::{
    CallToolRequest, ClientJsonRpcMessage, ClientRequest, ErrorCode, JsonRpcMessage, JsonRpcRequest,
};
use serde::Deserialize;
use serde::de::{self, DeserializeOwned, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value, json};

use crate::render::echoed_datum;
use crate::server::{
    Handed, Handoff, TOOLS_CALL, invalid_params, is_routed, method_not_found,
    method_not_found_data, params_problem,
};

#[cfg(feature = "http")]
mod ends;
mod lifecycle;
#[cfg(feature = "http")]
mod named_revision;
#[cfg(feature = "http")]
mod quick;
mod revision;
mod surrogates;
#[cfg(feature = "http")]
mod tally;
mod text;

#[cfg(feature = "http")]
pub(crate) use lifecycle::is_initialize;
pub(crate) use lifecycle::{before_initialize, starts_session};
#[cfg(feature = "http")]
pub(crate) use named_revision::named_revision;
#[cfg(feature = "http")]
pub(crate) use quick::{QuickRequest, quick_request};
#[cfg(feature = "http")]
pub(crate) use revision::is_stateless;
#[cfg(feature = "http")]
pub(crate) use text::parse_error;

/// What to do with one incoming message.
#[derive(Debug)]
pub(crate) enum Inbound {
    /// A well-formed message for rmcp.
    Deliver(Box<ClientJsonRpcMessage>),
    /// The JSON-RPC error response to send back instead (a serialized message).
    Reply(Value),
    /// A malformed notification: JSON-RPC never answers notifications, so it is dropped.
    Ignore(String),
}

/// A JSON-RPC error response. `id` is `null` when the request's id could not be read, as
/// JSON-RPC 2.0 requires (rmcp would leave the member out).
pub(crate) fn error_response(
    id: Option<&Value>,
    code: ErrorCode,
    message: String,
    data: Option<Value>,
) -> Value {
    let mut error = Map::new();
    error.insert("code".into(), json!(code.0));
    error.insert("message".into(), Value::String(message));
    if let Some(data) = data {
        error.insert("data".into(), data);
    }
    json!({"jsonrpc": "2.0", "id": id.cloned().unwrap_or(Value::Null), "error": error})
}

/// A usable request id: a string or an integer.
fn valid_id(id: &Value) -> bool {
    id.is_string() || id.as_i64().is_some() || id.as_u64().is_some()
}

/// Classifies one raw message (a stdio line or an HTTP body).
pub(crate) fn classify(bytes: &[u8]) -> Inbound {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match serde_json::from_slice(bytes) {
        Ok(value) => classify_value(value),
        Err(error) => unreadable(bytes, &error),
    }
}

/// A message serde_json refused: read again with its lone surrogates replaced, or answered.
/// The id is answered whenever it can be read: a message nested past serde_json's depth
/// limit, or cut short, usually has it at the top, before the trouble.
fn unreadable(bytes: &[u8], error: &serde_json::Error) -> Inbound {
    if let Some(repaired) = surrogates::replace_lone_surrogates(bytes)
        && let Ok(value) = serde_json::from_slice(&repaired)
    {
        return classify_value(value);
    }
    let detail = error.to_string();
    // serde_json says this only of a number that is valid JSON but past the range of an
    // f64 (`1e400`): the message is JSON, just not one a peer can represent.
    let (code, message) = if detail.starts_with("number out of range") {
        (
            ErrorCode::INVALID_REQUEST,
            text::number_out_of_range(&detail),
        )
    } else {
        (ErrorCode::PARSE_ERROR, text::parse_error(&detail))
    };
    Inbound::Reply(error_response(
        leading_id(bytes).as_ref(),
        code,
        message,
        None,
    ))
}

/// Classifies a message that is valid JSON.
pub(crate) fn classify_value(value: Value) -> Inbound {
    let header = match read_header(&value) {
        Ok(header) => header,
        Err(reply) => return Inbound::Reply(reply),
    };
    match header.method {
        // A client's answer to a server request (sampling, elicitation).
        None => match serde_json::from_value::<ClientJsonRpcMessage>(value) {
            Ok(message) => Inbound::Deliver(Box::new(message)),
            Err(error) => Inbound::Reply(error_response(
                header.reply_id.as_ref(),
                ErrorCode::INVALID_REQUEST,
                text::malformed_response(&error.to_string()),
                None,
            )),
        },
        Some(method) if header.is_notification => {
            match serde_json::from_value::<ClientJsonRpcMessage>(value) {
                Ok(message) => Inbound::Deliver(Box::new(message)),
                Err(error) => Inbound::Ignore(format!("notification '{method}': {error}")),
            }
        }
        Some(method) => classify_request(value, &method, header.reply_id.as_ref()),
    }
}

/// What the envelope of a message says: whether it is a notification, the id to answer
/// with, and its method (`None` for a response).
struct Header {
    is_notification: bool,
    reply_id: Option<Value>,
    method: Option<String>,
}

/// The envelope of a message, or the error answer when it is not a JSON-RPC 2.0 object.
fn read_header(value: &Value) -> Result<Header, Value> {
    let Some(object) = value.as_object() else {
        let what = if value.is_array() {
            text::BATCH_NOT_SUPPORTED.to_string()
        } else {
            text::not_an_object_message(value)
        };
        return Err(error_response(None, ErrorCode::INVALID_REQUEST, what, None));
    };
    let id = object.get("id");
    let reply_id = id.filter(|id| valid_id(id)).cloned();
    let invalid = |id: Option<&Value>, message: String| {
        error_response(id, ErrorCode::INVALID_REQUEST, message, None)
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        let message = text::not_json_rpc_2(object.get("jsonrpc"));
        return Err(invalid(reply_id.as_ref(), message));
    }
    if let Some(id) = id
        && !valid_id(id)
    {
        return Err(invalid(None, text::invalid_id(id)));
    }
    if let Some(id) = reply_id.as_ref().filter(|id| id.is_u64() && !id.is_i64()) {
        // Valid JSON-RPC, but rmcp holds numeric ids as i64: answered here, with the id.
        return Err(invalid(Some(id), text::id_out_of_range(id)));
    }
    let is_response = object.contains_key("result") || object.contains_key("error");
    if is_response && object.contains_key("method") {
        return Err(invalid(
            reply_id.as_ref(),
            text::METHOD_AND_RESULT.to_string(),
        ));
    }
    let method = match object.get("method") {
        Some(Value::String(method)) => Some(method.clone()),
        Some(other) => return Err(invalid(reply_id.as_ref(), text::method_not_a_string(other))),
        None if is_response => None,
        None => return Err(invalid(reply_id.as_ref(), text::MISSING_METHOD.to_string())),
    };
    Ok(Header {
        is_notification: id.is_none(),
        reply_id,
        method,
    })
}

/// A request: -32601 for a method this server does not implement, -32602 for params that
/// do not fit it, otherwise the message for rmcp.
fn classify_request(mut value: Value, method: &str, reply_id: Option<&Value>) -> Inbound {
    if let Some(answer) = not_found(&value, method) {
        return Inbound::Reply(error_response(
            reply_id,
            ErrorCode::METHOD_NOT_FOUND,
            answer.0,
            Some(answer.1),
        ));
    }
    let arguments = if method == TOOLS_CALL {
        take_arguments(&mut value)
    } else {
        None
    };
    let read = match read_request(method, &value) {
        Some(message) => Ok(message),
        None => read_generally(value, method),
    };
    match read {
        Ok(mut message) => {
            if let Some(arguments) = arguments {
                give_back(&mut message, arguments);
            }
            Inbound::Deliver(Box::new(message))
        }
        Err(detail) => Inbound::Reply(error_response(
            reply_id,
            ErrorCode::INVALID_PARAMS,
            invalid_params(method, &detail),
            None,
        )),
    }
}

/// A request read through rmcp's message type, or what is wrong with its params.
fn read_generally(value: Value, method: &str) -> Result<ClientJsonRpcMessage, String> {
    let params = value.get("params").cloned();
    match serde_json::from_value::<ClientJsonRpcMessage>(value) {
        // A supported method that rmcp did not recognise: its params did not fit.
        Ok(JsonRpcMessage::Request(request))
            if matches!(request.request, ClientRequest::CustomRequest(_)) =>
        {
            Err(params_problem(method, params.as_ref()))
        }
        Ok(message) => Ok(message),
        Err(error) => Err(error.to_string()),
    }
}

/// A request read as the one request type its method names. rmcp's message type buffers
/// the message and tries its request types in turn on a copy each, and each refusal formats
/// a serde error: a stdio `tools/call`, the 14th, took 106,400 instructions that way and
/// takes 69,800 this way (callgrind; rmcp's own stdio server: 108,700). Each type takes only
/// its own method, so what reads here is what rmcp would have read; a request that does not
/// (its params do not fit, or a method not listed) takes the general way, which answers it
/// as before. `read_header` has refused a request that also holds `result` or `error`, so
/// the shape rmcp checks first is a request's here.
fn read_request(method: &str, value: &Value) -> Option<ClientJsonRpcMessage> {
    macro_rules! read_as {
        ($($method:literal => $variant:ident,)*) => {
            match method {
                $($method => read_typed(value, ClientRequest::$variant),)*
                _ => None,
            }
        };
    }
    read_as! {
        "ping" => PingRequest,
        "initialize" => InitializeRequest,
        "server/discover" => DiscoverRequest,
        "completion/complete" => CompleteRequest,
        "logging/setLevel" => SetLevelRequest,
        "prompts/get" => GetPromptRequest,
        "prompts/list" => ListPromptsRequest,
        "resources/list" => ListResourcesRequest,
        "resources/templates/list" => ListResourceTemplatesRequest,
        "resources/read" => ReadResourceRequest,
        "subscriptions/listen" => SubscriptionsListenRequest,
        "resources/subscribe" => SubscribeRequest,
        "resources/unsubscribe" => UnsubscribeRequest,
        "tools/call" => CallToolRequest,
        "tools/list" => ListToolsRequest,
        "tasks/get" => GetTaskRequest,
        "tasks/update" => UpdateTaskRequest,
        "tasks/cancel" => CancelTaskRequest,
        "skills/list" => ListSkillsRequest,
        "skills/get" => GetSkillRequest,
        "resources/directory/read" => ReadResourceDirectoryRequest,
    }
}

/// `value` read as a request of type `R`, made the variant `wrap` builds.
fn read_typed<R: DeserializeOwned>(
    value: &Value,
    wrap: fn(R) -> ClientRequest,
) -> Option<ClientJsonRpcMessage> {
    let read = JsonRpcRequest::<R>::deserialize(value).ok()?;
    Some(JsonRpcMessage::Request(JsonRpcRequest {
        jsonrpc: read.jsonrpc,
        id: read.id,
        request: wrap(read.request),
    }))
}

/// The -32601 sentence and data for a method the server does not implement in the
/// request's revision: one it never implements, or one its `_meta` revision removed.
/// Nothing is built for a method that is served: every request asks, and building the
/// data's list of methods first took 5,000 instructions of each (callgrind, a stdio call).
fn not_found(message: &Value, method: &str) -> Option<(String, Value)> {
    let revision = revision::stateless_revision(message);
    let removed = revision.is_some() && revision::removed_method(method);
    if !removed && is_routed(method) {
        return None;
    }
    let Some(revision) = revision else {
        return Some((method_not_found(method), method_not_found_data(method)));
    };
    let methods = revision::stateless_methods();
    let text = if removed {
        text::method_removed(method, revision, &methods)
    } else {
        text::method_not_found_in(method, revision, &methods)
    };
    let data =
        json!({"method": echoed_datum(method), "protocolVersion": revision, "supported": methods});
    Some((text, data))
}

/// The `arguments` of a `tools/call`, taken out so that rmcp's types read only the rest: a
/// non-object one, which they would refuse, and an object one, which serde would read into
/// them through three buffers (its untagged message enum, the flattened request, the
/// request enum), each a copy of the whole; in a large call the arguments are nearly all of
/// it (BENCHMARKS.md, memory per call). A `null` one means "no arguments".
fn take_arguments(message: &mut Value) -> Option<Handed> {
    let params = message.get_mut("params")?.as_object_mut()?;
    match params.remove("arguments")? {
        Value::Object(object) => Some(Handed::Object(object)),
        Value::Null => None,
        other => Some(Handed::NotAnObject(other)),
    }
}

/// Gives `arguments` back to the `tools/call` they were taken from: an object in its
/// `arguments`, where rmcp types them, anything else as the transport's [`Handoff`].
fn give_back(message: &mut ClientJsonRpcMessage, arguments: Handed) {
    let Some(call) = call_request(message) else {
        return;
    };
    match arguments {
        Handed::Object(object) => call.params.arguments = Some(object),
        other => {
            call.extensions.insert(Handoff::new(other));
        }
    }
}

/// Hands `handed` to the server beside the `tools/call` `message` (see [`Handoff`]).
pub(crate) fn hand_over(message: &mut ClientJsonRpcMessage, handed: Handed) {
    if let Some(call) = call_request(message) {
        call.extensions.insert(Handoff::new(handed));
    }
}

/// What the server is to get beside the `tools/call` `message` when rmcp reads it from bytes
/// (over HTTP), which lose its extensions: the hand-off it holds, or its object arguments,
/// taken out of it unless they are to stay (`keep_object`).
#[cfg(feature = "http")]
pub(crate) fn take_handoff(
    message: &mut ClientJsonRpcMessage,
    keep_object: bool,
) -> Option<Handoff> {
    let call = call_request(message)?;
    if let Some(handoff) = call.extensions.remove::<Handoff>() {
        return Some(handoff);
    }
    if keep_object {
        return None;
    }
    let object = call.params.arguments.take()?;
    Some(Handoff::new(Handed::Object(object)))
}

/// The `tools/call` request of `message`; `None` for any other message.
fn call_request(message: &mut ClientJsonRpcMessage) -> Option<&mut CallToolRequest> {
    match message {
        JsonRpcMessage::Request(request) => match &mut request.request {
            ClientRequest::CallToolRequest(call) => Some(call),
            _ => None,
        },
        _ => None,
    }
}

/// The `id` of an oversized message, when it comes before the part that was cut off.
///
/// Only the first bytes of a message over the size limit are kept. Messages put `id` near
/// the start (`{"jsonrpc":"2.0","id":7,"method":…`), so a streaming read of the top-level
/// keys usually finds it before the cut, and the client can match the error to its request.
pub(crate) fn leading_id(prefix: &[u8]) -> Option<Value> {
    struct FindId<'a>(&'a mut Option<Value>);

    impl<'de> Visitor<'de> for FindId<'_> {
        type Value = ();

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON-RPC message")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<String>()? {
                if key == "id" {
                    let id: Value = map.next_value()?;
                    *self.0 = Some(id);
                    return Err(de::Error::custom("found"));
                }
                map.next_value::<IgnoredAny>()?;
            }
            Ok(())
        }
    }

    let mut found = None;
    let mut deserializer = serde_json::Deserializer::from_slice(prefix);
    let _ = de::Deserializer::deserialize_map(&mut deserializer, FindId(&mut found));
    found.filter(valid_id)
}

/// The answer to a message over the size limit.
pub(crate) fn oversized(prefix: &[u8], limit: usize) -> Value {
    error_response(
        leading_id(prefix).as_ref(),
        ErrorCode::INVALID_REQUEST,
        text::message_too_large(limit),
        Some(json!({"maxMessageBytes": limit})),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(bytes: &[u8]) -> Value {
        match classify(bytes) {
            Inbound::Reply(value) => value,
            other => panic!("expected a reply, got {other:?}"),
        }
    }

    #[test]
    fn invalid_json_is_a_parse_error_with_a_null_id() {
        let answer = reply(b"{not json");
        assert_eq!(answer["id"], Value::Null);
        assert_eq!(answer["error"]["code"], -32700);
    }

    #[test]
    fn missing_method_keeps_the_id() {
        let answer = reply(br#"{"jsonrpc":"2.0","id":4}"#);
        assert_eq!(answer["id"], 4);
        assert_eq!(answer["error"]["code"], -32600);
    }

    #[test]
    fn known_method_with_bad_params_is_invalid_params() {
        let answer = reply(br#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{}}"#);
        assert_eq!(answer["id"], "a");
        assert_eq!(answer["error"]["code"], -32602);
    }

    #[test]
    fn non_object_arguments_are_handed_over_beside_the_message() {
        let line = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":[1]}}"#;
        let Inbound::Deliver(mut message) = classify(line) else {
            panic!("expected a message for rmcp");
        };
        let value = serde_json::to_value(&message).expect("json");
        assert_eq!(value["params"].get("arguments"), None);
        assert_eq!(value["params"].get("_meta"), None);
        let call = call_request(&mut message).expect("a tools/call");
        let handoff = call.extensions.remove::<Handoff>().expect("a hand-off");
        assert!(matches!(handoff.take(), Some(Handed::NotAnObject(value)) if value == json!([1])));
    }

    /// What rmcp's own reading of `message` makes of it, serialized: a request of a type of
    /// its own, not a custom one.
    fn read_by_rmcp(message: &Value) -> Value {
        let read: ClientJsonRpcMessage =
            serde_json::from_value(message.clone()).expect("rmcp reads it");
        assert!(
            matches!(&read, JsonRpcMessage::Request(request)
                if !matches!(request.request, ClientRequest::CustomRequest(_))),
            "rmcp reads {message} as a request of its own type"
        );
        serde_json::to_value(read).expect("json")
    }

    /// `message` read as its method's type, serialized.
    fn read_by_method(message: &Value) -> Value {
        let method = message["method"].as_str().expect("a method");
        let read = read_request(method, message)
            .unwrap_or_else(|| panic!("{message} reads as its method's type"));
        serde_json::to_value(read).expect("json")
    }

    #[test]
    fn a_call_read_as_a_call_is_what_rmcp_reads() {
        let calls = [
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "add"}}),
            json!({"jsonrpc": "2.0", "id": "a-7", "method": "tools/call",
                   "params": {"name": "add", "arguments": {"a": [1, 2.5, null], "b": {"c": "d"}}}}),
            json!({"jsonrpc": "2.0", "id": -3, "method": "tools/call", "extra": true,
                   "params": {"name": "add", "unknown": 1,
                              "_meta": {"progressToken": "p-1", "vendor/key": {"x": 1}}}}),
            json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                   "params": {"name": "add", "_meta": {"progressToken": 9,
                              "io.modelcontextprotocol/protocolVersion": "2026-07-28"}}}),
            json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                   "params": {"name": "add", "requestState": "opaque",
                              "inputResponses": {"q1": {"action": "cancel"}}}}),
            json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call",
                   "params": {"name": "add", "task": {"ttl": 60000}}}),
        ];
        for call in calls {
            assert_eq!(read_by_method(&call), read_by_rmcp(&call), "{call}");
        }
    }

    #[test]
    fn other_requests_read_as_their_methods_types_are_what_rmcp_reads() {
        let requests = [
            json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
            json!({"jsonrpc": "2.0", "id": 2, "method": "initialize",
                   "params": {"protocolVersion": "2025-06-18", "capabilities": {"roots": {}},
                              "clientInfo": {"name": "c", "version": "1"}}}),
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}),
            json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {"cursor": "2"}}),
            json!({"jsonrpc": "2.0", "id": 5, "method": "resources/read",
                   "params": {"uri": "file:///a", "_meta": {"progressToken": 1}}}),
            json!({"jsonrpc": "2.0", "id": 6, "method": "prompts/get",
                   "params": {"name": "p", "arguments": {"x": "y"}}}),
            json!({"jsonrpc": "2.0", "id": 7, "method": "logging/setLevel",
                   "params": {"level": "info"}}),
            json!({"jsonrpc": "2.0", "id": 8, "method": "resources/subscribe",
                   "params": {"uri": "file:///a"}}),
        ];
        for request in requests {
            assert_eq!(
                read_by_method(&request),
                read_by_rmcp(&request),
                "{request}"
            );
        }
    }

    #[test]
    fn a_call_whose_params_do_not_fit_is_left_to_the_general_reading() {
        for params in [
            json!({}),
            json!({"name": 7}),
            json!("add"),
            json!({"name": "add", "_meta": 1}),
        ] {
            let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
            assert!(read_request("tools/call", &call).is_none(), "{call}");
            let answer = reply(call.to_string().as_bytes());
            assert_eq!(answer["error"]["code"], -32602, "{call}");
        }
    }

    #[test]
    fn the_id_of_a_cut_message_is_found_when_it_comes_first() {
        assert_eq!(
            leading_id(br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"na"#),
            Some(json!(9))
        );
        assert_eq!(leading_id(br#"{"params":{"name":"x"#), None);
    }
}
