//! `conformance`: the tools the official MCP conformance suite expects, written with
//! `#[mcp_tool]`, plus a few that exercise time limits and cancellation; and its resources,
//! prompts and completions, in an rmcp handler beside them (`content`).
//!
//! ```text
//! conformance --http 127.0.0.1:8080     # what the suite drives: http://127.0.0.1:8080/mcp
//! conformance                           # the same tools over stdio
//! conformance --default-timeout-ms 200  # a server-wide time limit
//! conformance --http ADDR --redis redis://127.0.0.1:6379 --request-state-key HEX
//!                                       # one of several instances: tasks in Redis
//! ```

#![allow(deprecated)] // rmcp marks sampling deprecated (SEP-2577); 2025-11-25 still has it.

mod content;
mod elicit;
mod rounds;
mod tasks;

use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use mcp_tool_examples::logging;
use mcp_tool_examples::shared::Sharing;
use mcp_tool_runtime::rmcp::model::{ContentBlock, CreateMessageRequestParams, SamplingMessage};
use mcp_tool_runtime::{
    ErrorCode, HttpOptions, McpServer, ToolContext, ToolError, error::ErrorClass, mcp_tool,
};
use schemars::JsonSchema;
use serde::Deserialize;

/// A 1×1 red PNG.
const RED_PIXEL_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A WAV file with one silent sample.
const SILENT_WAV: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQIAAAAAAA==";

/// Return a fixed text.
#[mcp_tool(read_only)]
fn test_simple_text() -> String {
    "This is a simple text response for testing.".into()
}

/// Return an image (a 1×1 red PNG).
#[mcp_tool(read_only)]
fn test_image_content() -> Vec<ContentBlock> {
    vec![ContentBlock::image(RED_PIXEL_PNG, "image/png")]
}

/// Return audio (a short silent WAV).
#[mcp_tool(read_only)]
fn test_audio_content() -> Vec<ContentBlock> {
    vec![ContentBlock::audio(SILENT_WAV, "audio/wav")]
}

fn embedded_resource() -> ContentBlock {
    ContentBlock::embedded_text(
        "test://embedded-resource",
        "This is an embedded resource content.",
    )
}

/// Return an embedded text resource.
#[mcp_tool(read_only)]
fn test_embedded_resource() -> Vec<ContentBlock> {
    vec![embedded_resource()]
}

/// Return text, an image and an embedded resource together.
#[mcp_tool(read_only)]
fn test_multiple_content_types() -> Vec<ContentBlock> {
    vec![
        ContentBlock::text("Multiple content types test:"),
        ContentBlock::image(RED_PIXEL_PNG, "image/png"),
        embedded_resource(),
    ]
}

/// Send three log messages to the client while running.
#[mcp_tool(read_only)]
async fn test_tool_with_logging(ctx: ToolContext) -> Result<String, ToolError> {
    ctx.info("Tool execution started").await?;
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.info("Tool processing data").await?;
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.info("Tool execution completed").await?;
    Ok("Tool with logging executed successfully".into())
}

const INTENTIONAL: ErrorCode = ErrorCode::custom("intentional_error", ErrorClass::Input, false);

/// Always fail, as a tool execution error.
#[mcp_tool(read_only)]
fn test_error_handling() -> Result<String, ToolError> {
    Err(ToolError::new(
        INTENTIONAL,
        "This tool intentionally returns an error for testing",
    ))
}

/// Report progress 0, 50 and 100 of 100, echoing the request's progress token.
#[mcp_tool(read_only)]
async fn test_tool_with_progress(ctx: ToolContext) -> Result<String, ToolError> {
    for step in [0.0, 50.0, 100.0] {
        ctx.progress(step, Some(100.0), None).await?;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok("Progress reported: 0, 50, 100 of 100.".into())
}

/// Ask the client's language model to answer a prompt (sampling).
///
/// # Arguments
/// * `prompt` - The prompt to send to the model.
#[mcp_tool]
async fn test_sampling(prompt: String, ctx: ToolContext) -> Result<String, ToolError> {
    let request =
        CreateMessageRequestParams::new(vec![SamplingMessage::user_text(prompt.as_str())], 100);
    let answer = ctx.sample(request).await?;
    let text = answer
        .message
        .content
        .first()
        .and_then(|block| block.as_text())
        .map(|text| text.text.clone())
        .unwrap_or_default();
    Ok(format!("LLM response: {text}"))
}

/// A postal address.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(rename = "address")]
pub struct Address {
    /// Street and number.
    pub street: String,
    /// City.
    pub city: String,
}

/// Store a name and an address; the input schema keeps JSON Schema 2020-12 as written.
///
/// # Arguments
/// * `name` - The person's name.
/// * `address` - Where they live.
#[mcp_tool(schema_profile = "full")]
fn json_schema_2020_12_tool(name: String, address: Option<Address>) -> String {
    match address {
        Some(address) => format!("{name} lives at {}, {}.", address.street, address.city),
        None => format!("{name} has no address on file."),
    }
}

/// Sleep for `millis` milliseconds, limited to 300 ms by its own time limit.
///
/// # Arguments
/// * `millis` - How long to sleep.
#[mcp_tool(read_only, timeout = "300ms")]
async fn slow_with_limit(millis: u64) -> String {
    tokio::time::sleep(Duration::from_millis(millis)).await;
    format!("slept {millis} ms")
}

/// Sleep for `millis` milliseconds, under the server's default time limit only.
///
/// # Arguments
/// * `millis` - How long to sleep.
#[mcp_tool(read_only)]
async fn sleep_ms(millis: u64) -> String {
    tokio::time::sleep(Duration::from_millis(millis)).await;
    format!("slept {millis} ms")
}

static TICKS: AtomicU64 = AtomicU64::new(0);

/// Count up every 10 ms until cancelled, reporting progress. Never finishes on its own.
#[mcp_tool(read_only)]
async fn tick_until_cancelled(ctx: ToolContext) -> Result<String, ToolError> {
    loop {
        tokio::select! {
            () = ctx.cancelled() => return Err(ToolError::cancelled()),
            () = tokio::time::sleep(Duration::from_millis(10)) => {
                let ticks = TICKS.fetch_add(1, Ordering::SeqCst) + 1;
                ctx.progress(ticks as f64, None, None).await?;
            }
        }
    }
}

/// How many ticks `tick_until_cancelled` has counted so far.
#[mcp_tool(read_only)]
fn ticks() -> String {
    TICKS.load(Ordering::SeqCst).to_string()
}

struct Args {
    http: Option<String>,
    default_timeout: Option<Duration>,
    sharing: Sharing,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        http: None,
        default_timeout: None,
        sharing: Sharing::default(),
    };
    let mut words = std::env::args().skip(1);
    while let Some(word) = words.next() {
        match word.as_str() {
            "--http" => args.http = Some(words.next().ok_or("--http needs an address")?),
            "--default-timeout-ms" => {
                let text = words.next().ok_or("--default-timeout-ms needs a value")?;
                let millis = text.parse::<u64>().map_err(|_| {
                    format!("--default-timeout-ms takes a whole number, not '{text}'")
                })?;
                args.default_timeout = Some(Duration::from_millis(millis));
            }
            other => {
                if !args.sharing.read(other, &mut words)? {
                    return Err(format!("unknown option '{other}'"));
                }
            }
        }
    }
    Ok(args)
}

