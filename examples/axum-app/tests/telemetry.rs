//! Telemetry by the OpenTelemetry semantic conventions for MCP (registry 1.42.0, now kept in
//! semantic-conventions-genai): what the SDK receives from `TraceCalls` and `CallMetrics`
//! (its in-memory exporters, through a real client's calls), and what the axum example sends
//! over OTLP/HTTP to a receiver started here (a real export, decoded with the OTLP protobuf
//! definitions).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mcp_tool_runtime::middleware::{CallMetrics, TraceCalls};
use mcp_tool_runtime::rmcp::model::{CallToolRequest, CallToolRequestParams, ClientRequest};
use mcp_tool_runtime::rmcp::service::PeerRequestOptions;
use mcp_tool_runtime::testing::TestClient;
use mcp_tool_runtime::{McpServer, ToolError, mcp_tool};
use mcp_tool_test_support::http::{HttpServer, call_body};
use opentelemetry::KeyValue;
use opentelemetry::trace::{SpanKind, Status, TraceId, TracerProvider as _};
use opentelemetry_proto::tonic::collector::metrics::v1::ExportMetricsServiceRequest;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{KeyValue as ProtoKeyValue, any_value};
use opentelemetry_proto::tonic::metrics::v1::{HistogramDataPoint, metric};
use opentelemetry_proto::tonic::trace::v1::Span as ProtoSpan;
use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData};
use opentelemetry_sdk::metrics::{InMemoryMetricExporter, PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider};
use prost::Message;
use serde_json::json;
use tracing_subscriber::layer::SubscriberExt;

const APP: &str = env!("CARGO_BIN_EXE_mcp-tool-example-axum");
const TRACE_ID: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID: &str = "00f067aa0ba902b7";
const TRACEPARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const TRACESTATE: &str = "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE";
const BOUNDARIES: [f64; 14] = [
    0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];

/// Say hello to `name`.
#[mcp_tool]
fn greet(name: String) -> Result<String, ToolError> {
    if name.is_empty() {
        return Err(ToolError::not_found("No one to greet."));
    }
    Ok(format!("hello {name}"))
}

fn attribute(attributes: &[KeyValue], key: &str) -> Option<String> {
    attributes
        .iter()
        .find(|attribute| attribute.key.as_str() == key)
        .map(|attribute| attribute.value.as_str().into_owned())
}

