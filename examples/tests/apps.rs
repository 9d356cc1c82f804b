//! MCP Apps (SEP-1865) on the inventory's cart: what a host that declared the extension
//! sees and what a client that did not sees, on both protocol revisions; the views beside a
//! handler's own resources; the views and tools `build()` refuses; and the wire shapes
//! checked against the schema `@modelcontextprotocol/ext-apps` publishes.

use mcp_tool_examples::inventory::{CART_VIEW, Inventory, cart_view};
use mcp_tool_runtime::apps::{EXTENSION_ID, MIME_TYPE, Permission, UiResource, UiVisibility};
use mcp_tool_runtime::registry::RegistryError;
use mcp_tool_runtime::rmcp::ServerHandler;
use mcp_tool_runtime::rmcp::model::{ProtocolVersion, ResourceContents, Tool};
use mcp_tool_runtime::testing::TestClient;
use mcp_tool_runtime::{McpServer, ToolDef, ToolInfo};
use mcp_tool_test_support::clients::node_report;
use serde_json::{Value, json};

fn server() -> McpServer<Inventory> {
    server_with(cart_view())
}

/// The inventory with its cart tools and `view` as the cart view.
fn server_with(view: UiResource) -> McpServer<Inventory> {
    let inventory = Inventory::open().expect("an in-memory inventory");
    McpServer::builder(inventory)
        .tool_set()
        .tools(Inventory::cart_app())
        .ui_resource(view)
        .build()
        .expect("the cart view is registered")
}

async fn host(server: &McpServer<Inventory>, revision: ProtocolVersion) -> TestClient {
    TestClient::builder()
        .revision(revision)
        .extension(EXTENSION_ID, json!({"mimeTypes": [MIME_TYPE]}))
        .connect(server)
        .await
        .expect("connect")
}

async fn plain(server: &McpServer<Inventory>, revision: ProtocolVersion) -> TestClient {
    TestClient::builder()
        .revision(revision)
        .connect(server)
        .await
        .expect("connect")
}

fn revisions() -> [ProtocolVersion; 2] {
    [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28]
}

fn meta_ui<'t>(tools: &'t [Tool], name: &str) -> Option<&'t Value> {
    let tool = tools.iter().find(|tool| tool.name == name)?;
    tool.meta.as_ref()?.0.get("ui")
}

#[tokio::test]
async fn a_host_sees_the_view_and_the_app_only_tool() {
    let server = server();
    for revision in revisions() {
        let client = host(&server, revision.clone()).await;
        let tools = client.list_tools().await.expect("tools/list");
        assert_eq!(
            meta_ui(&tools, "show_cart"),
            Some(&json!({"resourceUri": CART_VIEW})),
            "{revision:?}"
        );
        assert_eq!(
            meta_ui(&tools, "remove_cart_line"),
            Some(&json!({"resourceUri": CART_VIEW, "visibility": ["app"]})),
            "{revision:?}"
        );
        // Tools without a view keep no `_meta` at all.
        let add_item = tools.iter().find(|tool| tool.name == "add_item");
        assert!(add_item.is_some_and(|tool| tool.meta.is_none()));
    }
}

#[tokio::test]
async fn a_client_without_the_extension_sees_no_view_and_cannot_call_the_app_only_tool() {
    let server = server();
    for revision in revisions() {
        let client = plain(&server, revision.clone()).await;
        let tools = client.list_tools().await.expect("tools/list");
        let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
        assert!(names.contains(&"show_cart"), "{names:?}");
        assert!(
            !names.contains(&"remove_cart_line"),
            "{revision:?}: {names:?}"
        );
        assert!(tools.iter().all(|tool| tool.meta.is_none()), "{revision:?}");
        let refused = client
            .call("remove_cart_line", json!({"line": 1}))
            .await
            .expect_err("an app-only tool is unknown to a client without the extension");
        let text = refused.to_string();
        assert!(text.contains("Unknown tool 'remove_cart_line'"), "{text}");
        assert!(
            !text.contains("Available tools: remove_cart_line"),
            "{text}"
        );
        // The text-only fallback: the cart as a structured result anyway.
        let cart = client
            .call("show_cart", json!({}))
            .await
            .expect("show_cart");
        assert!(!cart.is_error(), "{}", cart.text());
    }
}

