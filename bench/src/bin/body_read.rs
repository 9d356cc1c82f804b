//! What reading a `tools/call` body costs rmcp, with its arguments and without them, and
//! what reading the arguments apart costs, as the HTTP endpoint does (`quickly_screened` in
//! the runtime's `transport/http/screen.rs`). Under callgrind, the difference between two
//! counts of reads over their difference is the cost of one:
//!
//! ```text
//! cargo build --release -p mcp-tool-bench --bin body_read
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/body_read READ 1000
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/body_read READ 3000
//! ```
//!
//! `READ` is `rmcp` (rmcp's message read from P8's `get_user` call), `rmcp-null` (the same
//! with `"arguments": null`), `apart` (its arguments read into a map and the rest copied
//! with `null` in their place), or `rmcp-dozen`, `rmcp-dozen-null` and `apart-dozen` for a
//! call whose arguments hold a dozen values.

use std::hint::black_box;
use std::process::ExitCode;

use rmcp::model::ClientJsonRpcMessage;
use serde_json::{Map, Value};

const CALL: &str = r#"{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"get_user","arguments":{"user_id":42}}}"#;
const DOZEN: &str = r#"{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"add_item","arguments":{"sku":"ABC-123","name":"Blue mug","quantity":3,"price":4.5,"tags":["kitchen","blue"],"warehouse":{"id":7,"zone":"B"}}}}"#;
const ARGUMENTS: &str = r#""arguments":"#;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(read), Some(Ok(times))) = (args.next(), args.next().map(|n| n.parse::<usize>()))
    else {
        eprintln!("usage: body_read READ TIMES");
        return ExitCode::FAILURE;
    };
    let (body, span) = match read.as_str() {
        "rmcp" | "rmcp-null" | "apart" => with_span(CALL),
        _ => with_span(DOZEN),
    };
    let null = without(body, span.clone());
    let mut read_ok = true;
    for _ in 0..times {
        read_ok &= match read.as_str() {
            "rmcp" | "rmcp-dozen" => rmcp_reads(black_box(body.as_bytes())),
            "rmcp-null" | "rmcp-dozen-null" => rmcp_reads(black_box(null.as_bytes())),
            _ => read_apart(black_box(body), span.clone()),
        };
    }
    if read_ok {
        ExitCode::SUCCESS
    } else {
        eprintln!("a read failed");
        ExitCode::FAILURE
    }
}

/// `body` and where its arguments' object stands.
fn with_span(body: &'static str) -> (&'static str, std::ops::Range<usize>) {
    let start = body.find(ARGUMENTS).map_or(0, |at| at + ARGUMENTS.len());
    // The arguments close two brackets before the end: `params`, then the message.
    (body, start..body.len() - 2)
}

fn without(body: &str, span: std::ops::Range<usize>) -> String {
    format!("{}null{}", &body[..span.start], &body[span.end..])
}

fn rmcp_reads(body: &[u8]) -> bool {
    let read = serde_json::from_slice::<ClientJsonRpcMessage>(body);
    black_box(read).is_ok()
}

/// The endpoint's work in place of rmcp's reading of the arguments.
fn read_apart(body: &str, span: std::ops::Range<usize>) -> bool {
    let bytes = body.as_bytes();
    let arguments = serde_json::from_slice::<Map<String, Value>>(&bytes[span.clone()]);
    let mut rest = Vec::with_capacity(bytes.len() - span.len() + 4);
    rest.extend_from_slice(&bytes[..span.start]);
    rest.extend_from_slice(b"null");
    rest.extend_from_slice(&bytes[span.end..]);
    let rest = bytes::Bytes::from(rest);
    black_box((arguments, rest)).0.is_ok()
}