#[tokio::test]
async fn the_sdk_receives_the_conventional_span_and_metric() {
    let spans = InMemorySpanExporter::default();
    let tracer = SdkTracerProvider::builder()
        .with_simple_exporter(spans.clone())
        .build();
    let layer = tracing_opentelemetry::layer().with_tracer(tracer.tracer("test"));
    let _subscriber = tracing::subscriber::set_default(tracing_subscriber::registry().with(layer));
    let metrics = InMemoryMetricExporter::default();
    let meter = SdkMeterProvider::builder()
        .with_reader(PeriodicReader::builder(metrics.clone()).build())
        .build();
    let server = McpServer::builder(())
        .tool(greet_tool())
        .middleware(CallMetrics::with_provider(&meter))
        .middleware(TraceCalls::new())
        .build()
        .expect("builds");
    let client = TestClient::connect(&server).await.expect("connects");
    let meta = json!({"traceparent": TRACEPARENT, "tracestate": TRACESTATE});
    let ok = client
        .call_with_meta("greet", json!({"name": "ada"}), meta)
        .await
        .expect("answers");
    assert_eq!(ok.text(), "hello ada");
    let failed = client
        .call("greet", json!({"name": ""}))
        .await
        .expect("answers");
    assert!(failed.is_error());

    let finished = spans.get_finished_spans().expect("spans");
    let named: Vec<_> = finished
        .iter()
        .filter(|span| span.name == "tools/call greet")
        .collect();
    assert_eq!(named.len(), 2, "{finished:#?}");
    let (span, bad) = (named[0], named[1]);
    assert_eq!(span.span_kind, SpanKind::Server);
    assert_eq!(
        span.span_context.trace_id(),
        TraceId::from_hex(TRACE_ID).expect("hex")
    );
    assert_eq!(span.parent_span_id.to_string(), PARENT_ID);
    assert!(span.parent_span_is_remote);
    assert_eq!(span.span_context.trace_state().header(), TRACESTATE);
    for (key, value) in [
        ("mcp.method.name", "tools/call"),
        ("gen_ai.tool.name", "greet"),
        ("gen_ai.operation.name", "execute_tool"),
        ("mcp.protocol.version", "2025-11-25"),
        ("network.transport", "pipe"),
    ] {
        assert_eq!(
            attribute(&span.attributes, key).as_deref(),
            Some(value),
            "{key}"
        );
    }
    assert!(attribute(&span.attributes, "jsonrpc.request.id").is_some());
    assert_eq!(attribute(&span.attributes, "error.type"), None);
    assert_eq!(span.status, Status::Unset);
    assert_eq!(
        attribute(&bad.attributes, "error.type").as_deref(),
        Some("tool_error")
    );
    assert!(
        matches!(bad.status, Status::Error { .. }),
        "{:?}",
        bad.status
    );
    assert_ne!(bad.span_context.trace_id(), span.span_context.trace_id());

    let (bounds, points) = durations(&meter, &metrics).expect("the duration histogram");
    assert_eq!(bounds, BOUNDARIES);
    let mut by_error: HashMap<Option<String>, u64> = HashMap::new();
    for (attributes, count) in points {
        assert_eq!(
            attribute(&attributes, "mcp.method.name").as_deref(),
            Some("tools/call")
        );
        assert_eq!(
            attribute(&attributes, "gen_ai.tool.name").as_deref(),
            Some("greet")
        );
        assert_eq!(
            attribute(&attributes, "gen_ai.operation.name").as_deref(),
            Some("execute_tool")
        );
        assert_eq!(
            attribute(&attributes, "network.transport").as_deref(),
            Some("pipe")
        );
        assert_eq!(attribute(&attributes, "jsonrpc.request.id"), None);
        if attribute(&attributes, "error.type").is_some() {
            assert_eq!(
                attribute(&attributes, "mcp_tool.error.code").as_deref(),
                Some("not_found")
            );
        }
        *by_error
            .entry(attribute(&attributes, "error.type"))
            .or_default() += count;
    }
    assert_eq!(by_error.get(&None), Some(&1), "{by_error:?}");
    assert_eq!(
        by_error.get(&Some("tool_error".to_string())),
        Some(&1),
        "{by_error:?}"
    );
}

/// The points of `mcp.server.operation.duration` in the runtime's scope, after a flush:
/// the histogram's bounds (unit `s` checked), and each point's attributes and count.
type Points = (Vec<f64>, Vec<(Vec<KeyValue>, u64)>);

fn durations(meter: &SdkMeterProvider, metrics: &InMemoryMetricExporter) -> Option<Points> {
    meter.force_flush().expect("flushes");
    let exported = metrics.get_finished_metrics().expect("metrics");
    let histogram = exported
        .iter()
        .flat_map(|resource| resource.scope_metrics())
        .filter(|scope| scope.scope().name() == "mcp-tool-runtime")
        .flat_map(|scope| scope.metrics())
        .find(|metric| metric.name() == "mcp.server.operation.duration")?;
    assert_eq!(histogram.unit(), "s");
    let AggregatedMetrics::F64(MetricData::Histogram(data)) = histogram.data() else {
        panic!("not a histogram of f64: {histogram:?}");
    };
    let bounds = data
        .data_points()
        .next()
        .map(|point| point.bounds().collect())
        .unwrap_or_default();
    let points = data
        .data_points()
        .map(|point| (point.attributes().cloned().collect(), point.count()))
        .collect();
    Some((bounds, points))
}

/// Wait until the client cancels.
#[mcp_tool]
async fn stall() -> String {
    std::future::pending().await
}

