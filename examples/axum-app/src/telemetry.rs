//! OpenTelemetry over OTLP (HTTP/protobuf) when `OTEL_EXPORTER_OTLP_ENDPOINT` is set: the
//! calls' spans (through `tracing` and `tracing-opentelemetry`) and
//! `mcp.server.operation.duration` (through `CallMetrics`). The standard `OTEL_*` variables
//! apply: `OTEL_SERVICE_NAME`, `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_BSP_SCHEDULE_DELAY`,
//! `OTEL_METRIC_EXPORT_INTERVAL`…

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_http::hyper::HyperClient;
use opentelemetry_http::{Bytes, HttpClient, HttpError, Request, Response};
use opentelemetry_otlp::{MetricExporter, SpanExporter, WithHttpConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_subscriber::layer::SubscriberExt;

/// The pipeline, to flush and stop when the app stops.
pub struct Telemetry {
    tracer: SdkTracerProvider,
    meter: SdkMeterProvider,
}

impl Telemetry {
    /// Sets the pipeline up when `OTEL_EXPORTER_OTLP_ENDPOINT` is set: a `tracing`
    /// subscriber with the OpenTelemetry layer, and the global meter provider (set before
    /// the server's `CallMetrics` is built). `None` otherwise: nothing is installed.
    pub fn from_env() -> Result<Option<Self>, Box<dyn std::error::Error>> {
        if std::env::var_os("OTEL_EXPORTER_OTLP_ENDPOINT").is_none() {
            return Ok(None);
        }
        let client = OnRuntime {
            client: HyperClient::with_default_connector(Duration::from_secs(10), None),
            runtime: tokio::runtime::Handle::current(),
        };
        let resource = Resource::builder()
            .with_service_name("mcp-tool-example-axum")
            .build();
        let spans = SpanExporter::builder()
            .with_http()
            .with_http_client(client.clone())
            .build()?;
        let tracer = SdkTracerProvider::builder()
            .with_batch_exporter(spans)
            .with_resource(resource.clone())
            .build();
        let metrics = MetricExporter::builder()
            .with_http()
            .with_http_client(client)
            .build()?;
        let meter = SdkMeterProvider::builder()
            .with_periodic_exporter(metrics)
            .with_resource(resource)
            .build();
        opentelemetry::global::set_meter_provider(meter.clone());
        let layer =
            tracing_opentelemetry::layer().with_tracer(tracer.tracer("mcp-tool-example-axum"));
        tracing::subscriber::set_global_default(tracing_subscriber::registry().with(layer))?;
        Ok(Some(Self { tracer, meter }))
    }

    /// Exports what is left, off the async threads: the SDK's exporters block until done.
    pub async fn shutdown(self) {
        let _ = tokio::task::spawn_blocking(move || {
            let _ = self.tracer.shutdown();
            let _ = self.meter.shutdown();
        })
        .await;
    }
}

/// hyper's client (already in the app's build, no second HTTP stack) run on the app's tokio
/// runtime: the SDK exports from threads of its own, outside any runtime, where hyper alone
/// would find no reactor.
#[derive(Clone)]
struct OnRuntime {
    client: HyperClient,
    runtime: tokio::runtime::Handle,
}

impl fmt::Debug for OnRuntime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OnRuntime").finish_non_exhaustive()
    }
}

type Sent<'a> = Pin<Box<dyn Future<Output = Result<Response<Bytes>, HttpError>> + Send + 'a>>;

impl HttpClient for OnRuntime {
    // The trait is declared with `#[async_trait]`: this is the signature it expands to.
    fn send_bytes<'life0, 'async_trait>(&'life0 self, request: Request<Bytes>) -> Sent<'async_trait>
    where
        'life0: 'async_trait,
        Self: 'async_trait,
    {
        let client = self.client.clone();
        let sent = self
            .runtime
            .spawn(async move { client.send_bytes(request).await });
        Box::pin(async move { sent.await? })
    }
}
