//! A `tracing` span per call, continuing the client's W3C trace context (SEP-414).

use std::fmt;
use std::time::Instant;

use tracing::field::{Empty, display};
use tracing::level_filters::{LevelFilter, STATIC_MAX_LEVEL};
use tracing::{Instrument, Level, Span};

use super::semconv::{
    CANCELLED, CallAttributes, EXECUTE_TOOL, TOOLS_CALL, error_type, outcome_code, with_span_name,
};
use super::trace_parent::{Hex, TraceParent};
use super::{Middleware, Next, ToolRequest};
use crate::dispatch::CallOutcome;
use crate::error::ToolError;

/// What connects a call's span to a tracer that knows W3C ids (OpenTelemetry).
type ParentHook = Box<dyn Fn(&Span, &TraceParent) + Send + Sync>;

/// Middleware: one `tracing` span per call, named `tool_call`, with the fields
///
/// | field | value |
/// | --- | --- |
/// | `tool` | the tool's name |
/// | `outcome` | `ok`, or the error code (`invalid_arguments`, `timeout`, `forbidden`, …); `error` for an `isError` result the tool built itself; `cancelled` when the client cancelled the call |
/// | `duration_ms` | the call's wall time, middleware inside this one included |
/// | `correlation_id` | for a failure, the id in its log line and in the client's envelope |
/// | `trace_id`, `parent_span_id` | from the request's `_meta.traceparent`, when the client sent one |
/// | `otel.status_code` | `ERROR` for a failure, which `tracing-opentelemetry` reads as the span's status |
///
/// and those of the OpenTelemetry semantic conventions for MCP (registry 1.42.0, status
/// Development), which `tracing-opentelemetry` exports as they are:
///
/// | field | value |
/// | --- | --- |
/// | `otel.name` | `tools/call {tool}`, the span's name in OpenTelemetry |
/// | `otel.kind` | `server` |
/// | `mcp.method.name` | `tools/call` |
/// | `gen_ai.operation.name` | `execute_tool` |
/// | `gen_ai.tool.name` | the tool's name |
/// | `jsonrpc.request.id` | the request's id, for a call from a client |
/// | `mcp.session.id` | the `Mcp-Session-Id` of a Streamable HTTP session |
/// | `mcp.protocol.version` | the protocol revision the client speaks |
/// | `network.transport` | `tcp` over HTTP, `pipe` over stdio |
/// | `network.protocol.name`, `network.protocol.version` | `http` and `1.1` or `2`, over HTTP |
/// | `error.type` | for a failure: `tool_error` (a result with `isError: true`), or `cancelled` |
///
/// Everything the call logs (the failure line with its correlation id, the tool's own
/// events) happens inside the span. Register it first, so that it also times and records
/// what later middleware refuses.
///
/// ```
/// use mcp_tool_runtime::{McpServer, mcp_tool, middleware::TraceCalls};
///
/// /// Say hello.
/// #[mcp_tool]
/// fn hello() -> String { "hello".into() }
///
/// let server = McpServer::builder(())
///     .tool(hello_tool())
///     .middleware(TraceCalls::new().level(tracing::Level::DEBUG))
///     .build()?;
/// # Ok::<(), mcp_tool_runtime::registry::RegistryError>(())
/// ```
///
/// # OpenTelemetry
///
/// A `tracing` span's parent is another `tracing` span, so the client's span is recorded as
/// the fields `trace_id` and `parent_span_id`: any subscriber can log them and search by
/// them. With the feature `otel`, the client's span (its `_meta.traceparent`, and
/// `_meta.tracestate`) becomes the span's remote parent in OpenTelemetry, through the
/// `tracing-opentelemetry` layer the application installed: the server's span joins the
/// client's trace. That layer must be `tracing-opentelemetry` 0.34, on `opentelemetry` 0.33,
/// the versions the feature is built on (the two crates move together, every few months).
///
/// With other versions, or without the feature, connect the parent where the pipeline is
/// set up, with [`TraceCalls::on_trace_parent`] (which replaces the feature's own):
///
/// ```ignore
/// // Needs the crates `opentelemetry` and `tracing-opentelemetry`, at the versions the
/// // application's OpenTelemetry pipeline uses.
/// use opentelemetry::trace::{SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState};
/// use tracing_opentelemetry::OpenTelemetrySpanExt;
///
/// let trace = TraceCalls::new().on_trace_parent(|span, parent| {
///     let remote = SpanContext::new(
///         TraceId::from_bytes(parent.trace_id()),
///         SpanId::from_bytes(parent.parent_id()),
///         TraceFlags::new(parent.flags()),
///         true,
///         TraceState::default(),
///     );
///     let _ = span.set_parent(opentelemetry::Context::new().with_remote_span_context(remote));
/// });
/// ```
pub struct TraceCalls {
    level: Level,
    on_parent: Option<ParentHook>,
}