#[tokio::main]
async fn main() -> ExitCode {
    logging::init_stderr();
    let code = run().await;
    // The log goes through a queue: let its last lines out before the process ends.
    logging::flush();
    code
}

async fn run() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(error) => {
            tracing::error!(%error, "usage: conformance [--http ADDR] [--default-timeout-ms N] [--redis URL] [--request-state-key HEX]");
            return ExitCode::FAILURE;
        }
    };
    let mut builder = McpServer::builder(())
        .tools([
            test_simple_text_tool(),
            test_image_content_tool(),
            test_audio_content_tool(),
            test_embedded_resource_tool(),
            test_multiple_content_types_tool(),
            test_tool_with_logging_tool(),
            test_error_handling_tool(),
            test_tool_with_progress_tool(),
            test_sampling_tool(),
            elicit::test_elicitation_tool(),
            elicit::test_elicitation_sep1034_defaults_tool(),
            elicit::test_elicitation_sep1330_enums_tool(),
            elicit::test_elicitation_url_tool(),
            rounds::test_input_required_result_elicitation_tool(),
            rounds::test_input_required_result_sampling_tool(),
            rounds::test_input_required_result_list_roots_tool(),
            rounds::test_input_required_result_request_state_tool(),
            rounds::test_input_required_result_multiple_inputs_tool(),
            rounds::test_input_required_result_multi_round_tool(),
            rounds::test_input_required_result_tampered_state_tool(),
            rounds::test_missing_capability_tool(),
            rounds::test_streaming_elicitation_tool(),
            rounds::test_logging_tool_tool(),
            rounds::test_input_required_result_capabilities_tool(),
            json_schema_2020_12_tool_tool(),
            slow_with_limit_tool(),
            sleep_ms_tool(),
            tick_until_cancelled_tool(),
            ticks_tool(),
            tasks::greet_tool(),
            tasks::slow_compute_tool(),
            tasks::failing_job_tool(),
            tasks::protocol_error_job_tool(),
            tasks::confirm_delete_tool(),
            tasks::multi_input_tool(),
            tasks::test_tool_with_task_tool(),
        ])
        .with_handler(content::Content::new())
        .implementation("conformance", env!("CARGO_PKG_VERSION"));
    if let Some(limit) = args.default_timeout {
        builder = builder.default_timeout(limit);
    }
    match args.sharing.store().await {
        Ok(Some(store)) => builder = builder.shared_store(store),
        Ok(None) => {}
        Err(error) => {
            tracing::error!(%error, "no shared store");
            return ExitCode::FAILURE;
        }
    }
    if let Some(key) = args.sharing.request_state_key.clone() {
        builder = builder.request_state_key(key);
    }
    let server = match builder.build() {
        Ok(server) => server,
        Err(error) => {
            tracing::error!(%error, "invalid tool set");
            return ExitCode::FAILURE;
        }
    };
    let served = match args.http {
        Some(addr) => match tokio::net::TcpListener::bind(&addr).await {
            Ok(listener) => {
                tracing::info!("conformance serving MCP at http://{addr}/mcp");
                server
                    .serve_http_on(listener, HttpOptions::from_env())
                    .await
            }
            Err(error) => {
                tracing::error!(%error, %addr, "cannot listen");
                return ExitCode::FAILURE;
            }
        },
        None => server.serve_stdio().await,
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "server stopped");
            ExitCode::FAILURE
        }
    }
}
