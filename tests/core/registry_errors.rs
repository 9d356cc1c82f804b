//! Registry errors: duplicate tool names fail `build()`.

use mcp_tool_runtime::{McpServer, mcp_tool, registry::RegistryError};

use crate::fixtures::Counter;

/// The first tool named `a`.
#[mcp_tool]
fn a() -> &'static str {
    "a"
}

/// A second tool that claims the name `a`.
#[mcp_tool(name = "a")]
fn a2() -> &'static str {
    "a2"
}

#[test]
fn duplicate_free_tool_names_are_rejected() {
    let error = McpServer::builder(())
        .tool(a_tool())
        .tool(a2_tool())
        .build()
        .unwrap_err();
    assert_eq!(
        error,
        RegistryError::DuplicateTool {
            name: "a".to_string(),
            defined_at: [
                Some("core::registry_errors::a"),
                Some("core::registry_errors::a2")
            ],
        }
    );
    assert_eq!(
        error.to_string(),
        "two tools are named 'a' (`core::registry_errors::a` and `core::registry_errors::a2`): tool names must be unique within a server (rename one with #[mcp_tool(name = \"...\")])"
    );
}

#[test]
fn registering_the_same_tool_twice_is_rejected() {
    let error = McpServer::builder(Counter::default())
        .tool_set()
        .tool_set()
        .build()
        .unwrap_err();
    assert_eq!(
        error,
        RegistryError::DuplicateTool {
            name: "get".to_string(),
            defined_at: [Some("core::fixtures::get"), Some("core::fixtures::get")],
        }
    );
    assert!(
        error
            .to_string()
            .starts_with("two tools are named 'get' (`core::fixtures::get` was added twice, e.g. by calling `.tool_set()` twice)"),
        "{error}"
    );
}

#[test]
fn a_server_without_tools_is_refused() {
    let error = McpServer::builder(Counter::default()).build().unwrap_err();
    assert_eq!(error, RegistryError::NoTools);
    assert_eq!(
        error.to_string(),
        "the server has no tools: add them before .build() with .tool(my_function_tool()), .tools(..), or .tool_set() for the methods of an #[mcp_tools] block"
    );
}
