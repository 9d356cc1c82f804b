//! `mcp.server.operation.duration`, the server metric of the OpenTelemetry conventions for
//! MCP, recorded through the `opentelemetry` API (feature `otel`).

use std::borrow::Cow;
use std::fmt;
use std::time::Instant;

use opentelemetry::metrics::{Histogram, Meter, MeterProvider};
use opentelemetry::{InstrumentationScope, KeyValue};

use super::semconv::{
    CANCELLED, CallAttributes, EXECUTE_TOOL, SCHEMA_URL, TOOLS_CALL, error_type, outcome_code,
};
use super::{Middleware, Next, ToolRequest};
use crate::dispatch::CallOutcome;
use crate::error::ToolError;

/// The histogram's name.
const OPERATION_DURATION: &str = "mcp.server.operation.duration";

/// The bucket boundaries, in seconds, the conventions advise for it.
const BOUNDARIES: [f64; 14] = [
    0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];

/// Middleware (feature `otel`): each call's duration in the histogram
/// `mcp.server.operation.duration` (unit `s`), named and attributed as the OpenTelemetry
/// semantic conventions for MCP prescribe (registry 1.42.0, status Development). Its count
/// per `error.type` is the number of calls by outcome.
///
/// | attribute | value |
/// | --- | --- |
/// | `mcp.method.name` | `tools/call` |
/// | `gen_ai.operation.name` | `execute_tool` |
/// | `gen_ai.tool.name` | the tool's name |
/// | `error.type` | only for a failure: `tool_error` for a result with `isError: true` (the conventions' value), `cancelled` when the client cancelled the call |
/// | `mcp_tool.error.code` | only for a failure: this crate's error code (`invalid_arguments`, `timeout`, `forbidden`…, `error` for an `isError` result the tool built itself, `cancelled`), a handful of values |
/// | `mcp.protocol.version` | the protocol revision the client speaks |
/// | `network.transport` | `tcp` over HTTP, `pipe` over stdio |
/// | `network.protocol.name`, `network.protocol.version` | `http` and `1.1` or `2`, over HTTP |
///
/// Register it first, as [`TraceCalls`](super::TraceCalls), so that it also times what later
/// middleware refuses. The meter comes from the global provider when the middleware is
/// built ([`CallMetrics::new`]: set the provider first), or from the provider you give
/// ([`CallMetrics::with_provider`]); either way under the instrumentation scope
/// `mcp-tool-runtime`. The application's `opentelemetry_sdk` pipeline aggregates and
/// exports.
///
/// ```
/// use mcp_tool_runtime::{McpServer, mcp_tool, middleware::{CallMetrics, TraceCalls}};
///
/// /// Say hello.
/// #[mcp_tool]
/// fn hello() -> String { "hello".into() }
///
/// let server = McpServer::builder(())
///     .tool(hello_tool())
///     .middleware(CallMetrics::new())
///     .middleware(TraceCalls::new())
///     .build()?;
/// # Ok::<(), mcp_tool_runtime::registry::RegistryError>(())
/// ```
pub struct CallMetrics {
    duration: Histogram<f64>,
}

impl fmt::Debug for CallMetrics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallMetrics").finish_non_exhaustive()
    }
}

impl Default for CallMetrics {
    fn default() -> Self {
        Self::new()
    }
}

impl CallMetrics {
    /// Records through the global meter provider, as it is now
    /// (`opentelemetry::global::set_meter_provider`).
    pub fn new() -> Self {
        Self::with_meter(&opentelemetry::global::meter_with_scope(Self::scope()))
    }

    /// Records through `provider`.
    pub fn with_provider(provider: &impl MeterProvider) -> Self {
        Self::with_meter(&provider.meter_with_scope(Self::scope()))
    }

    /// The instrumentation scope: this crate, its version and the conventions' schema.
    fn scope() -> InstrumentationScope {
        InstrumentationScope::builder("mcp-tool-runtime")
            .with_version(env!("CARGO_PKG_VERSION"))
            .with_schema_url(SCHEMA_URL)
            .build()
    }

    fn with_meter(meter: &Meter) -> Self {
        let duration = meter
            .f64_histogram(OPERATION_DURATION)
            .with_unit("s")
            .with_description(
                "MCP request or notification duration as observed on the receiver from the \
                 time it was received until the result or ack is sent.",
            )
            .with_boundaries(BOUNDARIES.to_vec())
            .build();
        Self { duration }
    }
}

impl Middleware for CallMetrics {
    async fn handle(
        &self,
        request: ToolRequest<'_>,
        next: Next<'_>,
    ) -> Result<CallOutcome, ToolError> {
        let mut pending = Pending {
            duration: &self.duration,
            started: Instant::now(),
            attributes: attributes(request),
            recorded: false,
        };
        let outcome = next.run(request).await;
        if let Some(error) = error_type(&outcome) {
            let code = outcome_code(&outcome).to_string();
            pending.fail(error, code.into());
        }
        pending.record();
        Ok(outcome)
    }
}

/// The attributes every measurement of the call carries.
fn attributes(request: ToolRequest<'_>) -> Vec<KeyValue> {
    let known = CallAttributes::of(request.scope);
    let mut attributes = Vec::with_capacity(9);
    attributes.extend([
        KeyValue::new("mcp.method.name", TOOLS_CALL),
        KeyValue::new("gen_ai.operation.name", EXECUTE_TOOL),
        KeyValue::new("gen_ai.tool.name", request.tool().name().to_string()),
    ]);
    if let Some(version) = known.protocol_version {
        attributes.push(KeyValue::new("mcp.protocol.version", version));
    }
    if let Some(transport) = known.transport {
        attributes.push(KeyValue::new("network.transport", transport));
    }
    if let Some((name, version)) = known.protocol {
        attributes.push(KeyValue::new("network.protocol.name", name));
        attributes.push(KeyValue::new("network.protocol.version", version));
    }
    attributes
}

/// A call being timed. Dropped before [`Pending::record`], the client cancelled it: it is
/// recorded then, as `cancelled`.
struct Pending<'m> {
    duration: &'m Histogram<f64>,
    started: Instant,
    attributes: Vec<KeyValue>,
    recorded: bool,
}

impl Pending<'_> {
    fn fail(&mut self, error: &'static str, code: Cow<'static, str>) {
        self.attributes.push(KeyValue::new("error.type", error));
        self.attributes
            .push(KeyValue::new("mcp_tool.error.code", code));
    }

    fn record(mut self) {
        self.measure();
        self.recorded = true;
    }

    fn measure(&mut self) {
        let seconds = self.started.elapsed().as_secs_f64();
        self.duration.record(seconds, &self.attributes);
    }
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        if !self.recorded {
            self.fail(CANCELLED, Cow::Borrowed(CANCELLED));
            self.measure();
        }
    }
}