impl Default for TraceCalls {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for TraceCalls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TraceCalls")
            .field("level", &self.level)
            .field("on_trace_parent", &self.on_parent.is_some())
            .finish()
    }
}

impl TraceCalls {
    /// Spans at `INFO`.
    pub fn new() -> Self {
        Self {
            level: Level::INFO,
            on_parent: None,
        }
    }

    /// The level of the spans (default `INFO`): a subscriber that filters it out pays almost
    /// nothing per call.
    pub fn level(mut self, level: Level) -> Self {
        self.level = level;
        self
    }

    /// Calls `hook` with each call's span and the client's trace context, when the client
    /// sent one and the span is enabled: the place to make the client's span its parent in a
    /// tracer of W3C ids (see the type's documentation). With the feature `otel`, the hook
    /// replaces the feature's own parenting.
    pub fn on_trace_parent(
        mut self,
        hook: impl Fn(&Span, &TraceParent) + Send + Sync + 'static,
    ) -> Self {
        self.on_parent = Some(Box::new(hook));
        self
    }

    fn span(&self, tool: &str) -> Span {
        // Past the highest level any subscriber wants, no span is made and no name is put
        // together. Below it the name is (on the stack, a few dozen instructions even for a
        // span a filter then turns off); the other values only for an enabled span.
        if self.level > STATIC_MAX_LEVEL || self.level > LevelFilter::current() {
            return Span::none();
        }
        macro_rules! call_span {
            ($level:expr, $name:expr) => {
                tracing::span!(
                    $level,
                    "tool_call",
                    tool,
                    outcome = Empty,
                    duration_ms = Empty,
                    correlation_id = Empty,
                    trace_id = Empty,
                    parent_span_id = Empty,
                    otel.name = $name,
                    otel.kind = "server",
                    otel.status_code = Empty,
                    mcp.method.name = TOOLS_CALL,
                    gen_ai.operation.name = EXECUTE_TOOL,
                    gen_ai.tool.name = tool,
                    jsonrpc.request.id = Empty,
                    mcp.session.id = Empty,
                    mcp.protocol.version = Empty,
                    network.transport = Empty,
                    network.protocol.name = Empty,
                    network.protocol.version = Empty,
                    error.type = Empty,
                )
            };
        }
        with_span_name(tool, |name| match self.level {
            Level::TRACE => call_span!(Level::TRACE, name),
            Level::DEBUG => call_span!(Level::DEBUG, name),
            Level::INFO => call_span!(Level::INFO, name),
            Level::WARN => call_span!(Level::WARN, name),
            _ => call_span!(Level::ERROR, name),
        })
    }
}

impl Middleware for TraceCalls {
    async fn handle(
        &self,
        request: ToolRequest<'_>,
        next: Next<'_>,
    ) -> Result<CallOutcome, ToolError> {
        let span = self.span(request.tool().name());
        if span.is_disabled() {
            return Ok(next.run(request).await);
        }
        record_attributes(&span, &CallAttributes::of(request.scope));
        if let Some(parent) = request.trace_parent() {
            span.record("trace_id", display(Hex(&parent.trace_id)));
            span.record("parent_span_id", display(Hex(&parent.parent_id)));
            match &self.on_parent {
                Some(hook) => hook(&span, &parent),
                #[cfg(feature = "otel")]
                None => otel::set_remote_parent(&span, &parent, &request),
                #[cfg(not(feature = "otel"))]
                None => {}
            }
        }
        let mut unfinished = Unfinished {
            span: &span,
            started: Instant::now(),
            armed: true,
        };
        let outcome = next.run(request).instrument(span.clone()).await;
        unfinished.armed = false;
        span.record(
            "duration_ms",
            unfinished.started.elapsed().as_secs_f64() * 1000.0,
        );
        span.record("outcome", outcome_code(&outcome));
        if let Some(id) = outcome.correlation_id() {
            span.record("correlation_id", id);
        }
        if let Some(error) = error_type(&outcome) {
            span.record("error.type", error);
            span.record("otel.status_code", "ERROR");
        }
        Ok(outcome)
    }
}