#[tokio::test]
async fn a_call_the_client_cancels_is_measured_as_cancelled() {
    let metrics = InMemoryMetricExporter::default();
    let meter = SdkMeterProvider::builder()
        .with_reader(PeriodicReader::builder(metrics.clone()).build())
        .build();
    let server = McpServer::builder(())
        .tool(stall_tool())
        .middleware(CallMetrics::with_provider(&meter))
        .build()
        .expect("builds");
    let client = TestClient::connect(&server).await.expect("connects");
    let call =
        ClientRequest::CallToolRequest(CallToolRequest::new(CallToolRequestParams::new("stall")));
    let handle = client
        .peer()
        .send_cancellable_request(call, PeerRequestOptions::no_options())
        .await
        .expect("sent");
    tokio::time::sleep(Duration::from_millis(100)).await;
    handle.cancel(None).await.expect("cancels");
    let mut cancelled = None;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        cancelled = durations(&meter, &metrics).and_then(|(_, points)| {
            points
                .into_iter()
                .find(|(attributes, _)| attribute(attributes, "error.type").is_some())
        });
        if cancelled.is_some() {
            break;
        }
    }
    let (attributes, count) = cancelled.expect("the cancelled call is measured");
    assert_eq!(count, 1);
    assert_eq!(
        attribute(&attributes, "error.type").as_deref(),
        Some("cancelled")
    );
    assert_eq!(
        attribute(&attributes, "mcp_tool.error.code").as_deref(),
        Some("cancelled")
    );
    assert_eq!(
        attribute(&attributes, "gen_ai.tool.name").as_deref(),
        Some("stall")
    );
}

/// One POST the receiver got: its path and its body.
type Post = (String, Vec<u8>);

/// What an OTLP/HTTP receiver got.
#[derive(Clone, Default)]
struct Received(Arc<Mutex<Vec<Post>>>);

impl Received {
    fn bodies(&self, path: &str) -> Vec<Vec<u8>> {
        self.0
            .lock()
            .expect("received")
            .iter()
            .filter(|(at, _)| at == path)
            .map(|(_, body)| body.clone())
            .collect()
    }
}

/// A small OTLP/HTTP receiver on 127.0.0.1: stores each POST's body and answers 200 with an
/// empty protobuf message (an export that succeeded whole).
fn start_receiver() -> (SocketAddr, Received) {
    let received = Received::default();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("binds");
    listener.set_nonblocking(true).expect("nonblocking");
    let addr = listener.local_addr().expect("addr");
    let store = received.clone();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
            let app = axum::Router::new().fallback(
                move |uri: axum::http::Uri, body: axum::body::Bytes| {
                    let store = store.clone();
                    async move {
                        store
                            .0
                            .lock()
                            .expect("received")
                            .push((uri.path().to_string(), body.to_vec()));
                        (
                            [("content-type", "application/x-protobuf")],
                            Vec::<u8>::new(),
                        )
                    }
                },
            );
            let _ = axum::serve(listener, app).await;
        });
    });
    (addr, received)
}

/// The conventional attributes of a call to `add_note` over HTTP/1.1, on its span and on its
/// measurement alike.
const HTTP_CALL: [(&str, &str); 7] = [
    ("mcp.method.name", "tools/call"),
    ("gen_ai.tool.name", "add_note"),
    ("gen_ai.operation.name", "execute_tool"),
    ("mcp.protocol.version", "2025-11-25"),
    ("network.transport", "tcp"),
    ("network.protocol.name", "http"),
    ("network.protocol.version", "1.1"),
];

fn assert_attributes(attributes: &[ProtoKeyValue], expected: &[(&str, &str)]) {
    for (key, value) in expected {
        assert_eq!(
            string_attribute(attributes, key).as_deref(),
            Some(*value),
            "{key}: {attributes:?}"
        );
    }
}

fn string_attribute(attributes: &[ProtoKeyValue], key: &str) -> Option<String> {
    let value = attributes.iter().find(|kv| kv.key == key)?.value.as_ref()?;
    match value.value.as_ref()? {
        any_value::Value::StringValue(text) => Some(text.clone()),
        _ => None,
    }
}

fn exported_spans(received: &Received) -> Vec<ProtoSpan> {
    received
        .bodies("/v1/traces")
        .iter()
        .filter_map(|body| ExportTraceServiceRequest::decode(body.as_slice()).ok())
        .flat_map(|request| request.resource_spans)
        .flat_map(|resource| resource.scope_spans)
        .flat_map(|scope| scope.spans)
        .collect()
}