#[tokio::test]
async fn the_view_removes_a_line_through_the_app_only_tool_with_its_validation() {
    let server = server();
    for revision in revisions() {
        let client = host(&server, revision.clone()).await;
        for sku in ["ABC-0001", "DEF-0100"] {
            let added = client
                .call("add_item", json!({"sku": sku, "quantity": 2}))
                .await
                .expect("add_item");
            assert!(!added.is_error(), "{}", added.text());
        }
        let cart = client
            .call("show_cart", json!({}))
            .await
            .expect("show_cart");
        let lines = cart.result.structured_content.clone().expect("a cart");
        let first = lines["lines"][0]["line"].as_i64().expect("a line number");
        let count = lines["lines"].as_array().map_or(0, Vec::len);
        let removed = client
            .call("remove_cart_line", json!({"line": first}))
            .await
            .expect("remove_cart_line");
        let after = removed.result.structured_content.clone().expect("a cart");
        assert_eq!(after["lines"].as_array().map_or(0, Vec::len), count - 1);
        let invalid = client
            .call("remove_cart_line", json!({"line": 0}))
            .await
            .expect("a tool error");
        assert!(invalid.is_error(), "{revision:?}");
        assert!(
            invalid.text().contains("Argument 'line'"),
            "{}",
            invalid.text()
        );
        let gone = client
            .call("remove_cart_line", json!({"line": first}))
            .await
            .expect("a tool error");
        assert!(
            gone.text()
                .contains(&format!("The cart has no line {first}."))
        );
    }
}

#[tokio::test]
async fn the_view_is_listed_and_read_with_its_mime_type_and_meta() {
    let view = cart_view()
        .connect_domains(["https://api.example.com"])
        .resource_domains(["https://cdn.example.com"])
        .permission(Permission::ClipboardWrite)
        .domain("cart.example.com");
    let server = server_with(view);
    let ui = json!({
        "csp": {
            "connectDomains": ["https://api.example.com"],
            "resourceDomains": ["https://cdn.example.com"],
        },
        "permissions": {"clipboardWrite": {}},
        "domain": "cart.example.com",
        "prefersBorder": true,
    });
    for revision in revisions() {
        let client = host(&server, revision.clone()).await;
        let listed = client.list_resources().await.expect("resources/list");
        let entry = serde_json::to_value(&listed).expect("json");
        assert_eq!(entry[0]["uri"], CART_VIEW);
        assert_eq!(entry[0]["mimeType"], MIME_TYPE);
        assert_eq!(entry[0]["_meta"]["ui"], ui, "{revision:?}");
        let read = client
            .read_resource(CART_VIEW)
            .await
            .expect("resources/read");
        let contents = serde_json::to_value(&read.contents).expect("json");
        assert_eq!(contents[0]["mimeType"], MIME_TYPE);
        assert_eq!(contents[0]["_meta"]["ui"], ui);
        let html = contents[0]["text"].as_str().unwrap_or_default();
        assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
        assert!(html.contains("remove_cart_line"));
        let missing = client.read_resource("ui://inventory/none").await;
        assert!(missing.is_err(), "{missing:?}");
    }
}

#[test]
fn the_server_advertises_the_extension_and_resources() {
    let info = server().get_info();
    let capabilities = serde_json::to_value(&info.capabilities).expect("json");
    assert_eq!(
        capabilities["extensions"][EXTENSION_ID],
        json!({"mimeTypes": [MIME_TYPE]})
    );
    assert!(capabilities["resources"].is_object(), "{capabilities}");
}

