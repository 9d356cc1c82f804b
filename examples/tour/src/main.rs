//! `tour`: starts the `inventory` server as a child process, speaks MCP to it over stdio
//! through rmcp's client, and prints what a language model would see.
//!
//! ```text
//! cargo run -q -p mcp-tool-tour
//! ```

use std::error::Error;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock, JsonObject};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;

type Client = RunningService<RoleClient, ()>;

/// The `inventory` binary beside this one, built first if it is not there yet.
fn inventory_binary() -> Result<PathBuf, Box<dyn Error>> {
    let path = std::env::current_exe()?.with_file_name("inventory");
    if !path.exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = std::process::Command::new(cargo)
            .args([
                "build",
                "-q",
                "-p",
                "mcp-tool-examples",
                "--bin",
                "inventory",
            ])
            .status()?;
        if !status.success() || !path.exists() {
            return Err(format!("could not build {}", path.display()).into());
        }
    }
    Ok(path)
}

fn section(title: &str) {
    println!("\n== {title} ==");
}

fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::Text(text) => Some(text.text.clone()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|line| format!("   {line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Calls a tool and prints the call and everything the model receives.
async fn show_call(
    client: &Client,
    tool: &str,
    arguments: Value,
) -> Result<Option<CallToolResult>, Box<dyn Error>> {
    println!("-> {tool} {arguments}");
    let arguments: JsonObject = match arguments {
        Value::Object(object) => object,
        _ => JsonObject::new(),
    };
    let request = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
    match client.call_tool(request).await {
        Ok(result) => {
            let is_error = result.is_error.unwrap_or(false);
            println!("<- isError: {is_error}");
            println!("   text:\n{}", indent(&text(&result)));
            if let Some(structured) = &result.structured_content {
                println!("   structuredContent: {structured}");
            }
            if let Some(envelope) = result
                .meta
                .as_ref()
                .and_then(|meta| meta.0.get(mcp_tool_runtime::error::META_KEY))
            {
                println!(
                    "   _meta[\"{}\"]:\n{}",
                    mcp_tool_runtime::error::META_KEY,
                    indent(&serde_json::to_string_pretty(envelope)?)
                );
            }
            Ok(Some(result))
        }
        Err(ServiceError::McpError(error)) => {
            println!("<- JSON-RPC error {}: {}", error.code.0, error.message);
            Ok(None)
        }
        Err(other) => Err(other.into()),
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let binary = inventory_binary()?;
    let (transport, stderr) = TokioChildProcess::builder(Command::new(&binary))
        .stderr(Stdio::piped())
        .spawn()?;
    // Keep the server's log to show where a masked error's details went.
    let log = Arc::new(Mutex::new(Vec::<String>::new()));
    if let Some(stderr) = stderr {
        let log = Arc::clone(&log);
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                if let Ok(mut log) = log.lock() {
                    log.push(line);
                }
            }
        });
    }
    let client = ().serve(transport).await?;
    println!(
        "mcp-tool tour: `inventory` runs as a child process; this client speaks MCP to it over stdio."
    );
    println!("Everything below is what a language model would see.");

    section("tools/list");
    for tool in client.list_all_tools().await? {
        println!(
            "{}: {}",
            tool.name,
            tool.description.as_deref().unwrap_or_default()
        );
        println!(
            "   inputSchema: {}",
            Value::Object((*tool.input_schema).clone())
        );
    }

    section("1. A valid call returns structured content and a text copy");
    show_call(
        &client,
        "add_item",
        json!({"sku": "ABC-0001", "quantity": 2}),
    )
    .await?;

    section("2. A wrong type, a typo and a value out of range: every problem at once");
    show_call(
        &client,
        "add_item",
        json!({"sku": "abc-1", "quantity": "five", "quantiy": 3, "note": "gift"}),
    )
    .await?;
    show_call(
        &client,
        "add_item",
        json!({"sku": "ABC-0001", "quantity": 500}),
    )
    .await?;

    section("3. Business errors carry a stable code and a hint");
    show_call(
        &client,
        "add_item",
        json!({"sku": "ZZZ-9999", "quantity": 1}),
    )
    .await?;

    section("4. Enums list the allowed values and suggest the closest");
    show_call(
        &client,
        "search_items",
        json!({"query": "tea", "sort": "ascending"}),
    )
    .await?;
    show_call(
        &client,
        "search_items",
        json!({"query": "tea", "sort": "desc"}),
    )
    .await?;

    section("5. The sixth reserve_stock call in a minute is rate limited");
    for _ in 0..5 {
        let request = CallToolRequestParams::new("reserve_stock").with_arguments(
            json!({"sku": "ABC-0003", "quantity": 1})
                .as_object()
                .cloned()
                .unwrap_or_default(),
        );
        client.call_tool(request).await?;
    }
    println!("(five reservations made)");
    show_call(
        &client,
        "reserve_stock",
        json!({"sku": "ABC-0003", "quantity": 1}),
    )
    .await?;

    section("6. An internal error is masked; the server log has the details");
    if let Some(result) = show_call(&client, "legacy_report", json!({"year": 2024})).await? {
        let id = result
            .meta
            .as_ref()
            .and_then(|meta| meta.0.get(mcp_tool_runtime::error::META_KEY))
            .and_then(|envelope| envelope.get("correlationId"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        tokio::time::sleep(Duration::from_millis(100)).await;
        let logged = log
            .lock()
            .map(|log| log.iter().find(|line| line.contains(&id)).cloned())
            .unwrap_or_default();
        if let Some(line) = logged {
            println!("   server log (stderr): {line}");
        }
    }

    section("7. An unknown tool is a JSON-RPC error, not a tool result");
    show_call(&client, "add_iten", json!({})).await?;

    client.cancel().await?;
    println!("\nDone. Run the tests with: cargo test --workspace");
    Ok(())
}
