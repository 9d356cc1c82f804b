//! What a model reads, in tokens: the input schemas of the `inventory` example against the
//! same six tools written with the official Python SDK (`bench/python/inventory_server.py`),
//! and the error answers of a few bad calls. Tokens are o200k_base, counted by
//! `gpt-tokenizer` (installed by `.ci/setup-clients` into `.ci/.deps`).

use std::process::Command;

use serde_json::{Value, json};

use crate::process::{Session, release_dir, workspace_root};

/// Keys left out on both sides: prose and examples are the author's, not the framework's.
const PROSE_KEYS: &[&str] = &["description", "title", "examples"];

/// `value` without [`PROSE_KEYS`], at every depth.
fn without_prose(value: &Value) -> Value {
    match value {
        Value::Object(object) => Value::Object(
            object
                .iter()
                .filter(|(key, _)| !PROSE_KEYS.contains(&key.as_str()))
                .map(|(key, child)| (key.clone(), without_prose(child)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_prose).collect()),
        other => other.clone(),
    }
}

/// The input schemas a server publishes, by tool name, without prose, as compact JSON.
pub fn input_schemas(session: &mut Session) -> Vec<(String, String)> {
    let listed = session.request("tools/list", json!({}));
    let mut schemas: Vec<(String, String)> = listed["tools"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|tool| {
            let name = tool["name"].as_str().unwrap_or_default().to_string();
            (name, without_prose(&tool["inputSchema"]).to_string())
        })
        .collect();
    schemas.sort();
    schemas
}

/// The inventory example, started from the release build.
pub fn ours() -> Session {
    Session::start(&release_dir().join("inventory"))
}

/// The same tools served by the official Python SDK.
pub fn python() -> Session {
    let root = workspace_root();
    let mut command = Command::new(root.join(".ci/.deps/venv/bin/python"));
    command.arg(root.join("bench/python/inventory_server.py"));
    Session::start_command(command)
}

/// The o200k_base token count of each text (`bench/tokens/count.cjs`, as the tests count).
pub fn count(texts: &[String]) -> Vec<usize> {
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    mcp_tool_test_support::clients::tokens(&texts)
}

/// Bad calls a model makes, as `(tool, arguments)`, for the error-answer figures.
pub fn bad_calls() -> Vec<(&'static str, Value)> {
    vec![
        (
            "add_item",
            json!({"sku": "abc", "quantity": "five", "quantiy": 3}),
        ),
        ("get_user", json!({"user_id": 0})),
        ("search_items", json!({"q": "widget"})),
    ]
}
