//! Schema profiles: the server-wide setting, the per-tool override, and what each profile
//! publishes.

use mcp_tool_runtime::{McpServer, SchemaProfile, mcp_tool};
use serde_json::Value;

/// A postal address.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Address {
    street: String,
    city: String,
}

/// Register an address.
#[mcp_tool(schema_profile = "full")]
fn register(address: Address, note: Option<String>) -> String {
    format!("{} {} {note:?}", address.street, address.city)
}

/// Register an address, shown as the server says.
#[mcp_tool]
fn register_plain(address: Address) -> String {
    format!("{} {}", address.street, address.city)
}

fn input_schema<S: Send + Sync + 'static>(server: &McpServer<S>, name: &str) -> Value {
    let registry = server.registry();
    let tool = registry.published(name).expect("tool exists");
    serde_json::to_value(&*tool.input_schema).unwrap()
}

#[test]
fn a_tool_profile_wins_over_the_server_profile() {
    let server = McpServer::builder(())
        .tool(register_tool())
        .tool(register_plain_tool())
        .build()
        .unwrap();
    let full = input_schema(&server, "register");
    assert_eq!(
        full["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(full["properties"]["address"]["$ref"], "#/$defs/Address");
    assert_eq!(full["additionalProperties"], false);
    let portable = input_schema(&server, "register_plain");
    assert!(portable.get("$schema").is_none());
    assert_eq!(portable["properties"]["address"]["type"], "object");
}

#[test]
fn profile_names_parse() {
    for profile in SchemaProfile::ALL {
        assert_eq!(profile.name().parse::<SchemaProfile>(), Ok(profile));
    }
    let error = "draft7".parse::<SchemaProfile>().unwrap_err().to_string();
    assert!(error.contains("portable"), "{error}");
}
