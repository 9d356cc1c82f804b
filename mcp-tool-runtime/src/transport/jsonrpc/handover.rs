//! The arguments of a call the quick read passed, handed over beside its body (see
//! `server::Handoff`): read here into an object, and cut out of the body rmcp reads.
//!
//! rmcp reads a message through serde's buffers for untagged enums, trying each kind of
//! request in turn, and every try walks the arguments again: the `{"user_id":1}` of P8's
//! `get_user` call cost 4,300 of the 34,660 instructions rmcp takes to read the body (read
//! alone, in a loop, callgrind). Read on their own they cost about 1,100.

use bytes::Bytes;
use serde_json::{Map, Value};

use super::quick::ArgumentsAt;
use crate::large::LARGE_INPUT_VALUES;
use crate::server::{Handed, Handoff};

/// The body without its `arguments` member, and the hand-off of the object they hold;
/// `None` when that object does not read as JSON, which leaves the body to rmcp as it is.
/// The body is one the quick read found within the input limits.
pub(crate) fn hand_over_arguments(body: &Bytes, at: &ArgumentsAt) -> Option<(Bytes, Handoff)> {
    let text = body.get(at.value.clone())?;
    let object: Map<String, Value> = serde_json::from_slice(text).ok()?;
    // A value takes a byte at least, so text this short holds fewer values than make an
    // input large.
    let handed = if text.len() < LARGE_INPUT_VALUES {
        Handed::Checked(object)
    } else {
        Handed::Object(object)
    };
    let (cut_from, cut_to) = member_with_its_comma(body, at.member, at.value.end);
    let mut rest = Vec::with_capacity(body.len() - (cut_to - cut_from));
    rest.extend_from_slice(&body[..cut_from]);
    rest.extend_from_slice(&body[cut_to..]);
    Some((Bytes::from(rest), Handoff::new(handed)))
}

/// The bytes to cut for the member from `start` to `end` to leave its object valid JSON:
/// the member with the comma after it, or, for the last member, with the comma before it.
fn member_with_its_comma(body: &[u8], start: usize, end: usize) -> (usize, usize) {
    let is_blank = |byte: &u8| matches!(byte, b' ' | b'\t' | b'\n' | b'\r');
    let after = body[end..].iter().position(|byte| !is_blank(byte));
    if let Some(comma) = after.filter(|&offset| body[end + offset] == b',') {
        return (start, end + comma + 1);
    }
    let before = body[..start].iter().rposition(|byte| !is_blank(byte));
    match before {
        Some(comma) if body[comma] == b',' => (comma, end),
        _ => (start, end),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::InputLimits;
    use crate::transport::jsonrpc::quick_request;

    /// The body rmcp reads and the arguments handed over, for `body`.
    fn handed_over(body: &str) -> (String, Value) {
        let bytes = Bytes::copy_from_slice(body.as_bytes());
        let (quick, _) = quick_request(&bytes, &InputLimits::default()).expect("read quickly");
        let at = quick.arguments.expect("arguments found");
        let (rest, handoff) = hand_over_arguments(&bytes, &at).expect("handed over");
        let Some(Handed::Checked(object) | Handed::Object(object)) = handoff.take() else {
            panic!("no object handed over: {body}");
        };
        (
            String::from_utf8(rest.to_vec()).unwrap(),
            Value::Object(object),
        )
    }

    #[test]
    fn the_arguments_are_cut_out_wherever_they_stand() {
        let wrap = |params: &str| {
            format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{params}}}"#)
        };
        for (params, left) in [
            (r#"{"name":"x","arguments":{"a":1}}"#, r#"{"name":"x"}"#),
            (r#"{"arguments":{"a":1},"name":"x"}"#, r#"{"name":"x"}"#),
            (
                r#"{"name":"x","arguments":{"a":1},"_meta":{}}"#,
                r#"{"name":"x","_meta":{}}"#,
            ),
            (
                r#"{ "name" : "x" , "arguments" : {"a":1} }"#,
                r#"{ "name" : "x"  }"#,
            ),
            (
                r#"{ "arguments" : {"a":1} ,"name":"x"}"#,
                r#"{ "name":"x"}"#,
            ),
            (r#"{"arguments":{"a":1}}"#, r#"{}"#),
        ] {
            let (rest, arguments) = handed_over(&wrap(params));
            assert_eq!(rest, wrap(left), "{params}");
            assert_eq!(arguments, serde_json::json!({"a": 1}), "{params}");
            let read: Value = serde_json::from_str(&rest).expect("still JSON");
            assert!(read["params"].get("arguments").is_none(), "{params}");
        }
    }

    #[test]
    fn the_arguments_handed_over_are_those_rmcp_would_read() {
        let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"s":"é\n\"","n":-1.5e3,"big":18446744073709551615,"l":[true,null,{"k":[]}],"s":"last"}}}"#;
        let (_, arguments) = handed_over(body);
        let message: rmcp::model::ClientJsonRpcMessage = serde_json::from_str(body).unwrap();
        let rmcp::model::JsonRpcMessage::Request(request) = message else {
            panic!("not a request");
        };
        let rmcp::model::ClientRequest::CallToolRequest(call) = request.request else {
            panic!("not a call");
        };
        assert_eq!(arguments, Value::Object(call.params.arguments.unwrap()));
    }

    #[test]
    fn arguments_that_are_not_json_stay_in_the_body() {
        let body = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":01}}}"#;
        let bytes = Bytes::from_static(body);
        let (quick, _) = quick_request(&bytes, &InputLimits::default()).expect("read quickly");
        let at = quick.arguments.expect("arguments found");
        assert!(hand_over_arguments(&bytes, &at).is_none());
    }

    #[test]
    fn only_a_calls_arguments_given_once_are_found() {
        let quick = |body: &'static str| quick_request(body.as_bytes(), &InputLimits::default());
        let prompt = r#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"p","arguments":{"a":"1"}}}"#;
        let (read, _) = quick(prompt).expect("read quickly");
        assert_eq!(read.arguments, None);
        let twice = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{},"arguments":{}}}"#;
        assert!(quick(twice).is_none());
    }
}
