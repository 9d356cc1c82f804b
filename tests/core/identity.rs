//! The server's identity, as `initialize` reports it.

use mcp_tool_runtime::rmcp::ServerHandler;
use mcp_tool_runtime::{McpServer, ToolDef, ToolInfo};

use crate::fixtures::hello_tool;

#[test]
fn a_server_without_an_implementation_is_named_after_its_tools_crate() {
    let server = McpServer::builder(())
        .tool(hello_tool())
        .build()
        .expect("server");
    let info = server.get_info().server_info;
    assert_eq!(info.name, "mcp-tool-tests");
    assert_eq!(info.version, env!("CARGO_PKG_VERSION"));
}

#[test]
fn an_implementation_given_wins() {
    let server = McpServer::builder(())
        .tool(hello_tool())
        .implementation("shop", "2.1.0")
        .build()
        .expect("server");
    let info = server.get_info().server_info;
    assert_eq!(
        (info.name.as_str(), info.version.as_str()),
        ("shop", "2.1.0")
    );
}

#[test]
fn tools_built_by_hand_leave_the_runtime_s_name() {
    let info =
        ToolInfo::builder::<serde_json::Map<String, serde_json::Value>, String>("raw", "Raw.")
            .build();
    let tool: ToolDef<()> = ToolDef::from_info(info, |_, _| async { "ok".to_string() });
    let server = McpServer::builder(()).tool(tool).build().expect("server");
    assert_eq!(server.get_info().server_info.name, "mcp-tool-server");
}
