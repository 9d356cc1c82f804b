//! Middleware end to end, against the real `gateway` binary: over HTTP a tool reads the
//! request's headers and a middleware refuses calls without a tenant; over stdio the rate
//! limit answers, inside the tracing span that carries the client's trace parent.

use mcp_tool_test_support::http::{HttpServer, initialize_body};
use mcp_tool_test_support::stdio::{StdioSession, envelope_of, text_of};
use serde_json::{Value, json};

const GATEWAY: &str = env!("CARGO_BIN_EXE_gateway");

fn call_body(id: u64, name: &str, arguments: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": name, "arguments": arguments}})
    .to_string()
}

#[test]
fn over_http_a_tool_reads_a_header_and_middleware_refuses_calls_without_it() {
    let server = HttpServer::start(GATEWAY, &["--stateless"], &[]);
    let reply = server.post(&[], initialize_body());
    assert_eq!(reply.status, 200, "{reply:?}");

    let reply = server.post(&[("X-Tenant", "acme")], call_body(2, "whoami", json!({})));
    assert_eq!(reply.status, 200, "{reply:?}");
    let result = &reply.messages()[0]["result"];
    assert_eq!(result["isError"], false, "{result}");
    assert_eq!(text_of(result), "tenant acme, caller anonymous");

    let reply = server.post(&[], call_body(3, "whoami", json!({})));
    assert_eq!(reply.status, 200, "{reply:?}");
    let result = &reply.messages()[0]["result"];
    assert_eq!(result["isError"], true, "{result}");
    assert_eq!(envelope_of(result)["code"], "forbidden");
    assert_eq!(
        text_of(result),
        "This server serves tenants only.\nHint: Send the X-Tenant header with your tenant's name."
    );
}

#[test]
fn over_stdio_the_rate_limit_answers_inside_the_calls_trace_span() {
    let mut session = StdioSession::start(GATEWAY, &[]);
    assert_eq!(
        text_of(&session.call_tool("whoami", json!({}))),
        "no tenant (stdio), caller anonymous"
    );
    for _ in 0..2 {
        let result = session.call_tool("quote", json!({"sku": "ABC-0001"}));
        assert_eq!(text_of(&result), "ABC-0001: 2.50");
    }
    let response = session.request(
        "tools/call",
        json!({"name": "quote", "arguments": {"sku": "ABC-0001"},
               "_meta": {"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}),
    );
    let result = &response["result"];
    let envelope = envelope_of(result);
    assert_eq!(envelope["code"], "rate_limited", "{result}");
    assert_eq!(envelope["retryAfter"], 30);
    assert_eq!(
        text_of(result),
        "Too many calls to tool 'quote' from this caller: it allows 2 calls per 60 s per caller.\n\
         This is temporary: retry after 30 seconds."
    );
    // The failure's log line is written inside the call's span, which names the tool, the
    // call as the OpenTelemetry conventions for MCP name it, and the client's trace.
    let id = envelope["correlationId"]
        .as_str()
        .expect("a correlation id");
    let stderr = session.wait_for_stderr(id);
    let line = stderr
        .lines()
        .find(|line| line.contains(id))
        .unwrap_or_else(|| panic!("no log line names {id}: {stderr}"));
    assert!(
        line.contains(
            "tool_call{tool=\"quote\" otel.name=\"tools/call quote\" otel.kind=\"server\" \
             mcp.method.name=\"tools/call\" gen_ai.operation.name=\"execute_tool\" \
             gen_ai.tool.name=\"quote\" jsonrpc.request.id=\"5\" \
             mcp.protocol.version=\"2025-11-25\" network.transport=\"pipe\" \
             trace_id=0af7651916cd43dd8448eb211c80319c parent_span_id=b7ad6b7169203331}"
        ),
        "{line}"
    );
    assert!(line.contains("code=\"rate_limited\""), "{line}");
}
