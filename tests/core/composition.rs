//! Composing a server: tools of several state types, and shared (`Arc`) state.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use mcp_tool_runtime::{McpServer, mcp_tool, mcp_tools};
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
