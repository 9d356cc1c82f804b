//! Every corpus schema, under every profile, is accepted by Ajv (2020-12, strict) and by
//! python-jsonschema's `Draft202012Validator.check_schema`.

use mcp_tool_corpus::server;
use mcp_tool_runtime::SchemaProfile;
use mcp_tool_test_support::clients;
use serde_json::{Value, json};

/// Every published input and output schema, as `[{id, profile, schema}]`.
fn entries() -> Vec<Value> {
    let mut out = Vec::new();
    for profile in SchemaProfile::ALL {
        for tool in server(profile).registry().list() {
            let tool = serde_json::to_value(tool).unwrap();
            for key in ["inputSchema", "outputSchema"] {
                if let Some(schema) = tool.get(key) {
                    out.push(json!({
                        "id": format!("{profile}/{}/{key}", tool["name"].as_str().unwrap()),
                        "profile": profile.name(),
                        "schema": schema,
                    }));
                }
            }
        }
    }
    out
}

fn run(mut command: std::process::Command) -> Value {
    let output = command.output().expect("run the checker");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("the checker prints JSON")
}

/// The schemas a checker reads, in a file of the temp dir that goes with this value.
struct EntriesFile {
    path: std::path::PathBuf,
    count: usize,
}

impl Drop for EntriesFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

fn write_entries(name: &str) -> EntriesFile {
    let entries = entries();
    let path = std::env::temp_dir().join(format!("{name}-{}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_vec(&entries).unwrap()).unwrap();
    EntriesFile {
        path,
        count: entries.len(),
    }
}

fn check_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("check")
}

#[test]
fn ajv_2020_compiles_every_schema() {
    let clients = clients::clients();
    let entries = write_entries("corpus-ajv");
    let count = entries.count;
    let mut command = clients.command(&clients.node);
    command.arg(check_dir().join("ajv.cjs")).arg(&entries.path);
    let report = run(command);
    assert_eq!(report["checked"], count);
    assert!(count >= 4 * 80, "{count}");
    assert_eq!(report["failures"], json!([]), "{report:#}");
    eprintln!("Ajv 2020 checked {count} schemas");
}

#[test]
fn python_jsonschema_accepts_every_schema() {
    let clients = clients::clients();
    let entries = write_entries("corpus-jsonschema");
    let count = entries.count;
    let mut command = clients.command(&clients.python);
    command
        .arg(check_dir().join("jsonschema_check.py"))
        .arg(&entries.path);
    let report = run(command);
    assert_eq!(report["checked"], count);
    assert_eq!(report["failures"], json!([]), "{report:#}");
    eprintln!("python-jsonschema checked {count} schemas");
}
