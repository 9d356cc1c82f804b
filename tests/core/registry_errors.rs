//! Registry errors: duplicate tool names fail `build()`; so does a name MCP does not allow,
//! wherever a tool built at run time enters, with the message `#[mcp_tool]` gives at compile
//! time.

use std::error::Error;

use mcp_tool_runtime::{
    McpServer, ToolDef, ToolError, ToolInfo, mcp_tool, registry::RegistryError, tool::ToolNameError,
};
use serde_json::{Value, json};

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

/// The message of each error of a compile-fail UI case, as trybuild checks the macro gives it.
fn compile_errors(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter_map(|line| line.strip_prefix("error: "))
        .collect()
}

/// The names the UI cases `name_invalid_chars` and `name_length` give `#[mcp_tool]`, and the
/// errors it reports for them.
fn names_refused_at_compile_time() -> Vec<(String, String)> {
    let invalid = compile_errors(include_str!("../ui/name_invalid_chars.stderr"));
    let length = compile_errors(include_str!("../ui/name_length.stderr"));
    let long = "report_the_uptime_of_the_server_in_seconds_since_it_was_started_including_the_time_spent_waiting_for_the_first_client_to_connect_to_it";
    let names = ["add item!", "", long];
    let messages = [invalid.as_slice(), length.as_slice()].concat();
    assert_eq!(messages.len(), names.len(), "{messages:?}");
    names
        .iter()
        .map(|name| name.to_string())
        .zip(messages.into_iter().map(str::to_string))
        .collect()
}

/// A tool named `name`, made as a typed tool's definition is, which checks nothing.
fn typed_tool(name: String) -> ToolDef<()> {
    let info = ToolInfo::builder::<(), String>(name.leak(), "Do it.").build();
    ToolDef::from_info(info, |_arguments: Value, _ctx| async {
        Ok::<_, ToolError>(String::from("done"))
    })
}

#[test]
fn a_run_time_name_is_refused_by_from_schema_as_the_macro_refuses_it() {
    for (name, message) in names_refused_at_compile_time() {
        let schema = json!({"type": "object"});
        let refused = ToolDef::<()>::from_schema(name.clone(), "Do it.", schema, |_, _| async {
            Ok::<_, ToolError>(String::from("done"))
        })
        .unwrap_err();
        assert_eq!(refused.to_string(), message);
        assert_eq!(refused.tool(), name);
        let source = refused
            .source()
            .and_then(|s| s.downcast_ref::<ToolNameError>());
        assert_eq!(source.map(ToolNameError::name), Some(name.as_str()));
    }
}

#[test]
fn a_run_time_name_is_refused_by_build_as_the_macro_refuses_it() {
    for (name, message) in names_refused_at_compile_time() {
        let error = McpServer::builder(())
            .tool(a_tool())
            .tool(typed_tool(name.clone()))
            .build()
            .unwrap_err();
        assert_eq!(error.to_string(), message);
        assert!(
            matches!(&error, RegistryError::InvalidName(refused) if refused.name() == name),
            "{error:?}"
        );
    }
}

#[test]
fn a_run_time_name_is_refused_by_live_tools_add_as_the_macro_refuses_it() {
    let server = McpServer::builder(()).tool(a_tool()).build().unwrap();
    for (name, message) in names_refused_at_compile_time() {
        let error = server.tools().add(typed_tool(name.clone())).unwrap_err();
        assert_eq!(error.to_string(), message);
        assert!(
            matches!(&error, RegistryError::InvalidName(refused) if refused.name() == name),
            "{error:?}"
        );
    }
    assert_eq!(server.registry().list().len(), 1);
}
