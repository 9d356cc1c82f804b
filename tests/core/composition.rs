//! Composing a server: tools of several state types, shared (`Arc`) state, and several
//! `#[mcp_tools]` blocks on one type.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use mcp_tool_runtime::{McpServer, mcp_tool, mcp_tools, registry::RegistryError};
use mcp_tool_test_support::results::{call, ok_text};
use serde_json::json;

#[derive(Default)]
pub(crate) struct Users {
    count: AtomicU64,
}

#[mcp_tools]
impl Users {
    /// Register a user.
    #[mcp_tool]
    fn register_user(&self) -> String {
        (self.count.fetch_add(1, Ordering::Relaxed) + 1).to_string()
    }
}

#[derive(Default)]
pub(crate) struct Orders {
    open: AtomicU64,
}

#[mcp_tools]
impl Orders {
    /// Open an order.
    #[mcp_tool]
    fn open_order(&self) -> String {
        (self.open.fetch_add(10, Ordering::Relaxed) + 10).to_string()
    }
}

#[derive(Default)]
pub(crate) struct App {
    users: Users,
    orders: Orders,
}

#[tokio::test]
async fn tools_of_two_state_types_share_one_server() {
    let server = McpServer::builder(App::default())
        .tool_set_of(|app: &App| &app.users)
        .tool_set_of(|app: &App| &app.orders)
        .build()
        .expect("server");
    assert_eq!(
        ok_text(&call(&server, "register_user", json!({})).await),
        "1"
    );
    assert_eq!(
        ok_text(&call(&server, "register_user", json!({})).await),
        "2"
    );
    assert_eq!(ok_text(&call(&server, "open_order", json!({})).await), "10");
    assert_eq!(server.state().users.count.load(Ordering::Relaxed), 2);
}

#[tokio::test]
async fn arc_state_just_works() {
    let users = Arc::new(Users::default());
    let server = McpServer::builder(Arc::clone(&users))
        .tool_set()
        .build()
        .expect("server");
    assert_eq!(
        ok_text(&call(&server, "register_user", json!({})).await),
        "1"
    );
    assert_eq!(
        users.count.load(Ordering::Relaxed),
        1,
        "the state is shared"
    );
}

#[derive(Default)]
pub(crate) struct Shop {
    stock: AtomicU64,
}

#[mcp_tools]
impl Shop {
    /// How many items are in stock.
    #[mcp_tool(read_only)]
    fn stock(&self) -> String {
        self.stock.load(Ordering::Relaxed).to_string()
    }
}

#[mcp_tools(name = admin_tools)]
impl Shop {
    /// Add items to the stock.
    #[mcp_tool]
    fn restock(&self, quantity: u64) -> String {
        (self.stock.fetch_add(quantity, Ordering::Relaxed) + quantity).to_string()
    }
}

#[mcp_tools(name = report_tools)]
impl Shop {
    /// Report the stock.
    #[mcp_tool(read_only)]
    async fn report(&self) -> String {
        format!("{} in stock", self.stock.load(Ordering::Relaxed))
    }

    /// The currency of every price.
    #[mcp_tool(read_only)]
    fn currency() -> &'static str {
        "EUR"
    }
}

#[tokio::test]
async fn every_block_of_one_type_is_served() {
    let server = McpServer::builder(Shop::default())
        .tool_set()
        .tools(Shop::admin_tools())
        .tools(Shop::report_tools())
        .build()
        .expect("server");
    let names: Vec<_> = server
        .registry()
        .list()
        .iter()
        .map(|tool| tool.name.to_string())
        .collect();
    assert_eq!(names, ["stock", "restock", "report", "currency"]);
    assert_eq!(
        ok_text(&call(&server, "restock", json!({"quantity": 5})).await),
        "5"
    );
    assert_eq!(ok_text(&call(&server, "stock", json!({})).await), "5");
    assert_eq!(
        ok_text(&call(&server, "report", json!({})).await),
        "5 in stock"
    );
    assert_eq!(ok_text(&call(&server, "currency", json!({})).await), "EUR");
}

#[tokio::test]
async fn named_blocks_register_on_arc_state() {
    let shop = Arc::new(Shop::default());
    let server = McpServer::builder(Arc::clone(&shop))
        .tool_set()
        .tools(Shop::admin_tools())
        .build()
        .expect("server");
    assert_eq!(
        ok_text(&call(&server, "restock", json!({"quantity": 2})).await),
        "2"
    );
    assert_eq!(ok_text(&call(&server, "stock", json!({})).await), "2");
    assert_eq!(shop.stock.load(Ordering::Relaxed), 2, "the state is shared");
}

#[derive(Default)]
pub(crate) struct Clash;

#[mcp_tools]
impl Clash {
    /// Answer pong.
    #[mcp_tool]
    fn ping(&self) -> &'static str {
        "pong"
    }
}

#[mcp_tools(name = more_tools)]
impl Clash {
    /// Answer pong, again.
    #[mcp_tool(name = "ping")]
    fn ping_again(&self) -> &'static str {
        "pong"
    }
}

#[test]
fn a_name_used_in_two_blocks_fails_build() {
    let error = McpServer::builder(Clash)
        .tool_set()
        .tools(Clash::more_tools())
        .build()
        .unwrap_err();
    assert_eq!(
        error,
        RegistryError::DuplicateTool {
            name: "ping".to_string(),
            defined_at: [
                Some("core::composition::ping"),
                Some("core::composition::ping_again")
            ],
        }
    );
    assert_eq!(
        error.to_string(),
        "two tools are named 'ping' (`core::composition::ping` and `core::composition::ping_again`): tool names must be unique within a server (rename one with #[mcp_tool(name = \"...\")])"
    );
}