/// `docs://readme`, a handler's own resource beside the views.
struct Docs;

impl ServerHandler for Docs {
    fn get_info(&self) -> mcp_tool_runtime::rmcp::model::ServerConfig {
        use mcp_tool_runtime::rmcp::model::{ServerCapabilities, ServerConfig};
        ServerConfig::new(ServerCapabilities::builder().enable_resources().build())
    }

    async fn list_resources(
        &self,
        _page: Option<mcp_tool_runtime::rmcp::model::PaginatedRequestParams>,
        _cx: mcp_tool_runtime::rmcp::service::RequestContext<mcp_tool_runtime::rmcp::RoleServer>,
    ) -> Result<mcp_tool_runtime::rmcp::model::ListResourcesResult, mcp_tool_runtime::rmcp::ErrorData>
    {
        use mcp_tool_runtime::rmcp::model::{ListResourcesResult, Resource};
        Ok(ListResourcesResult::with_all_items(vec![Resource::new(
            "docs://readme",
            "readme",
        )]))
    }

    async fn read_resource(
        &self,
        request: mcp_tool_runtime::rmcp::model::ReadResourceRequestParams,
        _cx: mcp_tool_runtime::rmcp::service::RequestContext<mcp_tool_runtime::rmcp::RoleServer>,
    ) -> Result<
        mcp_tool_runtime::rmcp::model::ReadResourceResponse,
        mcp_tool_runtime::rmcp::ErrorData,
    > {
        use mcp_tool_runtime::rmcp::model::ReadResourceResult;
        Ok(ReadResourceResult::new(vec![ResourceContents::text("Read me.", request.uri)]).into())
    }
}

#[tokio::test]
async fn the_views_are_served_beside_the_handlers_resources() {
    let inventory = Inventory::open().expect("an in-memory inventory");
    let server = McpServer::builder(inventory)
        .tool_set()
        .tools(Inventory::cart_app())
        .ui_resource(cart_view())
        .with_handler(Docs)
        .build()
        .expect("build");
    let capabilities = serde_json::to_value(server.get_info().capabilities).expect("json");
    assert!(capabilities["extensions"][EXTENSION_ID].is_object());
    let client = host(&server, ProtocolVersion::V_2025_11_25).await;
    let listed = client.list_resources().await.expect("resources/list");
    let uris: Vec<&str> = listed.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(uris, ["docs://readme", CART_VIEW]);
    let readme = client.read_resource("docs://readme").await.expect("read");
    assert!(
        matches!(&readme.contents[0], ResourceContents::TextResourceContents { text, .. } if text == "Read me.")
    );
    let view = client.read_resource(CART_VIEW).await.expect("read");
    let contents = serde_json::to_value(&view.contents).expect("json");
    assert_eq!(contents[0]["mimeType"], MIME_TYPE);
}

#[test]
fn build_refuses_a_view_that_is_not_registered() {
    let inventory = Inventory::open().expect("an in-memory inventory");
    let refused = McpServer::builder(inventory)
        .tool_set()
        .tools(Inventory::cart_app())
        .build()
        .expect_err("no cart view");
    assert_eq!(
        refused,
        RegistryError::ViewNotRegistered {
            tool: "show_cart".into(),
            uri: CART_VIEW.into(),
        }
    );
    assert_eq!(
        refused.to_string(),
        "tool 'show_cart' names the view 'ui://inventory/cart', which the server does not \
         register: add it with .ui_resource(UiResource::html(\"ui://inventory/cart\", ...)) \
         before .build()"
    );
}

fn run_time_tool(uri: &str) -> ToolDef<()> {
    let info = ToolInfo::from_schema("chart", "Draw a chart.", json!({"type": "object"}))
        .expect("a valid schema")
        .ui(uri.to_string())
        .ui_visibility(UiVisibility::Model)
        .build();
    ToolDef::from_info(info, |_arguments, _context| async { String::from("drawn") })
}