/// The conventional attributes the transport gives, on an enabled span.
fn record_attributes(span: &Span, attributes: &CallAttributes) {
    let fields = [
        ("jsonrpc.request.id", attributes.request_id.as_deref()),
        ("mcp.session.id", attributes.session_id.as_deref()),
        (
            "mcp.protocol.version",
            attributes.protocol_version.as_deref(),
        ),
        ("network.transport", attributes.transport),
        (
            "network.protocol.name",
            attributes.protocol.map(|(name, _)| name),
        ),
        (
            "network.protocol.version",
            attributes.protocol.map(|(_, version)| version),
        ),
    ];
    for (field, value) in fields {
        if let Some(value) = value {
            span.record(field, value);
        }
    }
}

/// The client's span as the parent of the call's in OpenTelemetry, through the
/// `tracing-opentelemetry` layer the application installed.
#[cfg(feature = "otel")]
mod otel {
    use opentelemetry::trace::{
        SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState,
    };
    use tracing::Span;
    use tracing_opentelemetry::OpenTelemetrySpanExt;

    use super::{ToolRequest, TraceParent};

    pub(super) fn set_remote_parent(span: &Span, parent: &TraceParent, request: &ToolRequest<'_>) {
        // A malformed `tracestate` is dropped whole, as W3C Trace Context says a receiver
        // may; the `traceparent` still holds.
        let state = request
            .scope
            .peek_meta(|meta| {
                meta.and_then(|meta| meta.get_tracestate()?.parse::<TraceState>().ok())
            })
            .unwrap_or_default();
        let remote = SpanContext::new(
            TraceId::from_bytes(parent.trace_id()),
            SpanId::from_bytes(parent.parent_id()),
            TraceFlags::new(parent.flags()),
            true,
            state,
        );
        // Without the layer there is no OpenTelemetry span to parent: the call goes on, its
        // span still carries `trace_id` and `parent_span_id`.
        let _ = span.set_parent(opentelemetry::Context::new().with_remote_span_context(remote));
    }
}

/// Records `outcome = cancelled` on a span whose call was dropped before it ended: the client
/// cancelled it, and no result is sent.
struct Unfinished<'s> {
    span: &'s Span,
    started: Instant,
    armed: bool,
}

impl Drop for Unfinished<'_> {
    fn drop(&mut self) {
        if self.armed {
            let elapsed = self.started.elapsed().as_secs_f64() * 1000.0;
            self.span.record("duration_ms", elapsed);
            self.span.record("outcome", "cancelled");
            self.span.record("error.type", CANCELLED);
            self.span.record("otel.status_code", "ERROR");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TraceParent;

    const VALID: &str = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    #[test]
    fn a_traceparent_is_read_as_the_specification_says() {
        let parent = TraceParent::parse(VALID).expect("valid");
        assert_eq!(
            parent.trace_id(),
            [
                0x0a, 0xf7, 0x65, 0x19, 0x16, 0xcd, 0x43, 0xdd, 0x84, 0x48, 0xeb, 0x21, 0x1c, 0x80,
                0x31, 0x9c
            ]
        );
        assert_eq!(
            parent.parent_id(),
            [0xb7, 0xad, 0x6b, 0x71, 0x69, 0x20, 0x33, 0x31]
        );
        assert_eq!(parent.flags(), 1);
        assert_eq!(parent.to_string(), VALID);
        // A later version: its first four fields, then more after a dash.
        let later = "cc-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00-what-comes-next";
        assert!(!TraceParent::parse(later).expect("later version").sampled());
    }

    #[test]
    fn malformed_traceparents_are_ignored() {
        for bad in [
            "",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-",
            "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",
            "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "00-00000000000000000000000000000000-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
            "00_0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0g",
            "cc-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01x",
            "00-0af7651916cd43dd8448eb211c8031é-b7ad6b7169203331-01",
        ] {
            assert_eq!(TraceParent::parse(bad), None, "{bad}");
        }
    }
}