fn exported_durations(received: &Received) -> Vec<HistogramDataPoint> {
    received
        .bodies("/v1/metrics")
        .iter()
        .filter_map(|body| ExportMetricsServiceRequest::decode(body.as_slice()).ok())
        .flat_map(|request| request.resource_metrics)
        .flat_map(|resource| resource.scope_metrics)
        .flat_map(|scope| scope.metrics)
        .filter(|metric| metric.name == "mcp.server.operation.duration" && metric.unit == "s")
        .filter_map(|metric| match metric.data {
            Some(metric::Data::Histogram(histogram)) => Some(histogram.data_points),
            _ => None,
        })
        .flatten()
        .collect()
}

/// Polls until `found` holds something, for at most 20 s.
fn wait_for<T>(mut found: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if let Some(value) = found() {
            return Some(value);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    None
}

#[test]
fn the_axum_example_exports_the_call_over_otlp_under_the_clients_trace() {
    let (receiver, received) = start_receiver();
    let endpoint = format!("http://{receiver}");
    let app = HttpServer::start(
        APP,
        &[],
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str()),
            ("OTEL_BSP_SCHEDULE_DELAY", "100"),
            ("OTEL_METRIC_EXPORT_INTERVAL", "200"),
        ],
    );
    let session = app.open_session(&[]);
    let in_session = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "add_note", "arguments": {"text": "buy milk"},
                   "_meta": {"traceparent": TRACEPARENT, "tracestate": TRACESTATE}}});
    let saved = app.post(&in_session, body.to_string());
    assert_eq!(
        saved.messages()[0]["result"]["content"][0]["text"],
        "note 1 saved",
        "{saved:?}"
    );
    let refused = app.post(&in_session, call_body(8, "add_note", json!({"text": ""})));
    assert_eq!(refused.messages()[0]["result"]["isError"], true);

    let spans = wait_for(|| {
        let spans: Vec<ProtoSpan> = exported_spans(&received)
            .into_iter()
            .filter(|span| span.name == "tools/call add_note")
            .collect();
        (spans.len() == 2).then_some(spans)
    })
    .expect("both calls' spans arrive over OTLP");
    let span = spans
        .iter()
        .find(|span| {
            string_attribute(&span.attributes, "jsonrpc.request.id").as_deref() == Some("7")
        })
        .expect("the first call's span");
    assert_eq!(hex(&span.trace_id), TRACE_ID);
    assert_eq!(hex(&span.parent_span_id), PARENT_ID);
    assert_eq!(span.trace_state, TRACESTATE);
    // SPAN_KIND_SERVER.
    assert_eq!(span.kind, 2);
    assert_attributes(&span.attributes, &HTTP_CALL);
    assert_attributes(
        &span.attributes,
        &[("jsonrpc.request.id", "7"), ("mcp.session.id", &session)],
    );
    assert_eq!(string_attribute(&span.attributes, "error.type"), None);
    let bad = spans
        .iter()
        .find(|span| {
            string_attribute(&span.attributes, "jsonrpc.request.id").as_deref() == Some("8")
        })
        .expect("the refused call's span");
    assert_eq!(
        string_attribute(&bad.attributes, "error.type").as_deref(),
        Some("tool_error")
    );
    // STATUS_CODE_ERROR.
    assert_eq!(bad.status.as_ref().map(|status| status.code), Some(2));

    let points = wait_for(|| {
        let points = exported_durations(&received);
        (points.len() >= 2).then_some(points)
    })
    .expect("the duration histogram arrives over OTLP");
    let failed = points
        .iter()
        .find(|point| {
            string_attribute(&point.attributes, "error.type").as_deref() == Some("tool_error")
        })
        .expect("a point for the failed call");
    assert_eq!(
        string_attribute(&failed.attributes, "mcp_tool.error.code").as_deref(),
        Some("invalid_arguments")
    );
    let ok = points
        .iter()
        .find(|point| string_attribute(&point.attributes, "error.type").is_none())
        .expect("a point for the call that succeeded");
    assert_eq!(ok.count, 1);
    assert_eq!(ok.explicit_bounds, BOUNDARIES);
    assert_attributes(&ok.attributes, &HTTP_CALL);
    assert_eq!(string_attribute(&ok.attributes, "mcp.session.id"), None);
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}