#[tokio::test]
async fn run_time_tools_name_views_too() {
    let server = McpServer::builder(())
        .tool(run_time_tool("ui://charts/bar"))
        .ui_resource(UiResource::html(
            "ui://charts/bar",
            "<!DOCTYPE html><p>bar</p>",
        ))
        .build()
        .expect("build");
    let client = TestClient::builder()
        .extension(EXTENSION_ID, json!({"mimeTypes": [MIME_TYPE]}))
        .connect(&server)
        .await
        .expect("connect");
    let tools = client.list_tools().await.expect("tools/list");
    assert_eq!(
        meta_ui(&tools, "chart"),
        Some(&json!({"resourceUri": "ui://charts/bar", "visibility": ["model"]}))
    );
    let refused = McpServer::builder(())
        .tool(run_time_tool("https://charts.example.com/bar"))
        .ui_resource(UiResource::html("ui://charts/bar", "<!DOCTYPE html>"))
        .build()
        .expect_err("not a ui:// view");
    assert!(
        refused.to_string().contains("which is not a ui:// URI"),
        "{refused}"
    );
    let not_ui = McpServer::builder(())
        .tool(run_time_tool("ui://charts/bar"))
        .ui_resource(UiResource::html("https://charts.example.com/bar", "x"))
        .build()
        .expect_err("a view must be ui://");
    assert_eq!(
        not_ui,
        RegistryError::InvalidUiResource {
            uri: "https://charts.example.com/bar".into(),
            duplicate: false
        }
    );
    let twice = McpServer::builder(())
        .tool(run_time_tool("ui://charts/bar"))
        .ui_resource(UiResource::html("ui://charts/bar", "a"))
        .ui_resource(UiResource::html("ui://charts/bar", "b"))
        .build()
        .expect_err("two views with one URI");
    assert_eq!(
        twice.to_string(),
        "two UI resources have the URI 'ui://charts/bar'"
    );
}

/// The shapes a host reads, against the definitions of the ext-apps package's schema.json
/// (Ajv, JSON Schema 2020-12): a value that does not conform fails the test.
#[tokio::test]
async fn the_wire_shapes_conform_to_the_ext_apps_schema() {
    let view = cart_view()
        .connect_domains(["https://api.example.com"])
        .frame_domains(["https://video.example.com"])
        .base_uri_domains(["https://cdn.example.com"])
        .permission(Permission::Camera)
        .permission(Permission::Microphone)
        .permission(Permission::Geolocation)
        .permission(Permission::ClipboardWrite)
        .domain("cart.example.com");
    let server = server_with(view);
    let client = host(&server, ProtocolVersion::V_2025_11_25).await;
    let tools = client.list_tools().await.expect("tools/list");
    let tool_meta: Vec<Value> = ["show_cart", "remove_cart_line"]
        .iter()
        .filter_map(|name| meta_ui(&tools, name).cloned())
        .collect();
    assert_eq!(tool_meta.len(), 2);
    let listed = serde_json::to_value(client.list_resources().await.expect("list")).expect("json");
    let read = client.read_resource(CART_VIEW).await.expect("read");
    let contents = serde_json::to_value(&read.contents).expect("json");
    let capabilities = serde_json::to_value(server.get_info().capabilities).expect("json");
    let values = json!({
        "McpUiToolMeta": tool_meta,
        "McpUiResourceMeta": [listed[0]["_meta"]["ui"], contents[0]["_meta"]["ui"]],
        "McpUiClientCapabilities": [capabilities["extensions"][EXTENSION_ID]],
    });
    let file = std::env::temp_dir().join(format!("mcp-apps-shapes-{}.json", std::process::id()));
    std::fs::write(&file, values.to_string()).expect("write the shapes");
    let report = node_report("clients/apps_schema.mjs", &[file.as_os_str()]);
    let _ = std::fs::remove_file(&file);
    assert_eq!(report, json!({"checked": 5}));
}
